"""One test per rule clause of Infection: set-up, the white die, microscopes and targeting,
holding and re-rolling, claiming, the round end, three rounds, winning and losing, the Nobel Prize.
Every die is forced through the chance steps the test chooses (see helpers)."""

from __future__ import annotations

import pytest

from cellwars_tui.core import CHANCE, BadOptions, IllegalAction
from cellwars_tui.games.infection import cards as K
from cellwars_tui.games.infection import clarifications as C
from cellwars_tui.games.infection.rules import (CLEARED, CURE, GAME, OVERRUN, REST, SEARCH, WHITE,
                                                 Claim, DiceFaces, Hold, Rest, Roll, RollWhite,
                                                 Target, TimeUp, WhiteFace, microscopes, missing,
                                                 vp)

from .helpers import card, chance, play, roll, searching, start, targeting, white


def codes(cards):
    return [K.CARD_CODE[c] for c in cards]


def claim_card(s, seat, code, level_faces):
    """``seat`` (stage white) targets ``code`` at the top of its column and destroys it."""
    s = white(s, seat, 2)
    col = K.CARD_LEVEL[card(code)]
    s = roll(s, seat, "M" if col == 2 else "X", "X", "X")
    s = play(s, seat, Target(col, s.columns[col].index(card(code))))
    s = roll(s, seat, *level_faces)
    return play(s, seat, Claim())


# -- set-up ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "per_column"), [(1, 3), (2, 5), (3, 7), (4, 9)])
def test_columns_are_dealt_by_player_count(players, per_column):
    s = start(players)
    assert [len(c) for c in s.columns] == [per_column] * 3
    assert [len(d) for d in s.decks] == [12 - per_column] * 3
    assert C.CARDS_PER_COLUMN[players] == per_column
    for level in range(3):
        assert all(K.CARD_LEVEL[c] == level for c in s.columns[level])


def test_the_three_decks_are_shuffled_by_chance_before_play():
    s = GAME.initial_state(GAME.options_type(players=2))
    assert GAME.to_act(s) == (CHANCE,)
    with pytest.raises(NotImplementedError):
        GAME.chance_outcomes(s)
    s = start(2)
    assert GAME.to_act(s) == (0, 1)


def test_player_counts_and_round_lengths_outside_the_range_are_refused():
    with pytest.raises(BadOptions):
        GAME.initial_state(GAME.options_type(players=5))
    with pytest.raises(BadOptions):
        GAME.initial_state(GAME.options_type(players=1, round_seconds=5))


# -- all seats act at once ---------------------------------------------------------------------
def test_there_are_no_turns_every_seat_acts_whenever_it_likes():
    s = start(3)
    assert GAME.to_act(s) == (0, 1, 2)
    s = white(s, 2, 1)
    s = white(s, 0, 0)
    assert GAME.to_act(s) == (0, 1, 2)
    assert s.seats[2].stage == SEARCH and s.seats[1].stage == WHITE


def test_a_roll_waits_for_its_chance_step_alone():
    s = start(2)
    s = play(s, 1, RollWhite())
    assert GAME.to_act(s) == (CHANCE,)
    assert GAME.is_legal(s, CHANCE, WhiteFace(1, 2))
    assert not GAME.is_legal(s, CHANCE, WhiteFace(0, 2))  # not that seat's roll
    assert not GAME.is_legal(s, CHANCE, WhiteFace(1, 3))  # not a face of the white die


# -- the white die -----------------------------------------------------------------------------
def test_first_each_player_rolls_the_white_die_and_cannot_reroll_it():
    s = start()
    assert GAME.legal_actions(s, 0) == [RollWhite(), Rest()]
    s = white(s, 0, 1)
    assert s.seats[0].white == 1 and s.seats[0].stage == SEARCH
    assert RollWhite() not in GAME.legal_actions(s, 0)
    with pytest.raises(IllegalAction):
        play(s, 0, RollWhite())


