"""This server's place among the servers sharing one PostgreSQL: its name, its heartbeat, who is
connected where, which tables it owns, and what the others announce.

Ownership. Exactly one server runs a table's clock and bots: the one holding the table's
session-level advisory lock (``pg_try_advisory_lock``) on its long-lived *lock connection*. The
lock ends with that connection, so a server that dies (``kill -9``, a crash, a lost network)
gives its tables up by itself the moment the database sees its connection close; the others
look for tables with no owner every ``ORPHAN_INTERVAL`` and take them over.

Defined outcomes (each has a test in ``tests/online/pg``):

* **Two servers with one name**: the name is an advisory lock too; the second one refuses to
  start (one line: who holds the name) until the first is gone.
* **A server's clock jumps**: nothing changes. Heartbeats are stamped and compared with the
  database's clock (``now()``), never a server's; timers between checks are monotonic.
* **An owner alive but stalled** (its loop stuck, the process stopped: its connection open, its
  locks held, no heartbeat for ``STALL_SECONDS``): another server ends the stalled one's lock
  connection (``pg_terminate_backend``), which frees its tables, and takes them over. When the
  stalled server runs again it finds its connection gone: it drops everything it owned (its
  clocks and bots stop), joins again under its name, and its saves from before are refused by
  the tables' versions (a table moved on), so it can never overwrite the new owner's moves.
* **The database goes away**: every server's lock connection ends, so nobody owns anything;
  each server keeps trying to reconnect and, once back, takes its tables again.

Notifications (channel ``cellwars``, each under 8,000 bytes, never a table's state):
``t CODE VERSION SERVER`` a table was saved, ``d CODE 0 SERVER`` deleted, ``p SERVER + IDENTITY
NAME`` / ``p SERVER - IDENTITY`` a player connected to or left a server, ``s SERVER gone`` a server
is gone (its players with it); ``c ...`` a real-time table's round clock, ``k CODE SERVER`` a
server asks for it (:mod:`.replica_clock`); ``q``/``r`` requests for a table's owner and answers; ``h`` a chat line; ``w SERVER CODE...``
tables a server shows to someone (their owners' sweeps count them as watched).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..store import StoreError
from .status import ServerStatus
from .schema import LOCK_SPACE_SERVER, LOCK_SPACE_TABLE, NOTIFY_CHANNEL, NOTIFY_MAX, code_number
from .errors import one_line
from .store import connect

log = logging.getLogger(__name__)

BEAT_SECONDS = 1.0  # a heartbeat this often
STALL_SECONDS = 15.0  # no heartbeat for this long (database clock): the server is stalled
ORPHAN_INTERVAL = 1.0  # look for tables with no owner this often
RECONNECT_MAX = 5.0
LOG_EVERY = 60.0  # seconds between the status lines in the server's log


class ClusterError(StoreError):
    """This server cannot join the others (one line)."""


@dataclass
class Note:
    """One announcement from a server (see the module's docstring)."""

    kind: str  # "t" | "d" | "p" | "s" | "q" | "r" | "c" | "k" | "h" | "w" (see .cluster: ``code`` holds the payload)
    server: str
    code: str = ""
    version: int = 0
    identity: str = ""
    name: str = ""
    online: bool = False


def parse_note(payload: str) -> Note | None:
    parts = payload.split(" ", 4)
    if parts[0] in ("q", "r", "c", "h") and len(parts) == 2:  # a request for a table's owner, an
        return Note(parts[0], server="", code=parts[1])  # answer, a round clock (.cluster)
    if parts[0] == "w" and len(parts) >= 3:  # tables a server shows to someone now
        return Note("w", server=parts[1], code=" ".join(parts[2:]))
    if parts[0] == "k" and len(parts) == 3:  # a server asks a table's owner for its clock
        return Note("k", server=parts[2], code=parts[1])
    try:
        if parts[0] in ("t", "d"):
            return Note(parts[0], server=parts[3], code=parts[1], version=int(parts[2]))
        if parts[0] == "p":
            online = parts[2] == "+"
            return Note("p", server=parts[1], identity=parts[3], online=online,
                        name=parts[4] if online and len(parts) > 4 else "")
        if parts[0] == "s":
            return Note("s", server=parts[1])
    except (IndexError, ValueError):
        pass
    return None


class ClusterNode:
    """This server in the cluster (see the module's docstring)."""

    def __init__(self, url: str, name: str, *, on_note: Callable[[Note], None] = lambda n: None,
                 on_lost: Callable[[], None] = lambda: None,
                 on_back: Callable[[], None] = lambda: None) -> None:
        self.url = url
        self.name = name[:64]
        self.on_note = on_note  # an announcement from any server (this one's too)
        self.on_lost = on_lost  # the lock connection is gone: nothing is owned any more
        self.on_back = on_back  # joined again after a loss: announcements may have been missed
        self.on_listening_again: Callable[[], None] = lambda: None  # (the same, for listening)
        self.beat_seconds = BEAT_SECONDS
        self.stall_seconds = STALL_SECONDS
        self.owned: set[str] = set()
        self.players = 0
        self.lock_conn: Any = None
        self.listen_conn: Any = None
        self.connected = False
        self._tasks: list[asyncio.Task[None]] = []
        self._closing = False
        self.stalled_ended: list[str] = []  # servers this one found stalled and ended (tests)
        self.listening = asyncio.Event()  # set while announcements are heard

    # -- joining ------------------------------------------------------------------------------
    async def start(self) -> None:
        """Join: take the name (ClusterError if a live server has it), register, listen."""
        await self._join()
        self._tasks = [asyncio.create_task(self._beat()), asyncio.create_task(self._listen())]
        with contextlib.suppress(asyncio.TimeoutError):  # (it keeps trying: see _listen)
            await asyncio.wait_for(self.listening.wait(), RECONNECT_MAX)

    async def _join(self) -> None:
        conn = await connect(self.url)
        try:
            cur = await conn.execute("SELECT pg_try_advisory_lock(%s, hashtext(%s))",
                                     (LOCK_SPACE_SERVER, self.name))
            got = (await cur.fetchone())[0]
            if not got:
                cur = await conn.execute(
                    "SELECT host, pid FROM cellwars_servers WHERE name = %s", (self.name,))
                row = await cur.fetchone()
                where = f" (on {row[0]}, pid {row[1]})" if row else ""
                raise ClusterError(f"a server named {self.name!r} is already running{where}: "
                                   "give this one another name (--name)")
            await conn.execute(
                "INSERT INTO cellwars_servers (name, host, pid, backend, started, beat, players) "
                "VALUES (%s, %s, %s, pg_backend_pid(), now(), now(), 0) ON CONFLICT (name) DO "
                "UPDATE SET host = EXCLUDED.host, pid = EXCLUDED.pid, backend = "
                "EXCLUDED.backend, started = now(), beat = now(), players = 0",
                (self.name, socket.gethostname()[:64], os.getpid()))
            await conn.execute("DELETE FROM cellwars_presence WHERE server = %s", (self.name,))
        except BaseException:
            await conn.close()
            raise
        self.lock_conn = conn
        self.connected = True

    async def close(self) -> None:
        """Leave: the tables' locks and the name go with the lock connection."""
        self._closing = True
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self.lock_conn is not None:
            with contextlib.suppress(Exception):
                await self.lock_conn.execute("DELETE FROM cellwars_presence WHERE server = %s",
                                             (self.name,))
                await self.lock_conn.execute("DELETE FROM cellwars_servers WHERE name = %s",
                                             (self.name,))
                await self._notify(f"s {self.name} gone")
                # (released now: a closed connection's backend ends a moment after the close
                # returns, and a server started again at once under this name would be refused)
                await self.lock_conn.execute("SELECT pg_advisory_unlock_all()")
            with contextlib.suppress(Exception):
                await self.lock_conn.close()
        if self.listen_conn is not None:
            with contextlib.suppress(Exception):
                await self.listen_conn.close()
        self.owned.clear()

    # -- the lock connection's work -----------------------------------------------------------
    async def _on_lock(self, sql: str, params: Any = None) -> list[tuple[Any, ...]]:
        """A statement on the lock connection; a failure there means the connection (and with
        it every lock) is gone: ownership is dropped at once and the node joins again."""
        if not self.connected:
            raise StoreError("not connected to the other servers")
        try:
            cur = await self.lock_conn.execute(sql, params)
            return await cur.fetchall() if cur.description is not None else []
        except Exception as exc:  # noqa: BLE001 - psycopg's errors: the connection is gone
            self._lost(one_line(exc))
            raise StoreError(f"the database: {one_line(exc)}") from None

    def _lost(self, why: str) -> None:
        if not self.connected:
            return
        self.connected = False
        self.owned.clear()
        log.warning("cluster: lost the database (%s): this server owns no table until it is back",
                    why)
        with contextlib.suppress(Exception):
            asyncio.ensure_future(self.lock_conn.close())
        self.on_lost()

    async def _notify(self, payload: str) -> None:
        if len(payload.encode()) > NOTIFY_MAX:
            return  # (never: identities and names are short)
        await self._on_lock("SELECT pg_notify(%s, %s)", (NOTIFY_CHANNEL, payload))

    async def own(self, code: str) -> bool:
        """Try to become ``code``'s owner (True: this server runs its clock and bots now)."""
        if code in self.owned:
            return True
        rows = await self._on_lock("SELECT pg_try_advisory_lock(%s, %s)",
                                   (LOCK_SPACE_TABLE, code_number(code)))
        if rows and rows[0][0]:
            self.owned.add(code)
            await self._on_lock("UPDATE cellwars_tables SET owner = %s WHERE code = %s",
                                (self.name, code))
            return True
        return False

    async def release(self, code: str) -> None:
        if code not in self.owned:
            return
        self.owned.discard(code)
        with contextlib.suppress(StoreError):
            await self._on_lock("SELECT pg_advisory_unlock(%s, %s)",
                                (LOCK_SPACE_TABLE, code_number(code)))

    async def orphans(self) -> list[str]:
        """Tables that no server owns now: open, being played, or finished (a finished table's
        owner keeps its result, writes its records and deletes it once idle: when it died
        first, another server does)."""
        rows = await self._on_lock(
            "SELECT code FROM cellwars_tables WHERE status IN ('open', 'playing', 'over')")
        codes = [r[0] for r in rows]
        return await self._unheld(codes)

    async def _unheld(self, codes: list[str]) -> list[str]:
        if not codes:
            return []
        numbers = {code_number(c): c for c in codes}
        rows = await self._on_lock(
            "SELECT l.objid::bigint FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted "
            "AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
            "AND l.classid = %s::bigint::oid AND l.objsubid = 2", (LOCK_SPACE_TABLE,))
        held = {r[0] for r in rows}
        return [c for n, c in numbers.items() if n not in held and c not in self.owned]

    async def set_presence(self, identity: str, name: str, online: bool) -> None:
        """Say to every server that ``identity`` is connected here now (or no longer)."""
        if online:
            await self._on_lock(
                "INSERT INTO cellwars_presence (server, identity, name) VALUES (%s, %s, %s) "
                "ON CONFLICT (server, identity) DO UPDATE SET name = EXCLUDED.name",
                (self.name, identity, name))
            await self._notify(f"p {self.name} + {identity} {name}")
        else:
            await self._on_lock("DELETE FROM cellwars_presence WHERE server = %s AND "
                                "identity = %s", (self.name, identity))
            await self._notify(f"p {self.name} - {identity}")

    async def presence(self) -> dict[str, dict[str, str]]:
        """Who is connected to which server: server -> identity -> name."""
        rows = await self._on_lock("SELECT server, identity, name FROM cellwars_presence")
        out: dict[str, dict[str, str]] = {}
        for server, identity, name in rows:
            out.setdefault(server, {})[identity] = name
        return out

    # -- heartbeat, and the others' --------------------------------------------------------------
    async def _beat(self) -> None:
        wait = 0.0  # (asyncio.sleep runs on the loop's monotonic clock: no wall-clock jump here)
        loop = asyncio.get_running_loop()
        logged = loop.time()
        while not self._closing:
            await asyncio.sleep(wait)
            wait = self.beat_seconds
            if not self.connected:
                wait = await self._rejoin(wait)
                continue
            try:
                await self._on_lock("UPDATE cellwars_servers SET beat = now(), players = %s "
                                    "WHERE name = %s", (self.players, self.name))
                await self._end_stalled()
                if loop.time() - logged >= LOG_EVERY:
                    logged = loop.time()
                    await self._log_status()
            except StoreError:
                continue

    async def _rejoin(self, wait: float) -> float:
        try:
            await self._join()
        except ClusterError as exc:
            log.warning("cluster: %s", exc)
            return min(wait * 2, RECONNECT_MAX)
        except StoreError:
            return min(max(wait, 0.2) * 2, RECONNECT_MAX)
        log.warning("cluster: joined again as %s", self.name)
        self.on_back()
        return self.beat_seconds

    async def _end_stalled(self) -> None:
        """Servers with no heartbeat for ``stall_seconds`` (the database's clock) are ended:
        their lock connection is terminated, which frees their tables; servers whose lock
        connection is gone are forgotten, with their players."""
        rows = await self._on_lock(
            "SELECT s.name, s.backend, s.beat < now() - make_interval(secs => %s), "
            "EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = s.backend) "
            "FROM cellwars_servers s WHERE s.name <> %s", (self.stall_seconds, self.name))
        for name, backend, stalled, alive in rows:
            if alive and stalled:
                log.warning("cluster: server %s has not beaten for %g s: ending its connection "
                            "so its tables can be taken over", name, self.stall_seconds)
                await self._on_lock("SELECT pg_terminate_backend(%s)", (backend,))
                self.stalled_ended.append(name)
            if not alive or stalled:
                await self._on_lock("DELETE FROM cellwars_presence WHERE server = %s", (name,))
                await self._on_lock("DELETE FROM cellwars_servers WHERE name = %s AND "
                                    "backend = %s", (name, backend))
                await self._notify(f"s {name} gone")

    async def _log_status(self) -> None:
        servers = [s for s in await self.status() if s.alive]
        log.warning("cluster: %d server%s alive (%s); %s owns %d table%s, %d player%s here",
                    len(servers), "s" if len(servers) != 1 else "",
                    ", ".join(f"{s.name}: {len(s.tables)} tables, {s.players} players"
                              for s in servers),
                    self.name, len(self.owned), "s" if len(self.owned) != 1 else "",
                    self.players, "s" if self.players != 1 else "")

    # -- listening ----------------------------------------------------------------------------
    async def _listen(self) -> None:
        wait = 0.2
        listened = False
        while not self._closing:
            try:
                self.listen_conn = await connect(self.url)
                await self.listen_conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                if listened:  # announcements made meanwhile were missed
                    self.on_listening_again()
                listened = True
                self.listening.set()
                wait = 0.2
                async for n in self.listen_conn.notifies():
                    note = parse_note(n.payload)
                    if note is not None:
                        self.on_note(note)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - the connection ended: listen again
                self.listening.clear()
                log.info("cluster: listening stopped (%s); again in %.1f s", one_line(exc), wait)
            with contextlib.suppress(Exception):
                await self.listen_conn.close()
            await asyncio.sleep(wait)
            wait = min(wait * 2, RECONNECT_MAX)

    # -- the operator's view ------------------------------------------------------------------
    async def status(self) -> list[ServerStatus]:
        from .status import cluster_status

        return await cluster_status(self.lock_conn)

