"""What a session of ``cellwars serve`` runs in its child process: ``python -m cellwars_tui.ssh.session_app``.

The server starts this on the session's PTY with the player's identity and hub token in the
environment (see :mod:`.server`). The session gets the whole app (:class:`OnlineApp`): the
launcher and every local game, plus the online tables (``o``, or the command palette). A player
who comes back to a game in progress is taken straight to its table. A terminal smaller than the
app can lay out gets the app's "terminal too small" notice (``ui.size_guard``) until it grows.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import gc
import io
import os
import re
import sys
from pathlib import Path
from collections.abc import Callable
from typing import Any

from rich.console import Console
from textual.binding import Binding

from ..locations import confined
from ..ui.app import CellwarsApp
from ..ui.footer import Footer
from ..ui.game_screen import GameScreen
from ..online import protocol as p
from ..online.client import ENV_SESSION_LOG, in_ssh_session
from .limits import ENV_READY_FD, SESSION_FAILED
from .lobby import HubLink, HubListener, LobbyScreen, TableScreen


class OnlineApp(HubListener, CellwarsApp):
    """The whole app, plus the server's lobby and tables."""

    BINDINGS = [
        *CellwarsApp.BINDINGS,
        Binding("o", "online", "Online"),
    ]

    # Work that waits for the first frame (ui.app.CellwarsApp.call_after_frame) waits for it
    # however long it takes: when many sessions start at once a frame can take seconds, and
    # running that work first (the local app's 1 s limit) only makes every first frame later.
    FRAME_WAIT_LIMIT = 30.0

    def __init__(self, *, online: bool | None = None, one_widget_footer: bool | None = None,
                 **kw) -> None:
        if "games" not in kw and PRELOADED_GAMES is not None:
            kw["games"] = list(PRELOADED_GAMES)  # listed by the zygote: no cache file to check
        super().__init__(**kw)
        self.online = in_ssh_session() if online is None else online
        # A server's sessions draw the key footer as one widget (ui.footer.Footer): cheap enough
        # to be in the first frame. Textual's footer (one widget per key, about half of the CPU
        # to a first frame) is built just after that frame: many sessions may start at once.
        self.one_widget_footer = self.online if one_widget_footer is None else one_widget_footer
        self.footer_after_first_frame = not self.one_widget_footer
        self.nice_after_first_frame = 0  # see main
        self.on_first_frame: Any = None  # see _profile
        self.ready_fd = -1  # where to tell the server the first frame is out (see main)
        self.confined = confined()
        self.failure = io.StringIO()  # a confined session's error report (see main)
        if self.confined:  # why it failed goes to the server's log, not to the player's screen
            self.error_console = Console(file=self.failure, width=120, markup=False,
                                         highlight=False, color_system=None)

    def on_ready(self) -> None:
        """Textual's Ready (the first frame is out): footers build their keys at once again,
        and the collector is back on (see main)."""
        self._tell_ready()
        waited = self.footer_after_first_frame
        self.footer_after_first_frame = False
        if not gc.isenabled():  # paused by main: what it allocated until now is kept for good
            gc.freeze()  # (a collection here found under a thousand objects, and cost 4 ms)
        gc.enable()
        if self.on_first_frame is not None:
            self.on_first_frame()
        if self.nice_after_first_frame > 0:
            with contextlib.suppress(OSError):
                os.nice(self.nice_after_first_frame)
        if waited and self.one_widget_footer:  # its keys, now at the lower priority
            for footer in self.screen.query(Footer):
                footer.refresh()

    def _tell_ready(self) -> None:
        """One byte to the server: this session's place among the starting ones is free."""
        fd, self.ready_fd = self.ready_fd, -1
        if fd >= 0:
            with contextlib.suppress(OSError):
                os.write(fd, b"\x01")
            with contextlib.suppress(OSError):
                os.close(fd)

    def on_mount(self) -> None:  # Textual also calls every base class's on_mount
        if self.online:
            link = HubLink.of(self)
            link.start()  # the footer shows "o Online"

    # -- confinement -------------------------------------------------------------------------
    def notify(self, message: str, **kw: Any) -> None:
        """Every notice of a confined session shows file names, never a server path."""
        super().notify(hide_paths(message) if self.confined else message, **kw)

    def screenshots_allowed(self) -> bool:
        """A confined session writes no screenshot on the server; in a browser the picture goes
        to the browser (a download), which writes nothing here."""
        return not self.confined or self.is_web

    def deliver_screenshot(self, filename: str | None = None, path: str | None = None,
                           time_format: str | None = None) -> str | None:
        if not self.screenshots_allowed():
            self.notify("Screenshots are not saved on the server: use your terminal's own.",
                        severity="warning")
            return None
        return super().deliver_screenshot(filename, None if self.confined else path, time_format)

    # -- online ------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``o Online`` only where there is a hub to join (not in a ``cellwars web`` tab)."""
        if action == "online" and not self.online:
            return False
        return super().check_action(action, parameters)

    def action_online(self) -> None:
        """Show the lobby (or bring it to the top if it is open)."""
        if not self.online:
            self.notify("Online tables are only on a `cellwars serve` server.", severity="warning")
            return
        online = (LobbyScreen, TableScreen)
        if any(isinstance(s, online) for s in self.screen_stack):
            # back to the lobby, or to the table this player is at (leaving it is its own key)
            while not isinstance(self.screen, online) and len(self.screen_stack) > 1:
                self.pop_screen()
            return
        self.push_screen(LobbyScreen())

    def hub_message(self, msg: p.Msg) -> None:
        """The hub took this player back to a game in progress: show that table at once. A
        notice from the hub (a guest's reconnect code) is shown over whatever screen is up."""
        if isinstance(msg, p.Notice):
            self.notify(msg.message, timeout=20)
            return
        if not isinstance(msg, p.TableState) or msg.info.status != "playing":
            return
        if any(isinstance(s, (LobbyScreen, TableScreen)) for s in self.screen_stack):
            return  # the lobby's screens follow the table themselves
        self.push_screen(LobbyScreen())
        self.push_screen(TableScreen(msg.info.code))

    def play_again(self, screen: GameScreen) -> None:
        from ..online.remote import RemoteTable

        if isinstance(screen.table, RemoteTable):
            self.notify("Online, a new game is a new table: create one in the lobby (o).")
            screen.dismiss_game()
            return
        super().play_again(screen)


