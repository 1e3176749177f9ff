"""The working copy a Cell Wars step is applied on (work.W) declares every field of the state it
copies, with the same name, so the type checker reads each rule's changes (mypy runs over the
whole package: tests/test_types.py)."""

from __future__ import annotations

import msgspec

from cellwars_tui.games.cell_wars import rules as R
from cellwars_tui.games.cell_wars.work import _LISTS, W


def test_the_working_copy_declares_every_field_of_the_state_and_only_those():
    declared = {name for name in W.__annotations__}
    fields = {f.name for f in msgspec.structs.fields(R.CWState)}
    assert declared == fields
    for name in (*_LISTS, "deck", "used"):  # the ones a rule changes in place: lists there
        assert W.__annotations__[name].startswith("list["), name


def test_a_working_copy_freezes_back_to_the_state_it_copied():
    s = R.GAME.initial_state(R.CellWarsOptions(players=2))
    w = W(s)
    assert all(getattr(w, f.name) == list(getattr(s, f.name)) if f.name in _LISTS
               else True for f in msgspec.structs.fields(R.CWState))
    assert w.freeze() == s and w.events == []
