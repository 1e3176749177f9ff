"""Play clauses: MOVE, WRITE, JUMP, ERASE, the marker step, elimination and the round order."""

from __future__ import annotations

import pytest

from cellwars_tui.core import IllegalAction
from cellwars_tui.games.virus_fight.notation import parse_square
from cellwars_tui.games.virus_fight.rules import GAME, OVER

from .helpers import play, play_events, pos, turns

EMPTY3 = "...../...../....."


# -- MOVE ---------------------------------------------------------------------------------------
MOVE_POS = ("...E1J2/" + EMPTY3 + "/J1M1W1..", "b1,e5")


def test_move_takes_an_unmarked_instruction_to_a_square_next_to_another_of_its_block():
    s = pos(*MOVE_POS)
    assert turns(s) == {
        "move a1-b2 >c1", "move a1-b2 >b2", "move a1-c2 >c1", "move a1-d1 >c1",
        "move c1-a2 >a1", "move c1-b2 >a1", "move c1-b2 >b2",
    }
    s = play(s, "move a1-d1 >c1")
    assert s.board[parse_square("d1")] and not s.board[parse_square("a1")]
    assert s.markers[0] == parse_square("c1")


def test_move_does_not_count_the_square_the_instruction_leaves():
    s = pos(*MOVE_POS)
    for bad in ("move c1-d1 >a1", "move c1-c2 >a1", "move a1-a2 >c1"):
        assert bad not in turns(s)
        with pytest.raises(IllegalAction):
            play(s, bad)


def test_move_can_split_a_block_and_merge_into_another_players_block():
    from cellwars_tui.games.virus_fight.engine import NEIGHBOURS, block_of

    s = pos("...../...../...../....J2/W1M1W2J1.", "b1,e2")
    merged = play(s, "move a1-e1 >c1")  # e1 touches d1 and North's e2
    block = block_of(merged.board, NEIGHBOURS[5], parse_square("b1"))
    assert parse_square("e2") in block
    split = play(s, "move c1-b2 >b2")  # d1 loses its link to b1
    block = block_of(split.board, NEIGHBOURS[5], parse_square("b1"))
    assert parse_square("d1") not in block and parse_square("b2") in block


def test_move_takes_a_rivals_instruction_once_the_programs_touch():
    # North's E2 on d2 links North's J2 (d3, marked) to South's row: it is in South's block
    s = pos("...../...../...J2./...E2./M1W1W2E1.", "a1,d3")
    assert "move d2-e1 >b1" in turns(s)
    assert not any(t.startswith("move d3-") for t in turns(s))  # (North's marker: immune)


def test_move_with_nothing_movable_does_nothing_and_the_marker_still_steps():
    s = pos("....J2/...../...../...../M1..E1.", "a1,e5")
    # a lone M1: nothing can move (the marked instruction is immune) and no neighbour to step to
    assert turns(s) == {"move - >out"}


# -- WRITE --------------------------------------------------------------------------------------
def test_write_puts_a_spare_next_to_the_active_block_and_the_marker_steps():
    s = pos("....J2/" + EMPTY3 + "/W1M3...", "a1,e5", spares=("E3", "*"))
    assert turns(s) == {"write E3@a2 >b1", "write E3@a2 >a2", "write E3@b2 >b1",
                        "write E3@c1 >b1"}
    s = play(s, "write E3@a2 >a2")
    assert s.spares[0] == () and s.board[parse_square("a2")] == 12
    assert s.markers[0] == parse_square("a2")


def test_write_with_no_spare_places_nothing_but_the_marker_still_steps():
    s = pos("....J2/" + EMPTY3 + "/W1M3...", "a1,e5", spares=("-", "*"))
    assert turns(s) == {"write - >b1"}
    s2, events = play_events(s, "write - >b1")
    assert s2.board == s.board and s2.markers[0] == parse_square("b1")
    assert "writes nothing" in GAME.describe_event(events[0], GAME.seat_names)


def test_a_lone_write_with_no_spare_is_eliminated():
    s = pos("....J2/" + EMPTY3 + "/W1....", "a1,e5", spares=("-", "*"))
    assert turns(s) == {"write - >out"}
    s = play(s, "write - >out")
    assert s.phase == OVER and GAME.outcome(s).winners == (1,)


