"""Records are forever: games recorded under Cellulis Bellum's first rules (rules version 1: the
42-point board) still open and replay to exactly the position they were saved in.

``records/`` holds eleven records written by the version-1 code itself (commit 28d2db1, before the
72-point board): random, pruned-random and search bots, different seeds and turn limits; seven
finished (by the turn limit, two by a destroyed nucleus after a virus generated and fired in the
same turn, one with equal territories), three saved mid-game (one in the middle of a spawn, one
in the middle of a burst), and three exported as plain-text move lists. ``final_states.json``
keeps, for each, its step count, outcome and final state as that code encoded it. The records
were written on another machine, so their seal does not match here and every step is checked
again through today's rules, by each of the three paths that open a record: resume, replay and
move-list import.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cellwars_tui.games.cellulis_bellum.rules import GAME
from cellwars_tui.record import decode_record, load_match
from cellwars_tui.record.text import import_text
from cellwars_tui.replay.model import Replay

HERE = Path(__file__).with_name("records")
EXPECTED = json.loads((HERE / "final_states.json").read_text(encoding="utf-8"))
NAMES = sorted(EXPECTED)


def _same_as_recorded(state, expected: dict) -> None:
    """Every field the version-1 state had is unchanged (fields added since are checked by the
    rules' own tests)."""
    now = json.loads(GAME.encode_state(state))
    assert {k: now[k] for k in expected} == expected


def test_the_test_data_covers_what_it_claims():
    outcomes = [EXPECTED[n]["outcome"] for n in NAMES]
    assert len(NAMES) == 11
    assert sum(o is None for o in outcomes) == 3
    assert sum(o is not None and o[1] == "nucleus destroyed" for o in outcomes) == 2
    steps = {EXPECTED[n]["final_state"]["step"] for n in NAMES}
    assert {0, 1, 2, 3} <= steps  # saved at a turn's start, mid-spawn, mid-burst, and over
    assert len(list(HERE.glob("*.txt"))) == 3


@pytest.mark.parametrize("name", NAMES)
def test_a_version_1_record_resumes_at_its_final_position(name):
    expected = EXPECTED[name]
    m = load_match(HERE / f"{name}.cellwars.json")
    assert len(m.history) == expected["steps"]
    _same_as_recorded(m.state, expected["final_state"])
    out = m.outcome()
    assert (None if out is None else [list(out.winners), out.termination]) == expected["outcome"]


@pytest.mark.parametrize("name", NAMES)
def test_a_version_1_record_replays_to_its_final_position(name):
    expected = EXPECTED[name]
    path = HERE / f"{name}.cellwars.json"
    replay = Replay.from_record(decode_record(path.read_bytes()), path)
    _same_as_recorded(replay.state_at(expected["steps"]), expected["final_state"])


@pytest.mark.parametrize("name", sorted(p.name.removesuffix(".txt") for p in HERE.glob("*.txt")))
def test_a_version_1_move_list_imports_to_its_final_position(name):
    m = import_text((HERE / f"{name}.txt").read_text(encoding="utf-8"))
    _same_as_recorded(m.state, EXPECTED[name]["final_state"])
