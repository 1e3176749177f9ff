"""Replay analysis benchmarks (``cellwars bench --only analysis``): decisions weighed a second per
game, the figures issue 31 names (a 60-decision Virus Fight and Cellulis Bellum game in at most
10 s, a 16-round two-player Cell Wars game in at most 60 s, on the machine's cores), whether
two seeds judge the same moves alike at the default budget (but for moves near a threshold), and
where the default budget's blunders still differ by seed, whether ``STABLE``'s budget marks the
same ones.

The games are played here by bots of the easy level (a fixed seed), so each run weighs the same
records. Times are wall-clock on a process pool of one worker per core; the load of the machine
is printed with every figure (other work shares the cores).
"""

from __future__ import annotations

import os
import resource
import random
import time

from . import Result, result
from ..ai.levels import make_bot
from ..analysis import Analysis, Decision, analyse
from ..analysis.evaluators import default_budget
from ..analysis.run import default_workers
from ..core.api import CHANCE
from ..core.match import Match, Seat
from ..core.registry import get_game
from ..replay.model import Replay

GOALS = {"virus-fight": 10.0, "cellulis-bellum": 10.0, "cell-wars": 60.0}
DECISIONS = {"virus-fight": 60, "cellulis-bellum": 60}  # cut after so many decisions
SEEDS = {"cell-wars": 3}  # seed 3: a game that goes all 16 rounds (254 decisions)
# The budget that marks the same blunders with seeds 0 and 1 where the default budget does not
# quite (Virus Fight: a move or two lie on the blunder line at 300 playouts; the rules page says)
STABLE = {"virus-fight": 1200}


def cpu_seconds() -> float:
    """CPU seconds of this process and its finished children (the pool's workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def load() -> str:
    try:
        return "load %.1f" % os.getloadavg()[0]
    except OSError:
        return "load ?"


def record(game_id: str, seed: int = 1, level: str = "easy") -> Replay:
    """A two-seat game (one seat for a solitaire) played by bots, as a replay."""
    game = get_game(game_id)
    players = max(game.min_players, min(2, game.max_players))
    seats = [Seat(name=f"Bot {i + 1}", kind="bot", bot=level) for i in range(players)]
    match = Match(game, game.options_type(players=players), seats, seed)
    bot = make_bot(level)
    rng = random.Random(seed)
    for _ in range(5000):
        if match.is_over():
            break
        seat = match.to_act()[0]
        if seat == CHANCE:
            match.play(CHANCE, game.sample_chance(match.state, rng))
            continue
        match.play(seat, bot.choose(game, game.view(match.state, seat), seat, rng, 5.0))
    replay = Replay.from_match(match)
    cut = DECISIONS.get(game_id)
    if cut:
        steps, decisions = [], 0
        for step in replay.steps:
            steps.append(step)
            decisions += step.seat != CHANCE
            if decisions >= cut:
                break
        replay = Replay(game, replay.options, replay.seats, replay.seed, steps)
    return replay


def _speed(game_id: str, quick: bool) -> list[Result]:
    replay = record(game_id, SEEDS.get(game_id, 1))
    if quick:  # a few decisions in one process: the rate only
        steps = replay.steps[: 12 if game_id != "infection" else 6]
        replay = Replay(replay.game, replay.options, replay.seats, replay.seed, steps)
        workers = 1
    else:
        workers = default_workers()
    t0, c0 = time.perf_counter(), cpu_seconds()
    found = analyse(replay, workers=workers)
    wall = time.perf_counter() - t0
    cpu = cpu_seconds() - c0
    weighed = sum(not d.forced for d in found.decisions)
    note = (f"{weighed} decisions of {len(replay)} steps, budget {found.budget}, "
            f"{workers} worker(s), {cpu:.1f} CPU-s (on {workers} idle cores about "
            f"{cpu / workers:.1f} s), {load()}")
    out = [result(f"analysis {game_id} decisions/s", weighed / max(wall, 1e-9), "/s",
                  note=note)]
    goal = GOALS.get(game_id)
    if goal and not quick:
        out.append(result(f"analysis {game_id} whole game", wall, "s", "<=", goal, note=note))
        again = analyse(replay, workers=workers, seed=1)
        out.append(_agreement(game_id, found, again))
        stable = STABLE.get(game_id)
        if stable:
            t0 = time.perf_counter()
            first = analyse(replay, workers=workers, seed=0, budget=stable)
            wall = time.perf_counter() - t0
            second = analyse(replay, workers=workers, seed=1, budget=stable)
            same = first.judged_steps("blunder") == second.judged_steps("blunder")
            out.append(result(f"analysis {game_id} same blunders, seeds 0 and 1, budget {stable}",
                              100.0 if same else 0.0, "%", note=(
                                  f"blunders seed 0: {first.judged_steps('blunder')}; seed 1: "
                                  f"{second.judged_steps('blunder')}; {wall:.1f} s a seed, "
                                  f"{load()}")))
    return out


def _agreement(game_id: str, found: Analysis, again: Analysis) -> Result:
    """The judgments two seeds agree on: of the moves either judges (or marks near a threshold),
    the share judged alike or marked near by one of them (a grade its margin could change)."""
    first = {d.step: d for d in found.decisions if d.judgment or d.near}
    second = {d.step: d for d in again.decisions if d.judgment or d.near}
    steps = sorted(set(first) | set(second))
    none = Decision(step=0, seat=0, played="")
    alike = [n for n in steps
             if first.get(n, none).judgment == second.get(n, none).judgment
             or first.get(n, none).near or second.get(n, none).near]
    near = [n for n in steps if first.get(n, none).near or second.get(n, none).near]
    share = len(alike) / len(steps) if steps else 1.0
    return result(f"analysis {game_id} judgments agreed by seeds 0 and 1", 100 * share, "%",
                  note=f"blunders seed 0: {found.judged_steps('blunder')}; seed 1: "
                       f"{again.judged_steps('blunder')}; judged by either "
                       f"{len(steps) - len(near)} clear of a threshold, {len(near)} near one")


def bench_analysis(quick: bool) -> list[Result]:
    out: list[Result] = []
    for game_id in ("virus-fight", "cellulis-bellum", "cell-wars", "infection",
                    "cell-management"):
        out.extend(_speed(game_id, quick))
    return out


BENCHMARKS = [bench_analysis]
