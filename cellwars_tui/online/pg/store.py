"""The table store in PostgreSQL, shared by any number of ``cellwars serve`` processes.

:class:`PostgresTableStore` implements the hub's :class:`~cellwars_tui.online.store.TableStore`
(the same contract tests run against it and the SQLite store) with psycopg 3's async driver and
a small connection pool, so no save ever holds up the hub's event loop.

A save is one statement, so one transaction: the table's row is written only if its stored
version is the one before the saved table's (``INSERT ... ON CONFLICT DO UPDATE ... WHERE
version = saved - 1``); of two servers saving the same table from the same version, exactly one
wins and the other gets :class:`~cellwars_tui.online.store.StaleTable` ("the table moved on").
The server that writes a table's version is its owner (only the owner saves): the row names it
(``owner``, for ``--status``). The same statement announces the new version with ``pg_notify`` (sent at commit, never for a save
that did not happen): ``t CODE VERSION SERVER`` on the ``cellwars`` channel. The state itself is
never in a notification (they are capped at 8,000 bytes); a server that wants it reads the row.

Besides the table (msgpack, as SQLite keeps it) a row holds the table's status and its lobby
summary (:class:`TableSummary`: seats and host, no game): every server lists every table from
those alone. Finished games, ratings and the lobby's chat are the league's part
(:mod:`.league`).

One write besides the owner's saves: :meth:`PostgresTableStore.keep_unowned_line`, a chat line
said at a table whose owner is gone (nobody has taken it over yet), written into the table's row
by the server where it was said, under the table's lock, so the server that takes the table over
finds it.
"""

from __future__ import annotations

import logging
from typing import Any

import msgspec

from ..chat import KEPT, ChatLine
from ..league import StoredLeague
from ..store import StaleTable, StoredSlot, StoredTable, StoreError, _decode, _encode
from .errors import one_line
from .league import PostgresLeague
from .schema import (
    LOCK_SPACE_TABLE, NOTIFY_CHANNEL, NOTIFY_MAX, NewerSchema, code_number, migrate,
)

log = logging.getLogger(__name__)

CONNECT_TIMEOUT = 5  # seconds to reach the database
POOL_TIMEOUT = 3.0  # seconds a save waits for a connection before the store counts as down


class TableSummary(msgspec.Struct, frozen=True, kw_only=True):
    """What the lobby shows of a table, kept beside it (no game, no log)."""

    code: str
    game: str
    status: str
    host_name: str = ""
    host_identity: str = ""
    slots: tuple[StoredSlot, ...] = ()
    version: int = 0


_encode_summary = msgspec.msgpack.Encoder().encode
_decode_summary = msgspec.msgpack.Decoder(TableSummary).decode


def summary_of(table: StoredTable) -> TableSummary:
    return TableSummary(code=table.code, game=table.game, status=table.status or "playing",
                        host_name=table.host_name, host_identity=table.host_identity,
                        slots=table.slots, version=table.version)


def check_url(url: str) -> dict[str, Any]:
    """The connection parameters of a ``postgresql://`` URL; StoreError (one line) for one
    that is not."""
    import psycopg

    if not url.startswith(("postgresql://", "postgres://")):
        raise StoreError("not a PostgreSQL URL (expected postgresql://USER@HOST/DATABASE)")
    try:
        return psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.Error as exc:
        raise StoreError(f"not a PostgreSQL URL: {one_line(exc)}") from None


def shown_url(url: str) -> str:
    """``url`` for a log or a message: without its password."""
    try:
        params = check_url(url)
    except StoreError:
        return "(not a PostgreSQL URL)"
    where = params.get("host") or "localhost"
    if "/" in where:
        where = "socket " + where
    port = f":{params['port']}" if params.get("port") else ""
    return f"postgresql://{params.get('user', '')}@{where}{port}/{params.get('dbname', '')}"


def needs_psycopg() -> None:
    """StoreError (one line) when the PostgreSQL driver is not installed."""
    try:
        import psycopg  # noqa: F401
        import psycopg_pool  # noqa: F401
    except ImportError:
        raise StoreError("the PostgreSQL store needs psycopg: pip install "
                         "'cellwars-tui[postgres]'") from None


