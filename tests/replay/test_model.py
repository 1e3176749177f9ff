"""The replay model: seeking, per-seat views, events, turns, play from here, export and import."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cellwars_tui.core import CHANCE, CellwarsError, Match, RecordError, Seat, all_games
from cellwars_tui.record import decode_record, encode_record, load_match, match_to_record
from cellwars_tui.record.format import read_record_file
from cellwars_tui.replay import Replay
from cellwars_tui.replay import model as replay_model
from tests.replay.helpers import save_toy, toy_match
from tests.test_conformance import play_random
from tests.toy_game import TOY, Die, Hold, Roll


def replay_of(match: Match) -> Replay:
    return Replay.from_record(decode_record(encode_record(match_to_record(match))))


# -- property: stepping back and forth reproduces the original game's states -------------------
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 200),
       walk=st.lists(st.one_of(st.integers(-30, 30), st.sampled_from(["home", "end", "seek"])),
                     max_size=40))
def test_stepping_back_and_forth_reproduces_the_original_states(seed, moves, walk):
    original = toy_match(seed, moves, hold_every=0)  # never holding: records as long as we like
    replay = replay_of(original)
    assert len(replay) == len(original.steps)
    rng = random.Random(seed)
    for move in walk:
        if move == "home":
            replay.home()
        elif move == "end":
            replay.end()
        elif move == "seek":
            replay.seek(rng.randrange(len(replay) + 1))
        elif move >= 0:
            replay.forward(move)
        else:
            replay.back(-move)
        assert 0 <= replay.cursor <= len(replay)
        assert replay.state == original.states[replay.cursor]


def test_every_step_of_a_long_record_is_the_original_state():
    original = toy_match(1, 1500, hold_every=0)
    replay = replay_of(original)
    assert len(replay) > 2000
    assert replay.snapshot_count <= len(replay) // 8
    for n in range(len(replay), -1, -1):
        assert replay.seek(n) == original.states[n]


def test_snapshots_are_taken_at_most_max_interval_steps_apart():
    replay = replay_of(toy_match(2, 400, hold_every=0))
    gaps = [b - a for a, b in zip(replay._snap_at, replay._snap_at[1:])]
    assert gaps and max(gaps) <= replay_model.MAX_INTERVAL


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.id)
def test_a_recorded_game_of_every_registered_game_replays_exactly(game):
    original = play_random(game, game.min_players, 4, checks=False)
    replay = replay_of(original)
    assert replay.problem is None and len(replay) == len(original.steps)
    order = list(range(len(replay) + 1))
    random.Random(4).shuffle(order)
    for n in order[:120]:
        assert replay.seek(n) == original.states[n]
        for seat in range(replay.players):
            assert replay.view(seat) == game.view(original.states[n], seat)
        assert replay.view(None) == original.states[n]
    assert replay.final_outcome() == original.outcome()


# -- opening ---------------------------------------------------------------------------------
def test_opening_a_record_puts_the_cursor_at_the_end(tmp_path):
    m, path = save_toy(tmp_path)
    replay = Replay.open(path)
    assert replay.cursor == len(replay) == len(m.steps)
    assert replay.state == m.state and replay.outcome() == m.outcome()
    assert replay.path == path and replay.seats == m.seats


def test_a_record_with_an_illegal_step_opens_up_to_it_and_says_why(tmp_path):
    m, path = save_toy(tmp_path, moves=30)
    raw = path.read_text()
    record = decode_record(raw.encode())
    seat_step = next(i for i, s in enumerate(record.steps) if s.seat != CHANCE and i > 3)
    record.steps[seat_step].seat = 1 - record.steps[seat_step].seat  # the wrong player acts
    replay = Replay.from_record(record, path)
    assert len(replay) == seat_step
    assert replay.problem.startswith(f"valid up to step {seat_step}; step {seat_step + 1}: ")
    assert "not legal" in replay.problem and "\n" not in replay.problem
    assert replay.state == m.states[seat_step]


def test_a_record_with_an_unreadable_action_opens_up_to_it_and_says_why(tmp_path):
    _, path = save_toy(tmp_path, moves=30)
    text = path.read_text()
    record = read_record_file(path)
    record.steps[5].action = __import__("msgspec").Raw(b'{"kind":"teleport"}')
    replay = Replay.from_record(record, path)
    assert len(replay) == 5
    assert replay.problem.startswith("valid up to step 5; step 6 is not a Toy race action")
    assert text  # the file itself is untouched


@pytest.mark.parametrize("cut", [0.05, 0.4, 0.9])
def test_a_truncated_record_file_opens_up_to_its_last_whole_step(tmp_path, cut):
    m, path = save_toy(tmp_path, moves=40)
    data = path.read_bytes()
    steps_at = data.index(b'"steps":[') + 12
    path.write_bytes(data[:steps_at + int((len(data) - steps_at) * (1 - cut))])
    replay = Replay.open(path)
    n = len(replay)
    assert 0 < n < len(m.steps) and replay.state == m.states[n]
    assert replay.problem == f"valid up to step {n}; step {n + 1} cannot be read: the file is cut short"


def test_a_record_cut_at_any_byte_of_its_steps_says_it_is_cut_short(tmp_path):
    # A cut that lands just after a brace inside a step once read as "expecting ',' delimiter".
    m, path = save_toy(tmp_path, moves=40)
    data = path.read_bytes()
    steps_at = data.index(b'"steps":[') + 12
    for end in range(steps_at, len(data) - 2):
        path.write_bytes(data[:end])
        replay = Replay.open(path)
        n = len(replay)
        assert replay.state == m.states[n], end
        assert replay.problem is not None and "the file is cut short" in replay.problem, (end, replay.problem)


def test_a_record_cut_inside_its_header_is_the_projects_error(tmp_path):
    _, path = save_toy(tmp_path)
    path.write_bytes(path.read_bytes()[:60])
    with pytest.raises(RecordError, match="not a readable record"):
        Replay.open(path)


def test_an_empty_record_file_is_the_projects_error(tmp_path):
    _, path = save_toy(tmp_path)
    path.write_bytes(b"  \n")
    with pytest.raises(RecordError, match="empty"):
        Replay.open(path)


def test_a_step_of_the_wrong_shape_stops_the_record_there(tmp_path):
    m, path = save_toy(tmp_path, moves=30)
    head, steps = path.read_text().split('"steps":[', 1)
    items = steps.split("],[")  # items[7] is the 8th step without its brackets: seat,action,t
    items[7] = '"x"' + items[7][items[7].index(","):]
    path.write_text(head + '"steps":[' + "],[".join(items))
    replay = Replay.open(path)
    assert len(replay) == 7 and replay.state == m.states[7]
    assert replay.problem == "valid up to step 7; step 8 cannot be read: the seat 'x' is not a number"


def test_a_record_of_a_newer_format_opens_as_far_as_it_reads_with_a_warning(tmp_path):
    m, path = save_toy(tmp_path, moves=30)
    text = path.read_text().replace('"format_version":1', '"format_version":2')
    path.write_text(text.replace('"header":{', '"header":{"new_field":[1,2],', 1))
    replay = Replay.open(path)
    assert len(replay) == len(m.steps) and replay.problem is None
    assert "record format 2 is newer" in replay.warning


def test_a_record_of_newer_rules_opens_as_far_as_these_rules_allow_with_a_warning(tmp_path):
    m, path = save_toy(tmp_path, moves=30)
    path.write_text(path.read_text().replace('"rules_version":1', '"rules_version":9'))
    replay = Replay.open(path)
    assert len(replay) == len(m.steps)
    assert "newer Toy race rules (version 9" in replay.warning


def test_a_hand_edited_pretty_printed_record_with_the_header_last_opens(tmp_path):
    import json

    m, path = save_toy(tmp_path, moves=30)
    raw = json.loads(path.read_text())
    reordered = {"steps": raw["steps"], "format_version": 1, "header": raw["header"]}
    path.write_text(json.dumps(reordered, indent=2) + "\n\n")
    replay = Replay.open(path)
    assert len(replay) == len(m.steps) and replay.state == m.state and replay.problem is None
    path.write_text(json.dumps(reordered, indent=2)[:-300])  # cut: the header never comes
    with pytest.raises(RecordError):
        Replay.open(path)


def test_a_record_of_an_unknown_game_is_the_projects_error(tmp_path):
    _, path = save_toy(tmp_path)
    path.write_text(path.read_text().replace('"toy-race"', '"chess"'))
    with pytest.raises(RecordError, match="unknown game 'chess'"):
        Replay.open(path)


def test_a_record_with_impossible_options_is_the_projects_error(tmp_path):
    _, path = save_toy(tmp_path)
    path.write_text(path.read_text().replace('"players":2', '"players":7'))
    with pytest.raises(RecordError):
        Replay.open(path)


def test_a_missing_record_file_is_the_projects_error(tmp_path):
    with pytest.raises(RecordError, match="no such file"):
        Replay.open(tmp_path / "nothing.cellwars.json")


_BASE = encode_record(match_to_record(toy_match(8, 40)))


@settings(max_examples=250, deadline=None)
@given(st.data())
def test_fuzzed_records_open_as_far_as_valid_or_raise_the_projects_error(data):
    blob = bytearray(_BASE)
    for _ in range(data.draw(st.integers(1, 4))):
        kind = data.draw(st.sampled_from(["cut", "flip", "insert", "delete", "digit"]))
        if not blob:
            break
        at = data.draw(st.integers(0, len(blob) - 1))
        if kind == "cut":
            del blob[at:]
        elif kind == "flip":
            blob[at] = data.draw(st.integers(0, 255))
        elif kind == "insert":
            blob[at:at] = data.draw(st.binary(min_size=1, max_size=8))
        elif kind == "delete":
            del blob[at:at + data.draw(st.integers(1, 20))]
        else:
            digits = [i for i, b in enumerate(blob) if chr(b).isdigit()]
            if not digits:
                continue
            blob[data.draw(st.sampled_from(digits))] = ord(str(data.draw(st.integers(0, 9))))
    try:
        record = decode_record(bytes(blob))
        replay = Replay.from_record(record)
    except RecordError as exc:
        assert "\n" not in str(exc)
        return
    assert len(replay) <= len(record.steps)
    if replay.problem is None:
        assert len(replay) == len(record.steps)
    else:
        assert replay.problem.startswith(f"valid up to step {len(replay)}; ")
        assert "\n" not in replay.problem
    state = replay.state_at(0)
    for n, step in enumerate(replay.steps, 1):
        state, _ = replay.game.apply(state, step.seat, step.action)
        assert replay.seek(n) == state
    replay.home()
    replay.events_upto(len(replay))
    replay.export_text()


# -- what a position shows ---------------------------------------------------------------------
def test_events_at_a_step_are_that_steps_sentences():
    m = toy_match(5, 30)
    replay = replay_of(m)
    for n in range(1, len(replay) + 1):
        expected = [TOY.describe_event(e, ["Ann", "Bob"]) for e in m.events[n - 1]]
        assert replay.step_events(n) == (expected or [replay.notation(n).split(". ", 1)[1]])


def test_the_event_log_stops_at_the_cursor():
    replay = replay_of(toy_match(5, 30))
    replay.seek(7)
    log = replay.events_upto()
    assert log and max(step for step, _, _ in log) == 7
    assert [s for s, _, _ in log] == sorted(s for s, _, _ in log)
    assert all(seat is None or seat in (0, 1) for _, seat, _ in log)


@pytest.mark.parametrize("game", [g for g in all_games() if g.hidden_information],
                         ids=lambda g: g.id)
def test_reveal_all_shows_the_full_state_and_a_seat_sees_its_view(game):
    original = play_random(game, game.min_players, 2, checks=False)
    replay = replay_of(original)
    hidden_somewhere = False
    for n in range(0, len(replay) + 1, max(1, len(replay) // 25)):
        replay.seek(n)
        full = original.states[n]
        assert replay.view(None) == full
        for seat in range(replay.players):
            assert replay.view(seat) == game.view(full, seat)
            hidden_somewhere |= replay.view(seat) != full
    assert hidden_somewhere, f"{game.id} hides nothing from any seat in a whole game"


def test_next_and_previous_turn_of_a_seat_land_where_that_seat_acts():
    replay = replay_of(toy_match(6, 60))
    replay.seek(0)
    seen = []
    while (n := replay.next_turn(1)) is not None:
        replay.seek(n)
        assert replay.steps[n].seat == 1 and replay.to_act() == (1,)
        seen.append(n)
    assert seen == [i for i, s in enumerate(replay.steps) if s.seat == 1]
    back = []
    while (n := replay.previous_turn(1)) is not None:
        replay.seek(n)
        back.append(n)
    assert back == list(reversed(seen[:-1]))


def test_autoplay_paces_turn_games_evenly_and_real_time_games_by_their_timestamps(monkeypatch):
    replay = replay_of(toy_match(6, 20))
    first_player = next(i for i, s in enumerate(replay.steps) if s.seat != CHANCE)
    assert replay.delay_before(first_player, 2) == replay_model.TURN_DELAY / 2
    monkeypatch.setattr(type(TOY), "real_time", True)
    for n in range(len(replay)):
        gap = replay.steps[n].t - replay.time_at(n)
        assert replay.delay_before(n, 4) == pytest.approx(max(0.0, min(gap, 5.0)) / 4)
    assert replay.delay_before(len(replay)) == 0.0


def test_a_real_time_record_without_times_keeps_an_even_pace(monkeypatch):
    m = toy_match(6, 20)
    for i, step in enumerate(m.steps):
        m.steps[i] = type(step)(step.seat, step.action, 0.0)
    replay = Replay.from_match(m)
    monkeypatch.setattr(type(TOY), "real_time", True)
    assert not replay.timed
    seat_step = next(i for i, s in enumerate(replay.steps) if s.seat != CHANCE)
    assert replay.delay_before(seat_step, 2) == replay_model.TURN_DELAY / 2


# -- leaving the replay --------------------------------------------------------------------------
def test_play_from_here_continues_the_history_with_new_seats_and_names_its_origin(tmp_path):
    m, path = save_toy(tmp_path, moves=30)
    replay = Replay.open(path)
    replay.seek(9)
    seats = [Seat(name="Cy"), Seat(name="Bot", kind="bot", bot="random")]
    new = replay.play_from_here(seats)
    assert new.seats == tuple(seats)
    assert [s.action for s in new.history[:9]] == [s.action for s in m.steps[:9]]
    assert new.states[9] == m.states[9]
    assert new.to_act() and CHANCE not in new.to_act()
    assert new.origin == f"{path}#9"
    record = match_to_record(new)
    assert record.header.origin == f"{path}#9" and record.header.seats == seats
    new.play(new.to_act()[0], Hold())
    assert new.cursor > 9


def test_play_from_here_refuses_the_wrong_number_of_seats(tmp_path):
    replay = replay_of(toy_match(1, 5))
    with pytest.raises(CellwarsError, match="1 seats for a 2-player game"):
        replay.play_from_here([Seat(name="solo")])


def test_play_from_here_is_autosaved_as_a_new_record(tmp_path):
    from cellwars_tui.record import autosave

    _, path = save_toy(tmp_path, moves=30)
    new = Replay.open(path).play_from_here(n=4)
    saved = autosave(new)
    assert saved != path
    again = load_match(saved)
    assert again.origin == f"{path}#4"


def test_the_move_list_exports_and_imports_back_to_the_same_replay():
    m = toy_match(9, 50)
    replay = replay_of(m)
    text = replay.export_text()
    again = Replay.from_text(text)
    assert len(again) == len(replay) and again.state == m.state
    assert [s.action for s in again.steps] == [s.action for s in m.steps]
    partial = replay.export_text(5)
    assert len(Replay.from_text(partial)) == 5


def test_a_hand_edited_move_list_opens_as_far_as_valid_and_says_which_line_stopped_it():
    m = toy_match(9, 20)
    lines = replay_of(m).export_text().splitlines()
    first = next(i for i, line in enumerate(lines) if not line.startswith("#"))
    bad = first + 6  # the 7th step
    lines[bad] = lines[bad].replace(": die", ": dye").replace(": roll", ": rool").replace(
        ": hold", ": hodl")
    replay = Replay.from_text("\n".join(lines))
    assert len(replay) == 6 and replay.state == m.states[6]
    assert replay.problem.startswith(f"valid up to step 6; line {bad + 1}: ")


def test_a_move_list_with_a_bad_header_is_the_projects_error():
    text = replay_of(toy_match(9, 20)).export_text()
    with pytest.raises(RecordError, match="seed"):
        Replay.from_text("\n".join(line for line in text.splitlines()
                                   if not line.startswith("# seed")))
    with pytest.raises(RecordError, match="not a cellwars move list"):
        Replay.from_text("1. seat1: roll")


def test_a_game_parser_bug_on_a_move_list_is_the_projects_error(monkeypatch):
    text = replay_of(toy_match(9, 20)).export_text()

    def broken(_text):
        raise ZeroDivisionError("oops")

    monkeypatch.setattr(TOY, "action_from_str", broken)
    with pytest.raises(RecordError, match="ZeroDivisionError"):
        Replay.from_text(text)


def test_a_replay_saves_as_a_record_with_the_same_steps(tmp_path):
    m = toy_match(4, 25)
    replay = replay_of(m)
    record = decode_record(replay.record_bytes())
    assert [s.seat for s in record.steps] == [s.seat for s in m.steps]
    assert Replay.from_record(record).state == m.state


def test_the_replay_package_never_imports_ui_libraries():
    code = (
        "import sys, cellwars_tui.replay, cellwars_tui.bench.replay\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_die_and_roll_are_what_the_helpers_play():  # guards the helper the tests rely on
    m = toy_match(3, 10, hold_every=0)
    assert all(isinstance(s.action, (Die, Roll)) for s in m.steps)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(
        ["kind", "face", "x"]), inner, max_size=3),
    max_leaves=6,
)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_hand_edited_steps_open_as_far_as_valid(data):
    import msgspec

    record = decode_record(_BASE)
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(record.steps) - 1))
        what = data.draw(st.sampled_from(["seat", "action", "kind", "drop", "t"]))
        step = record.steps[i]
        if what == "seat":
            step.seat = data.draw(st.integers(-3, 5))
        elif what == "action":
            step.action = msgspec.Raw(msgspec.json.encode(data.draw(_JSON)))
        elif what == "kind":
            step.action = msgspec.Raw(msgspec.json.encode(
                {"kind": data.draw(st.sampled_from(["roll", "hold", "die"])),
                 "face": data.draw(st.integers(-2, 9))}))
        elif what == "drop":
            del record.steps[i]
        else:
            step.t = data.draw(st.floats(-1e300, 1e300))  # JSON has no NaN or infinity
    blob = encode_record(record)
    replay = Replay.from_record(decode_record(blob))
    assert replay.problem is None or replay.problem.startswith(f"valid up to step {len(replay)}; ")
    for n in range(len(replay) + 1):
        replay.seek(n)
        replay.delay_before(n, 8)
    replay.events_upto()


# -- fuzz: mutated record files of every registered game open as far as valid -----------------
_GAME_RECORDS = {
    g.id: encode_record(match_to_record(play_random(g, g.min_players, 6, checks=False)))
    for g in all_games()
}


def _mutate(data, blob: bytearray) -> bytearray:
    for _ in range(data.draw(st.integers(1, 3))):
        if not blob:
            break
        kind = data.draw(st.sampled_from(["cut", "flip", "insert", "delete", "digit", "swap"]))
        at = data.draw(st.integers(0, len(blob) - 1))
        if kind == "cut":
            del blob[at:]
        elif kind == "flip":
            blob[at] = data.draw(st.sampled_from(b'{}[],:"0123456789-.aekx \n\xff'))
        elif kind == "insert":
            blob[at:at] = data.draw(st.sampled_from([b",", b"]", b"[", b'"x"', b"null", b"-1",
                                                     b"99999999999999999999", b"1e308"]))
        elif kind == "delete":
            del blob[at:at + data.draw(st.integers(1, 12))]
        elif kind == "digit":
            digits = [i for i, b in enumerate(blob) if chr(b).isdigit()]
            if digits:
                blob[data.draw(st.sampled_from(digits))] = ord(str(data.draw(st.integers(0, 9))))
        else:  # swap two steps' actions' kinds, as a careless hand edit would
            kinds = [i for i in range(len(blob)) if blob.startswith(b'"kind":"', i)]
            if len(kinds) >= 2:
                a, b = sorted(data.draw(st.lists(st.sampled_from(kinds), min_size=2, max_size=2)))
                blob[a:b] = blob[a:b][::-1] if data.draw(st.booleans()) else blob[a:b]
    return blob


@pytest.mark.parametrize("game_id", sorted(_GAME_RECORDS))
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_mutated_record_files_of_every_game_open_as_far_as_valid(game_id, data, tmp_path_factory):
    original = _GAME_RECORDS[game_id]
    blob = _mutate(data, bytearray(original))
    path = tmp_path_factory.getbasetemp() / f"fuzz-{game_id}.cellwars.json"
    path.write_bytes(bytes(blob))
    try:
        replay = Replay.open(path)
    except RecordError as exc:
        assert "\n" not in str(exc)
        return
    if replay.problem is not None:
        assert replay.problem.startswith(f"valid up to step {len(replay)}; ")
        assert "\n" not in replay.problem
    state = replay.state_at(0)
    for n, step in enumerate(replay.steps, 1):
        state, _ = replay.game.apply(state, step.seat, step.action)
        assert replay.seek(n) == state
    replay.home()
    replay.events_upto(len(replay))
    replay.export_text()
    for seat in range(replay.players):
        replay.view(seat)


_MOVE_LIST = replay_of(toy_match(8, 40)).export_text()


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_mutated_move_lists_open_as_far_as_valid_or_raise_the_projects_error(data):
    lines = _MOVE_LIST.splitlines()
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(lines) - 1))
        kind = data.draw(st.sampled_from(["drop", "swap", "edit", "dup"]))
        if kind == "drop":
            del lines[i]
        elif kind == "swap":
            j = data.draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "dup":
            lines.insert(i, lines[i])
        else:
            at = data.draw(st.integers(0, max(0, len(lines[i]) - 1)))
            lines[i] = lines[i][:at] + data.draw(st.text(max_size=4)) + lines[i][at + 1:]
        if not lines:
            break
    try:
        replay = Replay.from_text("\n".join(lines))
    except RecordError as exc:
        assert "\n" not in str(exc)
        return
    assert replay.problem is None or replay.problem.startswith(f"valid up to step {len(replay)}; ")
    for n in range(len(replay) + 1):
        replay.seek(n)
    replay.export_text()
