"""Cell Management's moves as pure functions: the guards' walk, and what each of the player's
decisions does. The game (:mod:`.rules`) and the solver both play through these."""

from __future__ import annotations

from collections.abc import Iterator

import msgspec

from ...core import Action, Event
from ...core.errors import IllegalAction
from .setups import Setup
from .types import (GAVE_UP, OUT_OF_ROUNDS, RETURN, START, WON, Arrive, CMState, Done, Ended,
                    Escape, Examine, GiveUp, Kept, Leave, Return, Returned, Search, Start, Won)


def _replace(state: CMState, **changes) -> CMState:
    return msgspec.structs.replace(state, **changes)


def _set(t: tuple, i: int, v) -> tuple:
    return t[:i] + (v,) + t[i + 1:]


def is_solved(state: CMState) -> bool:
    return bool(state.in_center) and all(state.in_center)


def walk(state: CMState, cell: int) -> Iterator[tuple[Event, CMState]]:
    """The guards' round from the cell of species ``cell``: one (event, state after it) per step.

    Ends with a ``Leave`` (or a ``Won`` the moment the last species escapes). The states are
    mid-walk snapshots (phase START) except the last one, which is ready for the next decision.
    """
    n = state.species
    start = state.position_of_cell(cell)
    rnd = state.round + 1
    yield Arrive(rnd, cell, start), state
    for i in range(n):
        p = (start + i) % n
        c, h = state.cells[p], state.hideouts[p]
        hostile = h in state.hostile
        occupied = state.in_hideout[h]
        attempt = occupied != hostile  # a friend present, or an enemy absent
        yield Examine(p, c, h, hostile, occupied, attempt), state
        if attempt:
            if state.in_cell[c] == 0:
                yield Escape(c, "nobody"), state
            elif state.in_hideout[c]:
                state = _replace(state, in_cell=_set(state.in_cell, c, state.in_cell[c] - 1),
                                 in_center=_set(state.in_center, c, True))
                if is_solved(state):
                    state = _replace(state, round=rnd, phase=WON)
                    yield Escape(c, "center"), state
                    yield Won(rnd), state
                    return
                yield Escape(c, "center"), state
            else:
                state = _replace(state, in_cell=_set(state.in_cell, c, state.in_cell[c] - 1),
                                 in_hideout=_set(state.in_hideout, c, True))
                yield Escape(c, "hideout"), state
        found = state.in_hideout[h]
        if found:
            state = _replace(state, in_cell=_set(state.in_cell, h, state.in_cell[h] + 1),
                             in_hideout=_set(state.in_hideout, h, False))
        yield Search(p, h, found), state
    if rnd >= state.max_rounds:
        state = _replace(state, round=rnd, phase=OUT_OF_ROUNDS)
        yield Leave(rnd), state
        yield Ended(OUT_OF_ROUNDS), state
        return
    state = _replace(state, round=rnd)
    state = _replace(state, phase=RETURN if state.returnable() else START)
    yield Leave(rnd), state


def initial_position(setup: Setup, **fields) -> CMState:
    """The state right after ``setup`` (two captives in every cell), ready for round one."""
    n = len(setup.hideouts)
    return CMState(
        species=n, phase=START, hideouts=setup.hideouts, hostile=setup.hostile,
        cells=setup.cells, in_cell=(2,) * n, in_hideout=(False,) * n, in_center=(False,) * n,
        **fields,
    )


# -- the player's decisions ---------------------------------------------------------------------
def legal_moves(s: CMState) -> list[Action]:
    """Every decision the player may take now (the state is past its setup, not over)."""
    if s.phase == START:
        return [Start(c) for c in s.cells] + [GiveUp()]
    return [Return(x) for x in s.returnable()] + [Done(), GiveUp()]


def is_legal_move(s: CMState, a: Action) -> bool:
    """Whether the player may take ``a`` now (the state is past its setup, not over)."""
    if isinstance(a, GiveUp):
        return True
    if s.phase == START:
        return isinstance(a, Start) and 0 <= a.cell < s.species
    if isinstance(a, Done):
        return True
    return isinstance(a, Return) and a.species in s.returnable()


def apply_move(s: CMState, a: Action) -> tuple[CMState, tuple[Event, ...]]:
    """What a legal decision does: the new state and its events."""
    match a:
        case Start(cell=cell):
            events = []
            for event, s in walk(s, cell):
                events.append(event)
            return s, tuple(events)
        case Return(species=x):
            new = _replace(s, phase=START, in_center=_set(s.in_center, x, False),
                           in_hideout=_set(s.in_hideout, x, True))
            return new, (Returned(x),)
        case Done():
            return _replace(s, phase=START), (Kept(),)
        case GiveUp():
            return _replace(s, phase=GAVE_UP), (Ended(GAVE_UP),)
    raise AssertionError(a)


def play(s: CMState, a: Action) -> CMState:
    """The state after the player's decision ``a`` (IllegalAction if it is not legal now)."""
    if s.phase not in (START, RETURN) or not is_legal_move(s, a):
        raise IllegalAction(f"{a!r} is not legal now")
    return apply_move(s, a)[0]
