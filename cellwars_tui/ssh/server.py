"""``cellwars serve``: an SSH server that gives every connection the whole app.

Who gets in:

* any public key (its SHA256 fingerprint is the player's identity), or only the keys listed in
  ``--allow FILE`` (authorized_keys format);
* without ``--allow``, a client with no key gets in as a guest by keyboard-interactive
  authentication with no prompt, and picks a nickname in the app.

What a session gets: a child process on its own PTY running the app (see :mod:`.child`), at the
client's terminal size, following resizes, with the client's TERM. A session without a terminal
(``ssh -T``, an exec or a subsystem request) gets a one-line explanation and ends. Nothing else is
served: port, agent and X11 forwarding, SFTP and scp are refused.

A client that is turned away (server full, too many connections from its address) is told why
inside its session: closing a connection before the session starts makes OpenSSH print a cryptic
banner error instead.

Limits (:class:`.limits.Limits`): connections at once (below the process's file limit; counted
with the browser tabs under ``--web``), sessions at once (``--max-sessions``, likewise),
sessions per connection (one), connections per address (counted from the moment a connection is
accepted; an IPv6 client's /64 counts as one address), connections still logging in (a fair
queue, see :mod:`.logins`: a crowd from a few networks cannot push honest handshakes out), a
login timeout (the handshake and authentication; garbage before the version line is turned away
at once; then as long again to open a session, or the connection is closed), an idle timeout (``--idle-timeout``), a keepalive
(``--keepalive``: a client silent that long is probed, and dropped after ``keepalive_count_max``
unanswered probes) and input bytes per second (see :mod:`.child`; bytes that are not UTF-8 are
replaced there, so no input can break a session's app).

What a session may touch (:mod:`.homes`): its own folder under the server's data dir (its HOME
and, for a guest, its data; a keyed player's data is kept in that key's folder), removed when
the session ends and swept at the next start after a crash. The session's app is confined
(``locations.confined``): its file dialogs name files inside its data dir only.

With ``--allow``, a key whose allow-list line restricts it to a command (``command=``) or
denies it a terminal (``no-pty``, ``restrict`` without ``pty``) is refused, and the server's log
says why: this server only plays the game on a terminal.

Only a few sessions start at once (``Limits.max_starting``, by default two per core; see
:mod:`.limits`): a start is CPU-bound, and a crowd arriving together all sharing the cores would
all see their first frames late together. The others wait in line (their channels open, nothing
written to them, their idle timeout not yet running) and start one after another as earlier
ones report their first frame (:mod:`.child`).

The host key is made on first start in the user's data dir and never regenerated.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import re
import secrets
import sys
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import asyncssh

from ..core.errors import CellwarsError, RecordError
from ..locations import data_dir
from ..record.files import read_user_file
from .child import TERMINAL_RESET, ChildSession, ExecSpawner
from .cli import add_serve_arguments, archive_seconds, limits_from_args, players_dir, store_url
from ..online.client import ENV_RECORDS, ENV_SESSION_LOG
from .fronts import run_until_stopped
from .homes import (
    RunLock, SessionFolder, analysis_env, keyed_home, make_private, new_session_folder)
from ..online.hub import Hub
from .limits import (
    SESSION_FAILED, Limits, StartGate, full_message, one_session_message, too_many_message,
)
from .logins import LoginQueue, client_of
from ..online.store import STORE_NAME, SqliteTableStore, TableStore
from .zygote import ZygoteSpawner

if TYPE_CHECKING:
    from ..online.pg.shared import SharedStore
    from .web import WebServer

log = logging.getLogger(__name__)

HOST_KEY_NAME = "ssh_host_ed25519_key"
GUEST_SECRET_NAME = "ssh_guest_secret"  # beside the host key: the hub's key for guests' codes
NO_WEB_WITH_ALLOW = ("--web lets browser players in as guests, without a key: it cannot be "
                     "combined with --allow")

# Environment variables a session's app reads (set by the server, never by the client).
ENV_IDENTITY = "CELLWARS_SSH_IDENTITY"  # "key:SHA256:..." or "guest"
ENV_NAME = "CELLWARS_SSH_NAME"  # the SSH user name: a suggested display name
ENV_HUB = "CELLWARS_SSH_HUB"  # the hub's Unix socket
ENV_TOKEN = "CELLWARS_SSH_TOKEN"  # this session's secret for the hub

# Terminal types that are known to take 24-bit colour even though OpenSSH sends no COLORTERM.
_TRUECOLOR_TERMS = ("kitty", "alacritty", "wezterm", "foot", "ghostty", "contour", "iterm", "direct")
_SAFE_TERM = re.compile(r"^[A-Za-z0-9._+-]{1,64}$")


def colour_env(term: str, sent: Mapping[str, str]) -> dict[str, str]:
    """COLORTERM / NO_COLOR for a session's app, from the client's TERM and what it sent.

    OpenSSH forwards TERM but not COLORTERM (unless the user adds ``SetEnv``/``SendEnv``), so
    without a choice here every SSH player would get 256 colours at best. The choice:

    * a COLORTERM the client did send wins (``ssh -o SetEnv=COLORTERM=256color`` opts out of
      24-bit colour; Rich then goes by TERM);
    * a ``*-256color`` TERM gets ``truecolor``: the terminals that send it today (VTE/GNOME,
      Konsole, iTerm2, Windows Terminal, VS Code, kitty, Alacritty, WezTerm, tmux with Tc) all
      take 24-bit colour. The exceptions are macOS Terminal.app before macOS 26 and GNU screen
      (``screen-256color`` is left at 256 colours); Terminal.app users opt out as above;
    * terminals known for 24-bit colour by name (kitty, alacritty, ...) get ``truecolor``;
    * anything else (``xterm``, ``linux``, ``vt100``...) is left to Rich's TERM-based guess;
    * NO_COLOR sent by the client is passed on.
    """
    env: dict[str, str] = {}
    colorterm = sent.get("COLORTERM", "")
    lowered = term.lower()
    if colorterm and re.fullmatch(r"[A-Za-z0-9]{1,16}", colorterm):
        env["COLORTERM"] = colorterm
    elif (lowered.endswith("256color") and not lowered.startswith("screen")) or any(
            t in lowered for t in _TRUECOLOR_TERMS):
        env["COLORTERM"] = "truecolor"
    if "NO_COLOR" in sent:
        env["NO_COLOR"] = "1"
    return env


def default_child_command() -> list[str]:
    return [sys.executable, "-m", "cellwars_tui.ssh.session_app"]


# -- host key and allow list ----------------------------------------------------------------------
def host_key_path(directory: Path | None = None) -> Path:
    return (directory or data_dir()) / HOST_KEY_NAME


def load_or_create_host_key(path: Path | None = None) -> asyncssh.SSHKey:
    """The server's host key, made on first start and never regenerated afterwards."""
    path = path or host_key_path()
    if not path.exists():
        key = asyncssh.generate_private_key("ssh-ed25519", comment="cellwars host key")
        data = key.export_private_key()
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass  # another server made it a moment ago: use theirs
        else:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            pub = os.open(path.parent / (path.name + ".pub"),
                          os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # the data dir's rule
            with os.fdopen(pub, "wb") as fh:
                fh.write(key.export_public_key())
    try:
        return asyncssh.read_private_key(path)
    except (OSError, asyncssh.KeyImportError) as exc:
        raise CellwarsError(
            f"cannot read the host key {path}: {exc}; fix or move it away (it is never overwritten)"
        ) from None


def load_or_create_guest_secret(path: Path) -> bytes:
    """The server's secret for guests' identities (:func:`.tables.guest_identity`, a keyed
    hash of a reconnect code): 32 random bytes in an owner-only file beside the host key, made
    on first start and never regenerated (a new one would lose every away guest's seat)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass  # made before (or by another server a moment ago): use it
    else:
        with os.fdopen(fd, "wb") as fh:
            fh.write(secrets.token_bytes(32))
            fh.flush()
            os.fsync(fh.fileno())
    try:
        secret = read_user_file(path, limit=1024)
    except RecordError as exc:
        raise CellwarsError(f"cannot read the guest secret {path}: {exc.problem}") from None
    if len(secret) < 32:
        raise CellwarsError(f"the guest secret {path} is damaged (under 32 bytes); restore it "
                            "from a backup (a new one would lose every away guest's seat)")
    return secret


MAX_ALLOW_LIST_BYTES = 4 * 1024 * 1024


def load_allow_list(path: Path) -> asyncssh.SSHAuthorizedKeys:
    """The ``--allow`` file, read through the bounded reader (a regular file of at most 4 MB:
    a FIFO or a device given by mistake is refused, not waited on)."""
    try:
        text = read_user_file(Path(path), limit=MAX_ALLOW_LIST_BYTES).decode("utf-8")
    except RecordError as exc:
        raise CellwarsError(f"cannot read the allow list {path}: {exc.problem}") from None
    except UnicodeDecodeError:
        raise CellwarsError(f"the allow list {path} is not text") from None
    if not any(line.strip() and not line.lstrip().startswith("#") for line in text.splitlines()):
        raise CellwarsError(f"the allow list {path} lists no key")
    try:
        return asyncssh.import_authorized_keys(text)
    except (asyncssh.KeyImportError, ValueError) as exc:
        raise CellwarsError(f"the allow list {path} is not in authorized_keys format: {exc}") from None


def fingerprint(key: asyncssh.SSHKey) -> str:
    return key.get_fingerprint("sha256")


# -- per-connection authentication -------------------------------------------------------------
class _Connection(asyncssh.SSHServer):
    """asyncssh's per-connection callbacks: who the client is and whether it may stay."""

    def __init__(self, server: CellwarsServer) -> None:
        self.server = server
        self.conn: asyncssh.SSHServerConnection | None = None
        self.address = "?"
        self.client = "?"  # what the per-address cap counts by (logins.client_of)
        self.open_sessions = 0  # sessions running now
        self.idle_timer: asyncio.TimerHandle | None = None  # closes it if no session opens
        self.identity = ""  # set when authentication succeeds
        self.turned_away = ""  # a message for the client, shown inside its first session
        self.sessions = 0  # sessions this connection has opened

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"
        self.server.connection_opened(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self.server.connection_closed(self)

    def auth_completed(self) -> None:
        self.server.logged_in(self)

    def begin_auth(self, username: str) -> bool:
        return True

    def password_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        allow = self.server.allow
        if allow is not None:
            options = allow.validate(key, self.address, self.address)
            if options is None:
                return False
            why = unplayable_key_options(options)
            if why:
                log.warning("key %s refused: its allow-list line %s, and this server only "
                            "plays the game on a terminal", fingerprint(key), why)
                return False
        # Called for every key the client offers and again with the signature for the key that
        # signs; the last call before success is the key the client proved it holds.
        self.identity = "key:" + fingerprint(key)
        return True

    def kbdint_auth_supported(self) -> bool:
        return self.server.allow is None

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        if self.server.allow is not None:
            return False
        self.identity = "guest"
        return True  # no prompt: a guest picks a nickname in the app


def unplayable_key_options(options) -> str:
    """Why an allow-list entry's options keep its key from playing ("" if they do not): OpenSSH
    would run only the given command, or give no terminal; this server does neither."""
    if "command" in options:
        return "has command=, which would run only that command"
    if "no-pty" in options or ("restrict" in options and "pty" not in options):
        return "denies the key a terminal (no-pty, or restrict without pty)"
    return ""


# -- the server ----------------------------------------------------------------------------------
class CellwarsServer:
    """The listening server, its sessions and their children."""

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 2222,
        *,
        allow_file: Path | None = None,
        limits: Limits | None = None,
        child_command: Sequence[str] | None = None,
        home: Path | None = None,
        hub: bool = True,
        archive_after: float = 0.0,
        shared: SharedStore | None = None,
        players: Path | None = None,
    ) -> None:
        self.host = host
        self.port = port
        self.limits = limits or Limits()
        self.limits.check()
        self.allow = load_allow_list(allow_file) if allow_file is not None else None
        # The app's own sessions are forked from a warm zygote; any other command is exec'd.
        self.spawner: ExecSpawner | ZygoteSpawner = (
            ZygoteSpawner() if child_command is None else ExecSpawner(child_command))
        self.home = home or data_dir()
        self.root = self.home / "ssh"  # everything the sessions and the hub keep (see .homes)
        self.players = players or self.root / "players"  # keyed players' own folders
        self.host_key = load_or_create_host_key(host_key_path(self.home))
        self.guest_secret = load_or_create_guest_secret(self.home / GUEST_SECRET_NAME)
        self.run_lock = RunLock(self.root)
        self.with_hub = hub
        self.archive_after = archive_after  # seconds (0: never): see ..online.hub_sweep
        self.shared = shared  # the PostgreSQL store and this server's place among the others
        self.hub: Hub | None = None
        self.connections: set[_Connection] = set()
        self.per_address: Counter[str] = Counter()
        self.turned_away_from: Counter[str] = Counter()  # connections told "too many" now
        self.logging_in: LoginQueue[_Connection] = LoginQueue(
            self.limits.max_unauthenticated, self.limits.logins_per_network)
        self._session_tasks: set[asyncio.Task] = set()
        self.sessions: dict[int, ChildSession] = {}  # by id()
        self.children: set[int] = set()  # pids of running children
        self._acceptor: asyncssh.SSHAcceptor | None = None
        self.on_child_start: Callable[[int], None] | None = None
        self.on_child_ready: Callable[[int], None] | None = None  # a child's first frame is out
        self.start_gate = StartGate(self.limits.starting_limit)  # sessions starting at once
        self.clock: Callable[[], float] = time.monotonic  # sessions' idle time (tests fake it)
        self.web: WebServer | None = None  # the browser front end (``start_web``)

    # connections ---------------------------------------------------------------------------
    def connection_opened(self, c: _Connection) -> None:
        """A connection is accepted (nothing read from it yet): it counts toward the cap on
        connections, its address's cap and the login queue from now on."""
        others = self.web.connections_open() if self.web is not None else 0
        if len(self.connections) + others >= self.limits.connection_limit:
            self._warn_full()
            self._drop(c, counted=False)
            return
        self.connections.add(c)
        c.client = client_of(c.address)
        self.per_address[c.client] += 1
        browser_tabs = self.web.connections_from(c.address) if self.web is not None else 0
        if self.per_address[c.client] + browser_tabs > self.limits.per_address:
            if self.turned_away_from[c.client]:  # one is being told why already: a flood
                self._drop(c)
                return
            c.turned_away = too_many_message(self.limits.per_address)
            self.turned_away_from[c.client] += 1
        admitted, evicted = self.logging_in.admit(c, c.address)
        if evicted is not None:
            self._drop(evicted)
        if not admitted:
            self._drop(c)

    def _warn_full(self) -> None:
        log.warning("%d connections open (the cap, below the file limit): a new one is closed "
                    "at once", self.limits.connection_limit)

    def _drop(self, c: _Connection, *, counted: bool = True) -> None:
        """Close ``c`` at once, without a word (it has not logged in: there is no session to
        say anything in), and forget it now: a flood never holds the server's descriptors."""
        if counted:
            self.connection_closed(c)
        if c.conn is not None:
            asyncio.get_running_loop().call_soon(c.conn.abort)  # after asyncssh's own setup

    def logged_in(self, c: _Connection) -> None:
        self.logging_in.remove(c)
        self._watch_for_no_session(c)

    def _watch_for_no_session(self, c: _Connection) -> None:
        """A logged-in connection with no session open gets the login timeout to open one;
        then it is closed (a connection that only holds a socket holds a file descriptor)."""
        if c.conn is None or c.idle_timer is not None:
            return
        c.idle_timer = asyncio.get_running_loop().call_later(
            self.limits.login_timeout, self._close_if_no_session, c)

    def _close_if_no_session(self, c: _Connection) -> None:
        c.idle_timer = None
        if c.open_sessions == 0 and c in self.connections and c.conn is not None:
            log.warning("closed a connection from %s: logged in, but no session open for %g s",
                        c.address, self.limits.login_timeout)
            c.conn.close()

    def _session_opened(self, c: _Connection) -> None:
        c.open_sessions += 1
        if c.idle_timer is not None:
            c.idle_timer.cancel()
            c.idle_timer = None

    def _session_closed(self, c: _Connection) -> None:
        c.open_sessions -= 1
        if c.open_sessions == 0 and c in self.connections:
            self._watch_for_no_session(c)

    # The server's Admission (see .fronts), what the browser front end (``--web``) counts with
    # its own tabs: one session cap and one per-address cap for SSH and browser players together.
    def sessions_in_use(self) -> int:
        return len(self.sessions)

    def connections_from(self, address: str) -> int:
        return self.per_address.get(client_of(address), 0)

    def connections_open(self) -> int:
        return len(self.connections)

    def connection_closed(self, c: _Connection) -> None:
        self.logging_in.remove(c)
        if c.idle_timer is not None:
            c.idle_timer.cancel()
            c.idle_timer = None
        if c in self.connections:
            self.connections.discard(c)
            self.per_address[c.client] -= 1
            if self.per_address[c.client] <= 0:
                del self.per_address[c.client]
            if c.turned_away:
                self.turned_away_from[c.client] -= 1
                if self.turned_away_from[c.client] <= 0:
                    del self.turned_away_from[c.client]

    # lifecycle -------------------------------------------------------------------------------
    async def start(self) -> None:
        self.run_lock.acquire()  # and sweeps what a crashed server left
        make_private(self.home)  # the store holds secret moves: the user's only
        if not self.players.is_relative_to(self.home):  # (a --players-dir elsewhere, shared)
            make_private(self.players)
        if self.with_hub:
            if self.shared is not None:  # one lobby with the servers sharing the store
                from ..online.hub_cluster import ClusterHub

                self.hub = ClusterHub(self.root / "tables", home_for=self.keyed_home,
                                      shared=self.shared, archive_after=self.archive_after,
                                      guest_secret=self.guest_secret)
            else:
                store: TableStore = SqliteTableStore(self.root / STORE_NAME)
                self.hub = Hub(self.root / "tables", home_for=self.keyed_home, store=store,
                               archive_after=self.archive_after, guest_secret=self.guest_secret)
            self.run_lock.record_hub_dir(self.hub.socket_dir)
            await self.hub.start()
        if isinstance(self.spawner, ZygoteSpawner):
            try:
                await self.spawner.start()
            except (OSError, asyncio.TimeoutError) as exc:  # start each session from scratch then
                print(f"cellwars: the session zygote did not start ({exc}); sessions will start "
                      "slower", file=sys.stderr)
                await self.spawner.close()
                self.spawner = ExecSpawner(default_child_command())
        lim = self.limits
        self._acceptor = await asyncssh.create_server(
            lambda: _Connection(self), self.host, self.port,
            server_host_keys=[self.host_key],
            process_factory=self._session,
            encoding=None,
            line_editor=False,
            allow_pty=True,
            agent_forwarding=False,
            x11_forwarding=False,
            sftp_factory=None,
            allow_scp=False,
            login_timeout=lim.login_timeout,
            keepalive_interval=lim.keepalive_interval,
            keepalive_count_max=lim.keepalive_count_max,
            server_version="cellwars",
            reuse_address=True,
        )
        sock = self._acceptor.sockets[0]
        self.port = sock.getsockname()[1]

    async def start_web(self, port: int) -> None:
        """Serve the session app to browsers on ``port`` (same address), in the same lobby."""
        from .web import WebServer

        if self.hub is None:
            raise CellwarsError("--web needs the lobby")
        if self.allow is not None:
            raise CellwarsError(NO_WEB_WITH_ALLOW)
        self.web = WebServer(self.host, port, tab_env=self._tab_env, sessions=self.root,
                             limits=self.limits, others=self)
        await self.web.start()

    def _tab_env(self) -> tuple[dict[str, str], Callable[[], None]]:
        """A browser tab's session under ``--web``: a guest of the hub with a token of its own
        (the environment its app gets, and what ends its place in the hub)."""
        from .web import web_env

        assert self.hub is not None
        token = secrets.token_urlsafe(24)
        self.hub.admit(token, "guest", "")
        env = web_env(str(self.hub.socket_path), token)
        env[ENV_RECORDS] = str(self.hub.tables_dir)
        env[ENV_SESSION_LOG] = str(self.session_log)
        return env, lambda: self.hub.dismiss(token) if self.hub is not None else None

    async def close(self) -> None:
        if self.web is not None:
            web, self.web = self.web, None
            await web.close()
        if self._acceptor is not None:
            self._acceptor.close()
            with contextlib.suppress(Exception):
                await self._acceptor.wait_closed()
            self._acceptor = None
        self.start_gate.close()  # sessions in line start no child now
        sessions = list(self.sessions.values())
        for s in sessions:
            s.ended_by_server = s.ended_by_server or "cellwars: the server is shutting down."
        await asyncio.gather(*(s.kill() for s in sessions), return_exceptions=True)
        if self._session_tasks:  # each says its last words (a terminal reset and why)
            await asyncio.wait(list(self._session_tasks), timeout=5)
        for c in list(self.connections):
            if c.conn is not None:
                c.conn.close()
        await self.spawner.close()
        if self.hub is not None:
            await self.hub.close()
        if self.shared is not None:
            await self.shared.close()  # (after the hub: its last saves go first)
        self.run_lock.release()

    # sessions --------------------------------------------------------------------------------
    def _child_env(self, c: _Connection, process: asyncssh.SSHServerProcess,
                   folder: SessionFolder, token: str) -> dict[str, str]:
        term = process.get_terminal_type() or "xterm-256color"
        if not _SAFE_TERM.match(term):
            term = "xterm-256color"
        sent = process.env
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "LANG": "C.UTF-8",
            "TERM": term,
            **folder.env(),  # HOME, CELLWARS_HOME, TMPDIR: the session's own; confined
            ENV_IDENTITY: c.identity,
            ENV_NAME: _safe_name(process.get_extra_info("username") or ""),
            ENV_TOKEN: token,
            ENV_SESSION_LOG: str(self.session_log),
            **analysis_env(self.home, self.limits.analyses_limit),  # slots shared (--analyses)
        }
        env.update(colour_env(term, sent))
        for name in ("PYTHONPATH", "VIRTUAL_ENV"):
            if name in os.environ:
                env[name] = os.environ[name]
        if self.hub is not None:
            env[ENV_HUB] = str(self.hub.socket_path)
            env[ENV_RECORDS] = str(self.hub.tables_dir)
        return env

    @property
    def session_log(self) -> Path:
        """Where a session whose app fails writes why (the player sees one line)."""
        return self.root / "sessions.log"

    def keyed_home(self, identity: str) -> Path | None:
        """A keyed player's own CELLWARS_HOME (settings, saved games); None for a guest."""
        return keyed_home(self.players, identity)

    async def _session(self, process: asyncssh.SSHServerProcess) -> None:
        conn = process.get_extra_info("connection")
        c: _Connection = conn.get_owner()
        task = asyncio.current_task()
        if task is not None:
            self._session_tasks.add(task)
        self._session_opened(c)
        try:
            message = self._refusal(c, process)
            if message:
                _say(process, message)
                process.exit(1)
                if c.turned_away and c.conn is not None:  # told why: it holds no place now
                    with contextlib.suppress(asyncio.TimeoutError):
                        await asyncio.wait_for(process.channel.wait_closed(), 5)
                    c.conn.close()
                return
            await self._run_child(c, process)
        except Exception:  # one session's failure must never reach the others
            log.exception("a session from %s failed", c.address)
            with contextlib.suppress(Exception):
                _say(process, SESSION_FAILED)
                process.exit(1)
        finally:
            self._session_closed(c)
            if task is not None:
                self._session_tasks.discard(task)

    def _refusal(self, c: _Connection, process: asyncssh.SSHServerProcess) -> str:
        port = f"-p {self.port} " if self.port != 22 else ""
        if process.command is not None or process.subsystem is not None:
            return (f"cellwars: this server only plays the game, it runs no commands: "
                    f"connect with `ssh {port}HOST` and nothing after it.")
        if process.get_terminal_type() is None:
            return (f"cellwars: the game needs a terminal: connect with `ssh {port}HOST` "
                    "(without -T, or add -t).")
        if c.turned_away:
            return c.turned_away
        c.sessions += 1
        if c.sessions > self.limits.sessions_per_connection:
            return one_session_message(self.limits.sessions_per_connection)
        browser_tabs = self.web.sessions_in_use() if self.web is not None else 0
        if len(self.sessions) + browser_tabs >= self.limits.max_sessions:
            return full_message(self.limits.max_sessions)
        return ""

    async def _run_child(self, c: _Connection, process: asyncssh.SSHServerProcess) -> None:
        width, height, _, _ = process.get_terminal_size()
        token = secrets.token_urlsafe(24)
        folder = new_session_folder(self.root, c.identity, self.players)
        session = ChildSession(
            process, self.spawner, self._child_env(c, process, folder, token), self.limits,
            size=(height or 24, width or 80), on_start=self._child_started,
            on_ready=self._child_ready, gate=self.start_gate, clock=self.clock,
        )
        key = id(session)
        self.sessions[key] = session
        if self.hub is not None:
            self.hub.admit(token, c.identity, _safe_name(process.get_extra_info("username") or ""),
                           c.address)
        status = 1
        try:
            status = await session.run()
        finally:
            self.sessions.pop(key, None)
            if session.pid is not None:
                self.children.discard(session.pid)
            if self.hub is not None:
                self.hub.dismiss(token)
            folder.remove()
        with contextlib.suppress(Exception):
            if session.ended_by_server:
                process.stdout.write(TERMINAL_RESET + session.ended_by_server.encode() + b"\r\n")
            process.exit(status)

    def _child_started(self, pid: int) -> None:
        self.children.add(pid)
        if self.on_child_start is not None:
            self.on_child_start(pid)

    def _child_ready(self, pid: int) -> None:
        if self.on_child_ready is not None:
            self.on_child_ready(pid)


