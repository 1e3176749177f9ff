"""Bots-only games of Infection on a simulated clock (nothing waits for real).

:func:`simulate` plays the teammate policy (:mod:`.bot`) at each seat's pace through the rules,
with the round timer's ``time-up`` where the clock says; the tests, ``cellwars bench`` and the
win rates quoted in rules.md (``python -m cellwars_tui.bench.games.infection_winrate``) use it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ...core import CHANCE, Action
from . import clarifications as C
from .bot import ROLLS, choose, next_wait
from .rules import GAME, TimeUp
from .types import InfectionOptions


def simulate(players: int, paces: Sequence[float] | float, seed: int, *,
             round_seconds: float = C.ROUND_SECONDS_DEFAULT, keep_steps: bool = False):
    """Play a bots-only game on a simulated clock. Returns ``(final_state, steps)`` where steps
    are ``(t, seat, action)`` (only kept when ``keep_steps``; else the count of player actions)."""
    game = GAME
    rng = random.Random(seed)
    s = game.initial_state(InfectionOptions(players=players, round_seconds=int(round_seconds)))
    return play_on(s, paces, rng, round_seconds=round_seconds, keep_steps=keep_steps)


def play_on(s, paces: Sequence[float] | float, rng: random.Random, *,
            round_seconds: float = C.ROUND_SECONDS_DEFAULT, elapsed: float = 0.0,
            keep_steps: bool = False):
    """:func:`simulate` from state ``s``, ``elapsed`` seconds into its round: the teammate
    policy at each seat's pace to the end (the replay analysis' evaluator plays on from every
    recorded position this way: ``analysis.infection``). Returns ``(final_state, steps)``."""
    game = GAME
    players = s.players
    if isinstance(paces, (int, float)):
        paces = [float(paces)] * players
    steps: list[tuple[float, int, Action]] = []
    count = 0

    def chance(s, t):
        while game.to_act(s) == (CHANCE,):
            a = game.sample_chance(s, rng)
            if keep_steps:
                steps.append((t, CHANCE, a))
            s, _ = game._apply(s, CHANCE, a)
        return s

    s = chance(s, 0.0)
    round_start = -max(0.0, min(elapsed, round_seconds))
    due = [next_wait(paces[i], rng) for i in range(players)]
    while not s.result:
        round_end = round_start + round_seconds
        seats = game.to_act(s)
        seat = min(seats, key=lambda i: due[i]) if seats else -1
        if seat < 0 or due[seat] >= round_end:
            a: Action = TimeUp(s.round)
            if keep_steps:
                steps.append((round_end, CHANCE, a))
            s, _ = game._apply(s, CHANCE, a)
            s = chance(s, round_end)
            round_start = round_end
            due = [round_start + next_wait(paces[i], rng) for i in range(players)]
            continue
        t = due[seat]
        a = choose(s, seat)
        if keep_steps:
            steps.append((t, seat, a))
        count += 1
        s, _ = game._apply(s, seat, a)
        s = chance(s, t)
        due[seat] = t + next_wait(paces[seat], rng) + (
            C.TUMBLE_SECONDS if isinstance(a, ROLLS) else 0.0)
    return s, (steps if keep_steps else count)


def win_rate(players: int, pace: float, games: int, *, seed: int = 0,
             round_seconds: float = C.ROUND_SECONDS_DEFAULT) -> float:
    wins = 0
    for g in range(games):
        s, _ = simulate(players, pace, seed * 100_003 + g, round_seconds=round_seconds)
        wins += s.result == "cleared"
    return wins / games
