"""``cellwars balance``: equal-strength self-play through the public game API, reproducible by seed
and the same in one process or several; bad input is one line and exit status 2."""

from __future__ import annotations

import io
import json
import random

import pytest

from cellwars_tui.ai.bots import GreedyBot
from cellwars_tui.bench.balance import (LEVELS, Progress, balance, format_report, play_game,
                                         weaker_level, wilson)
from cellwars_tui.cli import main
from cellwars_tui.core.registry import get_game


def _run(game="cell-wars", **kw):
    kw.setdefault("games", 3)
    kw.setdefault("jobs", 1)
    kw.setdefault("progress", False)
    return balance(game, **kw)


def test_a_cell_wars_report_has_every_measure():
    rep = _run(bot="greedy", games=4, duel_games=2, players=4)
    sp = rep["self_play"]
    assert rep["sides"] == ["Immune", "Cancer"] and rep["against"] == "random"
    assert sp["games"] == 4 and 0 <= sp["decisive"] <= 4
    assert set(sp["wins_by_side"]) == {"Immune", "Cancer"} and len(sp["wins_by_seat"]) == 4
    assert sum(sp["endings"].values()) == 4
    assert 1 <= sp["mean_rounds"] <= 16 and sp["mean_actions"] > 0
    assert set(sp["round_figures"]["cancer tiles"]) >= {"1", "2"}
    assert any(fam.startswith("play ") or fam == "purify" for fam in sp["action_mix"]["Immune"])
    assert [d["strong_leads"] for d in rep["duels"]] == ["Immune", "Cancer"]
    assert all(d["games"] == 2 for d in rep["duels"])
    text = format_report(rep)
    assert "decisive" in text and "cancer tiles at the end of each round" in text
    assert "greedy leads Immune" in text


def test_the_report_names_the_rules_it_ran_and_counts_alike_endings_together():
    """Issue 29: under -o rules_edition=2 the header said the default's rules version, and the
    endings read "the cancer spread over # tiles"."""
    rep = _run(bot="greedy", games=6, duel_games=0, options={"rules_edition": "2"})
    text = format_report(rep)
    assert "(rules version 6: edition 2, as printed; standard layout)" in text.splitlines()[0]
    assert "#" not in text
    kinds = {"cancer over 21 tiles", "cancer under 4 tiles", "every cancer cell dead",
             "tie after round 16"}
    assert set(rep["self_play"]["endings"]) <= kinds
    assert "edition 5, as played here; random layout" in format_report(
        _run(bot="greedy", games=1, duel_games=0, options={"layout": "random"}))


def test_a_run_is_reproducible_by_seed_and_the_same_in_a_process_pool():
    one = _run(bot="greedy", games=4, duel_games=0, seed=5)
    two = _run(bot="greedy", games=4, duel_games=0, seed=5, jobs=2)
    assert one["self_play"] == two["self_play"]
    other = _run(bot="greedy", games=4, duel_games=0, seed=6)
    assert other["seeds"] == [6, 9]


def test_every_seat_plays_from_its_own_view(monkeypatch):
    game = get_game("cell-wars")
    seen = []
    real_view = type(game).view

    def view(self, state, seat):
        seen.append(seat)
        return real_view(self, state, seat)

    monkeypatch.setattr(type(game), "view", view)
    play_game("cell-wars", {"players": 3}, ("greedy",) * 3, 16, 1)
    assert set(seen) == {0, 1, 2}


def test_virus_fight_is_measured_by_seat_and_the_search_bot_against_the_greedy_one():
    rep = _run("virus-fight", bot="search", playouts=2, games=2, duel_games=1)
    assert rep["sides"] == ["Red", "Blue"] and rep["against"] == "greedy"
    assert len(rep["duels"]) == 2 and rep["self_play"]["games"] == 2


