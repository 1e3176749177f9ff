"""Cellulis Bellum records: a game saved in the middle of a turn loads back exactly, undo and redo
walk its history, and a record or move list that goes bad is refused (or opened up to its last
valid step) with the step that broke it named."""

from __future__ import annotations

import json

import pytest

from cellwars_tui.core import Match, Seat
from cellwars_tui.core.errors import RecordError
from cellwars_tui.games.cellulis_bellum.rules import (
    GAME, SPAWN, CellulisBellumOptions, Spawn)
from cellwars_tui.record import decode_record, encode_record, load_match, save_match
from cellwars_tui.record.format import match_to_record, record_to_match
from cellwars_tui.record.text import export_text, import_text

OPENING = ["spawn d3", "spawn d4", "spawn c3", "done", "nucleus de56", "burst c3-a1"]


def _match(moves=OPENING) -> Match:
    m = Match(GAME, CellulisBellumOptions(turn_limit=20), [Seat(name="Ann"), Seat(name="Bob")], 1)
    for text in moves:
        m.play(m.state.seat, GAME.action_from_str(text))
    return m


def test_a_game_saved_mid_spawn_loads_back_to_the_same_position(tmp_path):
    m = _match([*OPENING, "done", "spawn e5"])  # Violet: one cell for d4, one for the nucleus
    assert len(m.state.board) == 72
    assert m.state.step == SPAWN and Spawn in {type(a) for a in m.legal_actions(1)}
    path = tmp_path / "cb.cellwars.json"
    save_match(m, path)
    again = load_match(path)
    assert again.state == m.state and again.to_act() == m.to_act() == (1,)
    assert [s.action for s in again.history] == [s.action for s in m.history]


def test_undo_and_redo_walk_the_history_step_by_step():
    m = _match()
    states = list(m.states)
    while m.undo():
        assert m.state == states[m.cursor]
    assert m.cursor == 0 and m.state == GAME.initial_state(CellulisBellumOptions(turn_limit=20))
    while m.redo():
        assert m.state == states[m.cursor]
    assert m.state == states[-1]


def test_a_record_with_an_illegal_step_is_refused_or_opened_up_to_it():
    m = _match()
    record = match_to_record(m)
    bad = decode_record(encode_record(record))
    steps = list(bad.steps)
    steps[4] = type(steps[4])(steps[4].seat, GAME.encode_action(Spawn(0)), steps[4].t)  # a1: far
    bad.steps = steps
    with pytest.raises(RecordError) as err:
        record_to_match(bad)
    assert err.value.valid_steps == 4
    part = record_to_match(bad, partial=True)
    assert part.cursor == 4 and "valid up to step 4" in part.record_problem


def test_a_move_list_with_an_illegal_or_garbled_move_is_refused_naming_its_line():
    text = export_text(_match())
    assert import_text(text).state == _match().state
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("1."))
    for wrong in ("spawn a6", "burst c3c1", "shoot up", "apo d3"):
        broken = lines[:]
        broken[first + 1] = broken[first + 1].rsplit(":", 1)[0] + ": " + wrong
        with pytest.raises(RecordError) as err:
            import_text("\n".join(broken))
        assert f"line {first + 2}" in str(err.value), wrong


def test_a_record_naming_an_unknown_board_is_refused_in_one_line(tmp_path):
    path = tmp_path / "cb.cellwars.json"
    save_match(_match(), path)
    data = json.loads(path.read_bytes())
    data["header"]["options"]["board"] = "hexagons"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(RecordError) as err:
        load_match(path)
    text = str(err.value)
    assert "\n" not in text and "'hexagons'" in text and str(path.name) in text
    lines = export_text(_match()).splitlines()
    lines = [line.replace('"board":"72 points"', '"board":"hexagons"') for line in lines]
    with pytest.raises(RecordError) as err:
        import_text("\n".join(lines))
    assert "\n" not in str(err.value) and "'hexagons'" in str(err.value)


def test_a_new_record_names_its_board_and_rules_version():
    record = match_to_record(_match())
    assert record.header.rules_version == GAME.rules_version == 3
    assert record.header.options["board"] == "72 points"
    assert '"board":"72 points"' in export_text(_match())
