"""Cell Wars screen benchmark: key press to repainted board, beside a bare Textual screen.

The figure is taken with Textual's headless pilot: a 6-player mid-game (round 8 or later, the
human leading Immune alpha to act), the cursor moved by arrow keys; each sample is the time from
the key press to the next frame written. It uses the UI's shared helper
(``cellwars_tui.bench.ui.key_to_repaint_median``, which also renders each frame to terminal
segments as the real driver does) and its bare-screen baseline of the same size, so the two
numbers show what the board costs on top of Textual's own work.

Collected by ``cellwars bench`` like every module of ``cellwars_tui/bench/`` with ``BENCHMARKS``.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from .. import Result, result
from ...core import CHANCE
from ...core.match import Match, Seat
from ...games.cell_wars import rules as R


def mid_game_match(seed: int = 8, players: int = 6, min_round: int = 8) -> Match:
    """A match played at random to a decision of seat 0 (Immune alpha) in round ``min_round``
    or later, with every seat but the first a bot."""
    seats = [Seat(name="You")] + [Seat(name=f"Bot {i + 1}", kind="bot", bot="random")
                                  for i in range(1, players)]
    for attempt in range(50):
        m = Match(R.GAME, R.CellWarsOptions(players=players), seats, seed + attempt)
        rng = random.Random(seed + attempt)
        while not m.is_over():
            s = m.state
            seat = m.to_act()[0]
            if (s.phase == R.PLAY and s.round >= min_round and seat == 0
                    and s.step in (R.SPECIAL, R.MOVE, R.CARDS_STEP, R.DRAW)):
                return m
            if seat == CHANCE:  # pragma: no cover - the match resolves chance itself
                m.resolve_chance()
                continue
            m.play(seat, rng.choice(list(m.legal_actions(seat))))
    raise RuntimeError("no mid-game position found")


async def _key_to_frame(app: Any, pilot: Any, keys: list[str], warmup: int = 5) -> list[float]:
    """Seconds from each key event to the next frame written."""
    from textual import events

    frames: list[float] = []
    real_display = app._display

    def display(screen: Any, renderable: Any) -> None:
        frames.append(time.perf_counter())
        real_display(screen, renderable)

    app._display = display
    driver = app._driver
    samples: list[float] = []
    try:
        await pilot.pause()
        for i, key in enumerate(keys):
            await pilot.pause()
            await asyncio.sleep(0.02)  # let any pending frame go out first
            frames.clear()
            t0 = time.perf_counter()
            event = events.Key(key, None)
            event.set_sender(app)
            driver.send_message(event)
            deadline = t0 + 2.0
            while not frames and time.perf_counter() < deadline:
                await asyncio.sleep(0.0005)
            if frames and i >= warmup:
                samples.append(frames[0] - t0)
    finally:
        app._display = real_display
    return samples


def _keys(n: int) -> list[str]:
    cycle = ["left", "left", "up", "right", "right", "down"]
    return [cycle[i % len(cycle)] for i in range(n)]


async def _measure_board(size: tuple[int, int], n: int) -> list[float]:
    from ...ui.app import CellwarsApp
    from ...games.cell_wars.screen import CellWarsScreen

    CellWarsScreen.dice_seconds = 0
    app = CellwarsApp(match=mid_game_match())
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, CellWarsScreen), type(screen)
        return await _key_to_frame(app, pilot, _keys(n))


async def _measure_bare(size: tuple[int, int], n: int) -> list[float]:
    from textual.app import App, ComposeResult
    from textual.widgets import Static

    class Bare(App):
        presses = 0

        def compose(self) -> ComposeResult:
            yield Static("0", id="bare")

        def on_key(self, event: Any) -> None:
            counter = self.query_one("#bare", Static)
            self.presses += 1
            counter.update(str(self.presses))

    app = Bare()
    async with app.run_test(size=size) as pilot:
        return await _key_to_frame(app, pilot, _keys(n))


def measure(size: tuple[int, int] = (80, 24), n: int = 60) -> tuple[float, float, int]:
    """(median board ms, median bare-screen ms, samples), with the UI's shared key-to-repaint
    helper (``cellwars_tui.bench.ui``) when it is there, else with this module's own."""
    try:
        from ..ui import bare_key_to_repaint_median, key_to_repaint_median
    except ImportError:  # pragma: no cover - an older tree without the shared helper
        boards = asyncio.run(_measure_board(size, n))
        bares = asyncio.run(_measure_bare(size, n))
        return statistics.median(boards) * 1000, statistics.median(bares) * 1000, len(boards)
    from ...games.cell_wars.screen import CellWarsScreen
    from ...table.local import LocalTable

    CellWarsScreen.dice_seconds = 0
    match = mid_game_match()
    board = key_to_repaint_median(lambda: CellWarsScreen(LocalTable(match, autosave=False)),
                                  keys=tuple(_keys(6)), samples=n, size=size)
    bare = bare_key_to_repaint_median(samples=n, size=size)
    return board * 1000, bare * 1000, n


