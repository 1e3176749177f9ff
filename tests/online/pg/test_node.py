"""Servers sharing one PostgreSQL (cellwars_tui/online/pg/node.py): one owner per table, taken
over when the owner dies or stalls; one server per name; presence and announcements between
them; a wall-clock jump that changes nothing. Real PostgreSQL (tests/postgres.py)."""

from __future__ import annotations

import asyncio
import time

import psycopg
import pytest

from cellwars_tui.online.pg.node import ClusterError, ClusterNode, Note
from cellwars_tui.online.pg.status import cluster_status
from cellwars_tui.online.pg.store import PostgresTableStore

from ..test_store_contract import a_table


async def until(condition, timeout: float = 20.0) -> None:
    """Wait for ``condition()`` (a guard against a hang, not a pace)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the condition never came"
        await asyncio.sleep(0.02)


async def until_true(check, timeout: float = 20.0) -> None:
    """Wait for ``await check()`` to be true (the database's view of a lock changes when it
    sees a connection end: after the close returns, at no set time)."""
    deadline = time.monotonic() + timeout
    while not await check():
        assert time.monotonic() < deadline, "the condition never came"
        await asyncio.sleep(0.02)


@pytest.fixture
async def cluster(pg_url):
    """(store, make_node): nodes made here are closed after the test."""
    store = await PostgresTableStore.open(pg_url, origin="test")
    nodes: list[ClusterNode] = []

    async def make_node(name: str, **kw) -> ClusterNode:
        node = ClusterNode(pg_url, name, **kw)
        node.beat_seconds = 0.1
        await node.start()
        nodes.append(node)
        return node

    yield store, make_node
    for node in nodes:
        await node.close()
    await store.close()


async def test_one_owner_per_table_and_another_takes_over_when_it_dies(cluster, pg_url):
    store, make_node = cluster
    await store.save(a_table("ABCD"))
    a, b = await make_node("a"), await make_node("b")
    assert await a.own("ABCD") and not await b.own("ABCD")
    assert await b.orphans() == []
    a._tasks[0].cancel()  # (a's heartbeat would see its connection gone and join again)
    await a.lock_conn.close()  # a dies: its connection ends (as with kill -9)

    async def orphaned() -> bool:
        return await b.orphans() == ["ABCD"]

    await until_true(orphaned)  # (the database frees the lock once it sees the connection end)
    assert await b.own("ABCD")
    with psycopg.connect(pg_url) as conn:
        assert conn.execute("SELECT owner FROM cellwars_tables").fetchone() == ("b",)


async def test_a_second_server_with_a_live_servers_name_is_refused_in_one_line(cluster):
    _, make_node = cluster
    first = await make_node("north")
    with pytest.raises(ClusterError) as caught:
        await make_node("north")
    assert "a server named 'north' is already running (on" in str(caught.value)
    assert "\n" not in str(caught.value)
    await first.close()
    await make_node("north")  # the name is free once its server is gone


async def test_a_stalled_owner_is_ended_and_its_tables_taken_over(cluster):
    store, make_node = cluster
    await store.save(a_table("ABCD"))
    lost = []
    a = await make_node("a", on_lost=lambda: lost.append(True))
    b = await make_node("b")
    b.stall_seconds = 0.5
    assert await a.own("ABCD")
    a._tasks[0].cancel()  # a's loop is stuck: no heartbeat (its connection stays open)
    await until(lambda: "a" in b.stalled_ended)

    async def taken() -> bool:
        return await b.own("ABCD")

    await until_true(taken)
    with pytest.raises(Exception):  # a runs again: its connection is gone, and it knows
        await a.own("EFGH")
    assert lost and not a.connected and a.owned == set()


async def test_a_wall_clock_jump_changes_no_owner(cluster, monkeypatch):
    store, make_node = cluster
    await store.save(a_table("ABCD"))
    a, b = await make_node("a"), await make_node("b")
    b.stall_seconds = a.stall_seconds = 1.0
    assert await a.own("ABCD")
    real = time.time
    for jump in (3600.0, -7200.0):
        monkeypatch.setattr(time, "time", lambda: real() + jump)
        await asyncio.sleep(1.5)  # beats for longer than the stall time, on the jumped clock
        assert b.stalled_ended == [] and a.stalled_ended == []
        assert await b.orphans() == [] and not await b.own("ABCD")
    statuses = {s.name: s for s in await cluster_status(a.lock_conn)}
    assert statuses["a"].alive and statuses["b"].alive and statuses["a"].tables == ["ABCD"]


async def test_presence_and_saves_are_announced_to_every_server(cluster):
    store, make_node = cluster
    heard: list[Note] = []
    a = await make_node("a")
    await make_node("b", on_note=heard.append)  # (it listens once started)
    await a.set_presence("key:SHA256:ann", "ann", True)
    await store.save(a_table("ABCD", version=1))
    await a.set_presence("key:SHA256:ann", "ann", False)
    await until(lambda: len(heard) >= 3)
    assert [(n.kind, n.server, n.identity, n.name, n.online, n.code, n.version)
            for n in heard[:3]] == [
        ("p", "a", "key:SHA256:ann", "ann", True, "", 0),
        ("t", "test", "", "", False, "ABCD", 1),
        ("p", "a", "key:SHA256:ann", "", False, "", 0)]
    await a.close()
    await until(lambda: any(n.kind == "s" and n.server == "a" for n in heard))