def test_the_coloured_dice_start_blank_after_the_white_die():
    s = searching()
    assert s.seats[0].dice == ("", "", "")
    assert not any(isinstance(a, Hold) for a in GAME.legal_actions(s, 0))


# -- microscopes and targeting -----------------------------------------------------------------
def _columns_allowed(s, seat=0):
    return sorted({a.column for a in GAME.legal_actions(s, seat) if isinstance(a, Target)})


def test_no_microscope_targets_nothing():
    s = searching(face=0)
    assert _columns_allowed(s) == []
    s = roll(s, 0, "X", "G", "Y")
    assert _columns_allowed(s) == []


def test_level_one_needs_one_microscope():
    s = searching(face=0)
    s = roll(s, 0, "M", "X", "X")
    assert microscopes(s.seats[0]) == 1
    assert _columns_allowed(s) == [0]


def test_level_two_needs_two_microscopes_and_the_white_die_counts():
    s = searching(face=2)  # the white die alone reaches level II, no roll needed
    assert _columns_allowed(s) == [0, 1]


def test_level_three_needs_three_microscopes():
    s = searching(face=2)
    s = roll(s, 0, "M", "X", "X")
    assert microscopes(s.seats[0]) == 3
    assert _columns_allowed(s) == [0, 1, 2]


def test_dice_alone_can_make_three_microscopes():
    s = searching(face=0)
    s = roll(s, 0, "M", "M", "M")
    assert _columns_allowed(s) == [0, 1, 2]


def test_lower_levels_may_be_chosen_with_more_microscopes():
    s = searching(face=2)
    s = roll(s, 0, "M", "M", "X")
    s = play(s, 0, Target(0, 0))
    assert s.seats[0].target == card("I-1")


def test_targeting_takes_the_top_free_card_of_a_column():
    s = searching(face=1)
    legal = [a for a in GAME.legal_actions(s, 0) if isinstance(a, Target)]
    assert legal == [Target(0, 0)]  # only the top card, no other position
    with pytest.raises(IllegalAction):
        play(s, 0, Target(0, 1))
    s = play(s, 0, Target(0, 0))
    assert s.seats[0].stage == CURE and s.seats[0].target == card("I-1")


def test_when_the_top_card_has_a_meeple_the_next_one_below_is_targeted():
    s = start(2)
    s = white(s, 0, 1)
    s = white(s, 1, 1)
    s = play(s, 0, Target(0, 0))
    assert [a for a in GAME.legal_actions(s, 1) if isinstance(a, Target)] == [Target(0, 1)]
    s = play(s, 1, Target(0, 1))
    assert s.seats[1].target == card("I-2")


def test_the_first_meeple_to_arrive_gets_the_card():
    s = start(2)
    s = white(s, 0, 1)
    s = white(s, 1, 1)
    both = play(s, 1, Target(0, 0))  # seat 2's action reaches the table first
    assert both.seats[1].target == card("I-1")
    with pytest.raises(IllegalAction):
        play(both, 0, Target(0, 0))  # the card now carries a meeple


def test_a_placed_meeple_stays_until_the_molecule_is_destroyed():
    s = targeting("I-1")
    assert not any(isinstance(a, Target) for a in GAME.legal_actions(s, 0))


def test_an_empty_column_cannot_be_targeted():
    s = start()
    for code, faces in (("I-1", ("G", "G", "X")), ("I-2", ("G", "B", "X")),
                        ("I-3", ("B", "B", "X"))):
        s = claim_card(s, 0, code, faces)
    assert s.columns[0] == ()
    s = white(s, 0, 1)
    assert _columns_allowed(s) == []


# -- holding and re-rolling --------------------------------------------------------------------
def test_holding_a_die_keeps_it_out_of_the_next_roll():
    s = searching(face=0)
    s = roll(s, 0, "M", "G", "B")
    s = play(s, 0, Hold(0))
    assert s.seats[0].held == (True, False, False)
    assert not GAME.is_legal(play(s, 0, Roll()), CHANCE, DiceFaces(0, ("X", "X", "X")))
    s = roll(s, 0, "", "M", "Y")
    assert s.seats[0].dice == ("M", "M", "Y")
    assert microscopes(s.seats[0]) == 2


