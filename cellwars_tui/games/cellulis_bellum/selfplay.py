"""Cellulis Bellum self-play: how games end with the bots on both sides.

The measures the rules page quotes (how often a game ends by a destroyed nucleus, each seat's
share of the decisive games, the search bot against the greedy one, turns and time a game) come
from here, by seed, with a playout budget for the search bot (never a clock, so a figure does
not depend on the machine's load):

    python -m cellwars_tui.games.cellulis_bellum.selfplay 40 --playouts 200 --jobs 2
    python -m cellwars_tui.games.cellulis_bellum.selfplay 20 --against greedy
    python -m cellwars_tui.games.cellulis_bellum.selfplay 20 --against random

Games run in a process pool (``--jobs``); each seat sees only its view, like every bot.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

import msgspec

from ...ai.bots import MCTSBot, candidate_actions
from .rules import GAME, CellulisBellumOptions, Generate, VirusShot

PLAYOUTS = 200  # the search bot's budget a decision in these measures
BUDGET = 600.0  # seconds: far more than the playouts take, so the playouts decide


class GameResult(msgspec.Struct, frozen=True):
    seed: int
    bots: tuple[str, str]  # by seat: "search", "greedy" or "random"
    winners: tuple[int, ...]
    termination: str  # "nucleus destroyed", "turn limit" (", equal territories" for a draw)
    turns: int
    seconds: float
    generations: int
    shots: int


def greedy_choice(state, seat: int, rng: random.Random):
    """The greedy bot: the action whose position the heuristic rates best one step ahead
    (an end of game by its outcome), ties at random."""
    actions = list(candidate_actions(GAME, state, seat))
    if len(actions) == 1:
        return actions[0]
    best, best_value = [], -math.inf
    for action in actions:
        after, _ = GAME._apply(state, seat, action)
        out = GAME.outcome(after)
        value = out.returns(2)[seat] if out is not None else GAME.heuristic(after)[seat]
        if value > best_value:
            best, best_value = [action], value
        elif value == best_value:
            best.append(action)
    return rng.choice(best)


def play_game(seed: int, bots: tuple[str, str], playouts: int = PLAYOUTS,
              options: CellulisBellumOptions | None = None) -> GameResult:
    """One game, reproducible from its seed."""
    rng = random.Random(seed)
    search = MCTSBot(max_playouts=playouts)
    s = GAME.initial_state(options or CellulisBellumOptions())
    gens = shots = 0
    t0 = time.perf_counter()
    while GAME.to_act(s):
        seat = s.seat
        view = GAME.view(s, seat)
        if bots[seat] == "greedy":
            action = greedy_choice(view, seat, rng)
        elif bots[seat] == "random":
            action = rng.choice(GAME.legal_actions(view, seat))
        else:
            action = search.choose(GAME, view, seat, rng, BUDGET)
        gens += isinstance(action, Generate)
        shots += isinstance(action, VirusShot)
        s, _ = GAME.apply(s, seat, action)
    out = GAME.outcome(s)
    assert out is not None
    return GameResult(seed, bots, out.winners, out.termination, s.turn,
                      time.perf_counter() - t0, gens, shots)


def _run(job: tuple[int, tuple[str, str], int, dict]) -> GameResult:
    seed, bots, playouts, options = job
    return play_game(seed, bots, playouts, CellulisBellumOptions(**options))


def run(games: int, *, against: str = "search", playouts: int = PLAYOUTS, seed: int = 0,
        jobs: int = 1, options: dict | None = None, log=None) -> list[GameResult]:
    """``games`` games of the search bot against ``against``, seats alternating (game i has the
    search bot on seat i % 2; against itself, both seats search)."""
    work = []
    for i in range(games):
        bots = ("search", against) if i % 2 == 0 else (against, "search")
        work.append((seed + i, bots, playouts, options or {}))
    results = []
    pool = ProcessPoolExecutor(jobs) if jobs > 1 else None
    try:
        it = pool.map(_run, work) if pool is not None else map(_run, work)
        for r in it:
            results.append(r)
            if log is not None:
                who = "draw" if len(r.winners) != 1 else GAME.seat_label(r.winners[0])
                print(f"seed {r.seed} {r.bots[0]}-{r.bots[1]}: {who} ({r.termination}) "
                      f"after {r.turns} turns, {r.seconds:.0f} s", file=log, flush=True)
    finally:
        if pool is not None:
            pool.shutdown()
    return results


class Summary(msgspec.Struct, frozen=True):
    games: int
    by_nucleus: int  # ended by a destroyed nucleus (before the safety limit)
    by_limit: int  # reached the safety turn limit
    decisive: int
    seat_wins: tuple[int, int]  # of the decisive games
    search_wins: int  # games the search bot won outright (against another bot)
    median_turns: float
    median_seconds: float


def summarise(results: Sequence[GameResult]) -> Summary:
    decisive = [r for r in results if len(r.winners) == 1]
    return Summary(
        games=len(results),
        by_nucleus=sum(r.termination.startswith("nucleus destroyed") for r in results),
        by_limit=sum(r.termination.startswith("turn limit") for r in results),
        decisive=len(decisive),
        seat_wins=(sum(r.winners == (0,) for r in decisive),
                   sum(r.winners == (1,) for r in decisive)),
        search_wins=sum(len(r.winners) == 1 and r.bots[r.winners[0]] == "search"
                        and r.bots[0] != r.bots[1] for r in results),
        median_turns=statistics.median(r.turns for r in results) if results else 0.0,
        median_seconds=statistics.median(r.seconds for r in results) if results else 0.0,
    )


def report(s: Summary, against: str, playouts: int) -> str:
    pct = (lambda k, n: f"{k}/{n} ({k / n:.0%})" if n else f"{k}/0")
    lines = [f"{s.games} games, search bot ({playouts} playouts a decision) against {against}",
             f"ended by a destroyed nucleus: {pct(s.by_nucleus, s.games)}; "
             f"safety turn limit: {pct(s.by_limit, s.games)}",
             f"decisive: {pct(s.decisive, s.games)}; of those Yellow (first) "
             f"{pct(s.seat_wins[0], s.decisive)}, Violet {pct(s.seat_wins[1], s.decisive)}"]
    if against != "search":
        lines.append(f"search bot won {pct(s.search_wins, s.games)}")
    lines.append(f"median {s.median_turns:g} turns, {s.median_seconds:.0f} s a game")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m cellwars_tui.games.cellulis_bellum.selfplay")
    ap.add_argument("games", type=int)
    ap.add_argument("--against", choices=("search", "greedy", "random"), default="search")
    ap.add_argument("--playouts", type=int, default=PLAYOUTS)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--new-virus", choices=("acts next turn", "acts at once"), default=None)
    ap.add_argument("--turn-limit", type=int, default=None)
    a = ap.parse_args(argv)
    if not 1 <= a.games <= 10_000 or not 1 <= a.playouts <= 100_000 or not 1 <= a.jobs <= 64:
        print("games 1-10000, playouts 1-100000, jobs 1-64", file=sys.stderr)
        return 2
    options = {k: v for k, v in (("new_virus", a.new_virus), ("turn_limit", a.turn_limit))
               if v is not None}
    results = run(a.games, against=a.against, playouts=a.playouts, seed=a.seed, jobs=a.jobs,
                  options=options, log=sys.stdout)
    print(report(summarise(results), a.against, a.playouts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
