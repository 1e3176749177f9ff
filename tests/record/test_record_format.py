"""Record files: round trips, atomic writes, and one-line errors for every kind of bad file."""

from __future__ import annotations

import json
import os

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cellwars_tui.core import Match, RecordError, Seat
from cellwars_tui.record import (
    FORMAT_VERSION, decode_record, encode_record, list_saved, load_match, match_to_record,
    save_match, write_atomic,
)
from cellwars_tui.record.format import record_to_match
from tests.toy_game import TOY, Hold, Roll


def played(seed=5, moves=12):
    m = Match(TOY, TOY.options_type(players=2), [Seat(name="Ann"), Seat(name="Bob")], seed)
    for i in range(moves):
        if m.is_over():
            break
        m.play(m.to_act()[0], Hold() if i % 3 == 2 else Roll())
    return m


def test_record_round_trip_rebuilds_the_exact_state(tmp_path):
    m = played()
    path = tmp_path / "g.cellwars.json"
    save_match(m, path)
    again = load_match(path)
    assert again.state == m.state
    assert [s.action for s in again.history] == [s.action for s in m.history]
    assert again.seats == m.seats


def test_record_keeps_only_the_history_up_to_the_cursor():
    m = played()
    m.undo()
    rec = match_to_record(m)
    assert len(rec.steps) == m.cursor


def _one_line(exc: Exception) -> str:
    text = str(exc)
    assert "\n" not in text
    return text


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"", "empty"),
        (b"{\"format_version\": 1, \"header\": {", "not a readable record"),
        (b"[1, 2, 3]", "not a cellwars record"),
        (b"\xff\xfe\x00garbage", "not a readable record"),
    ],
)
def test_bad_files_give_one_line_errors_naming_the_file(tmp_path, content, expected):
    path = tmp_path / "bad.cellwars.json"
    path.write_bytes(content)
    with pytest.raises(RecordError) as info:
        load_match(path)
    text = _one_line(info.value)
    assert str(path) in text and expected in text


def test_future_format_version_is_refused_with_a_clear_message(tmp_path):
    data = json.loads(encode_record(match_to_record(played())))
    data["format_version"] = FORMAT_VERSION + 1
    path = tmp_path / "future.cellwars.json"
    path.write_text(json.dumps(data))
    with pytest.raises(RecordError, match="newer") as info:
        load_match(path)
    assert str(path) in _one_line(info.value)


def test_a_record_of_newer_rules_is_refused_naming_the_file(tmp_path):
    data = json.loads(encode_record(match_to_record(played())))
    data["header"]["rules_version"] = TOY.rules_version + 1
    path = tmp_path / "later-rules.cellwars.json"
    path.write_text(json.dumps(data))
    with pytest.raises(RecordError, match="newer Toy race rules") as info:
        load_match(path)
    assert str(path) in _one_line(info.value)


def test_unknown_game_and_wrong_game_are_refused(tmp_path):
    data = json.loads(encode_record(match_to_record(played())))
    data["header"]["game"] = "chess"
    path = tmp_path / "x.cellwars.json"
    path.write_text(json.dumps(data))
    with pytest.raises(RecordError, match="unknown game") as info:
        load_match(path)
    assert str(path) in _one_line(info.value)
    path.write_bytes(encode_record(match_to_record(played())))
    with pytest.raises(RecordError, match="not virus-fight") as info:
        load_match(path, expect_game="virus-fight")
    assert str(path) in _one_line(info.value)


def test_truncated_record_opens_partially_up_to_the_last_valid_step(tmp_path):
    m = played(moves=20)
    data = json.loads(encode_record(match_to_record(m)))
    data["steps"][5][1] = {"kind": "no-such-action"}
    rec = msgspec.json.decode(json.dumps(data).encode(), type=type(match_to_record(m)))
    with pytest.raises(RecordError, match="step 6"):
        record_to_match(rec)
    partial = record_to_match(rec, partial=True)
    assert partial.cursor == 5
    assert "valid up to step 5" in partial.record_problem


