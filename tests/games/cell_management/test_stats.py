"""Personal stats: counting, streaks, rounds against the optimum, atomic saving."""

from __future__ import annotations

import datetime as dt

from cellwars_tui.games.cell_management import stats as ST
from cellwars_tui.locations import data_dir


def test_stats_live_in_the_data_dir_and_start_empty():
    assert ST.stats_path().parent == data_dir()
    assert ST.load_stats() == ST.Stats()


def test_a_solved_puzzle_counts_once_with_rounds_against_the_optimum():
    s = ST.record_result("g1", code="N3245A-234-4A32N5", won=True, rounds=9, optimum=7)
    again = ST.record_result("g1", code="N3245A-234-4A32N5", won=True, rounds=9, optimum=7)
    assert again == s == ST.load_stats()
    assert (s.played, s.solved, s.streak, s.optimal, s.extra_rounds) == (1, 1, 1, 0, 2)
    s = ST.record_result("g2", code="x", won=True, rounds=7, optimum=7)
    assert (s.solved, s.optimal, s.streak, s.best_streak) == (2, 1, 2, 2)
    assert "optimal 1/2 (+1.0 rounds on average)" in s.summary()


def test_a_lost_puzzle_breaks_the_streak_but_keeps_the_best():
    ST.record_result("a", code="x", won=True, rounds=8, optimum=8)
    ST.record_result("b", code="x", won=True, rounds=8, optimum=8)
    s = ST.record_result("c", code="x", won=False, rounds=3, optimum=8)
    assert (s.played, s.solved, s.streak, s.best_streak) == (3, 2, 0, 2)
    assert "solved 2/3" in s.summary()


def test_daily_streak_counts_consecutive_solved_days():
    for i, day in enumerate(["2026-11-20", "2026-11-21", "2026-11-22"]):
        ST.record_result(f"d{i}", code="x", won=True, rounds=9, optimum=9, daily=day)
    s = ST.load_stats()
    assert s.daily_streak(dt.date(2026, 11, 22)) == 3
    assert s.daily_streak(dt.date(2026, 11, 23)) == 3  # today's not solved yet
    assert s.daily_streak(dt.date(2026, 11, 25)) == 0


def test_a_corrupt_stats_file_is_replaced_not_fatal():
    ST.stats_path().write_text("{not json")
    assert ST.load_stats() == ST.Stats()
    s = ST.record_result("k", code="x", won=True, rounds=6, optimum=6)
    assert s.solved == 1 and ST.load_stats().solved == 1
    assert not [p for p in ST.stats_path().parent.iterdir() if p.name.endswith(".tmp")]


def test_a_puzzle_solved_with_help_is_not_solved_optimal_or_a_streak():
    ST.record_result("a", code="x", won=True, rounds=7, optimum=7)
    assert not ST.is_assisted("b")
    ST.mark_assisted("b")
    ST.mark_assisted("b")  # once is enough
    assert ST.is_assisted("b") and ST.load_stats().assisted == ["b"]
    s = ST.record_result("b", code="x", won=True, rounds=7, optimum=7, daily="2026-11-23")
    assert (s.played, s.solved, s.helped, s.optimal, s.streak, s.best_streak) == (2, 1, 1, 1, 1, 1)
    assert s.daily_solved == [] and s.recent[-1].assisted and not s.recent[0].assisted
    assert "solved 1/2" in s.summary() and "1 solved with help" in s.summary()
    s = ST.record_result("c", code="x", won=True, rounds=9, optimum=7, assisted=True)
    assert (s.solved, s.helped, s.extra_rounds) == (1, 2, 0)
    s = ST.record_result("d", code="x", won=False, rounds=3, optimum=7, assisted=True)
    assert (s.played, s.helped, s.streak) == (4, 2, 0)  # a loss with help still breaks the streak


def test_stats_saved_before_assisted_puzzles_existed_still_load(tmp_path):
    path = tmp_path / "old.json"
    path.write_text('{"played": 3, "solved": 2, "recent": [{"code": "x", "won": true, '
                    '"rounds": 8}]}')
    s = ST.load_stats(path)
    assert (s.played, s.solved, s.helped, s.assisted) == (3, 2, 0, [])
    assert not s.recent[0].assisted
