"""RemoteTable: the game screens' table over the hub (the surface of ui.table.LocalTable)."""

from __future__ import annotations

import pytest

from cellwars_tui.core.errors import IllegalAction
from cellwars_tui.ssh import protocol as p
from cellwars_tui.ssh.remote import RemoteTable

from .test_hub import SECRET, Pick, hub, join, table_where, two_at_a_table  # noqa: F401


def test_a_remote_table_has_every_public_name_of_a_local_table():
    from cellwars_tui.ui.table import LocalTable

    local = {n for n in dir(LocalTable) if not n.startswith("_")}
    missing = sorted(n for n in local if not hasattr(RemoteTable, n)
                     and n not in ("humans", "players", "game", "read_only", "match",
                                   "revision", "save_problem", "autosave_enabled", "last_human"))
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
    assert a.humans_to_act() == () and a.legal(0) == []  # sent: wait for the hub
    with pytest.raises(IllegalAction, match="on its way"):
        a.submit(0, Pick(1))
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


async def test_a_refused_move_lets_the_seat_act_again(hub):  # noqa: F811
    ann, ben, code = await two_at_a_table(hub, "secret-pick")
    ann.send(p.Start())
    a = RemoteTable(await table_where(ann, lambda t: bool(t.view)), lambda msg: None)
    a.submit(0, Pick(1))  # lost on the way
    assert a.humans_to_act() == ()
    a.refused()
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