def test_a_step_of_another_game_is_named_once_in_the_message(tmp_path):
    data = json.loads(encode_record(match_to_record(played(moves=20))))
    data["steps"][2][1] = {"kind": "no-such-action"}
    path = tmp_path / "odd.cellwars.json"
    path.write_text(json.dumps(data))
    with pytest.raises(RecordError) as info:
        load_match(path)
    text = _one_line(info.value)
    assert "step 3 is not a Toy race action" in text
    assert text.count("not a Toy race action") == 1


def test_hand_edited_illegal_step_is_caught(tmp_path):
    m = played(moves=20)
    data = json.loads(encode_record(match_to_record(m)))
    data["steps"][3][0] = 1 - data["steps"][3][0] if data["steps"][3][0] >= 0 else 0
    rec = decode_record(json.dumps(data).encode())
    partial = record_to_match(rec, partial=True)
    assert partial.cursor < len(rec.steps)
    assert partial.record_problem


def test_missing_file_and_directory_are_one_line_errors(tmp_path):
    with pytest.raises(RecordError, match="no such file"):
        load_match(tmp_path / "nope.cellwars.json")
    with pytest.raises(RecordError, match="directory"):
        load_match(tmp_path)


def test_atomic_write_leaves_the_old_file_when_writing_fails(tmp_path, monkeypatch):
    path = tmp_path / "save.cellwars.json"
    write_atomic(path, b"old")

    def boom(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        write_atomic(path, b"new")
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["save.cellwars.json"]


def test_a_corrupt_save_never_hides_the_others(tmp_path):
    save_match(played(seed=1), tmp_path / "a.cellwars.json")
    (tmp_path / "b.cellwars.json").write_bytes(b"{broken")
    save_match(played(seed=2), tmp_path / "c.cellwars.json")
    games, problems = list_saved(tmp_path)
    assert len(games) == 2 and len(problems) == 1
    assert "b.cellwars.json" in problems[0].message


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_decoding_random_bytes_raises_only_the_projects_error(data):
    try:
        rec = decode_record(data)
    except RecordError as exc:
        _one_line(exc)
        return
    try:
        record_to_match(rec, partial=True)
    except RecordError as exc:
        _one_line(exc)


_valid = encode_record(match_to_record(played(moves=15)))


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_mutated_records_raise_only_the_projects_error(data):
    blob = bytearray(_valid)
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(blob) - 1))
        blob[i] = data.draw(st.integers(0, 255))
    try:
        rec = decode_record(bytes(blob))
        record_to_match(rec, partial=True)
    except RecordError as exc:
        _one_line(exc)


def test_reading_a_record_never_blocks_on_a_fifo_or_reads_a_device(tmp_path):
    import os

    from cellwars_tui.core.errors import RecordError
    from cellwars_tui.record.format import read_record_file

    fifo = tmp_path / "pipe.cwr"
    os.mkfifo(fifo)
    for path in (fifo, type(tmp_path)("/dev/zero"), tmp_path):
        with pytest.raises(RecordError, match="not a regular file"):
            read_record_file(path)


def test_a_record_of_older_rules_gets_its_options_through_the_games_upgrade_hook(tmp_path, monkeypatch):
    """Records are forever: when a game's rules version goes up, a record written under an older
    version is opened with the options ``upgrade_options`` gives for that version (the older rules
    kept as an option), by the resume path, the replay path and the move-list import alike."""
    from cellwars_tui.record.text import export_text, import_text
    from cellwars_tui.replay.model import Replay

    m = played()
    path = tmp_path / "old-rules.cellwars.json"
    save_match(m, path)
    text = export_text(m)
    seen: list[tuple[dict, int]] = []

    def upgrade(self, data, rules_version):
        seen.append((dict(data), rules_version))
        return data

    monkeypatch.setattr(type(TOY), "rules_version", TOY.rules_version + 1)
    monkeypatch.setattr(type(TOY), "upgrade_options", upgrade)
    assert load_match(path).state == m.state
    assert Replay.from_record(decode_record(path.read_bytes()), path).state_at(len(m.history)) == m.state
    assert import_text(text).state == m.state
    assert [v for _, v in seen] == [1, 1, 1]
    assert all(d["players"] == 2 for d, _ in seen)
