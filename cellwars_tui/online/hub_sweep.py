"""How the hub keeps the tables nobody watches (a mixin of :class:`~.hub.Hub`, kept apart so the
hub's file holds the connections and the lobby): closed, asleep or archived, never lost.

A game that has started and is not over is never deleted while a person holds a seat at it.
When nobody has watched it for ``idle_table_seconds`` and none of its players is connected, it
goes to sleep: it leaves memory (its bots and its timer stop) and stays in the store, and it
comes back as soon as one of its players does (by key, by reconnect code, or by its room code).
An open table nobody watches closes; a finished one leaves memory and the store once its record
is written in the tables folder. An operator may archive games that have slept ``archive_after``
seconds without a move (``cellwars serve --archive-after DAYS``): each seated player's record is
written first, as a finished game's is. Every deletion from the store is logged with its reason.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from ..core.errors import CellwarsError
from .hub_league import League
from .hub_play import TablePlay
from .store import StoredTable, StoreError, TableStore
from .tables import HubTable

log = logging.getLogger("cellwars_tui.online.hub")


class Asleep(NamedTuple):
    """A started, unfinished table out of memory (kept in the store) until a player comes back."""

    seats: tuple[tuple[str, str], ...]  # (identity, name) of each person's seat
    active_at: float  # when its last action was saved (the hub's clock)


class TableKeeping:
    """The sweeping half of the hub (see the module's docstring)."""

    store: TableStore | None
    tables: dict[str, HubTable]
    tables_dir: Path | None
    play: TablePlay
    league: League
    _sleeping: dict[str, asyncio.Task[None]]  # code -> a table going to sleep
    idle_table_seconds: float
    sweep_interval: float
    archive_after: float  # seconds a sleeping game may go without a move (0: forever)
    clock: Callable[[], float]  # the hub's clock (seconds since the epoch: kept in the store)
    asleep: dict[str, Asleep]

    @property
    def online(self) -> set[str]:  # the hub's
        raise NotImplementedError

    def _set_up(self, s: StoredTable, *, restarted: bool) -> HubTable | None:  # the hub's
        raise NotImplementedError

    def _broadcast_lobby(self) -> None:  # the hub's
        raise NotImplementedError

    def _save_clock(self, table: HubTable) -> None:  # the hub's
        raise NotImplementedError

    def _later(self, work: Any) -> None:  # the hub's: a task it waits for before it closes
        raise NotImplementedError

    async def _sweep(self) -> None:
        """Sweep now and then (:meth:`sweep`), and keep the clock of running real-time games in
        the store (a crash then loses a few seconds of a round at most, never a move)."""
        while True:
            await asyncio.sleep(self.sweep_interval)
            self.sweep()
            for table in self.tables.values():
                if table.session is not None and table.session.running:
                    self._save_clock(table)

    def sweep(self, now: float | None = None) -> None:
        """Tables nobody has watched for ``idle_table_seconds`` (``now``: the hub's clock):

        * an open table closes (deleted from the store);
        * a finished one leaves memory and the store once its record is written;
        * a started, unfinished game with a person's seat is never deleted: once none of its
          players is connected it goes to sleep (:meth:`_sleep`) and stays in the store until
          one of them comes back, or the operator's ``archive_after`` has passed without a
          move (:meth:`_archive`); a game of bots only, which nobody can come back to, closes.

        Every deletion is logged with its reason (one line per sweep). The games stop and the
        store is written in tasks the hub waits for (:meth:`.hub.Hub.settled`)."""
        now = self.clock() if now is None else now
        gone: dict[str, list[str]] = defaultdict(list)  # reason -> codes deleted
        sleeping = len(self.asleep)
        idle = f"nobody at it for {_duration(self.idle_table_seconds)}"
        for code, table in list(self.tables.items()):
            if table.watchers or now - table.last_watched < self.idle_table_seconds:
                continue
            if table.status == "playing" and any(s.kind == "human" for s in table.slots):
                if self.store is not None and not self._seated_online(table):
                    self._sleep(table)
                continue  # (without a store it stays in memory: it is nowhere else)
            if table.status == "over" and not (table.saved_for_players or self.tables_dir is None):
                continue  # its record is not written yet: the store keeps the game
            if table.status == "over" and not table.league.result_kept:
                self.league.game_over(table)  # (tried again: the store did not keep it yet)
                continue  # nor its result and ratings (hub_league.py)
            if table.status == "open":
                reason = f"an open table, {idle}"
            elif table.status == "over":
                reason = f"finished, {idle}; its record is kept"
            else:
                reason = f"a game of bots only, {idle}"
            del self.tables[code]
            self._later(self._close(table, delete=True))
            gone[reason].append(code)
        if self.archive_after > 0:
            for code, asleep in list(self.asleep.items()):
                if now - asleep.active_at >= self.archive_after:
                    self._archive(code, now, gone)
        for reason, codes in gone.items():
            log.warning("deleted from the table store: %s (%s)", " ".join(codes), reason)
        if gone or len(self.asleep) != sleeping:
            self._broadcast_lobby()  # (a game asleep is listed only for its players, once back)

    def _seated_online(self, table: HubTable) -> bool:
        online = self.online
        return any(s.kind == "human" and s.identity in online for s in table.slots)

    async def _close(self, table: HubTable, *, delete: bool) -> None:
        """A table leaving memory: its game stops (bots, and a real-time session keeping the
        time reached), its last saves are made, and (``delete``) it leaves the store."""
        if table.authority is not None:
            await table.authority.close()
        if not delete:
            await table.saver.settled()
            return
        try:
            await table.saver.delete()
        except StoreError as exc:
            log.warning("table %s: could not be taken out of the store: %s", table.code, exc)

    def _sleep(self, table: HubTable) -> None:
        """A started game none of whose players is here leaves memory and stays in the store,
        saved as it is now (a real-time game with its round's seconds left); if it cannot be
        saved it comes back into memory."""
        del self.tables[table.code]
        seats = tuple((s.identity, s.name) for s in table.slots if s.kind == "human")
        self.asleep[table.code] = Asleep(seats, table.active_at)
        task = asyncio.ensure_future(self._put_to_sleep(table))
        self._sleeping[table.code] = task
        task.add_done_callback(lambda _: self._sleeping.pop(table.code, None))

    async def _put_to_sleep(self, table: HubTable) -> None:
        await self._close(table, delete=False)
        if not table.saver.down:
            await table.saver.close()
            return
        log.warning("table %s: could not be saved to leave memory (%s); it stays in memory",
                    table.code, table.saver.down)
        self.asleep.pop(table.code, None)
        self.tables[table.code] = table
        assert table.match is not None
        self.play.set_up(table, table.match)  # (its game plays on here)

    async def _wake(self, identity: str) -> None:
        """Every sleeping game where ``identity`` holds a seat, back in memory."""
        for code in [c for c, a in self.asleep.items() if any(i == identity for i, _ in a.seats)]:
            await self._wake_table(code)

    async def _wake_table(self, code: str) -> HubTable | None:
        """A sleeping game back in memory, from the store (None, and one line in the server's
        log, if the store no longer has it or it cannot be set up: it is then forgotten)."""
        going = self._sleeping.get(code)
        if going is not None:
            await asyncio.gather(going, return_exceptions=True)  # (its last save first)
        if code in self.tables:
            return self.tables[code]  # (it could not be saved: it never left)
        if self.asleep.pop(code, None) is None:
            return None
        try:
            stored = await self.store.fetch(code) if self.store is not None else None
        except StoreError as exc:
            log.warning("table %s: cannot be read from the store: %s", code, exc)
            stored = None
        table = self._set_up(stored, restarted=False) if stored is not None else None
        if table is None:
            log.warning("table %s: a sleeping game could not be brought back", code)
        else:
            self._broadcast_lobby()
        return table

    def _archive(self, code: str, now: float, gone: dict[str, list[str]]) -> None:
        """A game asleep with no move for ``archive_after``: each seated player's record is
        written (the tables folder, and keyed players' saved games), said in the server's log,
        and then the game is deleted from the store (in a task the hub waits for). A game whose
        record cannot be written stays."""
        asleep = self.asleep.pop(code)
        self._later(self._archive_now(code, asleep, now))

    async def _archive_now(self, code: str, asleep: Asleep, now: float) -> None:
        try:
            stored = await self.store.fetch(code) if self.store is not None else None
            table, match = HubTable.from_stored(self, stored) if stored is not None else (
                None, None)
            if table is None or match is None:
                raise CellwarsError("the store no longer has it")
            await self.play.write_records(table, match)
        except (CellwarsError, StoreError, OSError) as exc:
            log.warning("table %s: could not be archived (%s); it stays in the store", code, exc)
            self.asleep[code] = asleep._replace(active_at=now)  # tried again after as long
            return
        names = ", ".join(name for _, name in asleep.seats)
        log.warning("table %s archived: no move for %s; its record %s is written for %s",
                    code, _duration(now - asleep.active_at), table.record_name, names)
        try:
            if self.store is not None:
                await self.store.delete(code)
        except StoreError as exc:
            log.warning("table %s: could not be taken out of the store: %s", code, exc)
        log.warning("deleted from the table store: %s (%s)", code,
                    f"archived after {_duration(self.archive_after)} without a move")


def _duration(seconds: float) -> str:
    """A span of time in words: "10 minutes", "3 days"."""
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            n = round(seconds / size)
            return f"{n} {unit}{'s' if n != 1 else ''}"
    return f"{seconds:g} seconds"
