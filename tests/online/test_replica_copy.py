"""A server's copy of another server's table (online/tables.py ``_extended``): read again at each
new version, its game goes on with the new steps only when the stored record is the one it was
read with and more; any other record is played again from its start."""

from __future__ import annotations

import random
from types import SimpleNamespace

from cellwars_tui.core.api import CHANCE
from cellwars_tui.core.match import Match, Seat
from cellwars_tui.core.registry import get_game
from cellwars_tui.online.tables import _extended
from cellwars_tui.record.format import decode_record, encode_match, record_to_match

import tests.toy_game  # noqa: F401  (registers toy-race)


def _played(seed: int, steps: int) -> Match:
    game = get_game("toy-race")
    match = Match(game, game.options_type(players=2), [Seat(name="a"), Seat(name="b")], seed)
    rng = random.Random(seed)
    while len(match.steps) < steps and not match.is_over():
        seat = match.to_act()[0]
        if seat == CHANCE:
            match.play(CHANCE, game.sample_chance(match.state, rng))
        else:
            match.play(seat, rng.choice(game.legal_actions(match.state, seat)))
    return match


def _copy(match: Match, upto: int):
    """A copy read from the record of ``match``'s first ``upto`` steps."""
    record = decode_record(encode_match(match), "t")
    record.steps = record.steps[:upto]
    return SimpleNamespace(match=record_to_match(record, "t"), record_steps=record.steps)


def test_a_copy_goes_on_with_the_new_steps_only():
    owner = _played(1, 30)
    copy = _copy(owner, 12)
    steps = decode_record(encode_match(owner), "t").steps
    extended = _extended(copy, steps)
    assert extended is copy.match  # the same game, gone on
    assert extended.state == owner.state and extended.steps == owner.steps


def test_a_record_that_is_not_the_copys_and_more_is_played_again():
    owner = _played(1, 30)
    other = decode_record(encode_match(_played(2, 30)), "t").steps
    assert _extended(_copy(owner, 12), other) is None  # another game (an undo, a restart)
    shorter = decode_record(encode_match(owner), "t").steps[:8]
    assert _extended(_copy(owner, 12), shorter) is None
    assert _extended(SimpleNamespace(match=None, record_steps=[]), shorter) is None