def move_match() -> tuple[Match, str]:
    """The mid-game match moved on to Immune alpha's movement with a 6 rolled (three steps), and
    the key of a step it may take: a step and an undo bring the table back where it was."""
    from ...games.cell_wars.labels import KEY_OF_DIRECTION

    m = mid_game_match()
    while m.state.step != R.SPECIAL:
        m.play(0, next(a for a in m.legal_actions(0) if isinstance(a, R.End)))
    m.auto_chance = False
    m.play(0, R.Roll())
    m.play(CHANCE, R.Die(6))
    m.auto_chance = True
    step = next(a for a in m.legal_actions(0) if isinstance(a, R.Step))
    return m, KEY_OF_DIRECTION[step.dir]


def measure_move(size: tuple[int, int] = (80, 24), n: int = 60, *, autosave: bool = True) -> float:
    """Median ms from a key that changes the position (a step, then ``u`` taking it back, in
    turn) to the first frame after it: the whole table is painted again (board, seat panel, log,
    choices), not only the cursor's lines. With ``autosave`` the game is saved after each key as
    in play (the record encoded on the event loop, written by the save thread), to a file in a
    temporary folder."""
    from ...games.cell_wars.screen import CellWarsScreen
    from ...record.writer import flush
    from ...table.local import LocalTable
    from ..ui import key_to_repaint_median

    CellWarsScreen.dice_seconds = 0
    match, key = move_match()
    with tempfile.TemporaryDirectory(prefix="cellwars-bench-") as tmp:
        match.path = Path(tmp) / "bench.cellwars.json"
        try:
            return key_to_repaint_median(
                lambda: CellWarsScreen(LocalTable(match, autosave=autosave)),
                keys=(key, "u"), samples=n, size=size) * 1000
        finally:
            flush()


def bench_screen_repaint(quick: bool) -> list[Result]:
    n = 30 if quick else 120
    out = []
    for size in ((80, 24), (160, 50)):
        board, bare, samples = measure(size, n)
        label = f"{size[0]}x{size[1]}"
        out.append(result(f"cell-wars screen: key to repainted board, 6-player mid-game {label}",
                          board, "ms", "<=", 16,
                          note=f"median of {samples} arrow keys, headless pilot"))
        moves = n // 2
        out.append(result(f"cell-wars screen: key that plays a step (or undoes it) to repainted "
                          f"table, 6-player mid-game {label}", measure_move(size, moves), "ms",
                          "<=", 16, note=f"median of {moves} keys, step and u in turn; "
                                         "autosave on"))
        out.append(result(f"cell-wars screen: the same, autosave off {label}",
                          measure_move(size, moves, autosave=False), "ms",
                          note="what saving costs the key: the difference with the row above"))
        out.append(result(f"cell-wars screen: key to repaint, bare Textual screen {label}",
                          bare, "ms", note="the same measure on a one-Static screen"))
    return out


BENCHMARKS = [bench_screen_repaint]


if __name__ == "__main__":  # pragma: no cover
    for r in bench_screen_repaint(quick=True):
        print(f"{r.name}: {r.value:.2f} {r.unit} {r.goal} {r.note}")
