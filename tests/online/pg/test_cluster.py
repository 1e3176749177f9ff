"""Two hubs sharing one PostgreSQL (cellwars_tui/online/hub_cluster.py, cluster.py): one lobby,
a player on one server sitting at a table made on the other, moves made on either server played
once by the table's owner and seen on both, two racing moves (exactly one wins). Real PostgreSQL
(tests/postgres.py); each hub is what ``cellwars serve --store`` runs."""

from __future__ import annotations

import asyncio
import time

import pytest

from cellwars_tui.online import protocol as p
from cellwars_tui.online.hub_cluster import ClusterHub
from cellwars_tui.online.pg.shared import SharedStore
from cellwars_tui.online.pg.wheel import WheelPostgres

from ..test_hub import join, table_where, watch_then_sit


async def _two_hubs(url: str, tmp_path):
    hubs: list[ClusterHub] = []
    for name in ("a", "b"):
        shared = await SharedStore.open(url, name)
        hub = ClusterHub(tmp_path / name / "tables", shared=shared, sweep_interval=3600)
        await hub.start()
        hubs.append(hub)
    return hubs


@pytest.fixture
async def two_hubs(pg_url, tmp_path):
    hubs = await _two_hubs(pg_url, tmp_path)
    yield hubs
    for hub in hubs:
        await hub.close()


@pytest.fixture
def own_pg():
    """A PostgreSQL of this test's own, for a test that stops and restarts it: the worker's shared
    server holds every earlier test's databases, so its shutdown and start take longer the later
    the test runs, and the hubs' reconnection backs off further."""
    server = WheelPostgres(fast=True)
    try:
        server.start()
        yield server
    finally:
        server.close()


@pytest.fixture
async def two_hubs_own_pg(own_pg, tmp_path):
    hubs = await _two_hubs(own_pg.url(), tmp_path)
    yield hubs
    for hub in hubs:
        await hub.close()


async def lobby_with(client, code: str, pred=lambda info: True) -> p.TableInfo:
    """The first lobby entry of table ``code`` that ``pred`` holds for."""
    while True:
        lobby = await client.next(p.Lobby)
        for info in lobby.tables:
            if info.code == code and pred(info):
                return info


async def ann_and_ben(a, b, game: str = "toy-race", *, sit: bool = True):
    """ann at server a makes a table of ``game``; ben at server b joins it (and sits, ``sit``):
    (ann, ben, code)."""
    ann = await join(a, "key:ann", "ann")
    ben = await join(b, "key:ben", "ben")
    return ann, ben, await share_table(ann, ben, game, sit=sit)


async def share_table(ann, ben, game: str = "toy-race", *, sit: bool = True) -> str:
    """ann makes a table of ``game`` at her server; ben at his joins it (and sits, ``sit``)."""
    ann.send(p.CreateTable(game=game, players=2))
    code = (await table_where(ann, lambda t: t.you == 0)).info.code
    await lobby_with(ben, code)
    ben.send(p.Join(code=code))
    await table_where(ben, lambda t: t.you is None)
    if sit:
        ben.send(p.Sit(seat=1))  # at server b, for the table of server a
        await table_where(ben, lambda t: t.you == 1)
    return code


async def play_to_end(ann, ben, state: p.TableState) -> p.TableState:
    """A toy-race game played to its end by ann (seat 0) and ben (seat 1), each at their
    server; the last state ann sees."""
    clients = {0: ann, 1: ben}
    seq = 0
    for _ in range(400):
        if state.outcome is not None:
            break
        (seat,) = state.to_act
        me = clients[seat]
        seen = me.table if me.table.step == state.step else await table_where(
            me, lambda t, s=state.step: t.step == s)
        assert seen.you == seat
        seq += 1
        me.send(p.Play(step=state.step, action="hold" if seen.step % 3 else "roll", seq=seq))
        told = await table_where(me, lambda t, q=seq: t.played == q)  # it went through
        assert told.step > state.step
        state = told if me is ann else await table_where(
            ann, lambda t, s=told.step: t.step >= s)
    assert state.outcome is not None
    return state


async def test_one_lobby_and_a_game_played_across_two_servers(two_hubs):
    a, b = two_hubs
    ann = await join(a, "key:ann", "ann")
    ben = await join(b, "key:ben", "ben")
    ann.send(p.CreateTable(game="toy-race", players=2))
    made = time.monotonic()
    code = (await table_where(ann, lambda t: t.you == 0)).info.code
    info = await lobby_with(ben, code)  # server b lists server a's table
    assert time.monotonic() - made < 5  # (a guard only: the bench measures it)
    assert info.host == "ann" and info.seats[0].name == "ann" and info.status == "open"
    if not info.seats[0].connected:  # ann is connected (to a): b hears it, maybe after
        await lobby_with(ben, code, lambda i: i.seats[0].connected)
    await watch_then_sit(ben, code.lower(), 1)  # at server b, for the table of server a
    await table_where(ben, lambda t: t.you == 1)
    await table_where(ann, lambda t: t.info.seats[1].name == "ben" and t.info.seats[1].connected)
    ann.send(p.Start())
    first = await table_where(ann, lambda t: t.step > 0)
    await table_where(ben, lambda t: t.step > 0)
    copy = b.tables[code].match  # server b's copy of the game, read from the store
    state = await play_to_end(ann, ben, first)
    last = ben.table if ben.table.outcome is not None else await table_where(
        ben, lambda t: t.outcome is not None)
    assert last.view == state.view and last.info.status == "over"
    # b's copy went on with each new version's steps only (never played again from the start),
    # and stands exactly where the owner's game does
    assert b.tables[code].match is copy and copy.state == a.tables[code].match.state
    assert copy.steps == a.tables[code].match.steps
    for c in (ann, ben):
        await c.close()


