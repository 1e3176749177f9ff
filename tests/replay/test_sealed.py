"""Opening a sealed record (one the app wrote) without re-validating its steps, and falling back to
checking every step whenever the seal does not hold or the snapshots cannot be used."""

from __future__ import annotations

import random
from unittest import mock

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cellwars_tui.core import RecordError, all_games
from cellwars_tui.record import (
    decode_record, encode_match, encode_record, match_to_record, save_match, seal_record,
)
from cellwars_tui.record import format as record_format
from cellwars_tui.replay import Replay
from tests.record.helpers import old_format_bytes, rolling
from tests.test_conformance import play_random
from tests.toy_game import TOY, ToyRace


def opened(data: bytes) -> Replay:
    """What ``Replay.open`` makes of a file holding ``data`` (without the file)."""
    return Replay.from_record(decode_record(data), data=data)


def states_by_the_rules(game, match):
    """The state after every step of ``match``, applying its actions one by one through the
    rules, and each step's events."""
    state = game.initial_state(match.options)
    states, events = [state], []
    for step in match.history:
        state, evs = game.apply(state, step.seat, step.action)
        states.append(state)
        events.append(evs)
    return states, events


# -- property: a trusted record shows exactly the states the rules produce ----------------------
@pytest.mark.parametrize("every", [3, record_format.SNAPSHOT_EVERY])
@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.id)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 100_000))
def test_a_sealed_record_of_every_game_shows_the_states_the_rules_produce(game, every, seed):
    players = game.min_players if seed % 2 else game.max_players
    original = play_random(game, players, seed, checks=False)
    with mock.patch.object(record_format, "SNAPSHOT_EVERY", every):
        data = encode_match(original)
    replay = opened(data)
    assert replay.trusted and replay.problem is None and len(replay) == len(original.history)
    states, events = states_by_the_rules(game, original)
    order = list(range(len(replay) + 1))
    random.Random(seed).shuffle(order)
    for n in order:
        assert replay.seek(n) == states[n]
        for seat in range(replay.players):
            assert replay.view(seat) == game.view(states[n], seat)
    for i in reversed(range(len(replay))):
        assert replay.events[i] == events[i]
    assert replay.final_outcome() == original.outcome()
    assert replay.trusted  # nothing made it fall back


def test_a_sealed_record_opens_without_asking_the_rules_whether_a_step_is_legal(monkeypatch):
    m = rolling(decisions=100)
    data = encode_match(m)
    log = Replay.from_match(m).events_upto()

    def refuse(*args):
        raise AssertionError("a sealed record's step was validated")

    monkeypatch.setattr(ToyRace, "is_legal", refuse)
    replay = opened(data)
    assert replay.trusted and replay.state == m.state
    for n in (0, 31, 32, 33, 150, len(replay)):
        assert replay.seek(n) == m.states[n]
    assert replay.events_upto() == log


def test_a_saved_record_file_opens_trusted(tmp_path):
    m = rolling(decisions=70)
    path = tmp_path / "g.cellwars.json"
    save_match(m, path)
    replay = Replay.open(path)
    assert replay.trusted and replay.path == path and replay.state == m.state
    assert replay.cursor == len(replay) == len(m.steps)


def test_a_record_written_without_digest_or_snapshots_opens_and_is_checked(tmp_path):
    m = rolling(decisions=70)
    path = tmp_path / "old.cellwars.json"
    path.write_bytes(old_format_bytes(m))
    replay = Replay.open(path)
    assert not replay.trusted and replay.problem is None and replay.warning is None
    for n in range(len(replay), -1, -1):
        assert replay.seek(n) == m.states[n]


def test_an_edited_sealed_record_is_checked_step_by_step(tmp_path):
    m = rolling(decisions=40)
    record = decode_record(encode_match(m))
    i = next(i for i, s in enumerate(record.steps) if i > 40 and s.seat >= 0)
    record.steps[i].seat = 1 - record.steps[i].seat  # the wrong player rolls
    path = tmp_path / "edited.cellwars.json"
    path.write_bytes(encode_record(record))  # the old digest, kept as a hand edit keeps it
    assert path.read_bytes().startswith(b'{"digest":"')
    replay = Replay.open(path)
    assert not replay.trusted and len(replay) == i
    assert replay.problem.startswith(f"valid up to step {i}; step {i + 1}: ")
    assert replay.state == m.states[i]


