"""The online tables' store: every table of the hub, written after every action and read back
when the server starts, so a restart (even ``kill -9``) loses no table and no move.

The hub sees one small interface, :class:`TableStore`, asynchronous so that no store ever holds
up the hub's event loop: ``load()`` every table, ``save(table)`` one (all of it, at once: a reader
sees the table before the action or after it, never half), ``fetch(code)`` one (a table brought
back into memory), ``delete(code)`` and ``close()``. Only the hub deletes a table, and it logs
why (:meth:`.hub.Hub.sweep`).
:class:`SqliteTableStore` keeps them in one SQLite file in the server's data dir (the standard
library's, made for exactly this: one transaction per save, a crash mid-write leaves the previous
save), written by one thread of its own. Another store (a database several servers share)
implements the same methods and passes the same contract tests.

The store also keeps finished games and the players' ratings (:class:`~.league.LeagueStore`,
:mod:`.league_sqlite`): a game's result and its rating update in one transaction.

Versions. Every save of a table is its next version (:attr:`StoredTable.version`); a store keeps
a table only over the version just before it (checked in the same transaction) and refuses
another with :class:`StaleTable` ("the table moved on"): of two servers saving the same table
from the same version, exactly one wins. One table's saves are made in order by its saver
(:mod:`.saving`), which counts the versions.

A table is stored as one value, :class:`StoredTable` (msgpack): its seats and their identities,
options, host, the game so far as a sealed record (:mod:`cellwars_tui.record.format`), its log,
and a real-time game's clock. New fields get defaults; a field never changes type.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as _dt
import logging
import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, TypeVar

import msgspec

from .league import LeagueStore, StoredLeague
from .league_sqlite import MemoryLeague, SqliteLeague, create_league_tables
from .store_errors import StoreError

log = logging.getLogger(__name__)
T = TypeVar("T")

STORE_NAME = "tables.sqlite3"
SCHEMA_VERSION = 4  # 4: lobby chat, mutes; 3: finished games, ratings (league_sqlite);
# 2: tables' versions


class StaleTable(StoreError):
    """The stored table is not at the version just before the one saved: it moved on."""


class StoredSlot(msgspec.Struct, frozen=True, kw_only=True):
    kind: str = "free"  # "free" | "human" | "bot"
    identity: str = ""  # "key:SHA256:..." or a guest's "guest:<digest of the reconnect code>"
    name: str = ""
    bot: str = ""


class StoredLine(msgspec.Struct, frozen=True, array_like=True):
    """One line of a table's log: a sentence, or a game event (msgpack) told to each seat as it
    may read it."""

    step: int
    seat: int | None
    text: str = ""
    event: bytes = b""


class StoredTable(msgspec.Struct, frozen=True, kw_only=True):
    code: str
    game: str
    options: dict[str, Any]
    think: float
    host_identity: str
    host_name: str
    slots: tuple[StoredSlot, ...]
    record: bytes = b""  # the game so far: a sealed record (empty before the start)
    record_name: str = ""  # the finished game's record file, in the hub's tables folder
    log: tuple[StoredLine, ...] = ()
    clock_left: float = -1.0  # a real-time game's seconds left in its round (-1: no timer)
    timer_round: int | None = None  # the round that clock counts down
    paused_by: str = ""
    saved_for_players: bool = False
    active_at: float = 0.0  # when its last action was saved (seconds since the epoch; 0: unknown)
    version: int = 0  # the table's saves so far (this one included); the store's column wins
    status: str = ""  # "open" | "playing" | "over" ("": stored before it was kept)
    league: StoredLeague | None = None  # rated or not, chat, result kept (hub_league.py)


_encode = msgspec.msgpack.Encoder().encode
_decode = msgspec.msgpack.Decoder(StoredTable).decode


class TableStore(LeagueStore, Protocol):
    """Where the hub keeps its tables between runs (every method off the hub's event loop), and
    the results and ratings of their finished games (:class:`~.league.LeagueStore`)."""

    async def load(self) -> tuple[list[StoredTable], list[str]]:
        """Every stored table, and one line for each one that could not be read."""
        ...

    async def save(self, table: StoredTable) -> None:
        """Keep ``table`` (replacing what was stored under its code), all at once, if the
        stored table is at ``table.version - 1`` (or none is stored); StaleTable if it moved
        on, StoreError if it could not be kept."""
        ...

    async def fetch(self, code: str) -> StoredTable | None:
        """The table stored under ``code`` (None: none is, or it cannot be read); StoreError if
        the store cannot be read at all."""
        ...

    async def delete(self, code: str) -> None: ...

    async def close(self) -> None: ...


def check_version(code: str, stored: int | None, table: StoredTable) -> None:
    """StaleTable unless the stored version (None: none stored) is the one before ``table``'s."""
    if stored is not None and stored != table.version - 1:
        raise StaleTable(f"table {code} moved on (version {stored}, not {table.version - 1})")


class MemoryTableStore(MemoryLeague):
    """A store that keeps nothing past the process (tests; a hub that needs no restarts)."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, bytes] = {}
        self.versions: dict[str, int] = {}

    async def load(self) -> tuple[list[StoredTable], list[str]]:
        return _decode_rows((code, data, self.versions.get(code, 0))
                            for code, data in self.tables.items())

    async def save(self, table: StoredTable) -> None:
        check_version(table.code, self.versions.get(table.code), table)
        self.tables[table.code] = _encode(table)
        self.versions[table.code] = table.version

    async def fetch(self, code: str) -> StoredTable | None:
        rows = [(code, self.tables[code], self.versions.get(code, 0))] if code in self.tables else []
        tables, _ = _decode_rows(rows)
        return tables[0] if tables else None

    async def delete(self, code: str) -> None:
        self.tables.pop(code, None)
        self.versions.pop(code, None)

    async def close(self) -> None:
        pass


class SqliteTableStore(SqliteLeague):
    """The tables in one SQLite file (``tables.sqlite3`` in the server's data dir), written by a
    thread of its own (one writer: SQLite's own rule), never on the caller's event loop."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cellwars-store")
        try:
            self.db = self._open()
        except sqlite3.DatabaseError as exc:  # not a database, or damaged beyond opening
            aside = self.path.with_name(
                f"{self.path.name}.damaged-{_dt.datetime.now():%Y%m%d-%H%M%S}")
            log.warning("the table store %s cannot be read (%s); it is kept as %s and a new "
                        "one is started", self.path, exc, aside.name)
            with contextlib.suppress(OSError):
                self.path.rename(aside)
            for suffix in ("-wal", "-shm"):
                with contextlib.suppress(OSError):
                    self.path.with_name(self.path.name + suffix).unlink()
            self.db = self._open()

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA journal_mode=WAL")  # a save is one append; readers never block
            db.execute("PRAGMA synchronous=FULL")  # each save is on disk when it returns
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise sqlite3.DatabaseError(f"made by a newer cellwars (schema {version})")
            db.execute("BEGIN IMMEDIATE")  # the schema changes once, whoever opens the file
            db.execute("CREATE TABLE IF NOT EXISTS tables (code TEXT PRIMARY KEY, "
                       "data BLOB NOT NULL, updated REAL NOT NULL, "
                       "version INTEGER NOT NULL DEFAULT 0)")
            columns = {row[1] for row in db.execute("PRAGMA table_info(tables)")}
            if "version" not in columns:  # (made before versions: every table at version 0)
                db.execute("ALTER TABLE tables ADD COLUMN version INTEGER NOT NULL DEFAULT 0")
            create_league_tables(db)  # finished games, ratings (3), lobby chat, mutes (4)
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            db.execute("COMMIT")
        except BaseException:
            db.close()
            raise
        return db

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn`` on the store's own thread (every statement of the file is made there)."""
        return await asyncio.get_running_loop().run_in_executor(self._thread, fn, *args)

    async def load(self) -> tuple[list[StoredTable], list[str]]:
        return await self._run(self.load_now)

    def load_now(self) -> tuple[list[StoredTable], list[str]]:
        try:
            rows = self.db.execute(
                "SELECT code, data, version FROM tables ORDER BY updated").fetchall()
        except sqlite3.Error as exc:
            return [], [f"the table store {self.path.name} cannot be read: {exc}"]
        return _decode_rows(rows)

    async def save(self, table: StoredTable) -> None:
        await self._run(self.save_now, table)

    def save_now(self, table: StoredTable) -> None:
        """``save`` on this thread (the store's own thread runs it; tests and tools too)."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                row = self.db.execute("SELECT version FROM tables WHERE code = ?",
                                      (table.code,)).fetchone()
                check_version(table.code, row[0] if row else None, table)
                self.db.execute("INSERT OR REPLACE INTO tables (code, data, updated, version) "
                                "VALUES (?, ?, ?, ?)",
                                (table.code, _encode(table), time.time(), table.version))
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise StoreError(str(exc)) from None

    async def fetch(self, code: str) -> StoredTable | None:
        return await self._run(self.fetch_now, code)

    def fetch_now(self, code: str) -> StoredTable | None:
        try:
            rows = self.db.execute("SELECT code, data, version FROM tables WHERE code = ?",
                                   (code,)).fetchall()
        except sqlite3.Error as exc:
            raise StoreError(str(exc)) from None
        tables, problems = _decode_rows(rows)
        for problem in problems:
            log.warning("table store: %s", problem)
        return tables[0] if tables else None

    async def delete(self, code: str) -> None:
        await self._run(self._delete, code)

    def _delete(self, code: str) -> None:
        try:
            self.db.execute("DELETE FROM tables WHERE code = ?", (code,))
        except sqlite3.Error as exc:
            raise StoreError(str(exc)) from None

    async def close(self) -> None:
        with contextlib.suppress(RuntimeError):
            await self._run(self._close)
        self._thread.shutdown(wait=True)

    def _close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self.db.close()


def _decode_rows(rows: Any) -> tuple[list[StoredTable], list[str]]:
    tables: list[StoredTable] = []
    problems: list[str] = []
    for code, data, version in rows:
        try:
            tables.append(msgspec.structs.replace(_decode(data), version=version))
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            problems.append(f"table {code}: not a stored table ({exc})")
    return tables, problems
