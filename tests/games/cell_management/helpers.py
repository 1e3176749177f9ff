"""Shared helpers for the Cell Management tests: ships built by hand and walks run to the end."""

from __future__ import annotations

import msgspec

from cellwars_tui.games.cell_management.rules import (
    GAME, RETURN, START, CMState, Setup, initial_position, setup_from_code, walk,
)

SAMPLE = setup_from_code("N3245A-234-4A32N5")


def ship(code: str = "N3245A-234-4A32N5", **fields) -> CMState:
    return initial_position(setup_from_code(code), **fields)


def with_captives(state: CMState, *, hideout=(), center=()) -> CMState:
    """``state`` with one captive of each species in ``hideout`` moved to its hideout and one of
    each in ``center`` moved to the centre (taken from the cell)."""
    n = state.species
    hide = tuple(x in hideout for x in range(n))
    cen = tuple(x in center for x in range(n))
    cell = tuple(2 - hide[x] - cen[x] for x in range(n))
    return msgspec.structs.replace(state, in_cell=cell, in_hideout=hide, in_center=cen,
                                   phase=START)


def events_of(state: CMState, cell: int) -> list:
    return [e for e, _ in walk(state, cell)]


def play(state: CMState, *actions) -> CMState:
    for a in actions:
        state, _ = GAME.apply(state, 0, a)
    return state


__all__ = ["SAMPLE", "ship", "with_captives", "events_of", "play", "RETURN", "START", "Setup"]
