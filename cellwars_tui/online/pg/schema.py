"""The PostgreSQL store's schema: numbered migrations, applied once, in order, under a lock.

``cellwars_schema`` holds one number, the last migration applied. A server that starts takes a
transaction-level advisory lock (so servers starting together migrate one after another, and the
second finds nothing to do), reads the number and applies the missing migrations in the same
transaction: all of them or none. A database whose number is higher than this build knows was
made by a newer cellwars: the server refuses to start (one line) and writes nothing.

Migrations are only ever added at the end; a released one is never edited.
"""

from __future__ import annotations

from typing import Any

# Advisory lock keys: (namespace, number). One namespace per kind of thing locked.
LOCK_SPACE_SCHEMA = 0x4357_0001  # (space, 0): migrations
LOCK_SPACE_TABLE = 0x4357_0002  # (space, code number): the owner of a table
LOCK_SPACE_SERVER = 0x4357_0003  # (space, hashtext(name)): a server's name
LOCK_SPACE_RATING = 0x4357_0004  # (space, hashtext(game, identity)): a rating being updated

NOTIFY_CHANNEL = "cellwars"
NOTIFY_MAX = 7999  # bytes: PostgreSQL refuses a payload of 8,000 bytes or more

MIGRATIONS: tuple[str, ...] = (
    # 1: tables (the hub's StoredTable as msgpack, its version, status and lobby summary),
    #    servers (alive, heartbeats by the database's clock), presence (who is connected where)
    #    and files (finished games' records, players' files: no server's disk holds them)
    """
    CREATE TABLE cellwars_tables (
        code text PRIMARY KEY,
        version bigint NOT NULL,
        status text NOT NULL DEFAULT '',
        data bytea NOT NULL,
        summary bytea NOT NULL,
        owner text NOT NULL DEFAULT '',
        updated timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX cellwars_tables_status ON cellwars_tables (status);
    CREATE TABLE cellwars_servers (
        name text PRIMARY KEY,
        host text NOT NULL,
        pid integer NOT NULL,
        backend integer NOT NULL,
        started timestamptz NOT NULL DEFAULT now(),
        beat timestamptz NOT NULL DEFAULT now(),
        players integer NOT NULL DEFAULT 0
    );
    CREATE TABLE cellwars_presence (
        server text NOT NULL,
        identity text NOT NULL,
        name text NOT NULL,
        PRIMARY KEY (server, identity)
    );
    CREATE TABLE cellwars_files (
        path text PRIMARY KEY,
        data bytea NOT NULL,
        updated timestamptz NOT NULL DEFAULT now()
    );
    """,
    # 2: settings (what every server must agree on: its host key, its guests' secret), and the
    #    league (:mod:`.league`): finished games, who sat where, ratings
    """
    CREATE TABLE cellwars_settings (
        key text PRIMARY KEY,
        value text NOT NULL
    );
    CREATE TABLE cellwars_results (
        game_id text PRIMARY KEY,
        game text NOT NULL,
        finished double precision NOT NULL,
        rated boolean NOT NULL,
        data bytea NOT NULL,
        line bytea NOT NULL,
        changes bytea NOT NULL
    );
    CREATE TABLE cellwars_result_seats (
        game_id text NOT NULL REFERENCES cellwars_results ON DELETE CASCADE,
        seat integer NOT NULL,
        identity text NOT NULL,
        finished double precision NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX cellwars_result_seats_by_player ON cellwars_result_seats (identity, finished);
    CREATE TABLE cellwars_ratings (
        game text NOT NULL,
        identity text NOT NULL,
        name text NOT NULL,
        mu double precision NOT NULL,
        sigma double precision NOT NULL,
        games integer NOT NULL,
        PRIMARY KEY (game, identity)
    );
    CREATE INDEX cellwars_ratings_board ON cellwars_ratings (game, mu DESC);
    CREATE INDEX cellwars_ratings_by_player ON cellwars_ratings (identity);
    """,
    # 3: the lobby's chat (its last lines: each line kept prunes the older ones) and the names
    #    each keyed player mutes (:mod:`.league`)
    """
    CREATE TABLE cellwars_lobby_chat (
        id bigserial PRIMARY KEY,
        line bytea NOT NULL
    );
    CREATE TABLE cellwars_mutes (
        identity text NOT NULL,
        muted text NOT NULL,
        PRIMARY KEY (identity, muted)
    );
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


class NewerSchema(Exception):
    """The database was made by a newer cellwars."""


async def migrate(conn: Any) -> int:
    """Bring the database's schema up to :data:`SCHEMA_VERSION` (``conn``: an async psycopg
    connection, not in a transaction); the version it was at. NewerSchema (and nothing
    written) if its version is higher."""
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock(%s, 0)", (LOCK_SPACE_SCHEMA,))
        cur = await conn.execute("SELECT to_regclass('cellwars_schema') IS NOT NULL")
        row = await cur.fetchone()
        found = 0
        if row and row[0]:
            cur = await conn.execute("SELECT max(version) FROM cellwars_schema")
            row = await cur.fetchone()
            found = int(row[0] or 0) if row else 0
        if found > SCHEMA_VERSION:
            raise NewerSchema(f"the database's cellwars schema is version {found}, newer than "
                              f"this cellwars knows ({SCHEMA_VERSION}): upgrade cellwars")
        if found == SCHEMA_VERSION:
            return found
        if found == 0:
            await conn.execute("CREATE TABLE IF NOT EXISTS cellwars_schema "
                               "(version integer NOT NULL)")
        for number in range(found + 1, SCHEMA_VERSION + 1):
            await conn.execute(MIGRATIONS[number - 1])
        await conn.execute("DELETE FROM cellwars_schema")
        await conn.execute("INSERT INTO cellwars_schema (version) VALUES (%s)", (SCHEMA_VERSION,))
        return found


def code_number(code: str) -> int:
    """A table code as the number of its advisory lock: exact (no two codes share one) for the
    hub's codes, a hash of the text for anything else."""
    from ..tables import CODE_ALPHABET

    if code and len(code) <= 6 and all(ch in CODE_ALPHABET for ch in code):
        n = 0
        for ch in code:
            n = n * len(CODE_ALPHABET) + CODE_ALPHABET.index(ch) + 1
        return n
    import zlib

    return -(zlib.crc32(code.encode()) & 0x7FFF_FFFF) - 1  # negative: never a hub code's
