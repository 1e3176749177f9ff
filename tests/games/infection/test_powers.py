"""One test per one-time power, and the flipping of used powers. A seat is handed the power card
with ``give`` (as if taken earlier); every die is a chance step the test chooses."""

from __future__ import annotations

import pytest

from cellwars_tui.core import CHANCE, IllegalAction
from cellwars_tui.games.infection import cards as K
from cellwars_tui.games.infection.rules import (CURE, GAME, SEARCH, WHITE, Claim, Double, Move,
                                                 Rat, Rewhite, Supply, Target, TimeUp, WhiteFace,
                                                 missing, vp)

from .helpers import card, chance, give, play, roll, searching, start, targeting, white


def legal(s, seat=0, kind=None):
    out = GAME.legal_actions(s, seat)
    return [a for a in out if kind is None or isinstance(a, kind)]


def test_the_card_powers_are_the_ones_designed():
    assert K.power_kind(card("I-2")) == K.SUB and K.CARD_POWER[card("I-2")] == "G"
    assert K.power_kind(card("III-2")) == K.RAT
    assert K.power_kind(card("II-4")) == K.DOUBLE
    assert K.power_kind(card("II-7")) == K.WILD
    assert K.power_kind(card("I-8")) == K.ANY
    assert K.power_kind(card("I-5")) == K.REWHITE
    assert K.power_kind(card("I-12")) == K.MOVE


# -- a protein substitute ----------------------------------------------------------------------
def test_a_protein_substitute_plays_as_a_die_showing_that_protein():
    s = give(start(), 0, "I-2")  # green substitute
    s = white(s, 0, 1)
    s = play(s, 0, Target(0, 0))  # I-1: green green
    assert legal(s, 0, Supply) == [Supply(card("I-2"), "G")]
    s = play(s, 0, Supply(card("I-2"), "G"))
    assert missing(s.seats[0]) == {"G": 1}
    s = roll(s, 0, "G", "X", "X")
    assert Claim() in legal(s)


def test_a_substitute_for_a_protein_the_molecule_does_not_need_cannot_be_played():
    s = give(start(), 0, "I-10")  # blue substitute
    s = white(s, 0, 1)
    s = play(s, 0, Target(0, 0))  # I-1: green green
    assert legal(s, 0, Supply) == []
    with pytest.raises(IllegalAction):
        play(s, 0, Supply(card("I-10"), "B"))


def test_a_substitute_cannot_be_played_before_a_meeple_is_placed():
    s = give(start(), 0, "I-2")
    s = white(s, 0, 1)
    assert s.seats[0].stage == SEARCH and legal(s, 0, Supply) == []


# -- the rat -----------------------------------------------------------------------------------
def test_the_rat_destroys_the_targeted_molecule_without_rolling():
    s = give(searching(face=2), 0, "III-2")
    s = roll(s, 0, "M", "X", "X")
    s = play(s, 0, Target(2, 0))
    assert Claim() not in legal(s)
    s, events = GAME.apply(s, 0, Rat(card("III-2")))
    p = s.seats[0]
    assert card("III-1") in p.cards and card("III-1") not in s.columns[2]
    assert p.stage == WHITE and card("III-2") in p.spent
    assert [type(e).__name__ for e in events] == ["PowerUsed", "Claimed"]


def test_the_rat_needs_a_targeted_molecule():
    s = give(searching(face=2), 0, "III-2")
    assert legal(s, 0, Rat) == []


# -- double protein ----------------------------------------------------------------------------
def test_double_protein_makes_one_set_aside_die_count_twice():
    s = give(start(), 0, "II-4")
    s = white(s, 0, 1)
    s = play(s, 0, Target(0, 0))  # green green
    s = roll(s, 0, "G", "X", "X")
    assert legal(s, 0, Double) == [Double(card("II-4"), 0)]
    s = play(s, 0, Double(card("II-4"), 0))
    assert not missing(s.seats[0]) and Claim() in legal(s)


def test_double_protein_needs_a_protein_still_needed_twice():
    s = give(start(), 0, "II-4")
    s = white(s, 0, 1)
    s = play(s, 0, Target(0, 0))
    s = roll(s, 0, "X", "X", "X")
    assert legal(s, 0, Double) == []  # no die set aside
    s = give(start(), 0, "II-4")
    s = white(s, 0, 1)
    s = play(s, 0, Target(0, 0))
    s = roll(s, 0, "G", "G", "X")
    assert legal(s, 0, Double) == []  # both greens are already there