# -- JUMP ---------------------------------------------------------------------------------------
JUMP_POS = ("M1...E1/M2...E2/...../...../J1W1.W2.", "a1,e5")


def test_jump_lands_on_the_own_active_block_or_on_marker_free_blocks():
    s = pos(*JUMP_POS)
    # own block: b1; marker-free blocks: d1 and a5/a4; never North's block e5/e4
    assert turns(s) == {"jump b1", "jump d1", "jump a5", "jump a4"}


def test_jump_ends_the_turn_without_a_marker_step():
    s = pos(*JUMP_POS)
    s2, events = play_events(s, "jump a4")
    assert s2.markers[0] == parse_square("a4") and s2.queue == (1,)
    assert not any(type(e).__name__ == "Stepped" for e in events)


def test_jump_never_lands_on_another_players_marker_in_a_shared_block():
    s = pos("...../...../...../...../J1M1E1..", "a1,b1")
    assert turns(s) == {"jump c1"}


def test_jump_with_nowhere_to_land_eliminates_the_player():
    s = pos("....J2/...../...../...../J1....", "a1,e5")
    assert turns(s) == {"jump out"}
    s = play(s, "jump out")
    assert GAME.outcome(s).winners == (1,)


# -- ERASE --------------------------------------------------------------------------------------
def test_erase_captures_an_instruction_next_to_an_erase_of_the_active_block():
    s = pos("....J2/...../...../.M2.../W3E1...", "b1,e5", spares=("-", "*"))
    assert turns(s) == {"erase - >a1", "erase - >b2", "erase a1 >b2", "erase b2 >a1"}
    s2 = play(s, "erase b2 >a1")
    assert s2.spares[0] == (2,) and not s2.board[parse_square("b2")]


def test_erase_works_beside_any_erase_of_the_block_not_only_the_one_run():
    # the marker runs E1 on a1; M1 on d1 lies beside the block's other ERASE (E2 on c1) only
    s = pos("....J2/...../...../...../E1W1E2M1.", "a1,e5", spares=("-", "*"))
    assert "erase d1 >b1" in turns(s)
    assert play(s, "erase d1 >b1").spares[0] == (1,)


def test_an_erased_instruction_may_be_written_again_by_the_player_who_erased_it():
    s = pos("....J2/....J1/...../.J3.../W1E1W2..", "b1,e5", spares=("-", "*"))
    s = play(s, "erase a1 >c1")
    assert s.spares[0] == (4,)  # W1 captured
    s = play(s, "jump e4")
    assert s.round == 2 and s.queue[0] == 0  # South (W2 under the marker) plays first
    assert "write W1@c2 >c2" in turns(s)


def test_erase_may_aim_at_an_empty_square_and_erase_nothing():
    s = pos("....J2/...../...../...../E1W3...", "a1,e5", spares=("-", "*"))
    s2, events = play_events(s, "erase - >b1")
    assert s2.board == s.board and s2.spares == s.spares
    assert "erasing nothing" in GAME.describe_event(events[0], GAME.seat_names)


def test_erase_must_target_an_instruction_when_all_erase_instructions_are_surrounded():
    s = pos("....J2/..M2../.W1E1W2./..J3../.....", "c3,e5", spares=("-", "*"))
    got = turns(s)
    assert not any(t.startswith("erase - ") for t in got)
    assert {t.split()[1] for t in got} == {"c4", "b3", "d3", "c2"}


def test_the_board_edge_is_not_an_empty_square_for_erase():
    s = pos("....J2/...../...../M2..../E1W3...", "a1,e5", spares=("-", "*"))
    assert turns(s) == {"erase a2 >b1", "erase b1 >a2"}


def test_erase_with_only_marked_neighbours_does_nothing():
    s = pos("...../...../...../...../E1M1...", "a1,b1")
    assert turns(s) == {"erase - >out"}


# -- marked instructions and the marker step ------------------------------------------------------
def test_a_marked_instruction_cannot_be_moved_or_erased():
    s = pos("...../...../...../...../M1W1E1..", "a1,b1")
    assert not any(t.startswith("move b1-") for t in turns(s))
    s = pos("...../...../...../...../E1W1...", "a1,b1")
    assert not any(t.startswith("erase b1") for t in turns(s))


