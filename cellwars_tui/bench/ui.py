"""UI benchmarks for ``cellwars bench``, and a key-to-repaint helper game screens reuse.

* Start-up: the launcher's time to first frame beside a bare Textual app's, both measured in the
  same run the same way: a fresh ``python`` process on a pseudo-terminal (the real Linux driver
  paints), from spawn to the first frame written to the terminal. Goal: within 1.5x of bare.
* Key to repaint: :func:`key_to_repaint_median` presses keys on any screen (in a headless app that
  still renders each frame to terminal segments) and takes the median time from key to repaint.
  :func:`bare_key_to_repaint_median` is the baseline: a bare Textual screen whose one label
  changes on every key. A game's bench (e.g. Cell Wars) reports its screen beside that baseline::

      from cellwars_tui.bench.ui import bare_key_to_repaint_median, key_to_repaint_median

      bare = bare_key_to_repaint_median(samples=30)
      ours = key_to_repaint_median(lambda: CellWarsScreen(LocalTable(match)),
                                   keys=("right", "left"), samples=30)

No timing is asserted in tests; ``cellwars bench`` prints the figures.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from . import Result, result

STARTUP_GOAL = 1.5  # launcher / bare Textual app, time to first frame

# The child process: build the app, note the wall-clock time of the first frame the driver
# writes to the terminal, report it on the pipe CELLWARS_BENCH_FD names and leave.
_CHILD = r"""
import os, sys, time
mode = sys.argv[1]
if mode == "bare":
    from textual.app import App
    from textual.widgets import Footer, Label

    class Bare(App):
        def compose(self):
            yield Label("Hello")
            yield Footer()

    app = Bare()
    wanted = None
else:
    from cellwars_tui.ui.app import CellwarsApp
    from cellwars_tui.ui.launcher import LauncherScreen

    app = CellwarsApp()
    wanted = LauncherScreen
original = app._display
done = []

def display(screen, renderable):
    original(screen, renderable)
    if done or renderable is None or app._batch_count:
        return
    if wanted is not None and not isinstance(screen, wanted):
        return
    done.append(time.time())
    os.write(int(os.environ["CELLWARS_BENCH_FD"]), f"FIRST-FRAME {done[0]!r}\n".encode())
    app.call_later(app.exit)

