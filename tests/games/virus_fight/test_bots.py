"""Both bots play every seat of Virus Fight for two, three and four players, from the empty
board to the end, seeing only their own seat's view (the search bot by a playout count, not a
clock, so the games are the same on any machine)."""

from __future__ import annotations

import random

import pytest

from cellwars_tui.ai.bots import MCTSBot, RandomBot
from cellwars_tui.ai.levels import make_bot
from cellwars_tui.core import CHANCE, Match, Seat
from cellwars_tui.games.virus_fight.rules import GAME, VirusFightOptions


def play_bots(bots, seed: int, round_limit: int = 6) -> Match:
    players = len(bots)
    seats = [Seat(name=f"B{i + 1}", kind="bot") for i in range(players)]
    match = Match(GAME, VirusFightOptions(players=players, round_limit=round_limit), seats, seed)
    rng = random.Random(seed)
    for _ in range(2000):
        seats_to_act = [s for s in match.to_act() if s != CHANCE]
        if not seats_to_act:
            break
        seat = seats_to_act[0]
        action = bots[seat].choose(GAME, GAME.view(match.state, seat), seat, rng, 5.0)
        assert GAME.is_legal(match.state, seat, action)
        match.play(seat, action)
    assert match.is_over()
    return match


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_search_bot_plays_every_seat_to_the_end(players):
    match = play_bots([MCTSBot(max_playouts=12) for _ in range(players)], seed=players)
    assert len(match.outcome().winners) >= 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_random_bot_plays_every_seat_to_the_end(players):
    match = play_bots([RandomBot() for _ in range(players)], seed=10 + players)
    assert match.outcome() is not None


def test_both_bot_kinds_are_offered_by_id():
    assert isinstance(make_bot("random"), RandomBot)
    assert isinstance(make_bot("mcts"), MCTSBot)