def test_the_marker_steps_to_a_neighbour_without_another_marker():
    s = pos("...../...../...../M2..../W1J1...", "a1,b1", spares=("-", "*"))
    # b1 carries North's marker, so South's marker may only step to a2
    assert turns(s) == {"write - >a2"}


def test_a_marker_that_cannot_step_is_eliminated_and_its_instructions_stay():
    s = pos("...../...../...../...../E1W1...", "a1,b1")
    s2, events = play_events(s, "erase - >out")
    assert s2.markers == (-1, parse_square("b1"))
    assert s2.board == s.board
    assert any(type(e).__name__ == "Eliminated" for e in events)
    assert GAME.outcome(s2).winners == (1,) and not GAME.to_act(s2)


def test_players_sharing_an_active_block_each_act_on_it_freely():
    s = pos("...../...../...../...../M1W1J2W2.", "a1,c1", spares=("-", "*"))
    assert "move d1-b2 >b1" in turns(s)  # South moves an instruction beside North's marker
    s = play(s, "move d1-b2 >b1")
    assert s.queue == (1,) and s.board[parse_square("b2")] == 5


# -- rounds and the first player --------------------------------------------------------------------
def test_first_player_keeps_the_role_when_tied_for_the_highest_marked_instruction():
    s = pos("...M3J3/...../...../...../J3M3...", "a1,e5", queue="1", first=1)
    s = play(s, "jump b1")
    # South now stands on M3, North on J3: tied at 3, first player (South) keeps it
    assert s.round == 2 and s.first == 0 and s.queue == (0, 1)


def test_the_single_highest_marked_instruction_becomes_first():
    s = pos("...M1J3/...../...../...../J3M1...", "a1,e5", queue="1", first=1)
    s = play(s, "jump b1")
    assert s.round == 2 and s.first == 1 and s.queue == (1, 0)


def test_a_tie_not_involving_the_first_player_goes_to_the_nearest_clockwise():
    ranks = "J1J2..J3J2/....../....../....../....../J1J2..J3J2"
    # four seats on the 6x6: South a1, West a6, North e6, East f1; South (first) stands on J1
    s = pos(ranks, "a1,a6,f6,e1", queue="1", first=1)
    s = play(s, "jump b1")
    # after the round: South on J2, West J1, North J2 (f6), East J3 (e1) -> East alone
    assert s.first == 3
    s = pos(ranks, "a1,b6,e6,f1", queue="1", first=1)
    s = play(s, "jump b1")
    # South J2, West J2 (b6), North J3 (e6), East J2 (f1): North alone highest
    assert s.first == 2


def test_a_tie_for_highest_without_the_first_player_goes_to_the_nearest_clockwise_seat():
    ranks = "J3J1..J3J1/....../....../....../....../J1J2..J3J2"
    # West (a6) and East (e1) tie on 3; South ends on J2, North stays on J1
    s = play(pos(ranks, "a1,a6,b6,e1", queue="1", first=1), "jump b1")
    assert s.first == 1  # first player South: West is nearest clockwise
    s = play(pos(ranks, "a1,a6,b6,e1", queue="1", first=3), "jump b1")
    assert s.first == 3  # first player North: East is nearest clockwise


def test_with_the_first_player_out_the_highest_nearest_clockwise_leads():
    s = pos("J3....J3/....../....../....../....../J1.....", "a1,a6,f6", queue="1", first=1)
    s = play(s, "jump out")
    assert s.round == 2 and s.first == 1 and s.queue == (1, 2)


def test_eliminated_players_have_no_more_turns():
    ranks = "J1J2..J3J2/....../....../....../....../J1...J3J2"
    s = pos(ranks, "a1,a6,e6,e1", queue="1234", first=1)
    s = play(s, "jump out")  # South's lone J1 has nowhere to land: out
    assert s.markers[0] == -1 and s.queue == (1, 2, 3)
    assert GAME.outcome(s) is None


def test_the_last_program_running_wins():
    s = pos("....J2/...../...../...../J1....", "a1,e5")
    s = play(s, "jump out")
    out = GAME.outcome(s)
    assert out.winners == (1,) and out.termination == "last program running"
    assert not GAME.legal_actions(s, 1)
