"""The ending, checked after every full round."""

from cellwars_tui.games.cell_wars.rules import GameOver

from .helpers import GAME, Ca, Cb, Cg, Ia, Ig, R, act, put, replace, standard, tiles, turn

ROWS_A_TO_C = ["A1", "A2", "A3", "A4", "A5", "B1", "B2", "B3", "B4", "B5", "B6",
               "C1", "C2", "C3", "C4", "C5", "C6", "C7"]


def close_round(s, **kw):
    return act(turn(s, Cg, **kw), "end", events=kw.pop("events", None))


def test_cancer_camp_wins_with_more_than_21_cancer_tiles():
    s = tiles(standard(), cancer=ROWS_A_TO_C[:15])  # 7 + 15 = 22
    s = act(turn(s, Cg), "end", events=(ev := []))
    assert GAME.outcome(s).winners == (1,) and s.winner == 1
    assert GameOver(1, "the cancer spread over 22 tiles") in ev


def test_exactly_21_cancer_tiles_is_not_yet_a_win():
    s = tiles(standard(), cancer=ROWS_A_TO_C[:14])
    s = act(turn(s, Cg), "end")
    assert GAME.outcome(s) is None


def test_solidified_tiles_count_towards_the_cancer_win():
    s = tiles(standard(), solid=ROWS_A_TO_C[:15])
    assert GAME.outcome(act(turn(s, Cg), "end")).winners == (1,)


def test_immune_camp_wins_when_cancer_tissue_falls_below_4():
    s = tiles(standard(), normal=["G4", "G5", "G6", "H3"])
    s = act(turn(s, Cg), "end")
    assert GAME.outcome(s).winners == (0,) and "shrank to 3" in s.result


def test_immune_camp_wins_when_every_cancer_cell_is_dead():
    s = put(standard(), Ca="dead", Cb="dead", Cg="dead")
    s = act(turn(s, Ig), "end")  # the dead Cancer gamma is skipped: the round ends
    assert GAME.outcome(s).winners == (0,) and s.result == "every cancer cell died"


def test_ending_is_checked_only_after_the_last_individual_round():
    s = tiles(standard(), normal=["G4", "G5", "G6", "H3"])
    s = act(turn(s, Cb), "end")
    assert GAME.outcome(s) is None and s.panel == Cb + 1


def test_tie_after_round_16():
    s = replace(standard(), round=16)
    s = act(turn(s, Cg), "end")
    out = GAME.outcome(s)
    # the tie says why (issue 29: the banner read "Tie" and no more)
    assert out.termination == "no winner after round 16: 7 cancer tiles"
    assert out.winners == (0, 1) and out.text(["Ann", "Bot"], 0) == \
        "Tie (no winner after round 16: 7 cancer tiles)"
    assert out.returns(2) == (0.0, 0.0)
    assert not GAME.to_act(s) and not GAME.legal_actions(s, 0)


def test_more_than_21_wins_for_cancer_even_with_no_cancer_cell_alive():
    s = tiles(put(standard(), Ca="dead", Cb="dead", Cg="dead"), cancer=ROWS_A_TO_C[:15])
    assert GAME.outcome(act(turn(s, Ig), "end")).winners == (1,)


def test_winners_are_every_seat_of_the_winning_camp():
    s = tiles(standard(players=5), cancer=ROWS_A_TO_C[:15])
    assert GAME.outcome(act(turn(s, Cg), "end")).winners == (1, 2)
