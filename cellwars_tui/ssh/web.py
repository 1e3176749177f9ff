"""The app in a browser: ``cellwars web`` and ``cellwars serve --web`` (textual-serve).

textual-serve answers HTTP with a page holding a terminal (xterm.js) and starts one app process
per browser tab over a websocket. ``cellwars web`` serves the app's local games to whoever holds
its token, Jupyter's way: the address it prints carries a random token (or ``--token``'s); the
page and every tab's websocket are refused without it (the page then sets a cookie, so the
tab's websocket and downloads carry it); it listens on loopback unless told otherwise.
``cellwars serve --web`` serves the same session app as the SSH server, joined to the same hub,
so browser players sit at the same tables as SSH players: each browser tab is a guest that picks
a nickname (a browser has no SSH key to prove an identity). A websocket opened by a page of
another site (its Origin is not this server) is refused either way.

Every tab is confined like an SSH session (:mod:`.homes`): its own HOME and data dir under the
server's data dir, removed when the tab closes; its file dialogs name files in that data dir
only; a screenshot goes to the browser, never to a file of the server. The page's font is served
from the page's own static files (our copy of textual-serve's page template loads no web font
from the internet).

textual-serve's ``Server.serve()`` runs its own event loop; here its aiohttp application runs in
the caller's loop next to the SSH server (``WebServer.start``/``close``).

Browser tabs get the SSH server's limits (:class:`.limits.Limits`): a session cap and a
per-address cap (shared with the SSH players under ``serve --web``), a cap on connections at
once, an idle timeout, a cap on
input bytes per second, a websocket heartbeat (the keepalive), and the login timeout as the time a
connection gets to send a whole HTTP request. A browser that is turned away gets an HTTP page
saying why (the page at ``/``), or the same words in its terminal (a tab that opened its websocket
anyway). A tab's keys pass the same filter as an SSH player's (:mod:`.input_filter`), and a tab
whose app failed is told so in one line, as an SSH player is. To do this the websocket handler
is our own (``handle_websocket`` is textual-serve's public
hook; its app processes are driven through its public ``AppService``). The two private names it
needs are each behind one function: :func:`_textual_serve_app` and :func:`_app_process`.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
import os
import re
import secrets
import shlex
import sys
import time
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeGuard
from urllib.parse import urlsplit

from ..core.errors import CellwarsError
from .fronts import Admission, run_until_stopped
from .homes import analysis_env, new_session_folder
from .input_filter import InputFilter
from .limits import (
    SESSION_FAILED, Limits, TokenBucket, busy_message, cancel_and_wait, full_message,
    idle_message, too_many_message,
)
from .logins import client_of

if TYPE_CHECKING:
    from aiohttp.web import AppRunner

DEFAULT_WEB_PORT = 8000
TEMPLATES = Path(__file__).with_name("web_templates")  # the page, with no font from the internet
TOKEN_REFUSAL = ("cellwars: this page needs its token: open the address `cellwars web` printed "
                 "(the one ending in ?token=...).")
ORIGIN_REFUSAL = "cellwars: this game is only played from its own page."
MIN_TOKEN = 8
_TOKEN = re.compile(r"[A-Za-z0-9._~-]+")
MAX_MESSAGE = 256 * 1024  # one websocket message from a browser (a big paste is a few KiB)
QUIT_GRACE = 10.0  # seconds a tab's app gets to quit when told (then it is killed)
REFUSAL_HOLD = 10.0  # seconds a turned-away tab keeps its socket so the words stay on screen
# A Host header the page may name: host name, IPv4 or [IPv6], and a port.
_HOST_HEADER = re.compile(r"(?:[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})*|\[[0-9A-Fa-f:.]{2,45}\])"
                          r"(?::[0-9]{1,5})?")
# Put the browser's terminal back in order before the server's last words (as over SSH).
TERMINAL_RESET = (
    b"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l\x1b[?2004l\x1b[?1004l"
    b"\x1b[?1049l\x1b[?25h\x1b[0m\r\n"
)


def require_textual_serve() -> Any:
    """textual-serve's server module, or a one-line CellwarsError saying how to install it."""
    try:
        import textual_serve.server as ts
    except ImportError:
        raise CellwarsError(
            "serving to a browser needs textual-serve: pip install textual-serve") from None
    return ts


