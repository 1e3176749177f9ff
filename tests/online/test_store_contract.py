"""The table store's contract: every store (SQLite, the embedded one; PostgreSQL, the shared one;
memory) keeps a table whole, by code, at a version, and refuses a save that is not the next
version of what it holds ("the table moved on"): of two servers saving one table at once,
exactly one wins. PostgreSQL is real (tests/postgres.py), never a stand-in."""

from __future__ import annotations

import asyncio
import inspect

import pytest

from cellwars_tui.online.pg.store import PostgresTableStore
from cellwars_tui.online.store import (
    MemoryTableStore, SqliteTableStore, StaleTable, StoredLine, StoredSlot, StoredTable,
)

# The embedded stores implement the async contract from the table-authority work on; until
# then only PostgreSQL is checked here.
KINDS = ["postgres"] + (["sqlite", "memory"]
                        if inspect.iscoroutinefunction(SqliteTableStore.save) else [])


def a_table(code: str = "ABCD", version: int = 1, **changes) -> StoredTable:
    fields = dict(
        code=code, game="toy-race", options={"players": 2}, think=1.0,
        host_identity="key:SHA256:ann", host_name="ann",
        slots=(StoredSlot(kind="human", identity="key:SHA256:ann", name="ann"),
               StoredSlot(kind="bot", name="Blue", bot="random")),
        record=b"\x93\x01\x02\x03", log=(StoredLine(0, None, "ann sits down"),
                                        StoredLine(1, 0, "", b"\x81")),
        clock_left=12.5, timer_round=2, paused_by="ann", active_at=1234.5,
        version=version, status="playing")
    fields.update(changes)
    return StoredTable(**fields)


@pytest.fixture(params=KINDS)
async def opener(request, tmp_path):
    """A function that opens a store: each call one more handle on the same storage (for
    PostgreSQL, another server's)."""
    kind = request.param
    opened = []

    async def open_store():
        if kind == "postgres":
            store = await PostgresTableStore.open(request.getfixturevalue("pg_url"),
                                                  origin=f"s{len(opened)}")
        elif kind == "sqlite":
            store = SqliteTableStore(tmp_path / "tables.sqlite3")
        else:
            store = opened[0] if opened else MemoryTableStore()
        if store not in opened:
            opened.append(store)
        return store

    yield open_store
    for store in opened:
        await store.close()


@pytest.fixture
async def store(opener):
    return await opener()


async def test_a_saved_table_is_fetched_and_loaded_whole(store):
    table = a_table()
    await store.save(table)
    assert await store.fetch("ABCD") == table
    tables, problems = await store.load()
    assert tables == [table] and problems == []
    assert await store.fetch("ZZZZ") is None


async def test_each_save_is_the_next_version_of_the_table(store):
    await store.save(a_table(version=1))
    await store.save(a_table(version=2, paused_by=""))
    assert (await store.fetch("ABCD")).version == 2
    for wrong in (2, 1, 4):  # again, back, ahead: the table moved on (or is not there yet)
        with pytest.raises(StaleTable, match="moved on"):
            await store.save(a_table(version=wrong, host_name="mallory"))
    kept = await store.fetch("ABCD")
    assert kept.version == 2 and kept.host_name == "ann" and kept.paused_by == ""


async def test_a_new_table_starts_at_any_version_and_tables_are_apart(store):
    await store.save(a_table("ABCD", version=7))
    await store.save(a_table("EFGH", version=1))
    tables, _ = await store.load()
    assert {(t.code, t.version) for t in tables} == {("ABCD", 7), ("EFGH", 1)}


async def test_a_deleted_table_is_gone_and_its_code_free(store):
    await store.save(a_table(version=3))
    await store.delete("ABCD")
    await store.delete("ABCD")  # (twice: nothing to delete, no error)
    assert await store.fetch("ABCD") is None
    assert (await store.load())[0] == []
    await store.save(a_table(version=1))
    assert (await store.fetch("ABCD")).version == 1


async def test_two_servers_saving_one_version_at_once_exactly_one_wins(opener):
    one, two = await opener(), await opener()
    await one.save(a_table(version=1))
    for version in range(2, 12):
        results = await asyncio.gather(
            one.save(a_table(version=version, host_name="one")),
            two.save(a_table(version=version, host_name="two")),
            return_exceptions=True)
        lost = [r for r in results if isinstance(r, StaleTable)]
        assert len(lost) == 1 and results.count(None) == 1, results
        winner = "one" if results[0] is None else "two"
        stored = await two.fetch("ABCD")
        assert (stored.version, stored.host_name) == (version, winner)
