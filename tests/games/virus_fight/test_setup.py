"""Set-up clauses: boards, secret programs, the first-player rule and placement."""

from __future__ import annotations

import pytest

from cellwars_tui.core import CHANCE, BadOptions, IllegalAction
from cellwars_tui.games.virus_fight import engine as E
from cellwars_tui.games.virus_fight.notation import parse_square
from cellwars_tui.games.virus_fight.rules import (BUILD, FIRST, GAME, PLACE, PLAY, Add, Drop,
                                                  First, Mark, Place, Ready, VirusFightOptions,
                                                  home_line)

from .helpers import build, build_all, force_first, new_game, place_all


@pytest.mark.parametrize(("players", "size"), [(2, 5), (3, 6), (4, 6)])
def test_two_players_use_a_5x5_board_and_three_or_four_a_6x6(players, size):
    s = new_game(players)
    assert s.size == size and len(s.board) == size * 8
    assert s.spares == (E.ALL_CODES,) * players  # 3 instructions of each of the 4 types


def test_player_counts_outside_two_to_four_are_refused():
    with pytest.raises(BadOptions):
        GAME.initial_state(VirusFightOptions(players=5))
    with pytest.raises(BadOptions):
        GAME.initial_state(VirusFightOptions(players=2, round_limit=1))


def test_building_is_simultaneous_every_unready_seat_acts():
    s = new_game(3)
    assert GAME.to_act(s) == (0, 1, 2)
    s, _ = build(s, 1, "M1", 0)
    assert GAME.to_act(s) == (0, 2)


def test_a_program_holds_one_to_five_different_instructions():
    s = new_game()
    assert Ready() not in GAME.legal_actions(s, 0)  # empty program
    for c in (1, 2, 3, 4, 5):
        s, _ = GAME.apply(s, 0, Add(c))
    legal = GAME.legal_actions(s, 0)
    assert not any(isinstance(a, Add) for a in legal)  # five is the most
    with pytest.raises(IllegalAction):
        GAME.apply(s, 0, Add(6))
    s, _ = GAME.apply(s, 0, Drop())
    with pytest.raises(IllegalAction):
        GAME.apply(s, 0, Add(1))  # each instruction once


def test_a_program_needs_its_marker_before_it_is_ready():
    s = new_game()
    s, _ = GAME.apply(s, 0, Add(1))
    with pytest.raises(IllegalAction):
        GAME.apply(s, 0, Ready())
    s, _ = GAME.apply(s, 0, Mark(0))
    s, _ = GAME.apply(s, 0, Ready())
    assert s.ready == (True, False)


def test_dropping_the_marked_instruction_takes_the_marker_off():
    s = new_game()
    s, _ = GAME.apply(s, 0, Add(1))
    s, _ = GAME.apply(s, 0, Add(2))
    s, _ = GAME.apply(s, 0, Mark(1))
    s, _ = GAME.apply(s, 0, Drop())
    assert s.programs[0] == (1,) and s.marks[0] == -1


def test_programs_are_secret_until_everyone_is_ready():
    s = new_game()
    s, events = build(s, 0, "M3 W1 E2", 1)
    assert [type(e).__name__ for e in events] == ["ProgramReady"]
    other = GAME.view(s, 1)
    assert other.programs[0] == () and other.marks[0] == -1 and other.ready[0]
    assert GAME.view(s, 0).programs[0] == s.programs[0]
    assert GAME.view(s, None).programs[0] == ()
    s, events = build(s, 1, "J1 M2", 0)
    assert any(type(e).__name__ == "Revealed" for e in events)
    assert GAME.view(s, 1).programs[0] == s.programs[0]


def test_determinize_gives_hidden_ready_programs_a_legal_program():
    import random

    s, _ = build(new_game(), 0, "M3 W1 E2", 1)
    full = GAME.determinize(GAME.view(s, 1), 1, random.Random(3))
    GAME.check_invariants(full)
    assert 1 <= len(full.programs[0]) <= 5


def test_first_player_is_the_one_with_the_smallest_program():
    s, events = build_all([("M3 W1 E2", 0), ("J1 M2", 0)])
    assert s.phase == PLACE and s.first == 1
    assert "smallest program" in events[-1].reason


def test_first_player_tie_broken_by_the_lowest_pip_total():
    s, events = build_all([("M1 W1", 0), ("J1 M2", 0)])
    assert s.first == 0 and "fewest pips" in events[-1].reason