def session_command(env: Mapping[str, str] | None = None) -> str:
    """The shell command textual-serve runs per browser tab: the session app, with ``env`` added
    to the server's environment (``exec`` so the app itself gets the quit message)."""
    assignments = " ".join(f"{k}={shlex.quote(v)}" for k, v in sorted((env or {}).items()))
    python = shlex.quote(sys.executable)
    prefix = f"exec env {assignments} " if assignments else "exec "
    return f"{prefix}{python} -m cellwars_tui.ssh.session_app"


def _textual_serve_app(server) -> Any:
    """textual-serve's aiohttp application (routes: the page, the websocket, downloads, statics)
    for ``server``, without running it.

    PRIVATE NAME: textual-serve (1.1) gives its application only through ``Server.serve()``, which
    runs an event loop of its own; ``_make_app`` is the coroutine ``serve`` runs. This is the one
    place that touches it; ``test_web_limits.py::test_textual_serve_still_has_what_the_web_server_uses``
    fails loudly if textual-serve renames it or its routes."""
    return server._make_app()


def _app_process(service) -> asyncio.subprocess.Process | None:
    """The app process textual-serve started for a tab (to reap it, or kill one that ignores
    the quit message).

    PRIVATE NAME: textual-serve (1.1) keeps it in ``AppService._process`` and never waits for it.
    ``test_web_limits.py::test_textual_serve_still_has_what_the_web_server_uses`` fails loudly
    if that changes."""
    proc = getattr(service, "_process", None)
    return proc if isinstance(proc, asyncio.subprocess.Process) else None


class _Tab:
    """One browser tab with an app running."""

    def __init__(self, address: str, limits: Limits, clock: Callable[[], float]) -> None:
        self.address = address
        self.clock = clock
        self.last_input = clock()
        self.bucket = TokenBucket(limits.input_rate, clock)
        self.keys = InputFilter()  # what the app's terminal parser could not take is dropped
        self.ending = ""  # the server's last words to this tab ("" while it plays)
        self.stop = asyncio.Event()  # set (with ``ending``) to end the tab from the server


def check_token(token: str, source: str = "--token") -> str:
    """A token the operator gave (``source`` names where: ``--token``, the token file, the
    environment): CellwarsError unless it is one URL-safe word of at least MIN_TOKEN characters."""
    if len(token) < MIN_TOKEN or not _TOKEN.fullmatch(token):
        raise CellwarsError(f"{source} must be at least {MIN_TOKEN} letters, digits or - . _ ~")
    return token


ENV_WEB_TOKEN = "CELLWARS_WEB_TOKEN"
MAX_TOKEN_FILE = 4096


def given_token(args, environ: Mapping[str, str] = os.environ) -> tuple[str | None, str]:
    """The token ``cellwars web`` was given: ``--token``, else ``--token-file``'s first line,
    else CELLWARS_WEB_TOKEN (None: make one up), and a warning for the log ("" if none: a
    token file other users may read is said there). --token and --token-file together are
    refused. A token on the command line shows in the process list; the other two do not."""
    from ..core.errors import RecordError
    from ..record.files import read_user_file

    token, token_file = args.token, args.token_file
    if token is not None and token_file is not None:
        raise CellwarsError("give the token with --token or --token-file, not both")
    if token is not None:  # an empty --token is refused, not taken as "make one up"
        return check_token(token), ""
    if token_file is not None:
        try:
            data = read_user_file(Path(token_file), limit=MAX_TOKEN_FILE)
            mode = os.stat(token_file).st_mode
        except (RecordError, OSError) as exc:
            why = exc.problem if isinstance(exc, RecordError) else (exc.strerror or str(exc))
            raise CellwarsError(f"cannot read the token file {token_file}: {why}") \
                from None
        lines = data.decode("utf-8", "replace").splitlines()
        source = f"the token in {token_file}"
        warning = (f"the token file {token_file} may be read by other users of this machine "
                   "(chmod 600 it)") if mode & 0o044 else ""
        return check_token(lines[0].strip() if lines else "", source), warning
    if environ.get(ENV_WEB_TOKEN):
        return check_token(environ[ENV_WEB_TOKEN], ENV_WEB_TOKEN), ""
    return None, ""


