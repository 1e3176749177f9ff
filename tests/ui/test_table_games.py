"""A whole game of every game at a LocalTable, headless: what the whole-game pilot tests (marked
``slow``) check beyond their keys and mice, in a fraction of their time. A person plays random
legal actions at seat 1, random bots the other seats, through the same table a screen uses; the
game reaches its end, the table says how it ended, and the record saved after every action holds
every step and the result."""

from __future__ import annotations

import random

import pytest

from cellwars_tui.core import all_games
from cellwars_tui.core.match import Match, Seat
from cellwars_tui.record.format import read_record_file
from cellwars_tui.ui.table import LocalTable

MAX_STEPS = 20_000
TIME_UP_EVERY = 40  # a real-time game's round ends when its clock runs out: now and then here


def _time_up(table: LocalTable):
    """The game's "the round's time ran out" system action, or None for a turn-based game."""
    if table.game.id != "infection":
        return None
    from cellwars_tui.games.infection.rules import TimeUp

    return TimeUp(round=table.state().round)


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.id)
def test_a_whole_game_at_a_local_table_ends_and_every_step_is_saved(game):
    players = min(max(2, game.min_players), game.max_players)
    seats = (Seat(name="Ann"),) + tuple(Seat(name=f"Bot {i}", kind="bot", bot="random")
                                        for i in range(1, players))
    options = game.options_from_dict({"players": players})
    table = LocalTable(Match(game, options, seats, 11))
    rng = random.Random(3)
    humans_played = bots_played = 0
    for step in range(MAX_STEPS):
        if table.is_over():
            break
        humans, bot = table.humans_to_act(), table.bot_to_move()
        time_up = _time_up(table) if step % TIME_UP_EVERY == TIME_UP_EVERY - 1 else None
        if time_up is not None or not humans and bot is None:
            table.submit_system(time_up if time_up is not None else _time_up(table))
        elif humans:
            table.submit(humans[0], rng.choice(table.legal(humans[0])))
            humans_played += 1
        else:
            table.submit(bot, table.bot_step(bot))
            bots_played += 1
        if step % 97 == 0:  # saved after every action (checked now and then: reading costs)
            assert len(read_record_file(table.match.path).steps) == table.step()
    assert table.is_over() and table.outcome_text()
    assert humans_played and (bots_played or players == 1)
    saved = read_record_file(table.match.path)
    assert saved.header.result is not None and len(saved.steps) == table.step()
    assert not table.legal(0) and table.bot_to_move() is None and table.can_undo() in (True, False)
