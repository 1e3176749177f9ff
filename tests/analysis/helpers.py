"""Records for the analysis tests: small games, and positions where one move loses at once."""

from __future__ import annotations

import random
from pathlib import Path

from cellwars_tui.core import CHANCE, Match, Seat
from cellwars_tui.core.registry import get_game
from cellwars_tui.record import save_match


def random_match(game_id: str, seed: int, steps: int) -> Match:
    """A two-seat game of random legal moves (chance drawn by the match) cut once its record
    has ``steps`` steps (how the positions the tests use were found)."""
    game = get_game(game_id)
    m = Match(game, game.options_type(players=2), [Seat(name="Ann"), Seat(name="Bob")], seed)
    rng = random.Random(seed)
    while len(m.history) < steps:
        seat = m.to_act()[0]
        if seat == CHANCE:
            m.play(CHANCE, game.sample_chance(m.state, rng))
            continue
        m.play(seat, rng.choice(list(game.legal_actions(m.state, seat))))
    return m


def save(match: Match, folder: Path, name: str) -> Path:
    path = folder / f"{name}.cellwars.json"
    save_match(match, path)
    return path
