"""The chat the store keeps beyond the tables (online/league*.py, online/pg/league.py): the lobby's
last lines and each player's mutes. One contract for the SQLite store, the memory store and the
PostgreSQL store (a real one, tests/postgres.py): what one handle keeps, another handle on the same
storage (a restarted server, another server) reads; the lobby keeps only its last lines; a
stored line is cleaned again when read."""

from __future__ import annotations

import pytest

from cellwars_tui.online.chat import KEPT, ChatLine, kept_line
from cellwars_tui.online.store import MemoryTableStore, SqliteTableStore


@pytest.fixture(params=["sqlite", "memory", "postgres"])
async def two_handles(request, tmp_path):
    """Two stores on one storage: (the first server's, the one started later)."""
    kind = request.param
    if kind == "postgres":
        from cellwars_tui.online.pg.store import PostgresTableStore

        url = request.getfixturevalue("pg_url")
        stores = [await PostgresTableStore.open(url), await PostgresTableStore.open(url)]
    elif kind == "sqlite":
        stores = [SqliteTableStore(tmp_path / "tables.sqlite3"),
                  SqliteTableStore(tmp_path / "tables.sqlite3")]
    else:
        one = MemoryTableStore()
        stores = [one, one]
    yield stores
    for store in {id(s): s for s in stores}.values():
        await store.close()


def line(n: int, text: str = "") -> ChatLine:
    return ChatLine(1000.0 + n, 0, "ann", text or f"line {n}")


async def test_the_lobby_keeps_its_last_lines_for_a_server_started_later(two_handles):
    first, later = two_handles
    assert await later.lobby_lines() == ()
    for n in range(KEPT + 5):  # the oldest five are pruned as the newest come
        await first.keep_lobby_line(line(n))
    kept = await later.lobby_lines()
    assert [x.text for x in kept] == [f"line {n}" for n in range(5, KEPT + 5)]
    await later.keep_lobby_line(line(999, "from the other"))
    assert (await first.lobby_lines())[-1].text == "from the other"
    assert len(await first.lobby_lines()) == KEPT
    raw = ChatLine(2e3, 0, "ev\x1b]0;x\x07il", "hi \x1b[2J\x00there" + "y" * 300)
    await first.keep_lobby_line(raw)  # (as a hostile program with the store's password may)
    stored = (await later.lobby_lines())[-1]
    shown = kept_line(stored)  # (what every reader of the store shows)
    assert shown.name == "evil" and shown.text.startswith("hi there") and len(shown.text) == 200
    assert kept_line(ChatLine(1.0, 0, "ann", "\x1b[31m\x00")) is None  # nothing left: not shown


async def test_a_players_mutes_are_kept_for_them_alone(two_handles):
    first, later = two_handles
    await first.set_mute("key:ann", "ben", True)
    await first.set_mute("key:ann", "cy", True)
    await first.set_mute("key:ann", "cy", True)  # (twice: once)
    await first.set_mute("key:ben", "ann", True)
    assert await later.mutes_of("key:ann") == ("ben", "cy")
    await later.set_mute("key:ann", "ben", False)
    await later.set_mute("key:ann", "nobody", False)  # (not muted: nothing changes)
    assert await first.mutes_of("key:ann") == ("cy",)
    assert await first.mutes_of("key:ben") == ("ann",)
    assert await first.mutes_of("key:cy") == ()
