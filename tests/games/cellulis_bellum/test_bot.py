"""Cellulis Bellum bot hooks: pruned lists stay legal, the heuristic is zero-sum and reads the
territory and the threat to end the game, a winning shot is always taken, and the search bot (with
a fixed playout count, never a clock) beats random. Self-play figures are measured by the
selfplay command, not here."""

from __future__ import annotations

import random

from cellwars_tui.ai.bots import GreedyBot, MCTSBot, RandomBot
from cellwars_tui.bench.games.cellulis_bellum import midgame_state, play_match
from cellwars_tui.games.cellulis_bellum.bot import THREAT_TO_MOVE, THREAT_WAITING, winning_shot
from cellwars_tui.games.cellulis_bellum.rules import (
    GAME, OVER, Apoptosis, Burst, CellulisBellumOptions, Done, Generate, Spawn, VirusShot, reserve,
    state_from_diagram, territory)
from cellwars_tui.bench.balance import play_game

from .helpers import P, play, pos


def names(actions, kind) -> set[str]:
    return {GAME.action_to_str(a) for a in actions if isinstance(a, kind)}


def test_bot_actions_are_legal_and_keep_every_spawn():
    s = midgame_state()
    assert len(s.board) == 72
    for seed in range(3):
        rng = random.Random(seed)
        t = s
        for _ in range(40):
            if not GAME.to_act(t):
                break
            bots = GAME.bot_actions(t, t.seat)
            legal = GAME.legal_actions(t, t.seat)
            assert bots and set(bots) <= set(legal)
            if winning_shot(GAME, t, t.seat) is None:
                assert {a for a in legal if isinstance(a, Spawn)} <= set(bots)
            t, _ = GAME.apply(t, t.seat, rng.choice(bots))


def test_bot_actions_keep_flanking_bursts_ring_bursts_and_profitable_apoptoses():
    # a Yellow cell landing on e3 flanks Violet's d3 with c3: g1 gets there along a diagonal
    s = pos("y c3 g1", "v d3", "Y a6", "V g6")
    bursts = names(GAME.bot_actions(s, 0), Burst)
    assert "burst g1-e3" in bursts and "burst g1-g2" not in bursts
    assert all(GAME.is_legal(s, 0, GAME.action_from_str(b)) for b in bursts)
    # six of the eight points around d3 are Yellow's: a cell from outside may fill a gap (e3,
    # de34), and the six stay where they are
    held = ("c3", "cd23", "cd34", "d2", "d4", "de23")
    ring = pos("y " + " ".join(held) + " e1", "Y g6", "V a6")
    bursts = names(GAME.bot_actions(ring, 0), Burst)
    assert bursts == {"burst e1-e3"}
    # apoptoses that destroy at least as many cells as they sacrifice
    s = pos("y d2 d3 cd23 de23", "v c2 c3 e3 de34", "Y a1", "V g6")
    assert "apo d2-d3" in names(GAME.bot_actions(s, 0), Apoptosis)  # 4 for 4
    s2 = pos("y d2 d3 cd23 de23", "v c2", "Y a1", "V g6")
    assert not names(GAME.bot_actions(s2, 0), Apoptosis)  # 4 for 1


def test_the_heuristic_is_zero_sum_and_prefers_the_larger_territory():
    walled = pos("y a4 b4 c4 d4 e4 f4 g4", "Y d2", "V d6")
    v = GAME.heuristic(walled)
    assert v[0] > 0.3 and v[0] == -v[1]
    mirrored = pos("v a3 b3 c3 d3 e3 f3 g3", "Y d1", "V d5")
    assert GAME.heuristic(mirrored)[0] < -0.3


def test_the_heuristic_rates_a_threat_to_end_the_game_while_ahead_nearly_a_win():
    ahead = pos("y a4 b4 c4 d4 e4 f4 g4", "1 b2", "Y d2", "V d6")  # b2-c2-d2: own nucleus
    assert GAME.heuristic(ahead)[0] == THREAT_TO_MOVE
    waiting = pos("y a4 b4 c4 d4 e4 f4 g4", "1 b2", "Y d2", "V d6", seat=1)
    assert GAME.heuristic(waiting)[0] == THREAT_WAITING
    behind = pos("v a4 b4 c4 d4 e4 f4 g4", "1 b6", "Y d6", "V d2")
    assert GAME.heuristic(behind)[0] < 0  # a virus is no threat for the player behind