def _say(process: asyncssh.SSHServerProcess, message: str) -> None:
    process.stdout.write(message.encode() + b"\r\n")


def _safe_name(name: str) -> str:
    cleaned = "".join(ch for ch in name if ch.isalnum() or ch in "-_.")[:20]
    return cleaned


# -- command line --------------------------------------------------------------------------------
async def serve(
    host: str = "127.0.0.1",
    port: int = 2222,
    allow_file: Path | None = None,
    max_sessions: int = 50,
    idle_timeout: float = 3600.0,
    *,
    keepalive: float = 30.0,
    limits: Limits | None = None,
    child_command: Sequence[str] | None = None,
    ready: Callable[[CellwarsServer], None] | None = None,
    stop: asyncio.Event | None = None,
    web_port: int | None = None,
    home: Path | None = None,
    archive_after: float = 0.0,
    store_url: str = "",
    server_name: str = "",
    players: Path | None = None,
) -> None:
    """Run the server until ``stop`` is set (or SIGINT/SIGTERM when ``stop`` is None).

    With ``web_port``, browsers join the same lobby through textual-serve on that port (each
    browser tab a guest who picks a nickname). With ``store_url`` the tables are in that
    PostgreSQL database, shared with every server using it; it is reached (and its schema
    checked) before anything is written: a wrong URL, a refused connection or a newer schema
    is a CellwarsError (one line) with nothing written."""
    if limits is None:
        limits = Limits(max_sessions=max_sessions, idle_timeout=idle_timeout,
                        keepalive_interval=keepalive)
    shared = None
    if store_url:
        from ..online.pg.shared import SharedStore
        from ..online.store import StoreError

        try:
            shared = await SharedStore.open(store_url, server_name or default_name(port))
        except StoreError as exc:
            raise CellwarsError(str(exc)) from None
    try:
        server = CellwarsServer(host, port, allow_file=allow_file, limits=limits,
                                child_command=child_command, home=home,
                                archive_after=archive_after, shared=shared, players=players)
        if shared is not None:  # the same host key and guests' secret as the other servers
            await shared.check_identity(fingerprint(server.host_key), server.guest_secret)
    except BaseException as exc:
        if shared is not None:
            await shared.close()
        from ..online.store import StoreError

        if isinstance(exc, StoreError):
            raise CellwarsError(str(exc)) from None
        raise
    try:
        await server.start()  # CellwarsError if another server runs on this data dir
    except OSError as exc:
        await server.close()
        raise CellwarsError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    except BaseException:
        await server.close()
        raise
    if web_port is not None:
        try:
            await server.start_web(web_port)
        except BaseException:
            await server.close()
            raise
    await run_until_stopped(server, ready=ready, stop=stop)


