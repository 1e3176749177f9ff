"""`cellwars bench` reports Cell Wars' balance: decisive share, the immune camp's share of the wins
and the median winning round (greedy self-play; search self-play at 2, 4 and 6 players) and the
search's share of the decisive games against greedy leading each camp, each against the goal of
issue 15 (the figures themselves come from `cellwars balance`; here a canned report stands in for
the self-play)."""

from __future__ import annotations

from cellwars_tui.bench import balance as BAL
from cellwars_tui.bench.games.cell_wars import bench_balance


def _report(bot, decisive, immune, cancer, median, duels=()):
    games = 10
    return {"bot_title": bot, "seconds": 1.0, "self_play": {
        "decisive_share": decisive / games, "decisive": decisive, "decisive_ci95": [0.5, 0.9],
        "side_share_of_decisive": {"Immune": immune / decisive if decisive else 0.0},
        "wins_by_side": {"Immune": immune, "Cancer": cancer},
        "median_winning_round": median}, "duels": list(duels)}


def _duel(leads, won, lost):
    return {"strong_leads": leads, "games": won + lost, "decisive": won + lost,
            "strong_wins": won, "weak_wins": lost, "strong_share_of_decisive": won / (won + lost),
            "strong_share_ci95": [0.4, 0.9]}


def test_bench_reports_decisive_share_camp_balance_length_and_skill_against_the_goals(monkeypatch):
    calls = []

    def fake(game, *, bot, games, players, duel_games=0, **kw):
        calls.append((game, bot, players, duel_games > 0))
        if bot == "greedy":
            return _report(bot, 5, 1, 4, 3)
        duels = (_duel("Immune", 8, 2), _duel("Cancer", 6, 4)) if duel_games else ()
        return _report(bot, 8, 4, 4, 12, duels)

    monkeypatch.setattr(BAL, "balance", fake)
    results = {r.name: r for r in bench_balance(quick=True)}
    assert calls == [("cell-wars", "greedy", 2, False), ("cell-wars", "search", 2, True),
                     ("cell-wars", "search", 4, False), ("cell-wars", "search", 6, False)]
    for players in (2, 4, 6):
        who = f"search self-play, {players} players"
        assert results[f"cell-wars: decisive games, {who}"].value == 80
        assert results[f"cell-wars: decisive games, {who}"].met
        share = results[f"cell-wars: immune camp's share of decisive games, {who}"]
        assert share.value == 50 and share.goal == "40-60" and share.met
        assert results[f"cell-wars: median winning round, {who}"].met
    greedy = "greedy self-play, 2 players"
    # 5 of 10 decisive (interval 50-90%) and 1 immune win of 5 (interval 4-62%): too few to tell
    assert results[f"cell-wars: decisive games, {greedy}"].met is None
    assert "too few to tell" in results[f"cell-wars: decisive games, {greedy}"].note
    assert results[f"cell-wars: immune camp's share of decisive games, {greedy}"].met is None
    assert not results[f"cell-wars: median winning round, {greedy}"].met
    skill = "cell-wars: search's share of decisive games against greedy, leading"
    assert results[f"{skill} Immune"].value == 80 and results[f"{skill} Immune"].met
    assert results[f"{skill} Cancer"].value == 60 and results[f"{skill} Cancer"].met is None


def test_a_share_is_missed_only_when_its_whole_interval_misses_the_goal():
    """The bench's samples are small: a share outside the goal whose 95% interval still reaches
    it is not judged (printed ?); one whose whole interval lies outside is missed."""
    from cellwars_tui.bench.games.cell_wars import _judged

    assert _judged("x", 50.0, (0.45, 0.55), 40, 60, "").met is True
    assert _judged("x", 66.0, (0.5, 0.8), 40, 60, "").met is None
    assert _judged("x", 80.0, (0.7, 0.9), 40, 60, "").met is False
    assert _judged("x", 60.0, (0.4, 0.8), 75, 100, "").met is None
    assert _judged("x", 60.0, (0.4, 0.74), 75, 100, "").met is False
    missed = _judged("x", 50.0, (0.4, 0.6), 75, 100, "40 games")
    assert missed.met is False and missed.goal == ">= 75"
    assert missed.note == "40 games; 95% interval 40-60%"