async def test_two_moves_racing_from_two_servers_exactly_one_wins(two_hubs):
    ann, ben, code = await ann_and_ben(*two_hubs)
    a, b = two_hubs
    ann.send(p.Start())
    state = await table_where(ann, lambda t: t.step > 0)
    (seat,) = state.to_act
    # the player to move is at their server and at the other one too (two sessions, one seat)
    here, there, who = (ann, b, "ann") if seat == 0 else (ben, a, "ben")
    twin = await join(there, f"key:{who}", who)
    seen = await table_where(twin, lambda t, s=state.step: t.you == seat and t.step == s)
    if here.table.step != state.step:
        await table_where(here, lambda t, s=state.step: t.step == s)
    twin.send(p.Play(step=seen.step, action="hold", seq=7))  # from one server ...
    here.send(p.Play(step=state.step, action="roll", seq=8))  # ... and the other, at once
    answers = []
    for client, seq in ((twin, 7), (here, 8)):
        while True:
            msg = await client.next((p.TableState, p.Error))
            if isinstance(msg, p.Error) and msg.seq == seq:
                answers.append(("refused", msg.message))
                break
            if isinstance(msg, p.TableState) and msg.played == seq:
                answers.append(("played", ""))
                break
    assert sorted(kind for kind, _ in answers) == ["played", "refused"]
    (why,) = [m for kind, m in answers if kind == "refused"]
    assert "moved on" in why
    for c in (ann, twin, ben):
        await c.close()


def _stuck(seen: p.TableState, code: str, *hubs: ClusterHub) -> str:
    """Why play has not resumed, as each server sees the table (for a failure's message)."""
    where = [f"{hub.cluster.name}: {type(hub.tables.get(code)).__name__}, "
             f"owned={code in hub.cluster.node.owned}, joined={hub.cluster.node.connected}"
             for hub in hubs]
    return (f"play never resumed: the player sees step {seen.step}, to act {seen.to_act}, "
            f"paused {seen.paused!r}, {len(seen.legal)} moves; " + "; ".join(where))


async def test_the_database_restarting_under_two_servers_refuses_moves_then_play_resumes(
        two_hubs_own_pg, own_pg):
    pg_server = own_pg
    ann, ben, code = await ann_and_ben(*two_hubs_own_pg)
    a, b = two_hubs_own_pg
    ann.send(p.Start())
    state = await table_where(ann, lambda t: t.step > 0)
    (seat,) = state.to_act
    me = (ann, ben)[seat]
    if me.table.step != state.step:  # (before the database stops: server b hears of the step
        await table_where(me, lambda t, s=state.step: t.step == s)  # through it)
    await asyncio.to_thread(pg_server.stop)  # the database goes away mid-game
    try:
        me.send(p.Play(step=state.step, action="roll", seq=1))
        refused = await me.next(p.Error, timeout=30)  # refused in one line, nothing half-saved
        assert refused.seq == 1 and "\n" not in refused.message
    finally:
        await asyncio.to_thread(pg_server.start)
    deadline = time.monotonic() + 30
    seq = 1
    while True:  # play resumes by itself once the database is back
        assert time.monotonic() < deadline, "play never resumed"
        def ready(t: p.TableState) -> bool:
            return not t.paused and t.you == seat and seat in t.to_act and bool(t.legal)

        seen = me.table
        while not ready(seen):  # the latest state, or the next ones (a line said meanwhile
            try:  # is no answer to wait for); none for a while: the player looks again
                seen = await me.next(p.TableState, timeout=3)
            except asyncio.TimeoutError:
                assert time.monotonic() < deadline, _stuck(seen, code, a, b)
                me.send(p.Join(code=code))
        seq += 1
        me.send(p.Play(step=seen.step, action="roll", seq=seq))
        msg = await me.next((p.Error, p.TableState))
        while not (isinstance(msg, p.Error) and msg.seq == seq or
                   isinstance(msg, p.TableState) and msg.played == seq):
            msg = await me.next((p.Error, p.TableState))
        if isinstance(msg, p.TableState):
            break
        await asyncio.sleep(0.2)  # (told why in one line; the player looks again)
    assert msg.step > state.step
    other = (ann, ben)[1 - seat]
    await table_where(other, lambda t, s=msg.step: t.step >= s)  # both servers see it
    for c in (ann, ben):
        await c.close()
