"""The arithmetic of Infection's frame benchmark (the benchmark itself runs in `cellwars bench`)."""

from __future__ import annotations

from cellwars_tui.bench.games.infection import slowest_second


def test_the_slowest_second_counts_the_fewest_updates_in_any_one_second_window():
    steady = [i / 40 for i in range(200)]  # 40 a second for 5 s
    assert slowest_second(steady) == 40
    stalled = [t for t in steady if not 2.0 < t < 2.4]  # a 400 ms stall
    assert slowest_second(stalled) == 40 - 15
    assert slowest_second([0.0, 0.1, 0.2]) == 3  # a run under a second: all its updates
    assert slowest_second([]) == 0
