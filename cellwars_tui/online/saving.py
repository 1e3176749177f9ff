"""One table's saves to the store: in order, off the event loop, durable before anyone is told.

:class:`TableSaver` is the table authority's Saver port online (:mod:`cellwars_tui.table.ports`)
and the hub's way to keep a table that has no game yet. Each ``save()`` takes the table's
snapshot at once (on the event loop: one consistent table) and returns a future that is done
once the store holds it. One table's saves are written one after another, each as the table's
next version (:mod:`.store`); snapshots asked for while one is written wait, and only the newest
of them is written (it holds all the others), so a slow store never queues up more than one.

When a write fails the saver goes *down*: that save's future and every one waiting fail
(:class:`~cellwars_tui.table.ports.SaveFailed`: the authority takes the step back and refuses
it), the server's log says why once, and the table is told (``changed``: its players read one
line, its moves are refused). The saver then tries again by itself, with the table as it is
then, waiting a little longer each time (``RETRY_FIRST`` doubling up to ``RETRY_MAX``); the first
write that works brings it back up (``changed`` again), and play resumes.

A store that answers :class:`~.store.StaleTable` (another server saved this table's next version
first: several servers sharing one store) is down for this saver the same way, and stays so:
the table moved on elsewhere, and only reading it again from the store (the owner's job when
servers share a store) brings it back here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

import msgspec

from ..table.ports import SaveFailed
from .store import StoredTable, TableStore

log = logging.getLogger(__name__)


class TableSaver:
    """The saves of one table (see the module's docstring)."""

    durable = True
    problem: str | None = None  # (the table's log says it: a durable saver has no status line)
    RETRY_FIRST = 0.5  # seconds before the first retry of a store that is down
    RETRY_MAX = 5.0

    def __init__(self, code: str, snapshot: Callable[[], StoredTable], store: TableStore, *,
                 version: int = 0, changed: Callable[[], None] = lambda: None) -> None:
        self.code = code
        self.snapshot = snapshot
        self.store = store
        self.version = version  # the table's last durable save
        self.changed = changed
        self.down = ""  # why saves fail now ("": they work)
        self.writes = 0  # saves written (tests and the curious)
        self._next: StoredTable | None = None  # the newest snapshot waiting to be written
        self._waiting: list[asyncio.Future[None]] = []
        self._writer: asyncio.Task[None] | None = None
        self._retry: asyncio.Task[None] | None = None
        self._closed = False

    def save(self) -> asyncio.Future[None]:
        """Keep the table as it is now; the future is done once the store holds it (or a newer
        snapshot), and fails with SaveFailed when the store is down."""
        done = asyncio.get_running_loop().create_future()
        if self.down or self._closed:  # the retry writes the newest table when it can
            done.set_exception(SaveFailed(self.down or "the table is closed"))
            return done
        self._next = self.snapshot()
        self._waiting.append(done)
        if self._writer is None:
            self._writer = asyncio.ensure_future(self._write())
        return done

    def flush(self) -> None:
        """(Nothing to wait for here: ``settled()`` is the awaitable way.)"""

    async def settled(self) -> None:
        """Wait until every save asked for is written (or failed)."""
        while self._writer is not None:
            await asyncio.shield(self._writer)

    async def _write(self) -> None:
        try:
            while self._next is not None:
                table, waiting = self._next, self._waiting
                self._next, self._waiting = None, []
                version = self.version + 1
                try:
                    await self.store.save(msgspec.structs.replace(table, version=version))
                except Exception as exc:  # noqa: BLE001 - StoreError, or a store's own bug
                    self._fail([*waiting, *self._waiting], exc)
                    self._next, self._waiting = None, []
                    return
                self.version = version
                self.writes += 1
                for future in waiting:
                    if not future.done():
                        future.set_result(None)
        finally:
            self._writer = None

    def _fail(self, waiting: list[asyncio.Future[None]], exc: Exception) -> None:
        reason = str(exc) or type(exc).__name__
        for future in waiting:
            if not future.done():
                future.set_exception(SaveFailed(reason))
        log.warning("table %s: could not be saved: %s", self.code, reason)
        self.down = reason
        self._retry = asyncio.ensure_future(self._try_again())
        self.changed()

    async def _try_again(self) -> None:
        wait = self.RETRY_FIRST
        while not self._closed:
            await asyncio.sleep(wait)
            version = self.version + 1
            try:
                await self.store.save(msgspec.structs.replace(self.snapshot(), version=version))
            except Exception as exc:  # noqa: BLE001 - still down
                wait = min(wait * 2, self.RETRY_MAX)
                reason = str(exc) or type(exc).__name__
                if reason != self.down:
                    log.warning("table %s: still not saved: %s", self.code, reason)
                    self.down = reason
                continue
            self.version = version
            self.writes += 1
            self.down = ""
            self._retry = None
            log.warning("table %s: saved again", self.code)
            self.changed()
            return

    def suspend(self, reason: str, *, quiet: bool = False) -> None:
        """Save no more, from now on, and say why (the table is down for good here): this
        server no longer owns the table (servers sharing a store), so a save of its copy could
        overwrite its new owner's. Saves asked for fail; no retry is tried."""
        self._closed = True
        if self._retry is not None:
            self._retry.cancel()
            self._retry = None
        if not self.down:
            self.down = reason
            if not quiet:  # (quiet: the table is being replaced; nobody reads it any more)
                self.changed()

    async def close(self) -> None:
        """Write what was asked for, then save no more (the hub closes)."""
        await self.settled()
        self._closed = True
        if self._retry is not None:
            self._retry.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._retry
            self._retry = None

    async def delete(self) -> None:
        """Take the table out of the store, after the saves asked for before."""
        await self.close()
        await self.store.delete(self.code)


class NoSaver:
    """A hub without a store (tests, a throwaway server): nothing is kept, steps are told at once."""

    durable = False
    down = ""
    problem: str | None = None
    version = 0

    def save(self) -> None:
        return None

    def flush(self) -> None:
        return None

    async def settled(self) -> None:
        return None

    async def close(self) -> None:
        return None

    async def delete(self) -> None:
        return None

    def suspend(self, reason: str, *, quiet: bool = False) -> None:
        return None
