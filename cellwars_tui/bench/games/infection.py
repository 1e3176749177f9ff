"""Infection benchmarks: the win rate of bot teams (simulated clock) and the frame time of the
real-time table with four active players (goal: 30 updates per second or better)."""

from __future__ import annotations

from .. import Result, result
from ...games.infection import clarifications as C
from .infection_winrate import measure


def bench_win_rate(quick: bool) -> list[Result]:
    games = 40 if quick else 200
    out = []
    for players, pace, tense in ((1, "normal", False), (2, "easy", False), (4, "normal", False),
                                 (4, "normal", True)):
        secs = C.tense_round_seconds(players) if tense else C.ROUND_SECONDS_DEFAULT
        m = measure(players, C.PACES[pace], games, seed=1, round_seconds=secs)
        name = f"infection: win rate, {players} {pace} bot(s)" + (
            f", tense team game ({secs} s rounds)" if tense else "")
        out.append(result(name, m["win"] * 100, "%",
                          note=f"{games} games, wins end at {m['win_time']:.0f} s of "
                               f"{C.ROUNDS * secs} on average"))
    return out



def bench_frames(quick: bool) -> list[Result]:
    """The real-time table with four bots rolling, on the real clock, drawn to a headless 100x30
    terminal: screen updates per second achieved (a late tick is skipped, so a slow frame lowers
    the rate), the slowest second, the CPU each update takes, and how far the timer's ticks and
    the round's end stray from the monotonic clock.

    The full run plays a whole first round (three minutes of real time, four bots at the normal
    pace so the virus survives it); ``--quick`` watches 5 s of four hard (fast) bots."""
    import asyncio
    import statistics
    import time

    from ...core.match import Match, Seat
    from ...ui.app import CellwarsApp
    from ...games.infection.rules import GAME, InfectionOptions
    from ...games.infection.screen import FPS, InfectionScreen
    from ...table.realtime import RoundSession

    round_seconds = C.ROUND_SECONDS_DEFAULT
    level = "hard" if quick else "normal"  # a bot's level is its pace (paces option left empty)
    seats = [Seat(name=f"bot {i + 1}", kind="bot", bot=level) for i in range(4)]
    match = Match(GAME, InfectionOptions(players=4, round_seconds=round_seconds), seats, 7)
    app = CellwarsApp(match=match)
    arrivals: list[float] = []  # perf_counter at each screen update
    lateness: list[float] = []  # each tick's delay after its due moment on the monotonic clock
    indices: list[int] = []  # each delivered tick's index (a late wake-up skips stale ticks)
    costs: list[float] = []
    actions = [0]
    cpu = [0.0]
    ends: dict[str, float] = {}  # "start": monotonic start of round 1, "expired": its time-up

    async def run() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, InfectionScreen)
            session = screen.table.round_clock()
            assert isinstance(session, RoundSession) and session.timer is not None
            timer = session.timer  # (the round session's: it tells the screen at each tick)
            ends["start"] = timer._deadline - timer.duration
            original = session._on_tick

            def timed_tick(tick) -> None:
                t0 = time.perf_counter()
                arrivals.append(t0)
                lateness.append(tick.late)
                indices.append(tick.index)
                original(tick)
                costs.append(time.perf_counter() - t0)

            timer._subscribers = [timed_tick if f == original else f for f in timer._subscribers]
            # (subscribed before the screen's own expiry handler starts round 2)
            timer._on_expire.insert(0, lambda: ends.setdefault("expired", time.monotonic()))
            start = match.cursor
            cpu0 = time.process_time()
            if quick:
                await asyncio.sleep(5.0)
            else:
                while "expired" not in ends and not match.is_over():
                    await asyncio.sleep(0.25)
            cpu[0] = time.process_time() - cpu0
            actions[0] = match.cursor - start
            timer.close()

    import os
    import tempfile

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
    span = arrivals[-1] - arrivals[0] if len(arrivals) > 1 else 0.0
    rate = (len(arrivals) - 1) / span if span else 0.0
    gaps = sorted(b - a for a, b in zip(arrivals, arrivals[1:])) or [0.0]
    p95 = gaps[min(len(gaps) - 1, int(len(gaps) * 0.95))]
    slowest = slowest_second(arrivals)
    watched = (f"{span:.0f} s real time, 4 {level} bots, {actions[0]} steps applied"
               + ("" if quick else ", round 1 to its time-up"))
    worst_tick = max(lateness, default=0.0)
    skipped = sum(b - a - 1 for a, b in zip(indices, indices[1:]) if b > a)
    rows = [
        result("infection: screen updates/s, 4 players rolling", rate, "updates/s", ">=", 30,
               note=f"{watched}; p95 gap {p95 * 1e3:.0f} ms"),
        result("infection: screen updates in the slowest second of the round", slowest,
               "updates", ">=", 30,
               note=f"longest gap between two updates {gaps[-1] * 1e3:.0f} ms; {skipped} of "
                    f"{len(indices) + skipped} ticks skipped after late wake-ups"),
        result("infection: CPU per screen update (draw, bots, autosave)",
               cpu[0] / max(1, len(arrivals)) * 1e3, "ms", "<=", 1000 / FPS,
               note=f"tick handler {statistics.fmean(costs or [0]) * 1e3:.2f} ms mean, "
                    f"{max(costs, default=0) * 1e3:.1f} ms max; a loaded machine lowers the rate "
                    "above, not this"),
    ]
    if "expired" in ends:
        end_drift = ends["expired"] - (ends["start"] + round_seconds)
        rows.append(result(
            f"infection: timer drift from the monotonic clock over a {round_seconds} s round",
            max(worst_tick, abs(end_drift)) * 1e3, "ms", "<=", 50,
            note=f"real clock, four players; time-up {end_drift * 1e3:+.1f} ms from "
                 f"{round_seconds} s after the start; worst of {len(lateness)} ticks "
                 f"{worst_tick * 1e3:.1f} ms late"))
    else:
        rows.append(result(
            "infection: timer tick lateness on the monotonic clock (quick: part of a round)",
            worst_tick * 1e3, "ms", "<=", 50,
            note=f"worst of {len(lateness)} ticks over {span:.0f} s; the full bench plays a "
                 f"whole {round_seconds} s round and checks its time-up too"))
    return rows


def slowest_second(arrivals: list[float]) -> float:
    """The fewest updates in any one-second window that starts at an update and ends within the
    run (the steadiness of the rate); the count of updates when the run is shorter than 1 s."""
    if not arrivals:
        return 0.0
    if arrivals[-1] - arrivals[0] < 1.0:
        return float(len(arrivals))
    fewest, j = len(arrivals), 0
    for i, t in enumerate(arrivals):
        if t + 1.0 > arrivals[-1]:
            break
        while j < len(arrivals) and arrivals[j] < t + 1.0:
            j += 1
        fewest = min(fewest, j - i)
    return float(fewest)


BENCHMARKS = [bench_win_rate, bench_frames]