def test_a_held_die_can_be_released_and_rerolled_as_often_as_wanted():
    s = searching(face=0)
    s = roll(s, 0, "M", "G", "B")
    s = play(s, 0, Hold(0))
    s = play(s, 0, Hold(0))
    assert s.seats[0].held == (False, False, False)
    for _ in range(5):
        s = roll(s, 0, "X", "X", "X")
    assert s.seats[0].stage == SEARCH


def test_at_least_one_die_must_be_free_to_roll():
    s = searching(face=0)
    s = roll(s, 0, "M", "G", "B")
    for d in range(3):
        s = play(s, 0, Hold(d))
    assert Roll() not in GAME.legal_actions(s, 0)


def test_dice_showing_a_needed_protein_are_set_aside_and_not_rerolled():
    s = targeting("I-2")  # green + blue
    s = roll(s, 0, "G", "X", "X")
    assert s.seats[0].held == (True, False, False)
    assert missing(s.seats[0]) == {"B": 1}
    with pytest.raises(IllegalAction):
        chance(play(s, 0, Roll()), DiceFaces(0, ("G", "X", "X")))  # die 1 is set aside
    s = roll(s, 0, "", "B", "X")
    assert not missing(s.seats[0])


def test_each_needed_protein_is_set_aside_on_as_many_dice_as_it_is_needed():
    # III-1 needs red, red and yellow: two reds on the blue dice are both kept
    s = targeting("III-1")
    s = roll(s, 0, "R", "R", "G")
    assert s.seats[0].held == (True, True, False)
    s = roll(s, 0, "", "", "Y")
    assert Claim() in GAME.legal_actions(s, 0)


def test_set_aside_dice_are_chosen_so_the_others_can_still_complete():
    # III-3 needs blue red yellow; yellow shows only on the yellow die, so a blue on the yellow
    # die is not set aside (it would make the card impossible)
    s = targeting("III-3")
    s = roll(s, 0, "X", "X", "B")
    assert s.seats[0].held == (False, False, False)
    s = roll(s, 0, "B", "R", "Y")
    assert s.seats[0].held == (True, True, True)


# -- claiming ----------------------------------------------------------------------------------
def test_claiming_needs_every_protein():
    s = targeting("I-2")
    assert Claim() not in GAME.legal_actions(s, 0)
    with pytest.raises(IllegalAction):
        play(s, 0, Claim())
    s = roll(s, 0, "G", "B", "X")
    assert Claim() in GAME.legal_actions(s, 0)


def test_claiming_takes_the_card_returns_the_meeple_and_starts_again_with_the_white_die():
    s = targeting("I-2")
    s = roll(s, 0, "G", "B", "X")
    s, events = GAME.apply(s, 0, Claim())
    p = s.seats[0]
    assert p.cards[-1] == card("I-2") and card("I-2") not in s.columns[0]
    assert p.stage == WHITE and p.target == -1 and p.dice == ("", "", "")
    assert vp(p) == K.CARD_VP[card("I-2")] + K.CARD_VP[card("I-8")]  # I-8 was given earlier
    assert any(type(e).__name__ == "Claimed" for e in events)


def test_a_claimed_card_frees_the_column_for_the_next_meeple():
    s = start(2)
    s = white(s, 0, 1)
    s = white(s, 1, 1)
    s = play(s, 0, Target(0, 0))
    s = play(s, 1, Target(0, 1))
    s = roll(s, 0, "G", "G", "X")
    s = play(s, 0, Claim())
    assert codes(s.columns[0]) == ["I-2", "I-3", "I-4", "I-5"]


