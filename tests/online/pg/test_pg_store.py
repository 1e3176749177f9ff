"""The PostgreSQL store beyond the common contract: its schema (numbered migrations applied once,
a newer one refused with nothing written), its notifications (a table's code and version, never
its state, and only for a save that happened), one-line errors for a wrong URL or a database
that is not there, and saves that work again by themselves after the database restarts."""

from __future__ import annotations

import asyncio

import psycopg
import pytest

from cellwars_tui.online.pg import schema
from cellwars_tui.online.pg.store import PostgresTableStore, TableSummary
from cellwars_tui.online.store import StaleTable, StoreError

from ..test_store_contract import a_table


async def test_the_schema_is_made_once_even_by_servers_starting_together(pg_url):
    stores = await asyncio.gather(*(PostgresTableStore.open(pg_url) for _ in range(3)))
    try:
        last = schema.SCHEMA_VERSION
        assert sorted(s.schema_was for s in stores) == [0, last, last]
        with psycopg.connect(pg_url) as conn:
            assert conn.execute("SELECT version FROM cellwars_schema").fetchall() == [(last,)]
    finally:
        for s in stores:
            await s.close()


async def test_a_database_made_at_an_older_schema_is_brought_up_to_date(pg_url):
    with psycopg.connect(pg_url, autocommit=True) as conn:  # as schema 1 left it
        with conn.transaction():
            conn.execute(schema.MIGRATIONS[0])
            conn.execute("CREATE TABLE cellwars_schema (version integer NOT NULL)")
            conn.execute("INSERT INTO cellwars_schema VALUES (1)")
    store = await PostgresTableStore.open(pg_url)
    try:
        assert store.schema_was == 1
        await store.save(a_table(version=1))
        assert await store.leaderboard("cellulis-bellum") is not None
    finally:
        await store.close()


async def test_a_schema_from_a_newer_cellwars_is_refused_in_one_line_and_left_alone(pg_url):
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE cellwars_schema (version integer NOT NULL)")
        conn.execute("INSERT INTO cellwars_schema VALUES (99)")
    with pytest.raises(StoreError) as caught:
        await PostgresTableStore.open(pg_url)
    assert "\n" not in str(caught.value)
    assert (f"version 99, newer than this cellwars knows ({schema.SCHEMA_VERSION}): upgrade "
            "cellwars") in str(caught.value)
    with psycopg.connect(pg_url) as conn:
        made = conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        assert [r[0] for r in made.fetchall()] == ["cellwars_schema"]  # nothing written
        assert conn.execute("SELECT version FROM cellwars_schema").fetchall() == [(99,)]


@pytest.mark.parametrize("url, says", [
    ("mysql://ann@host/db", "not a PostgreSQL URL"),
    ("postgresql://ann@127.0.0.1/db?nonsense=1", "not a PostgreSQL URL"),
    ("postgresql://postgres@/x?host=/nonexistent/dir", "cannot connect to the database"),
    ("postgresql://nobody@127.0.0.1:1/db", "cannot connect to the database"),
])
async def test_a_wrong_url_or_no_database_is_one_line(url, says):
    with pytest.raises(StoreError) as caught:
        await PostgresTableStore.open(url)
    assert says in str(caught.value) and "\n" not in str(caught.value)


async def test_a_save_is_announced_by_code_and_version_never_a_refused_one(pg_url):
    store = await PostgresTableStore.open(pg_url, origin="alpha")
    listener = await psycopg.AsyncConnection.connect(pg_url, autocommit=True)
    try:
        await listener.execute(f"LISTEN {schema.NOTIFY_CHANNEL}")
        await store.save(a_table(version=1))
        with pytest.raises(StaleTable):
            await store.save(a_table(version=1))
        await store.save(a_table(version=2))
        await store.delete("ABCD")
        heard = []
        async for note in listener.notifies(timeout=5, stop_after=3):
            heard.append(note.payload)
        assert heard == ["t ABCD 1 alpha", "t ABCD 2 alpha", "d ABCD 0 alpha"]
        with pytest.raises(StoreError, match="too long"):
            await store.notify("x" * 8000)
    finally:
        await listener.close()
        await store.close()


async def test_every_table_is_summed_up_for_the_lobby_without_its_game(pg_url):
    store = await PostgresTableStore.open(pg_url)
    try:
        await store.save(a_table("ABCD", version=1))
        await store.save(a_table("EFGH", version=4, status="open", record=b""))
        found = {s.code: s for s in await store.summaries()}
        assert found["EFGH"] == TableSummary(
            code="EFGH", game="toy-race", status="open", host_name="ann",
            host_identity="key:SHA256:ann", slots=a_table().slots, version=4)
        assert found["ABCD"].status == "playing" and await store.version("ABCD") == 1
    finally:
        await store.close()


def test_every_table_code_has_a_lock_number_of_its_own():
    from itertools import product

    from cellwars_tui.online.tables import CODE_ALPHABET

    numbers = {schema.code_number("".join(c)) for c in product(CODE_ALPHABET, repeat=3)}
    assert len(numbers) == len(CODE_ALPHABET) ** 3  # (a letter more is one more digit)
    assert 0 < schema.code_number("AAAA") < schema.code_number("ZZZZZZ") < 2**31
    assert schema.code_number("weird code") < 0


async def test_saves_fail_in_one_line_while_the_database_is_down_and_work_when_it_is_back(
        pg_server, pg_url):
    store = await PostgresTableStore.open(pg_url)
    try:
        await store.save(a_table(version=1))
        pg_server.stop()
        with pytest.raises(StoreError) as caught:
            await store.save(a_table(version=2))
        assert "\n" not in str(caught.value)
        pg_server.start()
        for _ in range(100):  # the pool reconnects by itself
            try:
                await store.save(a_table(version=2))
                break
            except StaleTable:
                raise
            except StoreError:
                await asyncio.sleep(0.1)
        assert (await store.fetch("ABCD")).version == 2
    finally:
        await store.close()


async def test_two_servers_rating_one_player_at_once_lose_no_update(pg_url):
    from ..test_league_store import ANN, BEN, CY, result

    one, two = await PostgresTableStore.open(pg_url), await PostgresTableStore.open(pg_url)
    try:
        for n in range(1, 6):  # ann plays ben on one server and cy on the other, at once
            await asyncio.gather(one.record_result(result(2 * n, ANN, BEN)),
                                 two.record_result(result(2 * n + 1, ANN, CY)))
        told = await asyncio.gather(one.record_result(result(99)), two.record_result(result(99)))
        assert sorted(r.new for r in told) == [False, True]  # one game told by both: kept once
        assert told[0].changes == told[1].changes
        held = await one.ratings_of("cellulis-bellum", [ANN, BEN, CY])
        assert (held[ANN].games, held[BEN].games, held[CY].games) == (11, 6, 5)
    finally:
        await one.close()
        await two.close()
