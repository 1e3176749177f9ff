"""``cellwars balance GAME --ladder``: does each bot level beat the level below?

For each step of the ladder (random < easy < normal < hard, :mod:`cellwars_tui.ai.levels`) the
stronger level plays the weaker, once leading each side (``Game.sides``: seat 1 then seat 2 of a
two-player game, each camp of Cell Wars), every other seat played by the weaker level. Game ``i``
of each seating uses seed ``S + i`` (the same dice in both seatings); the games run in the balance
tool's process pool and each bot sees only its own view. A level's budget is playouts, so a run
gives the same games on any machine and under any load.

A step's figure is the stronger level's score: its wins plus half its undecided games (draws,
shared wins, safety stops), over all the games of both seatings, with a 95% interval. A step
holds when the score is at least :data:`TARGET`. The rules page of each game prints its ladder.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from ..ai.levels import LEVEL_NAMES, level_words
from ..core.errors import CellwarsError
from . import Result, result
from .balance import (MAX_GAMES, Progress, Series, _load, _pct, checked_options, is_decisive,
                      run_series, side_of)

TARGET = 0.65  # the stronger level's score a step of the ladder must reach


def ladder(game_id: str, *, players: int | None = None, games: int = 50, seed: int = 1,
           jobs: int | None = None, options: dict[str, str] | None = None,
           levels: tuple[str, ...] = LEVEL_NAMES, progress: bool = True) -> dict[str, Any]:
    """Play every step of the ladder, ``games`` games for each side the stronger level leads;
    return the report (what ``--json`` prints). CellwarsError (one line) for a game that has no
    ladder (a solitaire, a real-time game) or bad options."""
    import os

    from ..core.registry import get_game

    game = get_game(game_id)
    if game.max_players < 2:
        raise CellwarsError(f"{game.title} is a solitaire: it has no bot levels to measure")
    if game.real_time:
        raise CellwarsError(f"{game.title} is played in real time: its levels are paces, "
                            "not a ladder of strength")
    if not 1 <= games <= MAX_GAMES:
        raise CellwarsError(f"games must be between 1 and {MAX_GAMES}, not {games}")
    opts = checked_options(game, players, options)
    players = opts["players"]
    sides = game.sides(players)
    side_names = list(dict.fromkeys(sides))
    steps = list(zip(levels, levels[1:]))
    series: list[Series] = []
    for weak, strong in steps:
        for side in side_names:
            bots = tuple(strong if sides[q] == side else weak for q in range(players))
            series.append(Series(f"{strong}>{weak}>{side}", bots, [None] * games))
    jobs = jobs or os.cpu_count() or 1
    total = sum(len(sr.results) for sr in series)
    bar = Progress(total, f"ladder {game.id}") if progress else None
    t0 = time.perf_counter()
    run_series(game, opts, series, 0, seed, jobs, bar)
    elapsed = time.perf_counter() - t0
    report: dict[str, Any] = {
        "game": game.id, "title": game.title, "rules_version": game.rules_version,
        "rules": game.rules_text(game.options_from_dict(opts)),
        "options": dict(opts), "players": players, "games_per_seating": games,
        "seeds": [seed, seed + games - 1], "jobs": jobs, "seconds": round(elapsed, 1),
        "load": _load(), "target": TARGET, "sides": side_names,
        "levels": {name: level_words(game, name) for name in levels},
        "steps": [],
    }
    for k, (weak, strong) in enumerate(steps):
        mine = series[k * len(side_names):(k + 1) * len(side_names)]
        seatings = []
        wins = losses = undecided = 0
        for side, sr in zip(side_names, mine):
            done = [r for r in sr.results if r is not None]
            w = sum(1 for r in done if is_decisive(r, players) and side_of(sides, r) == side)
            lost = sum(1 for r in done if is_decisive(r, players)) - w
            u = len(done) - w - lost
            seatings.append({"strong_leads": side, "games": len(done), "wins": w,
                             "losses": lost, "undecided": u})
            wins, losses, undecided = wins + w, losses + lost, undecided + u
        n = wins + losses + undecided
        score = (wins + 0.5 * undecided) / n if n else 0.0
        lo, hi = wilson_share(score, n)
        report["steps"].append({
            "strong": strong, "weak": weak, "games": n, "wins": wins, "losses": losses,
            "undecided": undecided, "score": score, "score_ci95": [lo, hi],
            "holds": score >= TARGET, "seatings": seatings,
        })
    return report


def wilson_share(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a share ``p`` of ``n`` games (half points allowed; the
    balance tool's :func:`~.balance.wilson` takes whole counts)."""
    import math

    if n == 0:
        return 0.0, 1.0
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, mid - half), min(1.0, mid + half)


