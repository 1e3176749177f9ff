"""The registry: a game registered for a ``with`` block only, and unregister."""

from __future__ import annotations

import msgspec
import pytest

from cellwars_tui.core import CellwarsError, all_games, get_game
from cellwars_tui.core.registry import register, registered, unregister
from tests.toy_game import TOY, ToyRace


class Other(ToyRace):
    meta = msgspec.structs.replace(
        ToyRace.meta,
        id="toy-race-other",
        title="Other toy race",
    )


def test_a_game_registered_for_a_block_is_gone_after_it():
    other = Other()
    with registered(other):
        assert get_game("toy-race-other") is other and other in all_games()
    assert other not in all_games()
    with pytest.raises(CellwarsError, match="unknown game 'toy-race-other'"):
        get_game("toy-race-other")


def test_a_block_that_replaces_a_game_puts_the_old_one_back_even_after_an_error():
    stand_in = ToyRace()
    with pytest.raises(RuntimeError), registered(stand_in):
        assert get_game("toy-race") is stand_in
        raise RuntimeError("the test failed")
    assert get_game("toy-race") is TOY


def test_unregister_takes_a_game_out_and_says_what_it_took():
    other = register(Other())
    assert unregister("toy-race-other") is other
    assert other not in all_games()
    assert unregister("toy-race-other") is None
