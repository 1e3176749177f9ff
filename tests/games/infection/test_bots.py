"""Bots-only games of Infection to the end for 1-4 players, on a simulated clock (no waiting), and
the same games as recorded matches that replay exactly with each action's time."""

from __future__ import annotations

import random

import pytest

from cellwars_tui.core import CHANCE, Match, Seat
from cellwars_tui.core.match import Step
from cellwars_tui.games.infection import clarifications as C
from cellwars_tui.games.infection.bot import PaceBot, choose, next_wait, pace_of
from cellwars_tui.games.infection.simulate import simulate, win_rate
from cellwars_tui.games.infection.rules import CLEARED, GAME, OVERRUN, REST, TimeUp


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_a_bots_only_game_reaches_the_end(players):
    s, steps = simulate(players, C.PACES["normal"], seed=players, keep_steps=True)
    assert s.result in (CLEARED, OVERRUN)
    assert GAME.outcome(s) is not None and GAME.to_act(s) == ()
    times = [t for t, _, _ in steps]
    assert times == sorted(times)  # actions in the order of their times
    assert times[-1] <= C.ROUNDS * C.ROUND_SECONDS_DEFAULT
    rounds = [a.round for _, seat, a in steps if isinstance(a, TimeUp)]
    assert rounds == list(range(1, len(rounds) + 1))
    if s.result == OVERRUN:
        assert rounds == [1, 2, 3]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_a_bots_only_game_replays_exactly_from_its_record(players):
    s, steps = simulate(players, C.PACES["hard"], seed=10 + players, keep_steps=True)
    seats = [Seat(name=f"bot {i + 1}", kind="bot", bot="mcts") for i in range(players)]
    match = Match(GAME, GAME.options_type(players=players), seats, seed=0, auto_chance=False)
    match.replay_steps([Step(seat, a, round(t, 3)) for t, seat, a in steps])
    assert match.state == s and match.is_over()
    assert match.steps[-1].t == pytest.approx(steps[-1][0], abs=1e-3)


def test_the_bot_always_chooses_a_legal_action():
    for seed in range(6):
        players = 1 + seed % 4
        s, steps = simulate(players, 1.0, seed=seed, keep_steps=True)
        state = GAME.initial_state(GAME.options_type(players=players))
        for _, seat, a in steps:
            if seat != CHANCE:
                assert choose(state, seat) == a and GAME.is_legal(state, seat, a)
            state, _ = GAME.apply(state, seat, a)


def test_a_resting_seat_has_no_bot_action():
    s, _ = simulate(2, 1.0, seed=1)
    from cellwars_tui.games.infection.bot import bot_actions
    from cellwars_tui.games.infection.rules import Player

    rested = s.__class__(players=1, seats=(Player(stage=REST),), shuffled=3)
    assert bot_actions(rested, 0) == []


def test_the_pace_bot_plays_through_the_bot_interface():
    s, _ = simulate(1, 1.0, seed=0)
    state = GAME.initial_state(GAME.options_type(players=1))
    while GAME.to_act(state) == (CHANCE,):
        state, _ = GAME.apply(state, CHANCE, GAME.sample_chance(state, random.Random(0)))
    action = PaceBot().choose(GAME, GAME.view(state, 0), 0, random.Random(0), 1.0)
    assert GAME.is_legal(state, 0, action)


def test_paces_easy_normal_hard_and_jitter():
    assert pace_of("easy") > pace_of("normal") > pace_of("hard") == pace_of("fast")
    assert pace_of(0.5) == 0.5 and pace_of(0) == 0.05
    with pytest.raises(ValueError):
        pace_of("sleepy")
    rng = random.Random(1)
    waits = [next_wait(1.0, rng) for _ in range(200)]
    assert min(waits) >= 1 - C.PACE_JITTER and max(waits) <= 1 + C.PACE_JITTER


def test_faster_teams_win_more_often():
    easy = win_rate(1, C.PACES["easy"], 20, seed=5)
    fast = win_rate(1, C.PACES["hard"], 20, seed=5)
    assert fast > easy