# A tab's session: the environment its app gets and what to do when the tab closes.
TabEnv = Callable[[], tuple[dict[str, str], Callable[[], None] | None]]


class WebServer:
    """textual-serve's web app, run inside the current asyncio loop, with the server's limits.

    ``token``: the secret every page and tab must show (None: anyone may come, as guests of
    ``serve --web``). ``sessions``: the folder under which each tab gets its own folder (HOME
    and data dir, removed when the tab closes). ``env``: added to every tab's environment;
    ``tab_env``: called for each tab, for more (a hub token of its own) and what ends it."""

    def __init__(self, host: str = "127.0.0.1", port: int = DEFAULT_WEB_PORT,
                 env: Mapping[str, str] | None = None, title: str = "Cellwars", *,
                 limits: Limits | None = None, others: Admission | None = None,
                 command: str | None = None, clock: Callable[[], float] = time.monotonic,
                 token: str | None = None, sessions: Path | None = None,
                 tab_env: TabEnv | None = None) -> None:
        require_textual_serve()  # a one-line error when it is missing
        from textual_serve.server import Server

        outer = self

        class _Limited(Server):
            async def on_startup(self, app) -> None:  # no logo on our stdout
                return None

            async def handle_download(self, request):
                from aiohttp import web

                if not outer.authorized(request):
                    return web.Response(status=403, text=TOKEN_REFUSAL + "\n")
                return await super().handle_download(request)

            async def handle_index(self, request):
                """The page, or a page saying why this browser is turned away."""
                from aiohttp import web

                if not outer.authorized(request):
                    return web.Response(status=403, text=_refusal_page(TOKEN_REFUSAL),
                                        content_type="text/html")
                refusal = outer.refusal(request.remote or "?")
                if refusal:
                    return web.Response(status=503, text=_refusal_page(refusal),
                                        content_type="text/html")
                # The page's script, styles and websocket are found at the address the browser
                # used (listening on 0.0.0.0 must not send browsers to "0.0.0.0"). No await
                # between this and the page's rendering: concurrent requests cannot mix it up.
                self.public_url = outer.page_url(request.host)
                page = await super().handle_index(request)
                outer.remember_token(page)
                return page

            async def handle_websocket(self, request):
                return await outer.handle_tab(request, self.download_manager)

        self.host = host
        self.port = port
        self.limits = limits or Limits()
        self.limits.check()
        self.others = others
        self.env = dict(env or {})
        self.fixed_command = command  # tests' stand-in app: run as given
        self.command = command or session_command(self.env)
        self.token = token
        self.sessions = sessions
        self.tab_env = tab_env
        self.clock = clock
        self.throttle = asyncio.sleep  # how a tab over its input rate waits (tests replace it)
        self.tabs = 0  # browser tabs with an app running now
        self.per_address: Counter[str] = Counter()
        self.live: set[_Tab] = set()
        self._closing = False
        self.server = _Limited(self.command, host=host, port=port, title=title,
                               templates_path=TEMPLATES)
        self._runner: AppRunner | None = None

    @property
    def url(self) -> str:
        host = self.host if ":" not in self.host else f"[{self.host}]"
        return f"http://{host}:{self.port}/"

    @property
    def token_url(self) -> str:
        """The address to open: with the token, when there is one."""
        return self.url + (f"?token={self.token}" if self.token else "")

    @property
    def cookie(self) -> str:
        return f"cellwars-token-{self.port}"

    def authorized(self, request) -> bool:
        """Whether ``request`` shows the token (in its address or the page's cookie)."""
        if self.token is None:
            return True
        given = request.query.get("token") or request.cookies.get(self.cookie) or ""
        return secrets.compare_digest(given.encode(), self.token.encode())

    def remember_token(self, page) -> None:
        """The page's cookie: its tab's websocket and downloads then show the token."""
        if self.token is not None:
            page.set_cookie(self.cookie, self.token, httponly=True, samesite="Strict", path="/")

    @staticmethod
    def same_origin(request) -> bool:
        """Whether a websocket comes from this server's own page (a browser names the page that
        opened it in Origin; a page of another site may not open a tab here)."""
        origin = request.headers.get("Origin")
        if origin is None:
            return True  # not a browser page (a script or a test): the token still applies
        return urlsplit(origin).netloc.lower() == (request.host or "").lower()

    # The browser front's Admission (see .fronts): what the SSH server counts with its sessions.
    def sessions_in_use(self) -> int:
        return self.tabs

    def connections_from(self, address: str) -> int:
        return self.per_address.get(client_of(address), 0)

    def connections_open(self) -> int:
        return self.tabs

    def page_url(self, host_header: str) -> str:
        """Where the page's browser finds the server: the host it asked for (if it is a plain
        host[:port]), else the address this server listens on."""
        if _HOST_HEADER.fullmatch(host_header or ""):
            return f"http://{host_header}"
        return self.url.rstrip("/")

    def refusal(self, address: str) -> str:
        """Why a new tab from ``address`` is turned away ("" if it is welcome)."""
        others = self.others
        if self.tabs + (others.connections_open() if others else 0) \
                >= self.limits.connection_limit:
            return busy_message()
        if self.per_address[client_of(address)] + (
                others.connections_from(address) if others else 0) >= self.limits.per_address:
            return too_many_message(self.limits.per_address)
        if self.tabs + (others.sessions_in_use() if others else 0) >= self.limits.max_sessions:
            return full_message(self.limits.max_sessions)
        return ""

    async def start(self) -> None:
        from aiohttp import web

        app = await _textual_serve_app(self.server)
        # keepalive_timeout: a connection that sends no whole request in the login timeout (or
        # sits idle that long between requests) is closed.
        runner = web.AppRunner(app, handle_signals=False,
                               keepalive_timeout=self.limits.login_timeout)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port, reuse_address=True)
        try:
            await site.start()
        except OSError as exc:
            await runner.cleanup()
            raise CellwarsError(
                f"cannot listen on {self.host}:{self.port} for the web: {exc.strerror or exc}"
            ) from None
        self._runner = runner
        if self.port == 0 and runner.addresses:  # the port the system picked
            self.port = runner.addresses[0][1]
        self.server.port = self.port
        self.server.public_url = self.url.rstrip("/")

    async def close(self) -> None:
        """Stop listening; every tab's app is told to quit and waited for, and the tab told why."""
        self._closing = True
        for tab in list(self.live):
            tab.ending = tab.ending or "cellwars: the server is shutting down."
            tab.stop.set()
        runner, self._runner = self._runner, None
        if runner is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(runner.cleanup(), 15)

    # one browser tab ------------------------------------------------------------------------
    async def handle_tab(self, request, download_manager):
        """The websocket of one tab: an app process, fed the tab's keys within the limits."""
        from aiohttp import web

        address = request.remote or "?"
        heartbeat = self.limits.keepalive_interval or None
        ws = web.WebSocketResponse(heartbeat=heartbeat, max_msg_size=MAX_MESSAGE)
        if not self.authorized(request):
            refusal = TOKEN_REFUSAL
        elif not self.same_origin(request):
            refusal = ORIGIN_REFUSAL
        else:
            refusal = self.refusal(address)
        if refusal:
            if not ws.can_prepare(request).ok:  # not a websocket: a plain answer
                return web.Response(status=503, text=refusal + "\n")
            await ws.prepare(request)
            await self._last_words(ws, refusal)
            return ws
        tab = _Tab(address, self.limits, self.clock)
        client = client_of(address)
        self.tabs += 1
        self.per_address[client] += 1
        self.live.add(tab)
        try:
            await ws.prepare(request)
            await self._run_tab(ws, tab, request, download_manager)
        finally:
            self.live.discard(tab)
            self.tabs -= 1
            self.per_address[client] -= 1
            if self.per_address[client] <= 0:
                del self.per_address[client]
        return ws

    async def _run_tab(self, ws, tab: _Tab, request, download_manager) -> None:
        from textual_serve.app_service import AppService
        from textual_serve.server import to_int

        said_goodbye = asyncio.Event()

        async def app_exited() -> None:  # the app said goodbye (its last frame is out)
            said_goodbye.set()

        folder = new_session_folder(self.sessions) if self.sessions is not None else None
        extra, end_tab = self.tab_env() if self.tab_env is not None else ({}, None)
        slots = (analysis_env(self.sessions.parent, self.limits.analyses_limit)  # (the data dir's)
                 if self.sessions is not None else {})
        command = self.fixed_command or session_command(
            {**self.env, **(folder.env() if folder else {}), **slots, **extra})
        service = AppService(command, write_bytes=ws.send_bytes, write_str=ws.send_str,
                             close=app_exited, download_manager=download_manager)
        width = _clamp(to_int(request.query.get("width", "80"), 80))
        height = _clamp(to_int(request.query.get("height", "24"), 24))
        tasks: set[asyncio.Task] = set()
        try:
            await service.start(width, height)
            feed = asyncio.create_task(self._feed(ws, tab, service))
            ended = asyncio.create_task(_app_ended(said_goodbye, _app_process(service)))
            tasks = {feed, ended, asyncio.create_task(tab.stop.wait())}
            if self.limits.idle_timeout > 0:
                tasks.add(asyncio.create_task(self._watch_idle(tab)))
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            if ended in done:
                if not tab.ending and await _failed(_app_process(service)):
                    tab.ending = SESSION_FAILED  # as an SSH player is told
            elif feed not in done and not tab.ending:
                tab.ending = idle_message(self.limits.idle_timeout)
        finally:
            await cancel_and_wait(tasks)
            await self._end_app(service)
            if end_tab is not None:
                end_tab()
            if folder is not None:
                folder.remove()
        if tab.ending and not ws.closed:
            await self._last_words(ws, tab.ending)
        elif not ws.closed:
            await ws.close()  # the app ended by itself: the page says "Session ended."

    async def _end_app(self, service) -> None:
        """Tell the tab's app to quit, wait for it (``QUIT_GRACE``), kill it if it will not go,
        and reap it: no app outlives its tab."""
        with contextlib.suppress(Exception, asyncio.TimeoutError):
            await asyncio.wait_for(service.stop(), QUIT_GRACE)
        with contextlib.suppress(Exception):
            service.stdin.close()  # textual-serve leaves it open
        proc = _app_process(service)
        if proc is None:
            return
        try:
            await asyncio.wait_for(proc.wait(), self.limits.kill_grace)
        except asyncio.TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()

    async def _feed(self, ws, tab: _Tab, service) -> None:
        """Browser -> app: textual-serve's envelopes, checked, within the input rate. A message
        that is not a well-formed envelope is dropped (it ends nobody's game, not even its own)."""
        from aiohttp import WSMsgType

        async for message in ws:
            if message.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                continue
            # every message counts (pings and resizes too); a text message by its characters
            delay = tab.bucket.delay_for(len(message.data))
            if delay > 0:
                await self.throttle(delay)
            if message.type != WSMsgType.TEXT:
                continue
            try:
                envelope = json.loads(message.data)
            except ValueError:
                continue
            if not (isinstance(envelope, list) and envelope and isinstance(envelope[0], str)):
                continue
            kind, arg = envelope[0], (envelope[1] if len(envelope) > 1 else None)
            if kind == "stdin" and isinstance(arg, str):
                tab.last_input = self.clock()
                text = tab.keys.feed(arg)
                if text:
                    await service.send_bytes(text.encode("utf-8", "replace"))
            elif kind == "resize" and isinstance(arg, dict):
                width, height = arg.get("width"), arg.get("height")
                if _whole(width) and _whole(height):
                    await service.set_terminal_size(_clamp(width), _clamp(height))
            elif kind == "ping" and isinstance(arg, str) and len(arg) <= 64:
                await ws.send_json(["pong", arg])
            elif kind == "blur":
                await service.blur()
            elif kind == "focus":
                await service.focus()

    async def _watch_idle(self, tab: _Tab) -> None:
        limit = self.limits.idle_timeout
        while True:
            left = tab.last_input + limit - self.clock()
            if left <= 0:
                return
            await asyncio.sleep(min(left, 30.0))

    async def _last_words(self, ws, message: str) -> None:
        """Write ``message`` in the tab's terminal and close it once the browser has had time to
        show it (the page covers the terminal with "Session ended." when the socket closes)."""
        from aiohttp import WSMsgType

        with contextlib.suppress(Exception):
            await ws.send_bytes(TERMINAL_RESET + message.encode() + b"\r\n")

            async def until_closed() -> None:
                async for msg in ws:
                    if msg.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                        break

            hold = 0.0 if self._closing else min(REFUSAL_HOLD, self.limits.login_timeout)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(until_closed(), hold)
        with contextlib.suppress(Exception):
            await ws.close()