def default_name(port: int) -> str:
    """A server's name among others sharing its store: HOST:PORT (HOST:pPID for any port)."""
    import socket

    return f"{socket.gethostname()[:48]}:{port if port else f'p{os.getpid()}'}"


def run_serve(args: argparse.Namespace) -> int:
    """``cellwars serve``: run until interrupted. Errors are CellwarsError (one line)."""
    from .homes import private_files
    from .limits import raise_file_limit
    from .logs import set_up_logging

    raise_file_limit()  # before the limits are checked against it
    limits = limits_from_args(args)
    archive_after = archive_seconds(args)
    url = store_url(args)  # checked; nothing reached yet
    if args.status:
        from ..online.pg.status import status_text
        from ..online.store import StoreError

        try:
            print(asyncio.run(status_text(url)))
        except StoreError as exc:
            raise CellwarsError(str(exc)) from None
        return 0
    players = players_dir(args)  # (made if need be; a one-line error before anything starts)
    set_up_logging()

    def ready(server: CellwarsServer) -> None:
        where = server.host if ":" not in server.host else f"[{server.host}]"
        print(f"cellwars: serving on {where} port {server.port}; host key "
              f"{fingerprint(server.host_key)}", flush=True)
        print(f"cellwars: players connect with: ssh -p {server.port} {where}", flush=True)
        if server.web is not None:
            print(f"cellwars: and with a browser at {server.web.url}", flush=True)

    web_port = None
    if getattr(args, "web", False) and args.allow is not None:
        raise CellwarsError(NO_WEB_WITH_ALLOW)
    if getattr(args, "web", False):
        web_port = args.web_port
        from .web import require_textual_serve

        require_textual_serve()  # a one-line error before anything listens
    try:
        with private_files():  # everything the server and its sessions write: the user's only
            asyncio.run(serve(args.host, args.port, args.allow, limits=limits, ready=ready,
                              web_port=web_port, archive_after=archive_after, store_url=url,
                              server_name=args.name, players=players))
    except KeyboardInterrupt:
        return 130
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="cellwars serve", description="Serve the table over SSH.")
    add_serve_arguments(parser)
    args = parser.parse_args(argv)
    try:
        return run_serve(args)
    except CellwarsError as exc:
        print(f"cellwars: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
