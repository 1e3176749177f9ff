"""RemoteTable: the game screens' table over the hub (the surface of ui.table.LocalTable)."""

from __future__ import annotations

import msgspec
import pytest

from cellwars_tui.core import Action, Game, GameType, Options, Outcome, register
from cellwars_tui.core.api import parse_error
from cellwars_tui.core.errors import IllegalAction
from cellwars_tui.online import protocol as p
from cellwars_tui.online.remote import RemoteTable

from .test_hub import SECRET, Pick, hub, join, table_where, two_at_a_table  # noqa: F401


def test_a_remote_table_has_every_public_name_of_a_local_table():
    """Every name a screen may use of a local table: the Table protocol's, and whatever the
    local table adds to its authority (the authority's own machinery runs in the hub)."""
    from cellwars_tui.table import Table
    from cellwars_tui.table.authority import TableAuthority
    from cellwars_tui.table.local import LocalTable

    owner = set(dir(TableAuthority)) - set(dir(Table))
    local = {n for n in dir(LocalTable) if not n.startswith("_") and n not in owner}
    missing = sorted(n for n in local if not hasattr(RemoteTable, n)
                     and n not in ("humans", "players", "game", "read_only", "match",
                                   "revision", "save_problem", "last_human", "bot_step",
                                   "threads"))
    assert not missing


async def test_a_seat_plays_through_its_remote_table_and_sees_the_hub_answer(hub):  # noqa: F811
    ann, ben, code = await two_at_a_table(hub, "secret-pick")
    ann.send(p.Start())
    a_state = await table_where(ann, lambda t: bool(t.view))
    b_state = await table_where(ben, lambda t: bool(t.view))
    a, b = RemoteTable(a_state, ann.send), RemoteTable(b_state, ben.send)
    assert a.viewer() == 0 and b.viewer() == 1 and not a.read_only and not a.hot_seat()
    assert a.humans_to_act() == (0,) and a.legal(0) == [Pick(0), Pick(1), Pick(2)]
    assert a.legal(1) == [] and not a.can_undo() and a.bot_to_move() is None
    assert a.supports_undo is False and not a.spectator  # the screen hides Undo/Redo
    with pytest.raises(IllegalAction, match="you play"):
        a.submit(1, Pick(0))
    with pytest.raises(IllegalAction, match="not a legal move"):
        a.submit(0, Pick(7))
    changed = []
    a.subscribe(lambda: changed.append(a.step()))
    a.submit(0, Pick(2))
    assert a.moves_on_their_way() == 1
    a.update(await table_where(ann, lambda t: t.step == 1))
    b.update(await table_where(ben, lambda t: t.step == 1))
    assert changed == [1]
    assert a.view().picks == (2, -1) and b.view().picks == (-2, -1)
    assert a.events()[-1] == (1, 0, "ann picks 2") and b.events()[-1] == (1, 0, "ann picks in secret")
    b.submit(1, Pick(0))
    a.update(await table_where(ann, lambda t: t.outcome is not None))
    assert a.is_over() and a.outcome_text() == "ann wins (picked)"
    assert a.names() == ["ann", "ben"] and a.seat_kind(1) == "player"
    await ann.close()
    await ben.close()


async def test_a_refused_move_lets_the_next_queued_move_go(hub):  # noqa: F811
    ann, ben, code = await two_at_a_table(hub, "secret-pick")
    ann.send(p.Start())
    sent: list[p.Play] = []
    a = RemoteTable(await table_where(ann, lambda t: bool(t.view)), sent.append)
    a.submit(0, Pick(1))
    a.submit(0, Pick(2))  # made before the hub answered: it waits
    assert [m.action for m in sent] == ["pick1"]
    a.refused(seq=sent[0].seq + 7)  # about some other move: nothing changes
    assert len(sent) == 1
    a.refused(seq=sent[0].seq)
    assert [m.action for m in sent] == ["pick1", "pick2"] and sent[1].seq > sent[0].seq
    assert a.humans_to_act() == (0,)
    await ann.close()
    await ben.close()


async def test_a_spectator_table_is_read_only(hub):  # noqa: F811
    ann, ben, code = await two_at_a_table(hub, "secret-pick")
    ann.send(p.Start())
    await table_where(ann, lambda t: bool(t.view))
    cat = await join(hub, "key:cat")
    cat.send(p.Join(code=code))
    c = RemoteTable(await table_where(cat, lambda t: bool(t.view)), cat.send)
    assert c.read_only and c.viewer() is None and c.humans_to_act() == ()
    with pytest.raises(IllegalAction, match="watching"):
        c.submit(0, Pick(0))
    for x in (ann, ben, cat):
        await x.close()


