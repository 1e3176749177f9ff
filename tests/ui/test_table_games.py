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
from cellwars_tui.record.writer import flush as saves_written
from cellwars_tui.table import LocalTable, RoundSession
from cellwars_tui.timer import FakeClock

MAX_STEPS = 20_000


def _seated(game) -> LocalTable:
    players = min(max(2, game.min_players), game.max_players)
    seats = (Seat(name="Ann"),) + tuple(Seat(name=f"Bot {i}", kind="bot", bot="random")
                                        for i in range(1, players))
    options = game.options_from_dict({"players": players})
    return LocalTable(Match(game, options, seats, 11))


def _written(table: LocalTable) -> None:
    """Wait until the save thread has written every save asked for (60 s: a hang guard)."""
    assert saves_written(60)
    table.flush()


def _check_saved(table: LocalTable) -> None:
    _written(table)
    assert len(read_record_file(table.match.path).steps) == table.step()


def _check_the_end(table: LocalTable, humans_played: int, bots_played: int) -> None:
    assert table.is_over() and table.outcome_text()
    assert humans_played and (bots_played or table.players == 1)
    _written(table)
    saved = read_record_file(table.match.path)
    assert saved.header.result is not None and len(saved.steps) == table.step()
    assert not table.legal(0) and table.bot_to_move() is None and table.can_undo() in (True, False)


TURN_BASED = [g for g in all_games() if not g.real_time]
REAL_TIME = [g for g in all_games() if g.real_time]


@pytest.mark.parametrize("game", TURN_BASED, ids=lambda g: g.id)
def test_a_whole_game_at_a_local_table_ends_and_every_step_is_saved(game):
    table = _seated(game)
    rng = random.Random(3)
    humans_played = bots_played = 0
    for step in range(MAX_STEPS):
        if table.is_over():
            break
        humans, bot = table.humans_to_act(), table.bot_to_move()
        if humans:
            table.submit(humans[0], rng.choice(table.legal(humans[0])))
            humans_played += 1
        else:
            assert bot is not None, "nobody to act in a game that is not over"
            table.submit(bot, table.bot_step(bot))
            bots_played += 1
        if step % 97 == 0:  # saved after every action (checked now and then: reading costs)
            _check_saved(table)
    _check_the_end(table, humans_played, bots_played)


@pytest.mark.parametrize("game", REAL_TIME, ids=lambda g: g.id)
async def test_a_whole_real_time_game_at_a_local_table_ends_and_every_step_is_saved(game):
    """A real-time game on a fake clock: its round session plays the bots at their pace, ends
    each round when its time runs out and lands each roll; the person acts whenever the table
    lets them (their last roll landed). Nothing waits for real time."""
    table = _seated(game)
    session = table.round_clock()
    assert isinstance(session, RoundSession)
    clock = FakeClock()
    session.start(clock=clock, tick=0.5)
    rng = random.Random(3)
    humans_played = 0
    try:
        for tick in range(MAX_STEPS):
            if table.is_over():
                break
            for seat in table.humans_to_act():
                if not session.paused and session.landing(seat) is None:
                    table.submit(seat, rng.choice(table.legal(seat)))
                    humans_played += 1
            await clock.advance(0.5)
            if tick % 97 == 0:
                _check_saved(table)
    finally:
        session.stop()
    bots_played = sum(1 for s in table.match.steps if s.seat > 0)
    _check_the_end(table, humans_played, bots_played)
