"""Benchmarks of the shared core: autosave cost and record replay speed, for every registered game."""

from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path

from . import Result, result, timed
from ..record.format import load_match, save_match
from ..core.api import CHANCE
from ..core.match import Match, Seat
from ..core.registry import all_games


def _random_match(game, seed: int, max_steps: int = 3000) -> Match:
    options = game.options_type(players=max(game.min_players, min(2, game.max_players)))
    seats = [Seat(name=f"seat {i + 1}", kind="bot", bot="random") for i in range(options.players)]
    match = Match(game, options, seats, seed)
    rng = random.Random(seed)
    while not match.is_over() and len(match.steps) < max_steps:
        seats_to_act = [s for s in match.to_act() if s != CHANCE]
        if not seats_to_act:
            break
        seat = rng.choice(seats_to_act)
        match.play(seat, rng.choice(list(match.legal_actions(seat))))
    return match


def bench_records(quick: bool) -> list[Result]:
    out: list[Result] = []
    with tempfile.TemporaryDirectory() as tmp:
        for game in all_games():
            match = _random_match(game, seed=7)
            path = Path(tmp) / f"{game.id}.cellwars.json"
            n = len(match.steps)
            save_s, _ = timed(lambda: save_match(match, path), min_time=0.1 if quick else 0.5)
            out.append(result(f"{game.id}: autosave ({n} steps, atomic write)", save_s * 1e3, "ms",
                              "<=", 50, note="per action, whole record rewritten"))
            t0 = time.perf_counter()
            loaded = load_match(path)
            load_s = time.perf_counter() - t0
            assert loaded.state == match.state
            out.append(result(f"{game.id}: open+replay record", n / load_s if load_s else 0.0,
                              "steps/s", note=f"{n} steps in {load_s * 1e3:.1f} ms"))
    return out


BENCHMARKS = [bench_records]