async def connect(url: str, **kwargs: Any) -> Any:
    """One async connection (autocommit); StoreError (one line) if it cannot be made."""
    needs_psycopg()
    import psycopg

    check_url(url)
    try:
        return await psycopg.AsyncConnection.connect(
            url, autocommit=True, connect_timeout=CONNECT_TIMEOUT, **kwargs)
    except psycopg.Error as exc:
        raise StoreError(f"cannot connect to the database: {one_line(exc)}") from None


_SAVE = f"""
WITH up AS (
    INSERT INTO cellwars_tables AS t (code, version, status, data, summary, updated, owner)
    VALUES (%(code)s, %(version)s, %(status)s, %(data)s, %(summary)s, now(), %(origin)s)
    ON CONFLICT (code) DO UPDATE SET version = EXCLUDED.version, status = EXCLUDED.status,
        data = EXCLUDED.data, summary = EXCLUDED.summary, updated = now(), owner = EXCLUDED.owner
    WHERE t.version = EXCLUDED.version - 1
    RETURNING t.code, t.version)
SELECT version, pg_notify('{NOTIFY_CHANNEL}', 't ' || code || ' ' || version || ' ' || %(origin)s)
FROM up
"""


def _decode_rows(rows: Any) -> tuple[list[StoredTable], list[str]]:
    """Stored tables from (code, data, version) rows (the version column wins), and a line for
    each one that cannot be read."""
    tables: list[StoredTable] = []
    problems: list[str] = []
    for code, data, version in rows:
        try:
            tables.append(msgspec.structs.replace(_decode(bytes(data)), version=version))
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            problems.append(f"table {code}: not a stored table ({exc})")
    return tables, problems