def test_first_player_tie_broken_by_the_highest_pip_under_the_marker():
    s, events = build_all([("M1 W3", 0), ("J2 M2", 1)])
    assert s.first == 1 and "under the marker" in events[-1].reason


def test_first_player_last_tie_is_a_chance_step_among_the_tied_players():
    s, _ = build_all([("M1 W3", 1), ("W1 J3", 1), ("E2 E1 M1", 0)])
    assert s.phase == FIRST and GAME.to_act(s) == (CHANCE,)
    assert {a for a, _ in GAME.chance_outcomes(s)} == {First(0), First(1)}
    with pytest.raises(IllegalAction):
        GAME.apply(s, CHANCE, First(2))
    s = force_first(s, 1)
    assert s.phase == PLACE and s.first == 1 and s.queue == (1, 2, 0)


def test_spares_are_the_instructions_left_out_of_the_program():
    s, _ = build_all([("M3 W1 E2", 0), ("J1 M2", 0)])
    assert len(s.spares[0]) == 9 and 3 not in s.spares[0]
    assert len(s.spares[1]) == 10


def test_programs_are_placed_in_turn_order_on_the_home_line():
    s, _ = build_all([("M3 W1 E2", 1), ("J1 M2", 0)])
    assert s.queue == (1, 0)  # the first player places first
    starts = {a.sq for a in GAME.legal_actions(s, 1)}
    assert starts == {parse_square(x) for x in ("e5", "d5", "c5", "b5")}
    with pytest.raises(IllegalAction):
        GAME.apply(s, 0, Place(parse_square("a1")))  # not South's turn yet
    s, _ = GAME.apply(s, 1, Place(parse_square("d5")))
    # North's line runs from its left (east) to its right: J1 on d5, M2 on c5
    assert s.board[parse_square("d5")] == E.code(E.JUMP, 1)
    assert s.board[parse_square("c5")] == E.code(E.MOVE, 2)
    assert s.markers[1] == parse_square("d5")
    s, events = GAME.apply(s, 0, Place(parse_square("c1")))
    assert s.phase == PLAY and s.round == 1 and s.queue == (1, 0)
    assert [s.board[parse_square(x)] for x in ("c1", "d1", "e1")] == [3, 4, 11]
    assert s.markers[0] == parse_square("d1")


@pytest.mark.parametrize("players", [3, 4])
def test_home_lines_of_three_or_four_players_are_five_squares_on_their_own_edges(players):
    lines = [home_line(players, q) for q in range(players)]
    cells = [c for line in lines for c in line]
    assert len(cells) == len(set(cells)) == 5 * players
    edges = [lambda c: c >> 3 == 0, lambda c: c & 7 == 0, lambda c: c >> 3 == 5,
             lambda c: c & 7 == 5]
    for q, line in enumerate(lines):
        assert all(edges[q](c) for c in line)


def test_a_placement_may_not_touch_a_program_already_placed():
    s, _ = build_all([("M1 M2", 0), ("W1 W3", 0), ("J1 J2 J3", 0)])
    assert s.first == 0  # smallest, then fewest pips
    s, _ = GAME.apply(s, 0, Place(parse_square("a1")))  # South takes a1-b1
    starts = {E.square_name(a.sq) for a in GAME.legal_actions(s, 1)}
    # West's line runs a6..a2; a2 touches a1, so no placement may end on a2
    assert starts == {"a6", "a5", "a4"}


def test_a_placement_that_cannot_avoid_touching_may_touch():
    s, _ = build_all([("M1 M2 M3 W1 W2", 0), ("J1 J2 J3 E1 E2", 0), ("E3 W3", 0),
                      ("M1", 0)])
    s = place_all(s, {3: "f1", 2: "f6"})
    assert s.phase == PLAY
    # East's lone M1 on f1 forced South's five-long program (a1..e1) to touch it
    assert s.board[parse_square("e1")] and s.board[parse_square("f1")]


def test_round_one_starts_with_the_first_player_and_goes_clockwise():
    s, _ = build_all([("M1 M2 M3", 0), ("W1 W2", 0), ("J1 J2 J3", 0), ("E1 E2 E3", 0)])
    s = place_all(s)
    assert s.phase == PLAY and s.first == 1 and s.queue == (1, 2, 3, 0)
