"""Sealed records: the digest, the snapshots, the per-match encoding cache, and records without them."""

from __future__ import annotations

import msgspec
import pytest

from cellwars_tui.core import Match, RecordError, Seat
from cellwars_tui.record import (
    SNAPSHOT_EVERY, decode_record, encode_match, encode_record, load_match, match_to_record,
    save_match, sealed,
)
from tests.record.helpers import old_format_bytes, rolling
from tests.toy_game import TOY, Roll, ToyRace


def test_a_saved_record_is_sealed_with_its_digest_first(tmp_path):
    path = tmp_path / "g.cellwars.json"
    save_match(rolling(), path)
    data = path.read_bytes()
    assert data.startswith(b'{"digest":"')
    assert sealed(data, decode_record(data), TOY)


def test_a_record_encoded_as_it_stands_carries_no_digest():
    data = encode_record(match_to_record(rolling()))
    assert b'"digest"' not in data and not sealed(data, decode_record(data), TOY)


def test_changing_any_byte_of_a_sealed_record_breaks_its_seal():
    data = encode_match(rolling(decisions=20))
    assert len(decode_record(data).snapshots) >= 1
    for i in range(len(data)):
        blob = data[:i] + bytes([data[i] ^ 1]) + data[i + 1:]
        try:
            record = decode_record(blob)
        except RecordError:
            continue
        assert not sealed(blob, record, TOY), (i, blob[max(0, i - 10):i + 10])


def test_a_record_sealed_under_other_rules_or_other_state_types_is_not_sealed_here(monkeypatch):
    data = encode_match(rolling())
    record = decode_record(data)

    class RichToyState(msgspec.Struct, frozen=True):
        players: int
        scores: tuple[int, ...]
        turn: int = 0
        pending: int = 0
        rolling: bool = True
        bonus: int = 0

    class RicherToy(ToyRace):
        state_type = RichToyState

    assert not sealed(data, record, RicherToy())
    monkeypatch.setattr(ToyRace, "meta", msgspec.structs.replace(ToyRace.meta, rules_version=2))
    assert not sealed(data, record, TOY)


def test_snapshots_are_the_match_states_every_snapshot_interval():
    m = rolling(decisions=100)
    record = match_to_record(m)
    assert [s.step for s in record.snapshots] == list(range(SNAPSHOT_EVERY, m.cursor + 1,
                                                            SNAPSHOT_EVERY))
    for snap in record.snapshots:
        assert TOY.decode_state(snap.state) == m.states[snap.step]


def test_an_autosave_after_every_action_encodes_each_step_and_snapshot_once(tmp_path, monkeypatch):
    calls = {"state": 0, "action": 0}
    encode_state, encode_action = TOY.encode_state, TOY.encode_action

    def counting_state(state):
        calls["state"] += 1
        return encode_state(state)

    def counting_action(action):
        calls["action"] += 1
        return encode_action(action)

    monkeypatch.setattr(TOY, "encode_state", counting_state)
    monkeypatch.setattr(TOY, "encode_action", counting_action)
    m = Match(TOY, TOY.options_type(players=2), [Seat(name="Ann"), Seat(name="Bob")], 4)
    path = tmp_path / "g.cellwars.json"
    for _ in range(80):
        m.play(m.to_act()[0], Roll())
        save_match(m, path)
    assert calls["action"] == len(m.steps)
    assert calls["state"] == len(m.steps) // SNAPSHOT_EVERY


def test_after_an_undo_across_a_snapshot_the_new_branch_is_what_is_saved(tmp_path):
    m = rolling(decisions=40)
    path = tmp_path / "g.cellwars.json"
    save_match(m, path)
    while m.cursor > SNAPSHOT_EVERY - 3:
        m.undo()
    for _ in range(30):
        m.play(m.to_act()[0], Roll())
    save_match(m, path)
    data = path.read_bytes()
    record = decode_record(data)
    assert sealed(data, record, TOY)
    assert [s.action for s in load_match(path).history] == [s.action for s in m.history]
    assert record.snapshots
    for snap in record.snapshots:
        assert TOY.decode_state(snap.state) == m.states[snap.step]


def test_a_record_written_without_digest_or_snapshots_loads_and_is_checked(tmp_path):
    m = rolling(decisions=50)
    data = old_format_bytes(m)
    record = decode_record(data)
    assert record.digest == "" and record.snapshots == [] and len(record.steps) == len(m.steps)
    path = tmp_path / "old.cellwars.json"
    path.write_bytes(data)
    again = load_match(path)
    assert again.state == m.state and again.record_problem is None
    illegal = msgspec.json.decode(data)
    illegal["steps"][5][0] = 1 - illegal["steps"][5][0] if illegal["steps"][5][0] >= 0 else 0
    path.write_bytes(msgspec.json.encode(illegal))
    with pytest.raises(RecordError, match="step 6"):
        load_match(path)


