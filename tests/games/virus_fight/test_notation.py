"""Notation: actions and positions round-trip, bad text gives BadNotation, perft data file."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cellwars_tui.core import BadNotation
from cellwars_tui.games.virus_fight import notation as N
from cellwars_tui.games.virus_fight.rules import (GAME, Add, Agree, Decline, Drop, Erase, First,
                                                  Jump, Mark, Move, Offer, Place, Ready, Write,
                                                  action_turn)

PERFT_FILE = Path(__file__).with_name("perft.txt")
RULES_MD = Path(N.__file__).with_name("rules.md")


def _perft_cases():
    for line in PERFT_FILE.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            pos, depth, nodes = (x.strip() for x in line.split(";"))
            yield pos, int(depth), int(nodes)


@pytest.mark.parametrize("action", [
    Add(1), Add(12), Drop(), Mark(0), Mark(4), Ready(), First(0), First(3), Place(0),
    Place(45), Move(0, 9, 8), Move(-1, -1, 1), Move(0, 9, -1), Write(5, 9, 9), Write(0, -1, 1),
    Jump(33), Jump(-1), Erase(9, 1), Erase(-1, 1), Erase(-1, -1), Offer(), Agree(), Decline(),
])
def test_action_notation_round_trips(action):
    text = GAME.action_to_str(action)
    assert GAME.action_from_str(text) == action
    assert GAME.action_from_str(f"  {text.upper()} ") == action


@pytest.mark.parametrize("text", [
    "", "fly", "add", "add X3", "add M4", "mark 0", "mark 9", "first 5", "place z9", "place a7",
    "move b1c2 >b2", "move b1-c2", "move b1-c2 b2", "write W2c2 >c2", "write W2@c2 >zz",
    "jump", "jump q1", "erase c3", "ready now",
])
def test_bad_action_notation_raises_bad_notation(text):
    with pytest.raises(BadNotation) as info:
        GAME.action_from_str(text)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("name", sorted(N.STANDARD))
def test_position_notation_round_trips(name):
    text = N.STANDARD[name]
    s = N.position_from_str(GAME, text)
    GAME.check_invariants(s)
    assert N.position_to_str(s) == text
    assert N.position_from_str(GAME, N.position_to_str(s)) == s


@pytest.mark.parametrize("text", [
    "", "one two three", ".../... a1,b1 -,- 12 1 1",  # wrong board size
    ".J3M2M1E2/...../...../...../..W3M3J1 c1,c5 -,- 12 1 1/50",  # pieces missing
    ".J3M2M1E2/...../...../...../..W3M3J1 a1,c5 M1M2W1W2J2J3E1E2E3,M3W1W2W3J1J2E1E3 12 1 1",
    ".J3M2M1E2/...../...../...../..W3M3J1 c1,c1 M1M2W1W2J2J3E1E2E3,M3W1W2W3J1J2E1E3 12 1 1",
    ".J3M2M1E2/...../...../...../..W3M3J1 c1,c5 M1M2W1W2J2J3E1E2E3,M3W1W2W3J1J2E1E3 13 1 1",
    ".J3M2M1E2/...../...../...../..W3M3J1 c1,c5 M1M2W1W2J2J3E1E2E3,M3W1W2W3J1J2E1E3 12 1 0",
    ".J3M2M1E2/...../...../...../..W3M3J1 c1,c5 M1M2W1W2J2J3E1E2E3,M3W1W2W3J1J2E1E3 12 x 1",
    ".J3M2M1E2/...../...../...../..W3M3J1 c1,c5 M1M2W1W2J2J3E1E2E3,M3W1W2W3J1J2E1E3 1 1 9/5",
    ".J3M2M1X2/...../...../...../..W3M3J1 c1,c5 M1M2W1W2J2J3E1E2E3,M3W1W2W3J1J2E1E3 12 1 1",
    ".J3M2M1E2./...../...../...../..W3M3J1 c1,c5 M1M2W1W2J2J3E1E2E3,M3W1W2W3J1J2E1E3 12 1 1",
    ".J3M2M1E2/...../...../...../..W3M3J1 c1,c5 M1M2W1W2J2J3E1E2E,M3W1W2W3J1J2E1E3 12 1 1",
])
def test_bad_position_notation_raises_bad_notation(text):
    with pytest.raises(BadNotation) as info:
        N.position_from_str(GAME, text)
    assert "\n" not in str(info.value)


def test_position_notation_is_only_for_the_play_phase():
    with pytest.raises(BadNotation):
        N.position_to_str(GAME.initial_state(GAME.options_type()))


def test_perft_counts_match_the_data_file():
    for pos, depth, nodes in _perft_cases():
        assert N.perft(GAME, N.position_from_str(GAME, pos), depth) == nodes, (pos, depth)


def _slow_perft(s, depth):
    if depth == 0:
        return 1
    seats = GAME.to_act(s)
    if not seats:
        return 0
    total = 0
    for a in GAME.legal_actions(s, seats[0]):
        if action_turn(s, a) is None:
            continue  # a stalemate offer is not a turn: perft counts turns only
        child, _ = GAME.apply(s, seats[0], a)
        total += _slow_perft(child, depth - 1)
    return total


def test_perft_fast_counter_agrees_with_legal_actions_and_apply():
    cases = [(p, d, n) for p, d, n in _perft_cases() if d <= 2]
    for pos, depth, nodes in cases:
        assert _slow_perft(N.position_from_str(GAME, pos), depth) == nodes, (pos, depth)


def test_legal_turns_are_distinct_and_each_changes_the_game_differently():
    rng = random.Random(4)
    for text in N.STANDARD.values():
        s = N.position_from_str(GAME, text)
        actions = GAME.legal_actions(s, s.queue[0])
        assert len(set(actions)) == len(actions)
        children = {GAME.apply(s, s.queue[0], a)[0] for a in rng.sample(actions, min(20, len(
            actions)))}
        assert len(children) == min(20, len(actions))


def test_perft_command_prints_the_node_count(capsys):
    from cellwars_tui.cli import main

    text = N.STANDARD["opening-2a"]
    assert main(["perft", "virus-fight", "--position", text, "--depth", "2"]) == 0
    assert capsys.readouterr().out.strip().endswith("nodes 972")
    assert main(["perft", "virus-fight", "--depth", "1", "--divide"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 55 and out[-1] == "nodes 54"
    assert main(["perft", "virus-fight", "--position", "nonsense"]) == 2


def test_rules_page_quotes_the_seed_passage_of_every_clarification():
    from cellwars_tui.games.virus_fight.clarifications import CLARIFICATIONS

    text = RULES_MD.read_text()
    assert "## Clarifications" in text
    clar = text.split("## Clarifications", 1)[1]
    for fragment, _ in CLARIFICATIONS:
        assert f'"{fragment}"' in clar


def test_event_sentences_are_single_lines():
    from cellwars_tui.core import Match, Seat

    match = Match(GAME, GAME.options_type(players=3), [Seat(name=n) for n in "ABC"], 5)
    rng = random.Random(5)
    while not match.is_over():
        seat = match.to_act()[0]
        match.play(seat, rng.choice(list(match.legal_actions(seat))))
    for events in match.events:
        for e in events:
            text = GAME.describe_event(e, ["A", "B", "C"])
            assert text and "\n" not in text and not text.startswith("{")


# -- bad input on the perft command line (issue 21) ---------------------------------------------
LAST_TURN = N.STANDARD["opening-2a"].rsplit(" ", 3)[0] + " 2 1 50/50"  # seat 2, round 50 of 50


def _perft(capsys, *argv: str) -> tuple[int, str, str]:
    from cellwars_tui.cli import main

    code = main(["perft", "virus-fight", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("position", [None, LAST_TURN])
def test_perft_depth_0_counts_the_position_itself_with_or_without_divide(capsys, position):
    # --divide at depth 0 passed depth -1 on (and hung); on a last turn it printed "nodes 0"
    where = [] if position is None else ["--position", position]
    assert _perft(capsys, *where, "--depth", "0")[:2] == (0, "nodes 1\n")
    assert _perft(capsys, *where, "--depth", "0", "--divide")[:2] == (0, "nodes 1\n")


def test_perft_divide_on_the_last_turn_counts_each_final_turn_once(capsys):
    code, out, _ = _perft(capsys, "--position", LAST_TURN, "--depth", "1", "--divide")
    lines = out.splitlines()
    assert code == 0 and all(line.endswith(": 1") for line in lines[:-1])
    assert lines[-1] == f"nodes {len(lines) - 1}"
    with pytest.raises(ValueError):
        N.perft(GAME, N.position_from_str(GAME, LAST_TURN), -1)


@pytest.mark.parametrize(("position", "says"), [
    ("", "the position is empty"),
    ("   ", "the position is empty"),
    (N.STANDARD["opening-2a"].replace("1/50", "1/"), "the round field looks like 3/50"),
    (N.STANDARD["opening-2a"].replace("1/50", "x/50"), "the round field looks like 3/50"),
    (N.STANDARD["opening-2a"].replace("1/50", "1/x"), "the round field looks like 3/50"),
    (N.STANDARD["opening-2a"].replace("1/50", "²/50"), "the round field looks like 3/50"),
    (N.STANDARD["opening-2a"].replace("1/50", "٣/50"), "the round field looks like 3/50"),
    (N.STANDARD["opening-2a"].replace("1/50", "1" * 5000), "the round field looks like 3/50"),
    (N.STANDARD["opening-2a"].replace("1/50", "1/4"), "the round limit must be 5..500, not 4"),
    (N.STANDARD["opening-2a"].replace("1/50", "51/50"), "the round must be 1..50, not 51"),
    (N.STANDARD["opening-2a"].replace(" 12 1 ", " ①2 1 "), "the queue lists seats like 12"),
    (N.STANDARD["opening-2a"].replace(" 12 1 ", " 12 ① "), "first player must be a seat number"),
])
def test_a_bad_position_is_one_line_naming_the_field(capsys, position, says):
    code, out, err = _perft(capsys, "--position", position, "--depth", "1")
    assert code == 2 and not out
    assert err.startswith("cellwars: ") and err.count("\n") == 1 and says in err, err
    assert "int()" not in err and "Traceback" not in err
