"""One set of checks for every table kind: a local match, a replay, and a seat (or a spectator) at
the hub's table through RemoteTable, answered by an in-process fake hub. Whatever differs between
them is a declared capability, and each behaves as its capabilities say."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from cellwars_tui.core.errors import IllegalAction
from cellwars_tui.core.match import Match, Seat
from cellwars_tui.replay.model import Replay
from cellwars_tui.table import History, LocalTable, ReplayTable, Table
from tests.toy_game import TOY, Hold, Roll

from .fake_hub import FakeHub

KINDS = ("local", "replay", "remote", "spectator")


@dataclass
class Kind:
    table: Table
    change: Callable[[], None]  # something that changes the table (a move, a seek)


def _match(seed: int = 3) -> Match:
    m = Match(TOY, TOY.options_type(players=2), [Seat(name="Ann"), Seat(name="Bob")], seed)
    for _ in range(5):  # a few steps in, Ann to act
        m.play(m.to_act()[0], Roll() if m.state.pending < 8 else Hold())
    while m.to_act() != (0,):
        m.play(m.to_act()[0], Hold())
    return m


def _kind(name: str) -> Kind:
    m = _match()
    if name == "local":
        local = LocalTable(m, humans=[0, 1], autosave=False)
        return Kind(local, lambda: local.submit(local.to_act()[0], Roll()))
    if name == "replay":
        replay = ReplayTable(Replay.from_match(m))
        replay.seek(2)
        return Kind(replay, lambda: replay.seek(replay.step() + 1))
    hub = FakeHub(m, you=0 if name == "remote" else None)
    if name == "spectator":
        def spectate() -> None:
            m.play(m.to_act()[0], Roll())
            hub.table.update(hub.state())

        return Kind(hub.table, spectate)

    def play() -> None:
        if 0 in m.to_act():  # Ann's turn: through her table, then the hub answers
            hub.table.submit(0, Roll())
            hub.answer()
        else:  # Bob plays at his own terminal
            m.play(m.to_act()[0], Roll())
            hub.table.update(hub.state())

    return Kind(hub.table, play)


@pytest.fixture(params=KINDS)
def kind(request) -> Kind:
    return _kind(request.param)


def test_every_table_kind_is_a_table(kind):
    assert isinstance(kind.table, Table)
    for capability in ("read_only", "spectator", "supports_undo", "owns_time",
                       "has_public_view"):
        assert isinstance(getattr(kind.table, capability), bool), capability


def test_seats_and_names_agree(kind):
    t = kind.table
    assert t.players == len(t.seats) == len(t.names()) == 2
    assert t.seat_name(None) == "everyone"
    assert [t.seat_name(i) for i in range(2)] == t.names() == ["Ann", "Bob"]
    assert all(isinstance(t.seat_kind(i), str) for i in range(2))
    assert t.humans <= {0, 1}


def test_what_the_screen_shows(kind):
    t = kind.table
    assert t.view(t.viewer()) is not None and t.public_view() is not None
    assert t.state() is not None
    assert isinstance(t.to_act(), tuple) and isinstance(t.step(), int)
    entries = t.events(last=3)
    assert len(entries) <= 3
    assert all(isinstance(step, int) and (seat is None or isinstance(seat, int))
               and isinstance(text, str) for step, seat, text in entries)
    if not t.has_public_view:  # an online seat gets its own view only
        assert t.public_view() == t.view(t.viewer())
    assert not t.is_over() and t.outcome() is None and t.outcome_text() == ""


def test_a_read_only_table_plays_nothing(kind):
    t = kind.table
    if not t.read_only:
        assert t.humans_to_act() and t.legal(t.humans_to_act()[0])
        return
    assert t.humans_to_act() == ()
    assert all(t.legal(seat) == [] for seat in range(t.players))
    with pytest.raises(IllegalAction):
        t.submit(0, Roll())


def test_listeners_hear_each_change_once_and_the_revision_counts_it(kind):
    t = kind.table
    heard: list[int] = []

    def listener() -> None:
        heard.append(t.revision)

    t.subscribe(listener)
    t.subscribe(listener)  # twice is one subscription
    before, step = t.revision, t.step()
    kind.change()
    assert heard == [before + 1] and t.revision == before + 1
    assert t.step() > step
    t.unsubscribe(listener)
    t.unsubscribe(listener)  # harmless
    kind.change()
    assert heard == [before + 1]


def test_undo_only_where_it_means_something(kind):
    t = kind.table
    if not t.supports_undo:
        assert not t.can_undo() and not t.undo() and not t.can_redo() and not t.redo()
        assert not t.undo_stopped_by_chance()
        return
    kind.change()
    step = t.step()
    assert t.can_undo() and t.undo() and t.step() < step
    assert t.can_redo() and t.redo() and t.step() == step


def test_the_tables_without_undo_share_one_no_undo_written_once():
    from cellwars_tui.online.remote import RemoteTable
    from cellwars_tui.table import LocalTable, NoUndo, ReplayTable, Undoing

    part = [name for name in vars(Undoing) if not name.startswith("_")]
    assert {"supports_undo", "can_undo", "undo", "can_redo", "redo"} <= set(part)
    for table in (ReplayTable, RemoteTable):
        assert issubclass(table, NoUndo)
        assert not [name for name in part if name in vars(table)], table  # none written again
    assert not issubclass(LocalTable, NoUndo)  # a local game takes moves back


def test_no_clock_for_a_turn_based_game_and_saving_is_harmless(kind):
    t = kind.table
    assert t.round_clock() is None and t.time_left() is None and t.paused == ""
    assert not t.owns_time
    t.save()
    t.flush()
    assert t.save_problem is None
    assert t.bot_to_move() is None  # (nobody here is a bot)


def test_history_where_the_steps_are_at_hand(kind):
    t = kind.table
    history = t.history
    if isinstance(t, (LocalTable, ReplayTable)):
        assert isinstance(history, History) and history.cursor == t.step()
        assert len(history.steps) >= history.cursor and history.options.players == 2
        assert t.match is (history if isinstance(t, LocalTable) else None)
    else:
        assert history is None and t.match is None


def test_a_remote_seat_waits_for_the_hub_answer():
    hub = FakeHub(_match(), you=0)
    t = hub.table
    heard: list[int] = []
    t.subscribe(lambda: heard.append(t.step()))
    step = t.step()
    t.submit(0, Hold())
    assert t.step() == step and not heard  # sent, not yet answered
    hub.answer()
    assert heard == [t.step()] and t.step() > step
