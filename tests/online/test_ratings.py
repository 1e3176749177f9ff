"""Ratings (online/ratings.py): what is rated, places, camps, the provisional mark, the tie bug's
guard, and the calibration machinery of ``cellwars bench --only ratings``."""

from __future__ import annotations

import pytest

from cellwars_tui.bench.ratings import deciles, simulate
from cellwars_tui.core.api import Outcome
from cellwars_tui.core.registry import get_game
from cellwars_tui.online import ratings as R
from cellwars_tui.online.ratings import NEW, NotRated, Rating, rate, win_chances

CB = get_game("cellulis-bellum")
VF = get_game("virus-fight")
CW = get_game("cell-wars")


def test_what_is_rated():
    assert R.is_rated_game(CB) and R.is_rated_game(VF) and R.is_rated_game(CW)
    for game_id in ("infection", "cell-management"):
        game = get_game(game_id)
        assert not R.is_rated_game(game)
        with pytest.raises(NotRated):
            rate(game, [NEW] * game.min_players, Outcome((0,), "won"))
    assert "cooperative" in R.unrated_reason(get_game("infection"))
    assert "solitaire" in R.unrated_reason(get_game("cell-management"))


def test_places_winners_share_first_a_tie_is_one_place():
    assert R.placings(Outcome((1,), "x"), 2) == (2, 1)
    assert R.placings(Outcome((0, 2), "stalemate"), 4) == (1, 2, 1, 2)
    assert R.placings(Outcome((0, 1), "tie"), 2) == (1, 1)
    assert R.placings(Outcome((), "nobody"), 3) == (1, 1, 1)


@pytest.mark.parametrize("game, players, winners", [
    (CB, 2, (0, 1)), (CW, 4, (0, 1, 2, 3)), (CW, 3, (0, 1, 2)), (VF, 4, (0, 1, 2, 3)),
    (VF, 3, ())])
def test_equal_players_who_tie_keep_equal_unchanged_ratings(game, players, winners):
    """The guard against openskill's tie bug (before 6.2 two equal players who tied came out
    with different ratings, or both gained)."""
    after = rate(game, [NEW] * players, Outcome(winners, "tie"))
    assert len({r.mu for r in after}) == 1
    assert after[0].mu == pytest.approx(R.MU, abs=1e-9)
    for camp in R.camps(game, players):  # (a camp of two is better known than one of one)
        assert len({round(after[seat].sigma, 12) for seat in camp}) == 1
    assert all(r.games == 1 for r in after)
    settled = [Rating(mu=30.0, sigma=3.0, games=40)] * players
    again = rate(game, settled, Outcome(winners, "tie"))
    assert [r.mu for r in again] == pytest.approx([30.0] * players, abs=1e-9)


def test_one_against_one_the_winner_gains_what_the_loser_loses():
    a, b = rate(CB, [NEW, NEW], Outcome((0,), "nucleus destroyed"))
    assert a.mu > R.MU > b.mu
    assert a.mu - R.MU == pytest.approx(R.MU - b.mu)
    assert a.sigma < R.SIGMA and b.sigma < R.SIGMA
    # a win against a much weaker player is worth little; a loss to them costs a lot
    strong, weak = Rating(mu=35, sigma=3), Rating(mu=15, sigma=3)
    s1, _ = rate(CB, [strong, weak], Outcome((0,), "x"))
    s2, _ = rate(CB, [strong, weak], Outcome((1,), "x"))
    assert 0 < s1.mu - 35 < 35 - s2.mu


def test_a_camp_plays_at_its_mean_one_against_two_is_even():
    """Cell Wars with three: one Immune against two Cancer seats."""
    assert CW.sides(3) == ("Immune", "Cancer", "Cancer")
    assert win_chances(CW, [NEW] * 3) == pytest.approx((0.5, 0.5, 0.5))
    immune, c1, c2 = rate(CW, [NEW] * 3, Outcome((0,), "every cancer cell died"))
    assert c1 == c2 and c1.mu < R.MU
    # the Cancer camp's mean (two players) was better known than the lone Immune player's:
    # it moves less
    assert immune.mu - R.MU > R.MU - c1.mu > 0
    # the more uncertain player of a camp takes the larger share
    sure, unsure = Rating(mu=25, sigma=3), Rating(mu=25, sigma=7)
    _, c_sure, c_unsure = rate(CW, [NEW, sure, unsure], Outcome((0,), "x"))
    assert R.MU - c_unsure.mu > R.MU - c_sure.mu > 0


def test_free_for_all_the_winner_beats_each_loser():
    after = rate(VF, [NEW] * 4, Outcome((2,), "last program running"))
    assert after[2].mu > R.MU
    losers = [after[i] for i in (0, 1, 3)]
    assert all(r.mu < R.MU for r in losers) and len({r.mu for r in losers}) == 1
    chances = win_chances(VF, [NEW, NEW, Rating(mu=35, sigma=2), NEW])
    assert sum(chances) == pytest.approx(1.0) and max(chances) == chances[2]
    with pytest.raises(NotRated):
        rate(VF, [NEW] * 5, Outcome((0,), "x"))


def test_provisional_until_sigma_falls_below_the_threshold():
    assert NEW.provisional and NEW.text() == "1500?"
    r, opponent = NEW, Rating(mu=25, sigma=3)
    games = 0
    while r.provisional:
        r, opponent = rate(CB, [r, opponent], Outcome((games % 2,), "x"))
        games += 1
    assert r.sigma <= R.PROVISIONAL_SIGMA and r.text() == str(r.shown)
    assert 7 <= games <= 12  # about 9 games against a settled player
    assert R.shown_change(NEW, Rating(mu=25.5)) == "+30"
    assert R.shown_change(NEW, NEW) == "±0"


def test_deciles_group_predictions():
    table = deciles([(0.05, False), (0.07, True), (0.95, True), (0.99, True)])
    assert [(d.low, d.predictions) for d in table] == [(0.0, 2), (0.9, 2)]
    assert table[0].observed == 0.5 and table[0].predicted == pytest.approx(0.06)
    assert table[1].gap == pytest.approx(0.03)


def test_calibration_machinery_one_against_one():
    """2,000 simulated games of bots of known levels (0.3 s): within 5 points in every decile
    (the bench runs 20,000 over every shape of rated game)."""
    cal = simulate(2000, seed=1, bots_per_level=5, shapes=(("cellulis-bellum", 2),))
    assert cal.games == 2000 and len(cal.deciles) == 10
    assert sum(d[1] for d in cal.deciles) == 4000
    assert cal.worst_gap < 0.05
