"""`cellwars bench` reports Cell Wars' balance: decisive share, the immune camp's share of the wins
and the median winning round, each against the goal of issue 15 (the figures themselves come from
`cellwars balance`; here a canned report stands in for the self-play)."""

from __future__ import annotations

from cellwars_tui.bench import balance as BAL
from cellwars_tui.games.cell_wars.bench import bench_balance


def _report(bot, decisive, immune, cancer, median):
    games = 10
    return {"bot_title": bot, "seconds": 1.0, "self_play": {
        "decisive_share": decisive / games, "decisive": decisive,
        "side_share_of_decisive": {"Immune": immune / decisive if decisive else 0.0},
        "wins_by_side": {"Immune": immune, "Cancer": cancer},
        "median_winning_round": median}}


def test_bench_reports_decisive_share_camp_balance_and_length_against_the_goals(monkeypatch):
    calls = []

    def fake(game, *, bot, games, **kw):
        calls.append((game, bot, games))
        return _report(bot, 8, 4, 4, 12) if bot == "search" else _report(bot, 5, 1, 4, 3)

    monkeypatch.setattr(BAL, "balance", fake)
    results = {r.name: r for r in bench_balance(quick=True)}
    assert [c[:2] for c in calls] == [("cell-wars", "greedy"), ("cell-wars", "search")]
    search = {k.split(", ")[0]: v for k, v in results.items() if k.endswith("search self-play")}
    assert search["cell-wars: decisive games"].value == 80 and search["cell-wars: decisive games"].met
    share = search["cell-wars: immune camp's share of decisive games"]
    assert share.value == 50 and share.goal == "40-60" and share.met
    assert search["cell-wars: median winning round"].met
    greedy = {k.split(", ")[0]: v for k, v in results.items() if k.endswith("greedy self-play")}
    assert not greedy["cell-wars: decisive games"].met
    assert not greedy["cell-wars: immune camp's share of decisive games"].met
    assert not greedy["cell-wars: median winning round"].met