# -- resting (ends a round early when everyone rests) ------------------------------------------
def test_resting_removes_the_meeple_and_waits_for_the_next_round():
    s = start(2)
    s = white(s, 0, 1)
    s = play(s, 0, Target(0, 0))
    s = play(s, 0, Rest())
    assert s.seats[0].stage == REST and s.seats[0].target == -1
    assert GAME.to_act(s) == (1,)
    s = play(s, 1, Rest())
    assert s.round == 2 and all(p.stage == WHITE for p in s.seats)


# -- the round end -----------------------------------------------------------------------------
def test_time_up_is_a_system_action_for_the_current_round_only():
    s = searching()
    assert not GAME.is_legal(s, 0, TimeUp(1))
    assert not GAME.is_legal(s, CHANCE, TimeUp(2))
    assert GAME.is_legal(s, CHANCE, TimeUp(1))


def test_time_up_is_refused_while_a_roll_is_in_the_air():
    s = play(start(), 0, RollWhite())
    assert not GAME.is_legal(s, CHANCE, TimeUp(1))


def test_round_end_removes_meeples_and_stops_the_dice():
    s = start(2)
    s = white(s, 0, 1)
    s = white(s, 1, 1)
    s = play(s, 0, Target(0, 0))
    s = play(s, 1, Target(0, 1))
    s = roll(s, 0, "G", "X", "X")
    s = chance(s, TimeUp(1))
    for p in s.seats:
        assert p.target == -1 and p.dice == ("", "", "") and p.held == (False,) * 3
    assert codes(s.columns[0])[1:3] == ["I-1", "I-2"]  # the molecules stay, meeples gone


def test_round_end_tops_each_column_with_one_new_card():
    s = start(1)
    s = chance(s, TimeUp(1))
    assert [codes(c) for c in s.columns] == [["I-4", "I-1", "I-2", "I-3"],
                                            ["II-4", "II-1", "II-2", "II-3"],
                                            ["III-4", "III-1", "III-2", "III-3"]]
    assert [len(d) for d in s.decks] == [8, 8, 8]


def test_an_emptied_column_gets_its_new_card_too():
    s = start()
    for code, faces in (("I-1", ("G", "G", "X")), ("I-2", ("G", "B", "X")),
                        ("I-3", ("B", "B", "X"))):
        s = claim_card(s, 0, code, faces)
    s = chance(s, TimeUp(1))
    assert codes(s.columns[0]) == ["I-4"]


def test_after_the_round_end_everyone_rolls_the_white_die_again():
    s = searching(players=2, face=2)
    s = chance(s, TimeUp(1))
    assert s.round == 2
    assert all(p.stage == WHITE and p.white == -1 for p in s.seats)
    assert all(GAME.legal_actions(s, i)[0] == RollWhite() for i in range(2))


def test_taken_cards_are_kept_over_the_round_end():
    s = start()
    s = claim_card(s, 0, "I-1", ("G", "G", "X"))
    s = chance(s, TimeUp(1))
    assert codes(s.seats[0].cards) == ["I-1"]


# -- three rounds, winning and losing ----------------------------------------------------------
def test_the_game_lasts_three_rounds_of_three_minutes():
    assert C.ROUNDS == 3 and C.ROUND_SECONDS_DEFAULT == 180
    s = start()
    s = chance(s, TimeUp(1))
    s = chance(s, TimeUp(2))
    assert s.round == 3 and not s.result
    assert [len(c) for c in s.columns] == [5, 5, 5]  # 3 dealt + 2 new cards each


def test_everyone_loses_when_the_third_timer_runs_out_with_a_card_left():
    s = start(2)
    s = chance(s, TimeUp(1))
    s = chance(s, TimeUp(2))
    s, events = GAME.apply(s, CHANCE, TimeUp(3))
    assert s.result == OVERRUN and GAME.to_act(s) == ()
    outcome = GAME.outcome(s)
    assert outcome.winners == () and "survived" in outcome.termination  # (Team loses)
    assert GAME.nobel(s) == ()


def test_the_third_round_ends_with_no_new_cards():
    s = start()
    s = chance(chance(s, TimeUp(1)), TimeUp(2))
    left = [len(d) for d in s.decks]
    s = chance(s, TimeUp(3))
    assert [len(d) for d in s.decks] == left