def format_ladder(rep: dict[str, Any]) -> str:
    n = rep["games_per_seating"]
    lines = [f"{rep['title']} ladder: {rep['players']} players, {n} games for each side the "
             f"stronger level leads, seeds {rep['seeds'][0]}-{rep['seeds'][1]} "
             f"({rep['rules']})",
             "levels         " + " < ".join(rep["levels"].values())]
    extra = {k: v for k, v in rep["options"].items() if k != "players"}
    if extra:
        lines.append("options        " + ", ".join(f"{k}={v}" for k, v in extra.items()))
    for st in rep["steps"]:
        lo, hi = st["score_ci95"]
        mark = "holds" if st["holds"] else f"BELOW {_pct(rep['target'])}"
        lines.append(f"{st['strong']:>6} vs {st['weak']:<6}  wins {st['wins']}, loses "
                     f"{st['losses']}, undecided {st['undecided']} of {st['games']} -> score "
                     f"{_pct(st['score'])} (95% interval {_pct(lo)}-{_pct(hi)}) {mark}")
        lines.append("                  " + " · ".join(
            f"leading {s['strong_leads']}: {s['wins']}-{s['losses']}"
            + (f" ({s['undecided']} undecided)" if s["undecided"] else "")
            for s in st["seatings"]))
    load = rep.get("load")
    lines.append(f"{rep['seconds']:.0f} s with {rep['jobs']} processes"
                 + (f"; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}" if load else ""))
    return "\n".join(lines)


def markdown_table(rep: dict[str, Any]) -> str:
    """The ladder as the rules pages print it (a Markdown table and a line on how it was run)."""
    lines = ["| stronger | weaker | games | wins | losses | undecided | score | 95% interval |",
             "|---|---|---:|---:|---:|---:|---:|---|"]
    for st in rep["steps"]:
        lo, hi = st["score_ci95"]
        lines.append(f"| {rep['levels'][st['strong']]} | {st['weak']} | {st['games']} | "
                     f"{st['wins']} | {st['losses']} | {st['undecided']} | "
                     f"{_pct(st['score'])} | {_pct(lo)}-{_pct(hi)} |")
    return "\n".join(lines)


def run_ladder(args: argparse.Namespace) -> int:
    """``cellwars balance GAME --ladder`` (bench/ladder.py)."""
    import json

    rep = ladder(args.game, players=args.players, games=args.games, seed=args.seed,
                 jobs=args.jobs, options=dict(args.option), progress=True)
    if args.json:
        print(json.dumps(rep, indent=2))
    else:
        print(format_ladder(rep))
        print()
        print(markdown_table(rep))
    return 0


# -- cellwars bench: one row per competitive game ------------------------------------------------
LADDER_GAMES = ("virus-fight", "cellulis-bellum", "cell-wars")


def bench_ladder(quick: bool) -> list[Result]:
    """The weakest step of each competitive game's ladder (few games: the full figures are
    ``cellwars balance GAME --ladder``'s, on the rules pages)."""
    games = 4 if quick else 20
    out = []
    for game_id in LADDER_GAMES:
        rep = ladder(game_id, games=games, progress=False)
        worst = min(rep["steps"], key=lambda st: st["score"])
        out.append(result(
            f"{game_id}: bot ladder, weakest step's score", 100 * worst["score"], "%",
            ">=", 100 * TARGET,
            note=f"{worst['strong']} vs {worst['weak']}, {worst['games']} games, seeds "
                 f"{rep['seeds'][0]}-{rep['seeds'][1]} each seating, {rep['seconds']:.0f} s"))
    return out


BENCHMARKS = [bench_ladder]
