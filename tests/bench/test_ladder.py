"""``cellwars balance GAME --ladder``: each level against the level below, both seatings, the same
seeds in each; reproducible; bad input is one line. (The figures themselves are measured by hand
and printed on the rules pages: nothing here depends on the machine's speed.)"""

from __future__ import annotations

import json

import pytest

from cellwars_tui.bench.ladder import format_ladder, ladder, markdown_table, wilson_share
from cellwars_tui.cli import main

from .. import toy_game  # noqa: F401  (registers toy-race)


def test_a_ladder_plays_every_step_leading_each_side_and_is_reproducible():
    rep = ladder("toy-race", games=2, jobs=1, progress=False)
    assert [(st["strong"], st["weak"]) for st in rep["steps"]] == \
        [("easy", "random"), ("normal", "easy"), ("hard", "normal")]
    for st in rep["steps"]:
        assert st["games"] == 4 and st["wins"] + st["losses"] + st["undecided"] == 4
        assert [s["strong_leads"] for s in st["seatings"]] == rep["sides"] == ["Red", "Blue"]
        assert st["score"] == (st["wins"] + 0.5 * st["undecided"]) / 4
        assert st["holds"] is (st["score"] >= 0.65)
    assert rep["levels"]["easy"] == "easy (8 playouts, 25% random moves)"
    assert rep["levels"]["random"] == "random"
    again = ladder("toy-race", games=2, jobs=2, progress=False)  # any number of processes
    assert [st["seatings"] for st in again["steps"]] == [st["seatings"] for st in rep["steps"]]
    text = format_ladder(rep)
    assert "seeds 1-2" in text and "leading Red" in text and "95% interval" in text
    table = markdown_table(rep).splitlines()
    assert table[0].startswith("| stronger | weaker | games") and len(table) == 5


def test_the_interval_of_a_score_with_half_points():
    lo, hi = wilson_share(0.5, 100)
    assert 0.40 < lo < 0.41 and 0.59 < hi < 0.60
    assert wilson_share(0.0, 0) == (0.0, 1.0)


def test_cellwars_balance_ladder_prints_the_table_or_json(capsys):
    assert main(["balance", "toy-race", "--ladder", "--games", "1", "--jobs", "1",
                 "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["games_per_seating"] == 1 and len(rep["steps"]) == 3


@pytest.mark.parametrize(("game", "expected"), [
    ("cell-management", "Cell Management is a solitaire: it has no bot levels to measure"),
    ("infection", "Infection is played in real time: its levels are paces"),
])
def test_games_without_a_ladder_are_one_line_errors(capsys, game, expected):
    assert main(["balance", game, "--ladder", "--games", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and expected in err[0]


def test_the_bench_has_a_ladder_row_for_every_competitive_turn_based_game():
    from cellwars_tui.bench.ladder import LADDER_GAMES
    from cellwars_tui.core.registry import all_games

    competitive = {g.id for g in all_games()  # the package's games (tests register toy ones)
                   if type(g).__module__.startswith("cellwars_tui.games.")
                   and g.max_players > 1 and not g.real_time}
    assert set(LADDER_GAMES) == competitive
