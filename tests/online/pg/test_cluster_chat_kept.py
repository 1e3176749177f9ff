"""Chat that survives a server and is the same on every server (cluster.py, hub_league.py,
pg/league.py): the lobby's lines and a keyed player's mutes reach a server started later; a
table line said while the table has no owner (its server died, nobody has taken it over yet) is
kept in the table's row, and the server that takes the table over has it. Real PostgreSQL."""

from __future__ import annotations

import asyncio

import psycopg

from cellwars_tui.online import protocol as p
from cellwars_tui.online.chat import ChatLine
from cellwars_tui.online.cluster import Said
from cellwars_tui.online.hub_cluster import ClusterHub
from cellwars_tui.online.pg.schema import LOCK_SPACE_TABLE, code_number
from cellwars_tui.online.pg.shared import SharedStore
from cellwars_tui.online.pg.store import PostgresTableStore

from ..test_hub import join
from ..test_league_chat import chat
from ..test_league_hub import next_of
from ..test_store_contract import a_table
from .test_cluster import share_table, two_hubs  # noqa: F401
from .test_node import until, until_true


def texts(c: p.ChatLines) -> list[str]:
    return [x.text for x in c.lines]


async def test_lobby_chat_and_mutes_reach_a_server_started_later(two_hubs, pg_url, tmp_path):
    a, b = two_hubs
    ann = await join(a, "key:ann", "ann")
    ben = await join(b, "key:ben", "ben")
    ann.send(p.Say(text="hello"))
    await chat(ben, "lobby", lambda c: texts(c) == ["hello"])
    ann.send(p.Say(text="/mute ben"))  # at server a
    await next_of(ann, p.Notice)
    ben.send(p.Say(text="hi"))
    await until(lambda: [x.text for x in a.league.lobby_chat] == ["hello", "hi"])  # (heard)
    c = ClusterHub(tmp_path / "c" / "tables", shared=await SharedStore.open(pg_url, "c"),
                   sweep_interval=3600)
    await c.start()
    try:
        cy = await join(c, "key:cy", "cy")
        assert texts(await chat(cy, "lobby")) == ["hello", "hi"]
        ann_c = await join(c, "key:ann", "ann")  # ann again, at the new server
        assert texts(await chat(ann_c, "lobby")) == ["hello"]  # her mutes came with her
        for x in (cy, ann_c):
            await x.close()
    finally:
        await c.close()
    for x in (ann, ben):
        await x.close()


async def _die(hub: ClusterHub) -> None:
    """``hub``'s server dies (as with kill -9): it stops following and owning, and its
    connections end (its tables' locks with them); it is left as it is."""
    node = hub.cluster.node
    for task in [*node._tasks, *hub.cluster._tasks]:
        task.cancel()
    await asyncio.gather(*node._tasks, *hub.cluster._tasks, return_exceptions=True)
    node._tasks, hub.cluster._tasks = [], []
    for conn in (node.lock_conn, node.listen_conn):
        await conn.close()


async def test_a_table_line_said_while_nobody_owns_the_table_is_kept_for_its_next_owner(
        two_hubs, monkeypatch):
    a, b = two_hubs
    ann = await join(a, "key:ann", "ann")
    ben = await join(b, "key:ben", "ben")
    code = await share_table(ann, ben)  # a's table; ben sits there from b
    opened = asyncio.Event()  # b takes nothing over until the line is said
    orphans = b.cluster.node.orphans

    async def gated():
        await opened.wait()
        return await orphans()

    monkeypatch.setattr(b.cluster.node, "orphans", gated)
    await _die(a)
    await until_true(lambda: _unowned(b, code))
    ben.send(p.Say(text="anyone \x1b[31mthere?"))
    await chat(ben, code, lambda c: texts(c) == ["anyone there?"])

    async def kept() -> bool:
        stored = await b.cluster.store.fetch(code)
        return stored.league is not None and [x.text for x in stored.league.chat] == [
            "anyone there?"]

    await until_true(kept)  # in the table's row, kept by b, which does not own it
    assert code not in b.cluster.node.owned
    opened.set()
    await until_true(lambda: _owned_by(b, code))  # b takes the table over: the line is there
    assert [x.text for x in b.tables[code].league.chat] == ["anyone there?"]
    ben.send(p.Say(text="still here"))  # (and b, its owner now, keeps the next line)
    await chat(ben, code, lambda c: texts(c) == ["anyone there?", "still here"])
    await until_true(lambda: _stored_chat_is(b, code, ["anyone there?", "still here"]))
    await ben.close()


async def _unowned(hub: ClusterHub, code: str) -> bool:
    return await hub.cluster.node._unheld([code]) == [code]


async def _owned_by(hub: ClusterHub, code: str) -> bool:
    table = hub.tables.get(code)
    return table is not None and not hub.cluster.is_replica(table)


async def _stored_chat_is(hub: ClusterHub, code: str, lines: list[str]) -> bool:
    stored = await hub.cluster.store.fetch(code)
    return [x.text for x in stored.league.chat] == lines


async def test_a_line_is_written_into_a_tables_row_only_while_nobody_owns_it(pg_url):
    store = await PostgresTableStore.open(pg_url, origin="b")
    try:
        await store.save(a_table(version=1))
        line = ChatLine(5.0, 0, "ben", "hi")
        with psycopg.connect(pg_url, autocommit=True) as owner:  # a server owns the table
            owner.execute("SELECT pg_advisory_lock(%s, %s)",
                          (LOCK_SPACE_TABLE, code_number("ABCD")))
            assert not await store.keep_unowned_line("ABCD", line, "b")
            assert (await store.fetch("ABCD")).version == 1  # (its owner keeps the line)
            owner.execute("SELECT pg_advisory_unlock(%s, %s)",  # (gone: at once, unlike a
                          (LOCK_SPACE_TABLE, code_number("ABCD")))  # closed connection's)
        assert await store.keep_unowned_line("ABCD", line, "b")  # its owner is gone
        stored = await store.fetch("ABCD")
        assert stored.version == 2 and stored.league.chat == (line,)
        assert stored.record == a_table().record and stored.log == a_table().log
        assert await store.keep_unowned_line("ABCD", line, "b")  # (told twice: kept once)
        assert (await store.fetch("ABCD")).version == 2
        assert not await store.keep_unowned_line("ZZZZ", line, "b")  # no such table
    finally:
        await store.close()


async def test_a_line_heard_while_a_table_is_being_taken_over_is_kept_once_it_is(
        two_hubs, monkeypatch):
    """The saying server found the table's lock held (this server had just taken it), so only
    the announcement carries the line: this server keeps it once its copy is set up."""
    a, b = two_hubs
    ann = await join(a, "key:ann", "ann")
    ben = await join(b, "key:ben", "ben")
    code = await share_table(ann, ben)
    never = asyncio.Event()

    async def no_orphans():
        await never.wait()
        return []

    monkeypatch.setattr(b.cluster.node, "orphans", no_orphans)  # (b's take-over, by hand)
    await _die(a)
    await until_true(lambda: _unowned(b, code))
    assert await b.cluster.node.own(code)  # b holds the lock; its copy is still a replica
    line = ChatLine(9e9, 0, "cy", "just \x1b[2Jin time", None)
    b.cluster._heard_said(Said(where=code, server="c", line=line))
    b.cluster._set_up(await b.cluster.store.fetch(code), owner=True)
    await until_true(lambda: _stored_chat_is(b, code, ["just in time"]))
    await chat(ben, code, lambda c: texts(c) == ["just in time"])
    await ben.close()