def test_a_winning_shot_is_the_only_action_the_bot_considers():
    s = pos("y a4 b4 c4 d4 e4 f4 g4", "1 b2", "Y d2", "V d6")
    assert winning_shot(GAME, s, 0) == VirusShot(2)  # east, through its own nucleus
    assert GAME.bot_actions(s, 0) == [VirusShot(2)]
    s2, _ = play(s, "shoot e")
    assert s2.step == OVER and GAME.outcome(s2).winners == (0,)
    level = pos("1 b2", "Y d2", "V d6")  # 0 to 0: a shot would only draw
    assert winning_shot(GAME, level, 0) is None


def test_the_search_bot_generates_and_fires_to_end_a_game_it_leads():
    # a wall on rank 5 puts Yellow well ahead; the eight cells around d3 make a virus whose
    # south-west ray runs through Yellow's own nucleus on c2
    s = pos("y a5 b5 c5 d5 e5 f5 g5", "y c3 cd23 cd34 d2 d4 de23 de34 e3", "Y c2", "V d6")
    assert Generate(P("d3")) in GAME.legal_actions(s, 0)
    rng = random.Random(1)
    bot = MCTSBot(max_playouts=200)
    t = s
    for _ in range(4):
        if t.seat != 0 or t.step == OVER:
            break
        t, _ = GAME.apply(t, 0, bot.choose(GAME, t, 0, rng, 60.0))
    assert t.step == OVER and GAME.outcome(t).winners == (0,)


def test_playout_ends_the_turn_under_way_and_returns_values():
    s = GAME.initial_state(CellulisBellumOptions())
    s, _ = play(s, "spawn d3")
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


def test_the_greedy_bot_picks_a_legal_action_and_takes_a_win():
    s = pos("y a4 b4 c4 d4 e4 f4 g4", "1 b2", "Y d2", "V d6")
    assert GreedyBot().choose(GAME, s, 0, random.Random(0), 1.0) == VirusShot(2)
    s = GAME.initial_state(CellulisBellumOptions())
    assert GAME.is_legal(s, 0, GreedyBot().choose(GAME, s, 0, random.Random(0), 1.0))


def test_a_self_play_game_is_reproducible_from_its_seed_and_counted_in_rounds():
    one = play_game(GAME.id, {"turn_limit": 30}, ("search", "greedy"), 8, 7)
    again = play_game(GAME.id, {"turn_limit": 30}, ("search", "greedy"), 8, 7)
    assert (one.winners, one.rounds, one.termination) == (again.winners, again.rounds,
                                                          again.termination)
    assert 1 <= one.rounds <= 16 and one.termination.startswith(("nucleus", "turn limit"))
    assert set(one.round_figures[1]) == {"territory (Yellow)", "territory (Violet)"}


def test_bench_reports_the_search_bot_time_a_move_against_its_budget():
    from cellwars_tui.bench.games.cellulis_bellum import time_rows

    times: list[float] = []
    play_match([MCTSBot(max_playouts=3), RandomBot()], 7, budget=60.0, times=times)
    assert times and all(t >= 0 for t in times)  # the search bot's decisions, timed
    row = time_rows([0.5, 0.52, 0.49], 0.5)[0]
    assert abs(row.value - 0.503333) < 1e-5 and row.met is True and row.goal == "<= 0.55"
    assert "3 searches" in row.note and "longest 0.520 s" in row.note
    assert time_rows([0.7], 0.5)[0].met is False


def test_a_player_far_ahead_with_every_cell_on_the_board_still_makes_its_virus():
    """Found in self-play (a game that ran to the safety limit): Yellow leads 74 to 0 with all 28
    cells on the board, no rhombus of eight free of wall cells. A virus whose cells can go
    without losing the lead is still there to make, and the search bot makes it and ends the
    game."""
    s = state_from_diagram("""
. y y v v v v
 . . y V v v
. y . y y . y
 y . . y . .
. y . y y y y
 . . . . y .
. y y . y y .
 y y y y . .
y . . . y . .
 Y y y . . .
. . y . . . .
""", seat=0, turn=100)
    assert reserve(s.board, 0) == 0 and territory(s.board, 0) == 74
    rng, bot = random.Random(3), MCTSBot(max_playouts=200)
    while GAME.to_act(s) and s.turn < 110:
        s, _ = GAME.apply(s, s.seat, bot.choose(GAME, s, s.seat, rng, 600.0))
    assert s.step == OVER and GAME.outcome(s).winners == (0,)