# -- wild protein ------------------------------------------------------------------------------
def test_wild_protein_stands_for_any_protein_still_needed():
    s = targeting("III-1")  # red red yellow
    s = give(s, 0, "II-7")
    wild = card("II-7")
    assert sorted(a.protein for a in legal(s, 0, Supply)) == ["R", "Y"]
    s = play(s, 0, Supply(wild, "Y"))
    assert missing(s.seats[0]) == {"R": 2}
    assert legal(s, 0, Supply) == []  # flipped: used once only


# -- target any card ---------------------------------------------------------------------------
def test_target_any_card_reaches_any_free_card_of_the_columns_the_microscopes_allow():
    s = give(searching(face=1), 0, "I-8")
    anyc = card("I-8")
    spots = [(a.column, a.pos) for a in legal(s, 0, Target) if a.card == anyc]
    assert spots == [(0, 0), (0, 1), (0, 2)]  # every card of column I (one microscope)
    s = play(s, 0, Target(0, 1, anyc))
    assert s.seats[0].target == card("I-2") and anyc in s.seats[0].spent


def test_target_any_card_skips_cards_with_a_meeple():
    s = start(2)
    s = give(s, 1, "I-8")
    s = white(s, 0, 1)
    s = white(s, 1, 1)
    s = play(s, 0, Target(0, 0))
    spots = [a.pos for a in legal(s, 1, Target) if a.card == card("I-8")]
    assert 0 not in spots and spots


# -- re-roll the white die ---------------------------------------------------------------------
def test_reroll_the_white_die():
    s = give(searching(face=0), 0, "I-5")
    assert legal(s, 0, Rewhite) == [Rewhite(card("I-5"))]
    s = play(s, 0, Rewhite(card("I-5")))
    assert GAME.to_act(s) == (CHANCE,)
    s = chance(s, WhiteFace(0, 2))
    assert s.seats[0].white == 2 and card("I-5") in s.seats[0].spent
    assert legal(s, 0, Rewhite) == []


def test_the_white_die_cannot_be_rerolled_once_a_meeple_is_placed():
    s = give(searching(face=1), 0, "I-5")
    s = play(s, 0, Target(0, 0))
    assert legal(s, 0, Rewhite) == []


# -- move your meeple --------------------------------------------------------------------------
def test_move_your_meeple_to_the_top_free_card_of_any_column():
    s = give(start(), 0, "I-12")
    s = white(s, 0, 1)
    s = play(s, 0, Target(0, 0))
    moves = legal(s, 0, Move)
    assert [(m.column, m.pos) for m in moves] == [(0, 1), (1, 0), (2, 0)]  # whatever microscopes
    s = play(s, 0, Move(card("I-12"), 2, 0))
    assert s.seats[0].target == card("III-1") and s.seats[0].stage == CURE


def test_moving_releases_old_dice_keeps_substitutes_and_sets_aside_for_the_new_card():
    s = give(give(start(), 0, "I-12"), 0, "III-3")  # move, purple substitute
    s = white(s, 0, 1)
    s = play(s, 0, Target(0, 0))  # I-1 green green
    s = roll(s, 0, "G", "R", "X")
    assert s.seats[0].held == (True, False, False)
    s = play(s, 0, Move(card("I-12"), 2, 0))  # III-1: red red yellow
    p = s.seats[0]
    assert p.held == (False, True, False)  # the green is released, the red now counts
    assert missing(p) == {"R": 1, "Y": 1}


# -- used powers are flipped -------------------------------------------------------------------
def test_a_used_power_is_flipped_and_cannot_be_used_again_but_still_scores():
    s = give(start(), 0, "I-2")
    s = white(s, 0, 1)
    s = play(s, 0, Target(0, 0))
    s = play(s, 0, Supply(card("I-2"), "G"))
    s = roll(s, 0, "G", "X", "X")
    s = play(s, 0, Claim())
    assert card("I-2") in s.seats[0].spent
    assert vp(s.seats[0]) == K.CARD_VP[card("I-1")] + K.CARD_VP[card("I-2")]
    s = white(s, 0, 1)
    s = play(s, 0, Target(0, 0))  # I-3: blue blue, then
    assert legal(s, 0, Supply) == []
    with pytest.raises(IllegalAction):
        play(s, 0, Supply(card("I-2"), "G"))


def test_a_power_used_on_a_molecule_not_destroyed_before_the_timer_is_lost():
    s = give(start(), 0, "I-2")
    s = white(s, 0, 1)
    s = play(s, 0, Target(0, 0))
    s = play(s, 0, Supply(card("I-2"), "G"))
    s = chance(s, TimeUp(1))
    p = s.seats[0]
    assert card("I-2") in p.spent and p.supplied == () and p.target == -1


def test_powers_of_a_card_without_power_do_not_exist():
    s = give(searching(face=1), 0, "I-1")
    assert all(getattr(a, "card", -1) != card("I-1") for a in legal(s))
