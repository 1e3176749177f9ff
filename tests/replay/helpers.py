"""Recorded games for the replay tests: the toy race, played by a seeded random hand."""

from __future__ import annotations

import random

from cellwars_tui.core import Match, Seat
from cellwars_tui.record import save_match
from tests.toy_game import TOY, Hold, Roll


def toy_match(seed: int = 3, moves: int = 40, *, hold_every: int = 3) -> Match:
    """A toy race: players roll, hold every few decisions (chance resolved by the match)."""
    m = Match(TOY, TOY.options_type(players=2), [Seat(name="Ann"), Seat(name="Bob")], seed)
    rng = random.Random(seed)
    for i in range(moves):
        if m.is_over():
            break
        hold = hold_every and rng.randrange(hold_every) == 0
        m.play(m.to_act()[0], Hold() if hold else Roll(), t=float(i))
    return m


def save_toy(tmp_path, name: str = "toy.cellwars.json", **kw):
    m = toy_match(**kw)
    path = tmp_path / name
    save_match(m, path)
    return m, path