def test_a_match_resumed_from_a_sealed_record_undoes_plays_on_and_saves_sealed(tmp_path):
    m = rolling(decisions=50)
    path = tmp_path / "g.cellwars.json"
    save_match(m, path)
    again = load_match(path)
    assert again.states == m.states[: m.cursor + 1]
    assert again.undo()
    again.play(again.to_act()[0], Roll())
    save_match(again, path)
    data = path.read_bytes()
    assert sealed(data, decode_record(data), TOY)
    assert load_match(path).state == again.state


def test_a_record_sealed_by_another_installation_is_checked_step_by_step(tmp_path, monkeypatch):
    from cellwars_tui.replay.model import Replay

    m = rolling(decisions=40)
    path = tmp_path / "g.cellwars.json"
    monkeypatch.setenv("CELLWARS_HOME", str(tmp_path / "elsewhere"))
    save_match(m, path)
    data = path.read_bytes()
    assert sealed(data, decode_record(data), TOY)  # there it opens unchecked
    monkeypatch.setenv("CELLWARS_HOME", str(tmp_path / "here"))
    assert not sealed(data, decode_record(data), TOY)
    replay = Replay.open(path)
    assert not replay.trusted and len(replay) == len(m.steps) and replay.problem is None


def test_a_digest_made_without_the_installations_secret_is_not_trusted(tmp_path):
    # the game's fingerprint is public: a crafted file can recompute a digest from it alone
    import hashlib

    from cellwars_tui.record import format as fmt

    data = encode_record(match_to_record(rolling()))
    rest = data[1:]

    def sealed_with(key: bytes) -> bool:
        digest = hashlib.blake2b(b"{", digest_size=16, key=key)
        digest.update(rest)
        body = b'{"digest":"' + digest.hexdigest().encode() + b'",' + rest
        return sealed(body, decode_record(body), TOY)

    assert not sealed_with(fmt._fingerprint(TOY))
    assert sealed_with(fmt._fingerprint(TOY) + fmt.seal_secret())  # (the same bytes, keyed right)


def test_the_sealing_secret_is_made_once_private_and_replaced_when_damaged(tmp_path, monkeypatch):
    from cellwars_tui.locations import data_dir
    from cellwars_tui.record import format as fmt

    monkeypatch.setenv("CELLWARS_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(fmt, "_secrets", {})
    secret = fmt.seal_secret()
    key = data_dir() / fmt.SECRET_FILE
    assert key.read_bytes() == secret and len(secret) == 32
    assert key.stat().st_mode & 0o077 == 0  # the user's only
    monkeypatch.setattr(fmt, "_secrets", {})
    assert fmt.seal_secret() == secret  # the next run reads the same one
    key.write_bytes(b"short")
    monkeypatch.setattr(fmt, "_secrets", {})
    again = fmt.seal_secret()
    assert again != secret and key.read_bytes() == again
    assert not [p for p in key.parent.iterdir() if p.name.startswith(".seal-")]


def test_a_record_sealed_before_the_lesson_mark_stays_sealed_and_loads_exactly(tmp_path):
    """Records are forever: the header's ``lesson`` (issue 29) is new; a record the app sealed
    before it (no such key) still opens as sealed, to the exact state, as no lesson's game."""
    from cellwars_tui.record import format as record_format
    from cellwars_tui.replay import Replay

    m = rolling(decisions=30)
    new = record_format.seal_record(match_to_record(m), TOY)
    assert new.count(b',"lesson":null') == 1
    rest = new[record_format._DIGEST_REST:].replace(b',"lesson":null', b"")
    old = (record_format._DIGEST_HEAD + record_format._digest(TOY, rest).encode() + b'",'
           + rest)
    path = tmp_path / "before.cellwars.json"
    path.write_bytes(old)
    record = decode_record(old)
    assert sealed(old, record, TOY) and record.header.lesson is None
    again = load_match(path)
    assert again.states == m.states and again.lesson is None and again.record_problem is None
    m.lesson = TOY.id  # and a lesson's game keeps its mark through a replay's re-save
    save_match(m, path)
    replay = Replay.open(path)
    assert replay.lesson == TOY.id
    assert decode_record(replay.record_bytes()).header.lesson == TOY.id
