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


BENCHMARKS = [bench_win_rate]