async def _app_ended(said_goodbye: asyncio.Event,
                     proc: asyncio.subprocess.Process | None) -> None:
    """Until a tab's app says goodbye, or its process ends without a word (killed)."""
    waits: list[asyncio.Future[Any]] = [asyncio.ensure_future(said_goodbye.wait())]
    if proc is not None:
        waits.append(asyncio.ensure_future(proc.wait()))
    try:
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for wait in waits:
            wait.cancel()


async def _failed(proc: asyncio.subprocess.Process | None) -> bool:
    """Whether a tab's app that has said goodbye (or ended) failed: its exit status (the
    session app exits with 1 when it failed; it is given QUIT_GRACE to finish exiting)."""
    if proc is None:
        return False
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(proc.wait(), QUIT_GRACE)
    return proc.returncode not in (0, None)


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _clamp(value: int) -> int:
    return max(1, min(int(value), 1000))


def _refusal_page(message: str) -> str:
    text = html.escape(message)
    return ("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Cellwars</title></head>"
            "<body style=\"background:#0c181f;color:#eee;font-family:monospace;padding:2em\">"
            f"<p>{text}</p></body></html>\n")


async def run_web(host: str, port: int, *, ready=None, stop: asyncio.Event | None = None,
                  limits: Limits | None = None, token: str | None = None,
                  home: Path | None = None) -> None:
    """``cellwars web``: serve the app to browsers holding ``token`` (a new random one by
    default) until ``stop`` (or SIGINT/SIGTERM). Each tab gets its own folder under
    ``<data dir>/web`` (swept at start after a crash)."""
    from ..locations import data_dir
    from .homes import RunLock, make_private
    from ..online.client import ENV_SESSION_LOG

    home = home or data_dir()
    root = home / "web"
    lock = RunLock(root)
    lock.acquire()  # CellwarsError if another server runs on this data dir
    make_private(home)
    server = WebServer(host, port, env={ENV_SESSION_LOG: str(root / "sessions.log")},
                       limits=limits, token=token or secrets.token_urlsafe(24), sessions=root)
    try:
        await server.start()
        await run_until_stopped(server, ready=ready, stop=stop)
    finally:
        lock.release()


