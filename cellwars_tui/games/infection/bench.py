"""Infection benchmarks: the win rate of bot teams (simulated clock) and the frame time of the
real-time table with four active players (goal: 30 updates per second or better)."""

from __future__ import annotations

from ...bench import Result, result
from . import clarifications as C
from .winrate import measure


def bench_win_rate(quick: bool) -> list[Result]:
    games = 40 if quick else 200
    out = []
    for players, pace in ((1, "normal"), (2, "easy"), (4, "normal")):
        m = measure(players, C.PACES[pace], games, seed=1)
        out.append(result(f"infection: win rate, {players} {pace} bot(s)", m["win"] * 100, "%",
                          note=f"{games} games, wins end at {m['win_time']:.0f} s of 540 on average"))
    return out



def bench_frames(quick: bool) -> list[Result]:
    """The real-time table with four bots rolling at the fast pace, on the real clock, drawn to a
    headless 100x30 terminal: screen updates per second achieved (a late tick is skipped, so a slow
    frame lowers the rate) and the time each update takes."""
    import asyncio
    import statistics
    import time

    from ...core.match import Match, Seat
    from ...ui.app import CellwarsApp
    from .rules import GAME, InfectionOptions
    from .screen import FPS, InfectionScreen

    seconds = 2.0 if quick else 5.0
    seats = [Seat(name=f"bot {i + 1}", kind="bot", bot="mcts") for i in range(4)]
    match = Match(GAME, InfectionOptions(players=4, paces="fast"), seats, 7)
    app = CellwarsApp(match=match)
    arrivals: list[float] = []
    costs: list[float] = []
    actions = [0]
    cpu = [0.0]

    async def run() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, InfectionScreen)
            original = screen._on_tick

            def timed_tick(tick) -> None:
                t0 = time.perf_counter()
                arrivals.append(t0)
                original(tick)
                costs.append(time.perf_counter() - t0)

            screen.timer._subscribers = [timed_tick if f == original else f
                                         for f in screen.timer._subscribers]
            start = match.cursor
            cpu0 = time.process_time()
            await asyncio.sleep(seconds)
            cpu[0] = time.process_time() - cpu0
            actions[0] = match.cursor - start
            screen.timer.close()

    import tempfile
    import os

    with tempfile.TemporaryDirectory() as home:
        old = os.environ.get("CELLWARS_HOME")
        os.environ["CELLWARS_HOME"] = home
        try:
            asyncio.run(run())
        finally:
            if old is None:
                os.environ.pop("CELLWARS_HOME", None)
            else:
                os.environ["CELLWARS_HOME"] = old
    rate = (len(arrivals) - 1) / (arrivals[-1] - arrivals[0]) if len(arrivals) > 1 else 0.0
    gaps = sorted(b - a for a, b in zip(arrivals, arrivals[1:])) or [0.0]
    p95 = gaps[min(len(gaps) - 1, int(len(gaps) * 0.95))]
    return [
        result("infection: screen updates/s, 4 players rolling", rate, "updates/s", ">=", 30,
               note=f"{seconds:g} s real time, {actions[0]} steps applied; "
                    f"p95 gap {p95 * 1e3:.0f} ms"),
        result("infection: CPU per screen update (draw, bots, autosave)",
               cpu[0] / max(1, len(arrivals)) * 1e3, "ms", "<=", 1000 / FPS,
               note=f"tick handler {statistics.fmean(costs or [0]) * 1e3:.2f} ms mean, "
                    f"{max(costs, default=0) * 1e3:.1f} ms max; a loaded machine lowers the rate "
                    "above, not this"),
    ]


BENCHMARKS = [bench_win_rate, bench_frames]
