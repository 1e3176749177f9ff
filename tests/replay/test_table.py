"""The read-only replay table: the Table surface over a replay position."""

from __future__ import annotations

import msgspec
import pytest

from cellwars_tui.core import IllegalAction, all_games
from cellwars_tui.replay import Replay
from cellwars_tui.table.replay import ReplayTable
from tests.replay.test_model import replay_of
from tests.replay.helpers import toy_match
from tests.test_conformance import play_random


def test_the_replay_table_has_every_public_member_of_the_local_table():
    """Every member a screen may use of a local table: the Table protocol's, and whatever the
    local table adds to its authority (the authority's own machinery, which owns a game being
    played, is not a table's: nothing is played at a replay)."""
    from cellwars_tui.table import Table
    from cellwars_tui.table.authority import TableAuthority
    from cellwars_tui.table.local import LocalTable

    owner = set(dir(TableAuthority)) - set(dir(Table))
    local_only = ("last_human", "bot_step", "threads")  # a local game's: its last person, its
    # bots' blocking choice (scripts and tests) and their thread thinker
    missing = [n for n in dir(LocalTable) if not n.startswith("_") and not hasattr(ReplayTable, n)
               and n not in owner and n not in local_only]
    assert not missing


def test_the_replay_table_shows_the_position_and_tells_its_listeners():
    m = toy_match(3, 30)
    table = ReplayTable(replay_of(m))
    calls = []
    table.subscribe(lambda: calls.append(table.step()))
    table.seek(4)
    table.seek(4)
    assert calls == [4]
    assert table.state() == m.states[4] and table.to_act() == m.game.to_act(m.states[4])
    assert table.events() and table.events()[-1][0] <= 4


def test_nothing_can_be_played_undone_or_saved_at_a_replay_table():
    table = ReplayTable(replay_of(toy_match(3, 30)))
    table.seek(3)
    seat = table.to_act()[0]
    assert table.read_only and table.legal(seat) == [] and table.humans_to_act() == ()
    with pytest.raises(IllegalAction, match="replay"):
        table.submit(seat, table.replay.steps[3].action)
    assert not table.can_undo() and not table.undo() and not table.can_redo()
    assert table.bot_to_move() is None


def test_the_chosen_seat_is_the_viewer_and_none_reveals_all():
    game = next(g for g in all_games() if g.hidden_information)
    m = play_random(game, game.min_players, 3, checks=False)
    table = ReplayTable(Replay.from_match(m), seat=1)
    table.seek(len(m.steps) // 2)
    assert table.viewer() == 1
    assert table.view(table.viewer()) == game.view(m.states[table.step()], 1)
    table.set_seat(None)
    assert table.viewer() is None and table.view(None) == m.states[table.step()]
    table.set_seat(99)
    assert table.viewer() is None


def test_the_outcome_shows_at_the_end_only():
    m = toy_match(3, 60)
    table = ReplayTable(replay_of(m))
    assert m.is_over() and table.is_over()
    assert table.outcome_text().split()[0] in ("Ann", "Bob")
    table.seek(0)
    assert table.outcome() is None and table.outcome_text() == ""


def test_a_watching_seat_reads_its_own_moves_but_not_the_others_in_a_hidden_information_game(
        monkeypatch):
    from tests.toy_game import TOY

    m = toy_match(3, 30, hold_every=2)
    monkeypatch.setattr(type(TOY), "meta",  # on the class: undone, nothing shadows it after
                        msgspec.structs.replace(TOY.meta, hidden_information=True))
    table = ReplayTable(replay_of(m), seat=0)
    silent = {i + 1: s.seat for i, s in enumerate(m.steps) if not m.events[i] and s.seat >= 0}
    assert set(silent.values()) == {0, 1}
    lines = {(step, seat) for step, seat, _ in table.events()}
    assert all(((n, seat) in lines) == (seat == 0) for n, seat in silent.items())
    table.set_seat(None)
    lines = {(step, seat) for step, seat, _ in table.events()}
    assert all((n, seat) in lines for n, seat in silent.items())