class PostgresTableStore(PostgresLeague):
    """The tables in a PostgreSQL database (see the module's docstring). Made by :meth:`open`."""

    def __init__(self, url: str, pool: Any, *, origin: str = "") -> None:
        self.url = url
        self.pool = pool
        self.origin = origin[:64] or "-"  # this server's name, in its notifications
        self.schema_was = 0

    @classmethod
    async def open(cls, url: str, *, origin: str = "", max_size: int = 4) -> PostgresTableStore:
        """Reach the database, bring its schema up to date (or refuse a newer one), and open
        the pool; StoreError (one line) for a wrong URL, a refused connection, a newer schema."""
        needs_psycopg()
        import psycopg
        from psycopg_pool import AsyncConnectionPool

        conn = await connect(url)
        try:
            was = await migrate(conn)
        except NewerSchema as exc:
            raise StoreError(str(exc)) from None
        except psycopg.Error as exc:
            raise StoreError(f"the database refused the schema: {one_line(exc)}") from None
        finally:
            await conn.close()
        pool = AsyncConnectionPool(
            url, kwargs={"autocommit": True, "connect_timeout": CONNECT_TIMEOUT}, min_size=1,
            max_size=max_size, open=False, timeout=POOL_TIMEOUT, reconnect_timeout=3600 * 24,
            check=AsyncConnectionPool.check_connection, name="cellwars-store")
        try:
            await pool.open(wait=True, timeout=CONNECT_TIMEOUT * 2)
        except Exception as exc:  # noqa: BLE001 - PoolTimeout and friends
            await pool.close()
            raise StoreError(f"cannot connect to the database: {one_line(exc)}") from None
        store = cls(url, pool, origin=origin)
        store.schema_was = was
        return store

    async def _query(self, sql: str, params: Any = None) -> list[tuple[Any, ...]]:
        import psycopg
        from psycopg_pool import PoolTimeout

        try:
            async with self.pool.connection() as conn:
                cur = await conn.execute(sql, params)
                return await cur.fetchall() if cur.description is not None else []
        except PoolTimeout:
            raise StoreError("the database cannot be reached") from None
        except psycopg.Error as exc:
            raise StoreError(f"the database: {one_line(exc)}") from None

    # -- the TableStore contract --------------------------------------------------------------
    async def load(self) -> tuple[list[StoredTable], list[str]]:
        try:
            rows = await self._query(
                "SELECT code, data, version FROM cellwars_tables ORDER BY updated")
        except StoreError as exc:
            return [], [f"the table store cannot be read: {exc}"]
        return _decode_rows(rows)

    async def save(self, table: StoredTable) -> None:
        params = dict(code=table.code, version=table.version, status=table.status or "playing",
                      data=_encode(table), summary=_encode_summary(summary_of(table)),
                      origin=self.origin)
        rows = await self._query(_SAVE, params)
        if not rows:
            raise StaleTable(f"table {table.code} moved on (not at version {table.version - 1})")

    async def fetch(self, code: str) -> StoredTable | None:
        rows = await self._query(
            "SELECT code, data, version FROM cellwars_tables WHERE code = %s", (code,))
        tables, problems = _decode_rows(rows)
        for problem in problems:
            log.warning("table store: %s", problem)
        return tables[0] if tables else None

    async def delete(self, code: str) -> None:
        await self._query(
            f"WITH gone AS (DELETE FROM cellwars_tables WHERE code = %s RETURNING code) "
            f"SELECT pg_notify('{NOTIFY_CHANNEL}', 'd ' || code || ' 0 ' || %s) FROM gone",
            (code, self.origin))

    async def close(self) -> None:
        await self.pool.close()

    # -- beyond the contract: what servers sharing the store need ------------------------------
    async def summaries(self) -> list[TableSummary]:
        """Every table's lobby summary (with its version)."""
        rows = await self._query("SELECT summary, version FROM cellwars_tables")
        out = []
        for data, version in rows:
            try:
                out.append(msgspec.structs.replace(_decode_summary(bytes(data)), version=version))
            except (msgspec.DecodeError, msgspec.ValidationError):
                continue
        return out

    async def summary(self, code: str) -> TableSummary | None:
        """One table's lobby summary (None: no such table, or one this build cannot read)."""
        rows = await self._query(
            "SELECT summary, version FROM cellwars_tables WHERE code = %s", (code,))
        for data, version in rows:
            try:
                return msgspec.structs.replace(_decode_summary(bytes(data)), version=version)
            except (msgspec.DecodeError, msgspec.ValidationError):
                return None
        return None

    async def version(self, code: str) -> int | None:
        rows = await self._query("SELECT version FROM cellwars_tables WHERE code = %s", (code,))
        return rows[0][0] if rows else None

    async def notify(self, payload: str) -> None:
        """Announce ``payload`` to every server (at most NOTIFY_MAX bytes: longer is refused)."""
        if len(payload.encode()) > NOTIFY_MAX:
            raise StoreError(f"a notification of {len(payload.encode())} bytes is too long")
        await self._query("SELECT pg_notify(%s, %s)", (NOTIFY_CHANNEL, payload))

    async def keep_unowned_line(self, code: str, line: ChatLine, origin: str) -> bool:
        """Keep ``line`` with table ``code``'s chat if no server owns the table now (True), in
        one transaction: the table's row locked, its owner's advisory lock taken for the
        transaction only (so no server can take the table over meanwhile, and none owns it:
        False, nothing written, when one does; its owner keeps the line), the line added to the
        stored chat (its last :data:`~.chat.KEPT` lines) at the next version, announced as any
        save is (``t CODE VERSION ORIGIN``)."""
        import psycopg
        from psycopg_pool import PoolTimeout

        try:
            async with self.pool.connection() as conn, conn.transaction():
                cur = await conn.execute("SELECT data, version FROM cellwars_tables WHERE code = "
                                         "%s FOR UPDATE", (code,))
                row = await cur.fetchone()
                if row is None:
                    return False
                cur = await conn.execute("SELECT pg_try_advisory_xact_lock(%s, %s)",
                                         (LOCK_SPACE_TABLE, code_number(code)))
                if not (await cur.fetchone())[0]:
                    return False  # (owned: its owner keeps the line)
                try:
                    stored = _decode(bytes(row[0]))
                except (msgspec.DecodeError, msgspec.ValidationError):
                    return False
                league = stored.league or StoredLeague()
                if line in league.chat:
                    return True
                version = row[1] + 1
                table = msgspec.structs.replace(
                    stored, version=version, league=msgspec.structs.replace(
                        league, chat=(*league.chat, line)[-KEPT:]))
                await conn.execute(
                    "UPDATE cellwars_tables SET version = %s, data = %s, summary = %s, "
                    "updated = now() WHERE code = %s",
                    (version, _encode(table), _encode_summary(summary_of(table)), code))
                await conn.execute("SELECT pg_notify(%s, %s)", (
                    NOTIFY_CHANNEL, f"t {code} {version} {origin}"))
                return True
        except PoolTimeout:
            raise StoreError("the database cannot be reached") from None
        except psycopg.Error as exc:
            raise StoreError(f"the database: {one_line(exc)}") from None