_ABSOLUTE_PATH = re.compile(r"(?<![\w.~-])/(?:[^\s/:'\"()]+/)+([^\s/:'\"()]*)")


def hide_paths(text: str) -> str:
    """``text`` with every absolute path cut to its last part (a file's name)."""
    return _ABSOLUTE_PATH.sub(lambda m: m.group(1) or "(folder)", text)


def report_failure(app: OnlineApp) -> None:
    """A confined session's app failed: why goes to the server's session log (with the time
    and the process), and the player's terminal gets one line without any path."""
    detail = app.failure.getvalue()
    if not detail:
        return
    target = os.environ.get(ENV_SESSION_LOG, "")
    if target:
        stamp = _dt.datetime.now().isoformat(timespec="seconds")
        with contextlib.suppress(OSError):
            fd = os.open(target, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            with os.fdopen(fd, "a", encoding="utf-8", errors="replace") as fh:
                fh.write(f"--- {stamp} session {os.getpid()} failed:\n{detail}\n")
    with contextlib.suppress(Exception):
        stderr = sys.__stderr__
        if stderr is not None:
            stderr.write(SESSION_FAILED + "\r\n")
            stderr.flush()


# The launcher's game list, set by the zygote before it forks (every game is imported there, so
# a session need not check the list's cache file against every game file, nor import anything
# after its first frame). None: the launcher finds the games itself.
PRELOADED_GAMES: list[Any] | None = None


def preload_games() -> None:
    """Run in the zygote: list the registered games for every session's launcher (unless a game
    fails to load: then each session's launcher finds and reports it itself)."""
    global PRELOADED_GAMES
    from ..core.registry import playable_games

    games, problems = playable_games()
    PRELOADED_GAMES = None if problems or not games else games


def main(*, pause_gc: bool = False, nice: int = 0, profile: str = "",
         ready_fd: int | None = None) -> int:
    """Run a session's app.

    ``pause_gc``: no garbage collection until the first frame is out (a forked child starts
    from the zygote's frozen heap and allocates a few MB to get there; collecting in between
    cost about 5% of its CPU to the first frame). At the first frame what it holds is frozen
    (kept for good, never scanned: a collection there found under a thousand objects to free)
    and collection resumes for what comes after.

    ``nice``: once its first frame is out, the session lowers its own CPU priority by this much
    more (the zygote's ``CELLWARS_SESSION_NICE``): what it does next (the key footer, the saved
    games, the lobby, then play) then yields to sessions that are still starting, so a crowd
    of players arriving together see their first frames sooner. Started sessions compete with
    each other as equals.

    ``profile``: a folder for this session's profile (see ``_profile``; zygote.ENV_PROFILE).

    ``ready_fd``: where the app writes one byte when its first frame is out (then closes it):
    the server lets only a few sessions start at once (limits.StartGate). The zygote passes it;
    an exec'd session finds it in its environment (limits.ENV_READY_FD).
    """
    if ready_fd is None:
        ready_fd = _ready_fd_from_env()
    if pause_gc:
        gc.disable()
    try:
        app = OnlineApp()
        app.ready_fd = ready_fd
        app.nice_after_first_frame = max(0, int(nice))
        if app.nice_after_first_frame:  # the keys too come after the first frame, at that priority
            app.footer_after_first_frame = True
        stop = _profile(app, Path(profile)) if profile else None
        try:
            app.run()
        finally:
            app._tell_ready()  # ended before its first frame: its place is free all the same
            report_failure(app)
            if stop is not None:
                stop()
    finally:
        gc.enable()
    return 1 if app.return_code else 0  # a failure: the browser front tells the tab (see .web)


def _ready_fd_from_env() -> int:
    try:
        fd = int(os.environ.pop(ENV_READY_FD, ""))
    except ValueError:
        return -1
    try:
        os.set_inheritable(fd, False)  # nothing the session runs keeps it open
    except OSError:
        return -1
    return fd


def _profile(app: OnlineApp, folder: Path) -> Callable[[], None]:
    """Profile this session (zygote.ENV_PROFILE): statistics written at the first frame
    (``<pid>-first.prof``) and 0.9 s later (``<pid>-1s.prof``: before ``cellwars bench`` ends
    the session), with the CPU seconds used by then (``<pid>.cpu``: ``start`` when the app is
    made, ``frame`` when its first frame is written, ``first`` at Ready, ``1s``). A folder whose
    name ends in ``-cpu`` gets the CPU seconds only (no profiler overhead). Returns what stops
    the profiler."""
    import cProfile
    import time

    profiler = cProfile.Profile() if not folder.name.endswith("-cpu") else None
    marks: list[str] = [f"start {time.process_time():.4f}"]
    display = app._display

    def first_display(screen: Any, renderable: Any) -> None:
        display(screen, renderable)
        if renderable is not None and not any(m.startswith("frame") for m in marks):
            marks.append(f"frame {time.process_time():.4f}")

    app._display = first_display  # type: ignore[method-assign]

    def dump(name: str, *, last: bool = False) -> None:
        marks.append(f"{name} {time.process_time():.4f}")
        (folder / f"{os.getpid()}.cpu").write_text("\n".join(marks) + "\n")
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(folder / f"{os.getpid()}-{name}.prof")
            if not last:
                profiler.enable()

    def ready() -> None:
        dump("first")
        app.set_timer(0.9, lambda: dump("1s", last=True))

    def stop() -> None:
        if profiler is not None:
            profiler.disable()

    app.on_first_frame = ready
    if profiler is not None:
        profiler.enable()
    return stop


if __name__ == "__main__":
    sys.exit(main())