def run_web_command(args) -> int:
    """``cellwars web [--host H] [--port P] [--token T | --token-file F] [--max-sessions N] ...``
    (the token may also come from CELLWARS_WEB_TOKEN)."""
    from .cli import limits_from_args
    from .homes import private_files
    from .limits import raise_file_limit
    from .logs import set_up_logging

    raise_file_limit()  # before the limits are checked against it
    limits = limits_from_args(args)
    token, warning = given_token(args)
    require_textual_serve()
    set_up_logging()
    if warning:
        logging.getLogger(__name__).warning(warning)

    def ready(server: WebServer) -> None:
        print(f"cellwars: serving the app to browsers at {server.token_url}", flush=True)
        print("cellwars: whoever has that address (its token) can play; keep it to yourself",
              flush=True)

    try:
        with private_files():  # everything the server and its tabs write: the user's only
            asyncio.run(run_web(args.host, args.port, ready=ready, limits=limits, token=token))
    except KeyboardInterrupt:
        return 130
    return 0


def web_env(hub_socket: str, token: str) -> dict[str, str]:
    """What a browser tab's session needs to join the SSH server's hub (as a guest)."""
    from ..online.client import ENV_HUB, ENV_IDENTITY, ENV_TOKEN

    return {ENV_HUB: hub_socket, ENV_TOKEN: token, ENV_IDENTITY: "guest",
            "LANG": os.environ.get("LANG", "C.UTF-8")}