def test_everyone_wins_the_moment_the_last_card_of_the_virus_is_taken():
    s = start()
    plan = _plan(["I-1", "I-2", "I-3", "II-1", "II-2", "II-3", "III-1", "III-2", "III-3"])
    for code, proteins in plan:
        faces = _faces_for(proteins)
        s = claim_card(s, 0, code, faces)
    assert s.result == CLEARED and s.round == 1
    assert all(len(d) == 9 for d in s.decks)  # cards still in the decks do not count
    outcome = GAME.outcome(s)
    assert outcome.winners == (0,) and outcome.termination.startswith("virus cleared")


def _faces_for(proteins):
    """Dice faces that show exactly ``proteins`` (blanks on the spare dice)."""
    from collections import Counter
    from itertools import product

    want = Counter(proteins)
    for faces in product(*K.DICE):
        if Counter(f for f in faces if f in K.PROTEINS) == want:
            return faces
    raise AssertionError(proteins)


def _plan(codes_):
    return [(c, K.CARD_PROTEINS[card(c)]) for c in codes_]


# -- the Nobel Prize ---------------------------------------------------------------------------
def _cleared_two_player_game(split, level_one=("I-1", "I-2", "I-3", "I-4", "I-5")):
    """Two players (5 cards per column) clear the virus; seat ``split[i]`` takes the i-th card.
    ``level_one`` are the five level I cards dealt (the rest of that deck follows in order)."""
    first = list(level_one) + [c for c in (K.CARD_CODE[i] for i in K.DECK_IDS[0])
                                if c not in level_one]
    orders = [first] + [[K.CARD_CODE[i] for i in K.DECK_IDS[lv]] for lv in (1, 2)]
    s = start(2, orders=orders)
    plan = _plan(list(level_one) + [f"{lv}-{i}" for lv in ("II", "III") for i in range(1, 6)])
    for (code, proteins), seat in zip(plan, split):
        s = claim_card(s, seat, code, _faces_for(proteins))
    return s


def test_the_most_victory_points_take_the_nobel_prize():
    s = _cleared_two_player_game([0] * 14 + [1])
    assert s.result == CLEARED
    assert GAME.nobel(s) == (0,)
    assert vp(s.seats[0]) > vp(s.seats[1])
    assert GAME.seat_label(0) in GAME.outcome(s).termination.split("Nobel Prize:")[1]
    assert GAME.outcome(s).scores == (float(vp(s.seats[0])), float(vp(s.seats[1])))


def test_tied_players_share_the_nobel_prize():
    # level I 2+3+4+4+3 and level II 5+5+7+6+7 make 46, like level III 9+10+8+9+10
    s = _cleared_two_player_game([1] * 10 + [0] * 5, ("I-1", "I-2", "I-3", "I-4", "I-6"))
    assert s.result == CLEARED
    assert vp(s.seats[0]) == vp(s.seats[1]) == 46
    assert GAME.nobel(s) == (0, 1)


def test_a_losing_team_awards_no_nobel_prize():
    s = start()
    s = claim_card(s, 0, "III-1", ("R", "R", "Y"))
    s = chance(chance(chance(s, TimeUp(1)), TimeUp(2)), TimeUp(3))
    assert s.result == OVERRUN and GAME.nobel(s) == ()


def test_a_clock_step_changes_nothing_but_is_only_for_the_current_round():
    """The step the table records when a player leaves (the time reached), see clarifications."""
    from cellwars_tui.games.infection.rules import Clock

    s = start(players=1)
    assert GAME.is_legal(s, CHANCE, Clock(1))
    assert not GAME.is_legal(s, CHANCE, Clock(2))
    assert not GAME.is_legal(s, 0, Clock(1))
    after, events = GAME.apply(s, CHANCE, Clock(1))
    assert after == s and events == ()
    assert GAME.action_from_str(GAME.action_to_str(Clock(1))) == Clock(1)