def test_each_ending_is_printed_with_its_share_and_interval():
    rep = _run("virus-fight", bot="random", games=4, duel_games=0, players=4,
               options={"round_limit": "5"})
    sp = rep["self_play"]
    assert set(sp["endings_ci95"]) == set(sp["endings"])
    text = format_report(rep)
    line = next(x for x in text.splitlines() if x.startswith("endings"))
    for why, n in sp["endings"].items():
        lo, hi = sp["endings_ci95"][why]
        assert f"{why} {n} ({100 * n / 4:.0f}%; 95% interval {100 * lo:.0f}%-{100 * hi:.0f}%)" in line
    # the kind of ending before what decided it: the share of games ended at the round limit
    kinds = sp["ending_kinds"]
    assert sum(kinds.values()) == 4 and all(":" not in kind for kind in kinds)
    limit = sum(n for why, n in sp["endings"].items()
                if why.startswith("stalemate at the round limit"))
    assert kinds.get("stalemate at the round limit", 0) == limit
    if kinds != sp["endings"]:
        assert "ended by       " in text
    # Virus Fight follows how crowded the board is and how many programs run, round by round
    assert 1 <= sp["mean_rounds"] <= 5
    assert "instructions on the board at the end of each round" in text
    assert "programs running at the end of each round" in text


def test_the_greedy_bot_falls_back_on_the_heuristic_one_step_ahead():
    game = get_game("virus-fight")
    s = game.initial_state(game.options_type(players=2))
    rng = random.Random(1)
    for _ in range(40):
        seat = game.to_act(s)[0]
        if seat < 0:
            a = game.sample_chance(s, rng)
        else:
            a = GreedyBot().choose(game, game.view(s, seat), seat, rng, 1.0)
            assert a in game.legal_actions(s, seat)
        s, _ = game.apply(s, seat, a)


def test_levels_are_named_weakest_first():
    assert list(LEVELS) == ["random", "greedy", "search", "easy", "normal", "hard"]
    assert [weaker_level(n) for n in LEVELS] == [None, "random", "greedy", "random", "easy",
                                                 "normal"]


def test_wilson_interval():
    lo, hi = wilson(50, 100)
    assert 0.40 < lo < 0.41 and 0.59 < hi < 0.60
    assert wilson(0, 0) == (0.0, 1.0)


def test_progress_writes_a_line_per_tenth_when_not_on_a_terminal():
    out = io.StringIO()
    bar = Progress(20, "balance x", stream=out)
    for _ in range(20):
        bar.step()
    lines = out.getvalue().splitlines()
    assert lines[-1].startswith("balance x: 20/20 games") and len(lines) == 11


def test_the_command_prints_json(capsys):
    assert main(["balance", "cell-wars", "--games", "2", "--bot", "random", "--jobs", "1",
                 "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["self_play"]["games"] == 2 and rep["duels"] == []


def test_an_option_given_is_checked_typed_and_named_in_the_report(capsys):
    rep = _run("virus-fight", games=1, bot="random", duel_games=0, options={"round-limit": "7"})
    assert rep["options"] == {"round_limit": 7, "players": 2}
    assert "options        round_limit=7" in format_report(rep)


@pytest.mark.parametrize("argv, message", [
    (["nope"], "unknown game 'nope'"),
    (["cell-wars", "--games", "0"], "games must be between 1 and"),
    (["cell-wars", "--games", "1000000000"], "games must be between 1 and"),
    (["cell-wars", "--players", "9"], "Cell Wars takes 2 to 6 players, not 9"),
    (["cell-wars", "--players", "0"], "players must be between 1 and 99"),
    (["cell-wars", "--playouts", "0"], "playouts must be between 1 and"),
    (["cell-wars", "--playouts", "many"], "playouts must be a whole number"),
    (["cell-wars", "--bot", "genius"], "bot must be one of random, greedy, search"),
    (["cell-wars", "--jobs", "0"], "jobs must be between 1 and"),
    (["cell-wars", "-o", "cancer_tissue=99"], "cancer_tissue must be between"),
    (["virus-fight", "-o", "x=y"],
     "Virus Fight has no option 'x' (options: round_limit, rounds_per_rival)"),
    (["virus-fight", "-o", "players=3"], "give the number of players with --players"),
    (["virus-fight", "--ladder", "-o", "x=y"], "Virus Fight has no option 'x'"),
    (["cell-management"], "Cell Management is a solitaire"),
    (["infection"], "Infection is played in real time"),
])
def test_bad_input_is_one_line_and_exit_status_two(capsys, argv, message):
    try:
        code = main(["balance", *argv])
    except SystemExit as exc:  # argparse's own one-line errors
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err and "Traceback" not in err