async def test_a_screen_driving_its_own_bots_sends_nothing_for_the_hubs_bot(hub):  # noqa: F811
    ann = await join(hub, "key:ann", "ann")
    ann.send(p.CreateTable(game="secret-pick", players=2))
    await table_where(ann, lambda t: t.you == 0)
    ann.send(p.SetBot(seat=1, bot="random"))
    await table_where(ann, lambda t: t.info.seats[1].kind == "bot")
    ann.send(p.Start())
    sent = []
    a = RemoteTable(await table_where(ann, lambda t: bool(t.view)), sent.append)
    a.submit(1, Pick(0))  # the hub's bot plays seat 2: nothing goes up
    a.submit_system(Pick(0))  # nor a local timer's system action: the hub keeps the timer
    assert sent == []
    a.submit(0, Pick(2))
    assert [type(m) for m in sent] == [p.Play]
    await ann.close()


# -- a game where one seat acts several times in a row: typing three different letters -----------
class Key(Action, frozen=True, tag="key"):
    c: str


class Typed(msgspec.Struct, frozen=True):
    players: int
    text: str = ""


class Typing(Game[Typed, Key]):
    meta = GameType(
        id="remote-typing",
        title="Typing",
        blurb="test only",
        min_players=2,
        max_players=2,
    )
    state_type = Typed
    action_type = Key

    def initial_state(self, options: Options) -> Typed:
        return Typed(options.players)

    def to_act(self, s):
        return (0,) if len(s.text) < 3 else ()

    def legal_actions(self, s, seat):
        return [Key(c) for c in "abcd" if c not in s.text] if seat in self.to_act(s) else []

    def _apply(self, s, seat, a):
        return Typed(s.players, s.text + a.c), ()

    def outcome(self, s):
        return Outcome((0,), "typed") if len(s.text) >= 3 else None

    def action_to_str(self, a):
        return a.c

    def action_from_str(self, text):
        if len(text) == 1 and text in "abcd":
            return Key(text)
        raise parse_error(self, text, "expected a, b, c or d")


TYPING = register(Typing())


async def typist(hub):  # noqa: F811
    """ann alone at a typing table (a bot in seat 2, which never acts), with her RemoteTable."""
    ann = await join(hub, "key:ann", "ann")
    ann.send(p.CreateTable(game="remote-typing", players=2))
    await table_where(ann, lambda t: t.you == 0)
    ann.send(p.SetBot(seat=1, bot="random"))
    await table_where(ann, lambda t: t.info.seats[1].kind == "bot")
    ann.send(p.Start())
    sent: list[p.Play] = []
    notices: list[str] = []

    def send(msg):
        sent.append(msg)
        ann.send(msg)

    table = RemoteTable(await table_where(ann, lambda t: bool(t.view)), send, notify=notices.append)
    return ann, table, sent, notices


async def follow(client, table: RemoteTable, until) -> list[str]:
    """Hand the hub's messages to ``table`` until ``until()``; the hub's refusals, if any."""
    errors = []
    while not until():
        msg = await client.next((p.TableState, p.Error))
        if isinstance(msg, p.Error):
            errors.append(msg.message)
            table.refused(msg.seq)
        else:
            table.update(msg)
    return errors


async def test_keys_typed_while_a_move_is_on_its_way_go_up_one_by_one_and_none_is_lost(hub):  # noqa: F811
    ann, table, sent, notices = await typist(hub)
    in_flight = []
    table.subscribe(lambda: in_flight.append(len(sent) - table.step()))
    for c in "cab":  # three keys before the hub answers the first
        assert table.humans_to_act() == (0,) and Key(c) in table.legal(0)
        table.submit(0, Key(c))
    assert [m.action for m in sent] == ["c"]  # one move on its way at a time
    assert table.moves_on_their_way() == 3
    errors = await follow(ann, table, lambda: table.is_over())
    assert errors == [] and notices == []
    assert [m.action for m in sent] == ["c", "a", "b"] and table.view().text == "cab"
    assert max(in_flight) <= 1  # never two moves unanswered
    assert table.moves_on_their_way() == 0
    await ann.close()


async def test_a_queued_move_the_new_state_forbids_is_dropped_with_a_notice(hub):  # noqa: F811
    ann, table, sent, notices = await typist(hub)
    table.submit(0, Key("a"))
    table.submit(0, Key("a"))  # a double press: illegal once the first "a" is in
    table.submit(0, Key("b"))
    await follow(ann, table, lambda: table.step() == 2 and table.moves_on_their_way() == 0)
    assert [m.action for m in sent] == ["a", "b"] and table.view().text == "ab"
    assert notices == ["dropped your queued move: a is not a legal move now"]
    await ann.close()