def test_a_sealed_record_edited_to_other_legal_steps_is_checked_and_shows_them():
    m = rolling(decisions=40)
    data = encode_match(m)
    record = decode_record(data)
    die = next(i for i, s in enumerate(record.steps) if i > 35 and s.seat < 0)
    face = TOY.decode_action(record.steps[die].action).face
    other = 2 + face % 5  # another face, never a 1 (a 1 would end the turn)
    record.steps[die].action = msgspec.Raw(f'{{"face":{other},"kind":"die"}}'.encode())
    replay = opened(encode_record(record))
    assert not replay.trusted and replay.problem is None
    assert replay.state_at(die + 1) != m.states[die + 1]
    assert replay.state_at(die) == m.states[die]


def test_a_sealed_record_cut_in_its_snapshots_opens_every_step(tmp_path):
    m = rolling(decisions=100)
    data = encode_match(m)
    path = tmp_path / "cut.cellwars.json"
    path.write_bytes(data[: data.index(b'"snapshots":[') + 30])
    replay = Replay.open(path)
    assert not replay.trusted and len(replay) == len(m.steps) and replay.problem is None
    assert "cut short after its steps" in replay.warning
    assert replay.state == m.state and replay.seek(77) == m.states[77]


def _with_bad_snapshot(m, index: int) -> bytes:
    record = match_to_record(m)
    record.snapshots[index].state = msgspec.Raw(b'{"nonsense":1}')
    return seal_record(record, TOY)


def test_a_sealed_record_whose_last_snapshot_does_not_decode_is_checked_when_opened():
    m = rolling(decisions=100)
    replay = opened(_with_bad_snapshot(m, -1))
    assert not replay.trusted and "every step was checked" in replay.warning
    assert replay.cursor == len(replay) == len(m.steps) and replay.state == m.state


def test_a_sealed_record_whose_snapshot_does_not_decode_is_checked_when_reached():
    m = rolling(decisions=100)
    replay = opened(_with_bad_snapshot(m, 0))  # the state after 32 steps
    assert replay.trusted
    assert replay.seek(40) == m.states[40]
    assert not replay.trusted and replay.cursor == 40 and "every step was checked" in replay.warning
    for n in range(len(replay) + 1):
        assert replay.state_at(n) == m.states[n]


def test_the_events_of_a_sealed_record_whose_snapshot_does_not_decode_are_the_games():
    m = rolling(decisions=100)
    replay = opened(_with_bad_snapshot(m, 0))
    assert replay.events[35] == m.events[35] and not replay.trusted
    assert list(replay.events) == m.events


def test_play_from_here_on_a_sealed_record_continues_its_history(tmp_path):
    m = rolling(decisions=60)
    replay = opened(encode_match(m))
    assert replay.trusted
    new = replay.play_from_here(n=70)
    assert new.states[70] == m.states[70] and new.history[:70] == m.history[:70]


def test_a_replays_record_bytes_are_sealed_and_reopen_as_written():
    m = rolling(decisions=60)
    checked = Replay.from_match(m)
    again = opened(checked.record_bytes())
    assert again.trusted and len(again) == len(m.steps)
    assert decode_record(checked.record_bytes()).snapshots == match_to_record(m).snapshots
    for n in range(len(again) + 1):
        assert again.state_at(n) == m.states[n]


# -- fuzz: only the very bytes the app wrote are trusted ------------------------------------------
_SEALED = encode_match(rolling(decisions=50))


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_a_mutated_sealed_record_is_trusted_only_when_unchanged(data):
    blob = bytearray(_SEALED)
    for _ in range(data.draw(st.integers(1, 3))):
        if not blob:
            break
        at = data.draw(st.integers(0, len(blob) - 1))
        kind = data.draw(st.sampled_from(["cut", "flip", "insert", "delete", "digit"]))
        if kind == "cut":
            del blob[at:]
        elif kind == "flip":
            blob[at] = data.draw(st.sampled_from(b'{}[],:"0123456789-.aekx \n'))
        elif kind == "insert":
            blob[at:at] = data.draw(st.sampled_from([b",", b"]", b"[", b'"x"', b"null", b"-1", b" "]))
        elif kind == "delete":
            del blob[at:at + data.draw(st.integers(1, 12))]
        else:
            digits = [i for i, b in enumerate(blob) if chr(b).isdigit()]
            if digits:
                blob[data.draw(st.sampled_from(digits))] = ord(str(data.draw(st.integers(0, 9))))
    try:
        replay = opened(bytes(blob))
    except RecordError as exc:
        assert "\n" not in str(exc)
        return
    if replay.trusted:
        assert bytes(blob) == _SEALED
    state = replay.state_at(0)
    for n, step in enumerate(replay.steps, 1):
        state, _ = replay.game.apply(state, step.seat, step.action)
        assert replay.seek(n) == state
    replay.events_upto(len(replay))