app._display = display
app.run()
"""


def _first_frame(mode: str, home: str, size: tuple[int, int] = (100, 30),
                 timeout: float = 60.0, pycache: str | None = None) -> float:
    """Seconds from spawning ``python`` to its first frame (``mode``: "bare" or "launcher")."""
    import fcntl
    import pty
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
    report_r, report_w = os.pipe()
    env = dict(os.environ, CELLWARS_HOME=home, TERM="xterm-256color", COLORTERM="truecolor",
               CELLWARS_BENCH_FD=str(report_w))
    env.pop("TEXTUAL", None)
    if pycache is not None:  # compiled modules, as after an install (see startup_times)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = pycache

    def drain() -> None:  # the terminal's output must be read or the child blocks
        try:
            while os.read(master, 65536):
                pass
        except OSError:
            pass

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    start = time.time()
    proc = subprocess.Popen(
        [sys.executable, "-c", _CHILD, mode], stdin=slave, stdout=slave, stderr=slave,
        env=env, pass_fds=(report_w,), start_new_session=True,
    )
    os.close(slave)
    os.close(report_w)
    try:
        proc.wait(timeout=timeout)
        with os.fdopen(report_r, "rb") as fh:
            report = fh.read().decode(errors="replace")
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        os.close(report_r)
        raise RuntimeError(f"{mode}: no first frame within {timeout:g} s") from None
    finally:
        try:
            os.close(master)
        except OSError:
            pass
    for line in report.splitlines():
        if line.startswith("FIRST-FRAME "):
            return float(line.split()[1]) - start
    raise RuntimeError(f"{mode}: the app painted no frame (exit status {proc.returncode})")


def startup_times(runs: int = 5, *, compiled: bool = True) -> tuple[list[float], list[float]]:
    """(bare, launcher) first-frame times in seconds, interleaved so both see the same machine.

    ``compiled``: both children read compiled modules from a private pycache (written by the
    warm-up runs), as an installed package does (pip compiles at install). Without it a checkout
    run with PYTHONDONTWRITEBYTECODE compiles every Cellwars module from source at each start
    while Textual's come compiled, which is not what a player's start costs."""
    bare: list[float] = []
    launcher: list[float] = []
    with tempfile.TemporaryDirectory(prefix="cellwars-bench-") as home:
        pycache = os.path.join(home, "pycache") if compiled else None
        _first_frame("bare", home, pycache=pycache)  # warm the file cache for both
        _first_frame("launcher", home, pycache=pycache)
        for _ in range(runs):
            bare.append(_first_frame("bare", home, pycache=pycache))
            launcher.append(_first_frame("launcher", home, pycache=pycache))
    return bare, launcher


def bench_startup(quick: bool) -> list[Result]:
    bare, launcher = startup_times(3 if quick else 7)
    b, lau = statistics.median(bare), statistics.median(launcher)
    ratio = lau / b
    note = (f"median of {len(bare)} runs each, spawn to first frame on a pty "
            "(modules compiled as installed; launcher: game list cache warm)")
    return [
        result("ui: bare Textual app, time to first frame", b * 1000, "ms", note=note),
        result("ui: launcher, time to first frame", lau * 1000, "ms", note=note),
        result("ui: launcher / bare Textual start-up", ratio, "x", "<=", STARTUP_GOAL,
               note="same run, same method"),
    ]


# -- key to repaint --------------------------------------------------------------------------
def _harness(screen_factory: Callable[[], Any]) -> Any:
    """A plain app with the Cellwars themes that shows only the screen under test."""
    from textual.app import App

    from ..ui.themes import DEFAULT_THEME, FALLBACK_VARIABLES, load_themes

    class Harness(App):
        def __init__(self) -> None:
            super().__init__()
            for theme in load_themes()[0]:
                self.register_theme(theme)
            if DEFAULT_THEME in self.available_themes:
                self.theme = DEFAULT_THEME

        def get_theme_variable_defaults(self) -> dict[str, str]:
            return dict(FALLBACK_VARIABLES)

        def on_mount(self) -> None:
            self.push_screen(screen_factory())

    return Harness()


async def measure_key_to_repaint(
    screen_factory: Callable[[], Any],
    keys: Sequence[str] = ("right",),
    *,
    samples: int = 40,
    size: tuple[int, int] = (100, 30),
    app_factory: Callable[[], Any] | None = None,
    warmup: int = 3,
    timeout: float = 2.0,
) -> list[float]:
    """Seconds from each key press to the first frame after it, one per press that repainted.

    ``screen_factory()`` builds the screen (pushed over a plain app with the Cellwars themes, or
    over ``app_factory()`` if given, which must push it itself). ``keys`` are pressed in turn,
    ``samples`` presses after ``warmup`` unmeasured ones. Each frame is rendered to terminal
    segments as the real driver would (headless apps skip that step otherwise).
    """
    from textual._compositor import CompositorUpdate

    app = app_factory() if app_factory is not None else _harness(screen_factory)
    painted: list[float] = []
    original = app._display

    def display(screen: Any, renderable: Any) -> None:
        original(screen, renderable)
        if renderable is None:
            return
        if isinstance(renderable, CompositorUpdate):
            renderable.render_segments(app.console)
        painted.append(time.perf_counter())

    app._display = display
    times: list[float] = []
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        for i in range(warmup + samples):
            key = keys[i % len(keys)]
            painted.clear()
            start = time.perf_counter()
            await pilot.press(key)
            await pilot.pause()
            deadline = time.perf_counter() + timeout
            while not painted and time.perf_counter() < deadline:
                await asyncio.sleep(0.001)
            if i >= warmup and painted:
                times.append(painted[0] - start)
    return times


def key_to_repaint_median(
    screen_factory: Callable[[], Any],
    keys: Sequence[str] = ("right",),
    *,
    samples: int = 40,
    size: tuple[int, int] = (100, 30),
    app_factory: Callable[[], Any] | None = None,
) -> float:
    """Median seconds from key press to repaint for the screen ``screen_factory()`` builds (see
    :func:`measure_key_to_repaint`). Call it outside a running event loop (bench code)."""
    times = asyncio.run(measure_key_to_repaint(
        screen_factory, keys, samples=samples, size=size, app_factory=app_factory))
    if not times:
        raise RuntimeError("no key press repainted the screen")
    return statistics.median(times)


def bare_screen() -> Any:
    """A bare Textual screen: one label that shows how many keys were pressed."""
    from textual.app import ComposeResult
    from textual.binding import Binding
    from textual.screen import Screen
    from textual.widgets import Footer, Label

    class BareScreen(Screen):
        BINDINGS = [Binding("right,left,up,down,space,enter", "count", "Count")]

        def __init__(self) -> None:
            super().__init__()
            self.count = 0

        def compose(self) -> ComposeResult:
            yield Label("0 keys", id="count")
            yield Footer()

        def action_count(self) -> None:
            self.count += 1
            self.query_one("#count", Label).update(f"{self.count} keys")

    return BareScreen()


def bare_key_to_repaint_median(samples: int = 40, size: tuple[int, int] = (100, 30)) -> float:
    """The baseline: median key-to-repaint seconds of :func:`bare_screen`."""
    return key_to_repaint_median(bare_screen, ("right",), samples=samples, size=size)


def bench_launcher_keys(quick: bool) -> list[Result]:
    from ..ui.launcher import LauncherScreen

    samples = 15 if quick else 40
    bare = bare_key_to_repaint_median(samples=samples)
    ours = key_to_repaint_median(LauncherScreen, ("down", "up"), samples=samples)
    return [
        result("ui: bare Textual screen, key to repaint", bare * 1000, "ms",
               note=f"median of {samples}"),
        result("ui: launcher, key to repaint (move in the list)", ours * 1000, "ms",
               note=f"median of {samples}; {ours / bare:.2f}x bare"),
    ]


BENCHMARKS = [bench_startup, bench_launcher_keys]
