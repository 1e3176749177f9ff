"""A warm process that forks one child per session (``python -m cellwars_tui.ssh.zygote``).

Starting Python and importing Textual and the games costs about half a second of CPU per session;
on a 2-core machine fifty sessions arriving together would wait many seconds for their first
frame. The zygote pays that once: it imports everything, freezes the garbage collector (so forked
children keep sharing those pages), then waits for requests from the server on a socket. Each
request carries the session's PTY slave (by SCM_RIGHTS) and environment; the zygote forks, and the
child makes the PTY its controlling terminal in a new session and runs the session app, exactly as
the exec'd child would.

The zygote is the children's parent: it reaps them and reports each exit to the server. When the
server goes away (its end of the socket closes) the zygote ends every child it started and exits.

Wire format: SOCK_SEQPACKET, one msgpack map per packet. Server -> zygote: ``{"id", "env"}`` with
the PTY slave and, optionally, the write end of the session's ready pipe (the child writes one
byte there when its first frame is out: see :mod:`.limits`' StartGate). Zygote -> server:
``{"ready"}``, ``{"id", "pid"}``, ``{"exit", "status"}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import gc
import io
import os
import random
import select
import signal
import socket
import sys
import termios
import time
import traceback
from collections.abc import Mapping, Sequence

import msgspec

ENV_FD = "CELLWARS_ZYGOTE_FD"
ENV_PRELOAD = "CELLWARS_ZYGOTE_PRELOAD"  # more modules to import before forking (comma-separated)
ENV_REHEARSE = "CELLWARS_ZYGOTE_REHEARSE"  # "0": skip the headless warm-up run of the app
# A directory: each forked session profiles itself (cProfile) and writes its statistics there at
# its first frame and 1 s later (for finding what a session's start costs; never in normal use).
ENV_PROFILE = "CELLWARS_SESSION_PROFILE"
# "module:function": what a forked session runs instead of the session app, called with the
# ready pipe's fd (``function(ready_fd=fd)``, returns the exit status). Only ``cellwars bench``
# sets it: the crowd bench starts bare Textual apps exactly as sessions start (see bench/ssh_crowd).
ENV_APP = "CELLWARS_ZYGOTE_APP"

# "start[,after first frame]": how much forked sessions lower their CPU priority. Off by
# default: on the shared 2-core test machine, runs of 50 sessions at once with "5,5" were
# sometimes 10% faster and sometimes 10% slower than without (other load dominated); an operator
# on a dedicated server may try it (the server then pumps frames ahead of the sessions' work).
ENV_NICE = "CELLWARS_SESSION_NICE"
SESSION_NICE = 0
SESSION_NICE_LATER = 0

_nice = (SESSION_NICE, SESSION_NICE_LATER)  # read once by main() from the environment

_enc = msgspec.msgpack.Encoder()
_dec = msgspec.msgpack.Decoder(dict)


def warm(preload: Sequence[str] = ()) -> None:
    """Import what every session needs, before any fork. A module that fails to import is left
    to the session itself (which then shows its own error), never fatal to the zygote."""
    import importlib

    from ..core.registry import game_modules

    games = game_modules()
    for name in ("cellwars_tui.ssh.lobby", "cellwars_tui.ssh.session_app",
                 "cellwars_tui.online.remote",
                 "cellwars_tui.ui.app", "cellwars_tui.ui.screens", *games,
                 *(m.replace(".rules", ".screen") for m in games), *preload):
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is None or not name.startswith(exc.name):
                print(f"cellwars zygote: cannot import {name}: {exc}", file=sys.stderr)
        except Exception as exc:  # noqa: BLE001
            print(f"cellwars zygote: cannot import {name}: {type(exc).__name__}: {exc}",
                  file=sys.stderr)


_CSS_CACHE_LIMIT = 4096


def share_css_parses() -> None:
    """Keep every parsed piece of Textual CSS for the life of the process (and so for every
    forked child).

    Textual parses CSS per ``Stylesheet``: each new app parses every widget's DEFAULT_CSS and
    every CSS file again, and each re-parse (a new screen's CSS file, a theme change) builds a
    fresh stylesheet that tokenizes all of it once more; at a session's start that was about a
    fifth of the CPU to its first frame. Parsing is a pure function of the CSS text, where it
    came from, its flags and the theme's variables, and Textual itself already hands the same
    parsed rule sets to every parse of one stylesheet; this memo keys on exactly those inputs
    (variables included), so a child reuses what the zygote's warm-up run parsed. It wraps
    ``Stylesheet._parse_rules`` (the single place Textual parses a CSS source); if a Textual
    release renames it, nothing is shared and everything still works.
    """
    from textual.css.stylesheet import Stylesheet

    original = getattr(Stylesheet, "_parse_rules", None)
    if original is None or getattr(original, "_cellwars_shared", False):
        return
    shared: dict[tuple, list] = {}
    var_keys: dict[int, tuple[dict, tuple]] = {}

    def variables_key(variables: dict) -> tuple:
        held = var_keys.get(id(variables))
        if held is None or held[0] is not variables:
            if len(var_keys) > 64:
                var_keys.clear()
            held = (variables, tuple(sorted(variables.items())))
            var_keys[id(variables)] = held
        return held[1]

    def _parse_rules(self, css, read_from, is_default_rules=False, tie_breaker=0, scope=""):
        key = (css, read_from, is_default_rules, tie_breaker, scope,
               variables_key(self._variables))
        rules = shared.get(key)
        if rules is None:
            rules = original(self, css, read_from, is_default_rules, tie_breaker, scope)
            if len(shared) >= _CSS_CACHE_LIMIT:
                shared.clear()
            shared[key] = rules
        return rules

    _parse_rules._cellwars_shared = True  # type: ignore[attr-defined]
    Stylesheet._parse_rules = _parse_rules  # type: ignore[method-assign]


def rehearse(timeout: float = 20.0) -> None:
    """Run the session app once, headless, before any fork: Textual's first start fills caches
    (CSS selectors, styles, glyph widths) that every child then shares instead of rebuilding.
    It runs in a throwaway home; a failure only costs the children that warm-up."""
    import asyncio
    import shutil
    import tempfile
    import threading

    home = tempfile.mkdtemp(prefix="cellwars-zygote-")
    saved = os.environ.get("CELLWARS_HOME")
    os.environ["CELLWARS_HOME"] = home
    try:
        from .session_app import OnlineApp

        async def once() -> None:
            from ..ui.themes import DEFAULT_THEME, load_themes

            app = OnlineApp(online=False, one_widget_footer=True)
            # with the tooltip and notification layers every session's screens have (their
            # CSS too is parsed once, here)
            async with app.run_test(size=(100, 30), tooltips=True, notifications=True) as pilot:
                await pilot.pause()
                # the shipped themes' CSS too (a player's saved theme is parsed in the zygote)
                app.theme_preview = True  # a preview: nothing is written to settings
                for theme in load_themes()[0]:
                    if theme.name != DEFAULT_THEME:
                        app.theme = theme.name
                        await pilot.pause()
                app.theme = DEFAULT_THEME
                await pilot.pause()

        asyncio.run(asyncio.wait_for(once(), timeout))
    except BaseException as exc:  # noqa: BLE001 - never fatal to the zygote
        print(f"cellwars zygote: warm-up run failed: {type(exc).__name__}: {exc}", file=sys.stderr)
    finally:
        if saved is None:
            os.environ.pop("CELLWARS_HOME", None)
        else:
            os.environ["CELLWARS_HOME"] = saved
        shutil.rmtree(home, ignore_errors=True)
    if threading.active_count() > 1:  # forking with live threads is unsafe: say so
        print(f"cellwars zygote: {threading.active_count() - 1} thread(s) left by the warm-up",
              file=sys.stderr)


def session_nice() -> tuple[int, int]:
    """How much a forked session lowers its CPU priority: from its start, and then once more
    after its first frame (``CELLWARS_SESSION_NICE=start,later`` in the server's environment;
    ``0,0``, the default, keeps every session at the server's priority)."""
    try:
        parts = [int(x) for x in os.environ.get(ENV_NICE, "").split(",") if x.strip()]
    except ValueError:
        parts = []
    start = parts[0] if parts else SESSION_NICE
    later = parts[1] if len(parts) > 1 else (SESSION_NICE_LATER if not parts else 0)
    return max(0, min(19, start)), max(0, min(19 - max(0, start), later))


def _child(sock: socket.socket, wake: tuple[int, int], slave: int, env: dict[str, str],
           ready_fd: int = -1) -> None:
    code = 1
    try:
        sock.close()
        for fd in wake:
            os.close(fd)
        signal.set_wakeup_fd(-1)
        for sig in (signal.SIGCHLD, signal.SIGHUP, signal.SIGTERM):
            signal.signal(sig, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        os.setsid()
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
        for fd in (0, 1, 2):
            os.dup2(slave, fd)
        if slave > 2:
            os.close(slave)
        if ready_fd >= 0:
            os.set_inheritable(ready_fd, False)  # nothing the session runs keeps it open
        profile = os.environ.get(ENV_PROFILE, "")
        app = os.environ.get(ENV_APP, "")
        os.environ.clear()
        os.environ.update(env)
        random.seed()  # forked children must not share the zygote's random sequence
        if _nice[0] > 0:  # below the server, which does every session's SSH work and pumping
            with contextlib.suppress(OSError):
                os.nice(_nice[0])
        for stream in (sys.stdin, sys.stdout, sys.stderr):
            if isinstance(stream, io.TextIOWrapper):
                with contextlib.suppress(Exception):
                    stream.reconfigure(encoding="utf-8", errors="replace")
        if app:
            import importlib

            module, _, function = app.partition(":")
            code = getattr(importlib.import_module(module), function)(ready_fd=ready_fd) or 0
        else:
            from .session_app import main

            code = main(pause_gc=True, nice=_nice[1], profile=profile, ready_fd=ready_fd) or 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:  # noqa: BLE001 - the child must always end here
        with contextlib.suppress(Exception):
            traceback.print_exc()
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


def serve(sock: socket.socket) -> None:
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.set_wakeup_fd(wake_w)
    children: set[int] = set()
    sock.send(_enc.encode({"ready": os.getpid()}))
    try:
        while True:
            waiting: list[socket.socket | int] = [sock, wake_r]
            ready, _, _ = select.select(waiting, [], [])
            if wake_r in ready:
                with contextlib.suppress(BlockingIOError):
                    os.read(wake_r, 4096)
                _reap(sock, children)
            if sock in ready:
                try:
                    data, fds, _, _ = socket.recv_fds(sock, 1 << 16, 4)
                except OSError:
                    return
                if not data:
                    return  # the server went away
                request = _dec.decode(data)
                if len(fds) not in (1, 2):
                    for fd in fds:
                        os.close(fd)
                    sock.send(_enc.encode({"id": request.get("id"), "pid": -1}))
                    continue
                pid = os.fork()
                if pid == 0:
                    _child(sock, (wake_r, wake_w), fds[0], request["env"],
                           fds[1] if len(fds) > 1 else -1)
                for fd in fds:  # the child has them now (and no later child may)
                    os.close(fd)
                children.add(pid)
                sock.send(_enc.encode({"id": request["id"], "pid": pid}))
    finally:
        _end_all(children)


def _reap(sock: socket.socket | None, children: set[int]) -> None:
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        children.discard(pid)
        code = os.waitstatus_to_exitcode(status)
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.send(_enc.encode({"exit": pid, "status": code}))


def _end_all(children: set[int]) -> None:
    for sig, grace in ((signal.SIGHUP, 2.0), (signal.SIGKILL, 2.0)):
        for pid in list(children):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pid, sig)
        deadline = time.monotonic() + grace
        while children and time.monotonic() < deadline:
            _reap(None, children)
            time.sleep(0.02)
        if not children:
            return


# -- the server's side ----------------------------------------------------------------------------
class ZygoteChild:
    """A session's child forked by the zygote (the zygote reaps it and reports its exit)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._exited = asyncio.Event()

    def _exit(self, code: int) -> None:
        if self.returncode is None:
            self.returncode = code
            self._exited.set()

    async def wait(self) -> int:
        await self._exited.wait()
        assert self.returncode is not None
        return self.returncode


class ZygoteSpawner:
    """Starts the zygote once and asks it for a child per session (same surface as ExecSpawner).

    If the zygote dies, its children are ended and a new zygote is started for the next session.
    """

    def __init__(self, start_timeout: float = 60.0, preload: Sequence[str] = ()) -> None:
        self.start_timeout = start_timeout
        self.preload = tuple(preload)
        self.proc: asyncio.subprocess.Process | None = None
        self.sock: socket.socket | None = None
        self.children: dict[int, ZygoteChild] = {}
        self._pending: dict[int, asyncio.Future[int]] = {}
        self._ready: asyncio.Future[int] | None = None
        self._starting: asyncio.Lock | None = None
        self._next_id = 0

    async def start(self) -> None:
        """Start the zygote (if it is not running) and wait until it has warmed up."""
        if self._starting is None:
            self._starting = asyncio.Lock()
        async with self._starting:
            if self.sock is not None:
                return
            loop = asyncio.get_running_loop()
            ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            env = dict(os.environ)
            env[ENV_FD] = str(theirs.fileno())
            env[ENV_PRELOAD] = ",".join(self.preload)
            try:
                self.proc = await asyncio.create_subprocess_exec(
                    sys.executable, "-m", "cellwars_tui.ssh.zygote", env=env,
                    pass_fds=(theirs.fileno(),), stdin=asyncio.subprocess.DEVNULL,
                    start_new_session=True,
                )
            finally:
                theirs.close()
            ours.setblocking(False)
            self.sock = ours
            self._ready = loop.create_future()
            loop.add_reader(ours.fileno(), self._readable)
            try:
                await asyncio.wait_for(asyncio.shield(self._ready), self.start_timeout)
            except BaseException:
                await self.close()
                raise

    def _readable(self) -> None:
        sock = self.sock
        if sock is None:
            return
        while True:
            try:
                data = sock.recv(1 << 16)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:
                self._lost()
                return
            try:
                msg = _dec.decode(data)
            except msgspec.DecodeError:
                continue
            if "ready" in msg:
                if self._ready is not None and not self._ready.done():
                    self._ready.set_result(msg["ready"])
            elif "exit" in msg:
                child = self.children.pop(msg["exit"], None)
                if child is not None:
                    child._exit(int(msg["status"]))
            elif "id" in msg:
                fut = self._pending.pop(msg["id"], None)
                pid = int(msg["pid"])
                if pid > 0:
                    self.children[pid] = ZygoteChild(pid)
                if fut is not None and not fut.done():
                    fut.set_result(pid)

    def _lost(self) -> None:
        """The zygote went away: end its children (they lead their own sessions) and forget it."""
        sock, self.sock = self.sock, None
        if sock is not None:
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(sock.fileno())
            sock.close()
        for pid, child in list(self.children.items()):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pid, signal.SIGKILL)
            child._exit(-signal.SIGKILL)
        self.children.clear()
        for fut in self._pending.values():
            if not fut.done():
                fut.set_exception(ConnectionError("the zygote went away"))
        self._pending.clear()
        if self._ready is not None and not self._ready.done():
            self._ready.set_exception(ConnectionError("the zygote did not start"))

    async def spawn(self, slave: int, env: Mapping[str, str],
                    ready_fd: int | None = None) -> ZygoteChild:
        if self.sock is None:
            await self.start()
        assert self.sock is not None
        self._next_id += 1
        rid = self._next_id
        fut: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._pending[rid] = fut
        payload = _enc.encode({"id": rid, "env": dict(env)})
        while True:
            try:
                socket.send_fds(self.sock, [payload],
                                [slave] if ready_fd is None else [slave, ready_fd])
                break
            except BlockingIOError:
                await asyncio.sleep(0.01)
        pid = await asyncio.wait_for(fut, 30)
        if pid <= 0:
            raise ConnectionError("the zygote could not start a session")
        child = self.children.get(pid)
        if child is None:  # it ended before we looked: a zombie-free, finished child
            child = ZygoteChild(pid)
            child._exit(1)
        return child

    async def close(self) -> None:
        """Stop the zygote; it ends every child it started (SIGHUP, then SIGKILL)."""
        sock, self.sock = self.sock, None
        if sock is not None:
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(sock.fileno())
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()
        proc, self.proc = self.proc, None
        if proc is not None:
            try:
                await asyncio.wait_for(proc.wait(), 6)
            except asyncio.TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
                await proc.wait()
        for pid, child in list(self.children.items()):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pid, signal.SIGKILL)
            child._exit(-signal.SIGKILL)
        self.children.clear()


def main() -> int:
    fd = int(os.environ.pop(ENV_FD))
    preload = [m for m in os.environ.pop(ENV_PRELOAD, "").split(",") if m]
    sock = socket.socket(fileno=fd)
    global _nice
    _nice = session_nice()
    share_css_parses()
    warm(preload)
    with contextlib.suppress(Exception):  # the launchers then find the games themselves
        from .session_app import preload_games

        preload_games()
    if os.environ.pop(ENV_REHEARSE, "1") == "1":
        rehearse()
    gc.collect()
    gc.freeze()  # keep the imported objects' pages shared with the children
    serve(sock)
    return 0


if __name__ == "__main__":
    sys.exit(main())
