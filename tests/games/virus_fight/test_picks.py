"""Virus Fight's turn picker without a screen: every legal turn can be built pick by pick, forced
picks are taken, a turn nobody chose waits, a pick is taken back, and the board's targets."""

from __future__ import annotations

import pytest

from cellwars_tui.games.virus_fight import engine as E
from cellwars_tui.games.virus_fight import notation as N
from cellwars_tui.games.virus_fight import rules as R
from cellwars_tui.games.virus_fight.picks import (TurnPicker, describe_square, stage_word,
                                                  turn_picks, value_text)
from cellwars_tui.games.virus_fight.types import eliminates

GAME = R.GAME


def picker_for(text: str) -> tuple[TurnPicker, R.VFState, int]:
    state = N.position_from_str(GAME, text)
    seat = state.queue[0]
    turn = TurnPicker()
    assert turn.set_position(state, seat, GAME.legal_actions(state, seat))
    return turn, state, seat


def build(turn: TurnPicker, action) -> object:
    """Pick ``action``'s values one by one as a player would (the forced ones are taken by the
    picker); the turn the picker plays, or the one it holds for Enter."""
    played = turn.advance()
    for k, (stage, value) in enumerate(turn_picks(action)):
        if played is not None or turn.pending is not None:
            break
        if len(turn.picks) > k:  # forced
            assert turn.picks[k] == (stage, value), (action, turn.picks)
            continue
        assert turn.stage() == stage and value in turn.options(), (action, turn.picks)
        assert turn.choose(value)
        played = turn.advance()
    return played if played is not None else turn.pending


@pytest.mark.parametrize("name", sorted(N.STANDARD))
def test_every_legal_turn_is_built_by_its_picks(name):
    turn, state, seat = picker_for(N.STANDARD[name])
    turns = turn.turn_legal()
    assert turns and set(turns) <= set(GAME.legal_actions(state, seat))
    for action in turns:
        turn.set_position(state, seat, GAME.legal_actions(state, seat))
        turn.picks, turn.user_picks, turn.pending = [], [], None
        assert build(turn, action) == action


def test_forced_picks_are_taken_and_a_turn_nobody_chose_waits_for_enter():
    turn = TurnPicker()
    jump = R.Jump(E.square(1, 4))
    state = N.position_from_str(GAME, N.STANDARD["opening-2a"])
    turn.set_position(state, state.queue[0], [jump])
    assert turn.advance() is None and turn.pending == jump and turn.stage() is None
    assert turn.pending_squares() == {E.square(1, 4)}
    assert turn.confirm() == jump and turn.pending is None and not turn.picks


def test_a_pick_is_taken_back_and_the_stage_comes_again():
    turn, state, seat = picker_for(N.STANDARD["midgame-2a"])
    turn.advance()
    stage = turn.stage()
    assert stage is not None and len(turn.options()) > 1
    value = min(v for v in turn.options() if v >= 0)
    picks_before = list(turn.picks)
    assert turn.choose(value)
    assert turn.user_picks
    turn.advance()
    assert turn.take_back()
    turn.advance()
    assert turn.picks == picks_before and turn.stage() == stage and not turn.user_picks
    assert not turn.take_back()
    assert not turn.choose(10_000)  # not an option: nothing recorded


def test_a_new_position_starts_the_turn_afresh_and_the_same_one_keeps_it():
    turn, state, seat = picker_for(N.STANDARD["midgame-2a"])
    turn.advance()
    turn.choose(min(v for v in turn.options() if v >= 0))
    assert not turn.set_position(state, seat, GAME.legal_actions(state, seat))
    assert turn.user_picks
    other = N.position_from_str(GAME, N.STANDARD["midgame-2b"])
    assert turn.set_position(other, other.queue[0], GAME.legal_actions(other, other.queue[0]))
    assert not turn.picks and not turn.user_picks and turn.pending is None


def test_targets_follow_the_stage_and_provisional_shows_a_move_under_way():
    for text in N.STANDARD.values():
        turn, state, seat = picker_for(text)
        moves = [a for a in turn.turn_legal() if isinstance(a, R.Move) and a.src >= 0]
        if moves:
            break
    assert moves, "a standard position where a MOVE moves something"
    move = moves[0]
    turn.advance()
    while turn.stage() != "dst":
        assert turn.choose(dict(turn_picks(move))[turn.stage()])
        turn.advance()
    assert move.dst in turn.target_squares()
    assert turn.value_for_square(move.dst) == move.dst
    assert turn.choose(move.dst)
    turn.advance()
    board, changed, erased = turn.provisional(state)
    assert board.board[move.dst] == state.board[move.src] and not board.board[move.src]
    assert changed == {move.dst} and not erased


def test_words_for_the_prompt():
    assert stage_word("src") == "move" and stage_word("wdst") == "on"
    assert value_text("piece", 0) == "nothing" and value_text("step", -1) == "nothing"
    assert value_text("dst", E.square(0, 0)) == "a1"
    state = N.position_from_str(GAME, N.STANDARD["opening-2a"])
    m = state.markers[0]
    assert describe_square(state, m).endswith(f"on {E.square_name(m)}")
    assert eliminates(R.Jump(-1)) and not eliminates(R.Jump(E.square(1, 1)))
    assert eliminates(R.Move(1, 2, -1)) and not eliminates(R.Offer())
