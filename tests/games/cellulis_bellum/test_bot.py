"""Cellulis Bellum bot hooks: pruned lists stay legal, the heuristic is zero-sum and reads the
territory, and the search bot (with a fixed playout count, never a clock) beats random."""

from __future__ import annotations

import random

from cellwars_tui.ai.bots import MCTSBot, RandomBot
from cellwars_tui.games.cellulis_bellum.bench import midgame_state, play_match
from cellwars_tui.games.cellulis_bellum.rules import (
    GAME, OVER, Apoptosis, Burst, CellulisBellumOptions, Done, Spawn, state_from_diagram)


def test_bot_actions_are_legal_and_keep_every_spawn():
    s = midgame_state()
    for seed in range(3):
        rng = random.Random(seed)
        t = s
        for _ in range(40):
            if not GAME.to_act(t):
                break
            bots = GAME.bot_actions(t, t.seat)
            legal = GAME.legal_actions(t, t.seat)
            assert bots and set(bots) <= set(legal)
            assert {a for a in legal if isinstance(a, Spawn)} <= set(bots)
            t, _ = GAME.apply(t, t.seat, rng.choice(bots))


def test_bot_actions_keep_only_flanking_bursts_and_profitable_apoptoses():
    s = state_from_diagram("""
......V
.......
.......
..v....
.y...y.
y.y...Y
""")
    acts = GAME.bot_actions(s, 0)
    bursts = {GAME.action_to_str(a) for a in acts if isinstance(a, Burst)}
    # only a Yellow cell landing on d4 flanks c3 (with b2); b2 itself may not be the one to go
    assert bursts == {"burst a1-d4", "burst f2-d4"}
    assert not any(isinstance(a, Apoptosis) for a in acts)
    s = state_from_diagram("......V\n.......\n.......\n.vyv...\n.y.y...\n.vyv..Y")
    assert GAME.action_from_str("apo c2") in GAME.bot_actions(s, 0)  # 4 for 4
    s = state_from_diagram("......V\n.......\n.......\n.vy....\n.y.y...\n..y...Y")
    assert not any(isinstance(a, Apoptosis) for a in GAME.bot_actions(s, 0))  # 4 for 1


def test_heuristic_is_zero_sum_and_prefers_the_larger_territory():
    walled = state_from_diagram("...V...\n.......\n.......\nyyyyyyy\n...Y...\n.......")
    v = GAME.heuristic(walled)
    assert v[0] > 0.3 and v[0] == -v[1]
    mirrored = state_from_diagram("...V...\n.......\nvvvvvvv\n.......\n...Y...\n.......")
    assert GAME.heuristic(mirrored)[0] < -0.3


def test_playout_ends_the_turn_under_way_and_returns_values():
    s = GAME.initial_state(CellulisBellumOptions())
    s, _ = GAME.apply(s, 0, GAME.action_from_str("spawn d3"))
    vals = GAME.random_playout(s, random.Random(1))
    assert len(vals) == 2 and -1 <= vals[0] <= 1


def test_search_bot_plays_legal_moves_and_beats_random():
    wins = 0
    for i in range(2):
        me = i % 2
        bots = [RandomBot(), RandomBot()]
        bots[me] = MCTSBot(max_playouts=25)
        winners = play_match(bots, 100 + i, budget=60.0)
        wins += winners == (me,)
    assert wins == 2


def test_search_bot_ends_a_spawn_only_when_more_cells_are_worse():
    s = GAME.initial_state(CellulisBellumOptions())
    a = MCTSBot(max_playouts=60).choose(GAME, s, 0, random.Random(0), 60.0)
    assert isinstance(a, Spawn)  # the first turn: a cell is worth more than a nucleus step
    s2, _ = GAME.apply(s, 0, a)
    assert s2.step != OVER and (GAME.to_act(s2) == (1,) or Done() in GAME.legal_actions(s2, 0))


def test_bench_reports_the_search_bot_time_a_move_against_its_budget():
    from cellwars_tui.games.cellulis_bellum.bench import time_rows

    times: list[float] = []
    play_match([MCTSBot(max_playouts=3), RandomBot()], 7, budget=60.0, times=times)
    assert times and all(t >= 0 for t in times)  # the search bot's decisions, timed
    row = time_rows([0.5, 0.52, 0.49], 0.5)[0]
    assert abs(row.value - 0.503333) < 1e-5 and row.met is True and row.goal == "<= 0.55"
    assert "3 searches" in row.note and "longest 0.520 s" in row.note
    assert time_rows([0.7], 0.5)[0].met is False
