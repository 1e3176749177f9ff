"""Both bots play every seat of Virus Fight for two, three and four players, from the empty
board to the end, seeing only their own seat's view (the search bot by a playout count, not a
clock, so the games are the same on any machine)."""

from __future__ import annotations

import random

import pytest

from cellwars_tui.ai.bots import MCTSBot, RandomBot
from cellwars_tui.ai.levels import make_bot
from cellwars_tui.core import CHANCE, Match, Seat
from cellwars_tui.games.virus_fight.rules import GAME, Offer, VirusFightOptions


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


# -- the search's view: a turn that strands a rival ------------------------------------------------
def test_a_bot_weighs_only_the_turns_that_strand_a_rival_when_there_are_some():
    from cellwars_tui.games.virus_fight.notation import action_to_str

    from .helpers import pos

    # South's E3 on d4 touches North's W1 on d5, the only neighbour of North's marker (E1, e5):
    # erasing it, or stepping onto it, leaves North nothing to erase and nowhere to step
    s = pos("...W1E1/...E3./...M1./...J1./...W2.", "d4,e5")
    kills = GAME.bot_actions(s, 0)
    assert {action_to_str(a) for a in kills} == {"erase d5 >d3", "erase - >d5", "erase d3 >d5"}
    assert len(GAME.legal_actions(s, 0)) > len(kills) + 1
    for kill in kills:
        after, _ = GAME.apply(s, 0, kill)
        assert all(action_to_str(a).endswith(">out") for a in GAME.legal_actions(after, 1)
                   if a != Offer())
    assert MCTSBot(max_playouts=4).choose(GAME, s, 0, random.Random(1), 5.0) in kills


def test_without_such_a_turn_a_bot_weighs_every_turn_that_keeps_its_marker():
    from cellwars_tui.games.virus_fight.notation import STANDARD, position_from_str
    from cellwars_tui.games.virus_fight.types import eliminates

    s = position_from_str(GAME, STANDARD["midgame-4"])
    seat = s.queue[0]
    turns = [a for a in GAME.legal_actions(s, seat) if a != Offer() and not eliminates(a)]
    assert GAME.bot_actions(s, seat) == turns
