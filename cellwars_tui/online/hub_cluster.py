"""The hub of one server among several sharing a PostgreSQL store (``cellwars serve --store
postgresql://...``): the hub of :mod:`.hub`, with its lobby, seats and tables spread over every
server through :class:`~.cluster.Cluster` (which says how: owners, replicas, requests sent to
the owner, notifications).

What differs from a lone hub, and only that, is here:

* the lobby lists every server's tables, and who is connected counts on every server;
* a table is set up here as its owner (made here, or taken over) or as a replica (read-only: no
  saver, no bots, no clock) for the players here; a request at a replica goes to the owner;
* nothing sleeps in this hub's memory: a table nobody here watches leaves it (its owner's last
  save first, then its lock), and any server brings it back for its players from the store;
* a nickname is free only if no player of any server holds it, a room code is new across all;
* a finished game's record is written on every server's disk that shows the table, and a keyed
  player's last finished games, wherever they were played, are put in their saved games here
  when they connect (:mod:`.hub_records`).
"""

from __future__ import annotations

import logging
from typing import Any

import msgspec

from ..core.errors import CellwarsError
from . import protocol as p
from .cluster import FORWARDED, Cluster
from .game import OnlineGame
from .hub import Client, Hub
from .hub_records import deliver
from .names import name_key
from .pg.shared import SharedStore
from .saving import NoSaver
from .store import StoredTable, StoreError
from .tables import HubTable, guest_identity, normal_code

log = logging.getLogger("cellwars_tui.online.hub")


class ReplicaTable(HubTable):
    """A table another server owns, as shown here: its round clock and pause are the owner's
    (announced: :mod:`.pg.replica_clock`), since it runs no clock of its own."""

    hub: ClusterHub

    def paused(self) -> str:
        shown = self.hub.cluster.replica_clock(self.code)
        return super().paused() if shown is None else shown.paused

    def state_for(self, client: Client, info: p.TableInfo, cache: dict[Any, Any]) -> p.TableState:
        state = super().state_for(client, info, cache)
        shown = self.hub.cluster.replica_clock(self.code)
        if shown is None or self.match is None:
            return state
        return msgspec.structs.replace(state, clock=round(shown.now(), 2),
                                       clock_running=shown.running and shown.left >= 0)


class ClusterHub(Hub):
    """A hub sharing its lobby and tables with the other servers of its store."""

    def __init__(self, *args: Any, shared: SharedStore, **kwargs: Any) -> None:
        super().__init__(*args, store=shared.store, **kwargs)
        self.cluster = Cluster(self, shared)
        self._delivering: set[str] = set()  # keyed players whose saved games are brought here

    # -- lifecycle ----------------------------------------------------------------------------
    async def restore(self) -> None:
        """No table is set up at start: each comes back when one of its players connects
        here, or is taken over when its owner is gone (:class:`Cluster`)."""
        await self.cluster.start()

    async def close(self) -> None:
        await self.cluster.stop()  # nothing is taken over or followed from now on
        await super().close()  # every owned table's last saves
        await self.cluster.close()  # then their locks go

    # -- who is connected, on every server ----------------------------------------------------
    @property
    def online(self) -> set[str]:
        return self._local_online() | self.cluster.online()

    def _local_online(self) -> set[str]:
        return {c.identity for c in self.clients if c.named}

    def _still_online(self, identity: str) -> bool:
        return super()._still_online(identity) or identity in self.cluster.online()

    def _changed_presence(self, identity: str) -> None:
        """A player here connected or left: every server hears it."""
        here = next((c for c in self.clients if c.identity == identity), None)
        self.cluster.presence(identity, here.name if here else "", here is not None)
        super()._changed_presence(identity)

    def _presence_elsewhere(self, identity: str) -> None:
        """A player connected to another server, or left it."""
        super()._changed_presence(identity)

    def _name_holder(self, name: str, identity: str) -> str:
        taken = super()._name_holder(name, identity)
        if taken:
            return taken
        key = name_key(name)
        if any(who != identity and name_key(held) == key for who, held in self.cluster.names()):
            return "in use"
        if any(who != identity and name_key(held) == key
               for who, held in self.cluster.seat_names()):
            return "held by a player at a table"
        return ""

    # -- the lobby ----------------------------------------------------------------------------
    def _infos(self) -> list[p.TableInfo]:
        return super()._infos() + self.cluster.infos()

    def _lobby_for(self, client: Client, infos: list[p.TableInfo]) -> p.Lobby:
        lobby = super()._lobby_for(client, infos)
        theirs = self.cluster.mine(client.identity)
        return msgspec.structs.replace(lobby, mine=lobby.mine + tuple(theirs)) if theirs \
            else lobby

    def _new_code(self) -> str:
        while True:
            code = super()._new_code()
            if code not in self.cluster.summaries:
                return code

    # -- tables -------------------------------------------------------------------------------
    def set_up_replica(self, s: StoredTable, previous: HubTable | None = None
                       ) -> HubTable | None:
        """The stored table ``s`` in memory as its players here see it, read-only: no saver,
        no bots, no clock (its owner runs them). None (one line in the log) if it cannot be.
        ``previous``: the copy it replaces, whose game goes on with the new steps only."""
        try:
            table, match = ReplicaTable.from_stored(self, s, previous=previous)
        except CellwarsError as exc:
            log.warning("table %s cannot be shown: %s", s.code, exc)
            return None
        table.changed = self._changed_callback(table)
        table.last_watched = self.clock()
        self.tables[s.code] = table
        if match is not None:
            game = OnlineGame(table, match, saver=NoSaver(), thinker=self.play.thinker)
            game.read_only = True
            game.autosave_enabled = False
            table.authority = game
            table.away_ids = {x.identity for x in table.slots if x.kind == "human"} - self.online
            self.play.records_here(table)  # (a finished game's record: its owner's disk has it)
        return table

    def rematch_table(self, table: Any, seats: list[Any]) -> HubTable:
        new = super().rematch_table(table, seats)
        self.cluster.created(new)  # (made here: this server's)
        return new

    def _broadcast_table(self, table: HubTable) -> None:
        super()._broadcast_table(table)
        self.cluster.clock_changed(table)  # (a table owned here: the others show its clock)

    async def _dispatch(self, client: Client, msg: p.Msg) -> None:
        if isinstance(msg, p.Join):
            await self.cluster.bring(msg.code.strip().upper()[:16])
        table = client.table
        if table is not None and client.named and self.cluster.is_replica(table):
            if isinstance(msg, FORWARDED):
                await self.cluster.forward(client, table, msg)
                return
            if isinstance(msg, p.Leave) and table.match is None \
                    and table.seat_of(client.identity) is not None:
                await self.cluster.forward(client, table, p.Stand())
        await super()._dispatch(client, msg)
        if isinstance(msg, p.CreateTable) and client.table is not None:
            await self.cluster.node.own(client.table.code)  # (made here: this server's)

    def _goodbye(self, client: Client) -> None:
        table = client.table
        if table is not None and client.named and table.match is None \
                and self.cluster.is_replica(table) and table.seat_of(client.identity) is not None \
                and not self._still_online(client.identity):
            self._later(self.cluster.forward(client, table, p.Stand()))
        super()._goodbye(client)

    def _release_seat(self, table: HubTable, identity: str) -> None:
        """(An open table's seat freed at its owner is saved: every lobby shows it.)"""
        had = table.seat_of(identity) is not None
        super()._release_seat(table, identity)
        if had and not self.cluster.is_replica(table):
            self._save(table)

    async def _wake_for(self, identity: str, name: str) -> None:
        if identity.startswith("key:"):
            await self.cluster.bring_tables_of(identity)
            if identity not in self._delivering:
                self._delivering.add(identity)
                self._later(self._deliver(identity))
        elif identity == "guest" and normal_code(name):
            await self._wake_code(name)

    async def _deliver(self, identity: str) -> None:
        """A keyed player's last finished games, wherever they were played, into their saved
        games here (:func:`.hub_records.deliver`)."""
        try:
            home = self.home_for(identity) if self.home_for is not None else None
            if home is not None:
                await deliver(self.league.store, identity, home)
        except (StoreError, OSError) as exc:
            log.warning("the saved games of %s could not be brought up to date: %s", identity,
                        exc)
        finally:
            self._delivering.discard(identity)

    async def _wake_code(self, code: str) -> None:
        if normal_code(code):
            await self.cluster.bring_tables_of(guest_identity(code, self.guest_secret))

    # -- tables nobody here watches -----------------------------------------------------------
    def sweep(self, now: float | None = None) -> None:
        """As a lone hub's sweep for the tables this server owns (none is deleted while a person
        holds a seat at a game being played), a table watched at another server counting as
        watched (:meth:`.Cluster.watched`); a replica nobody here watches leaves memory."""
        replicas = {c: t for c, t in self.tables.items() if self.cluster.is_replica(t)}
        for code in replicas:
            del self.tables[code]
        try:
            super().sweep(now)
        finally:
            self.tables.update(replicas)
        for table in replicas.values():
            if not table.watchers:
                self.cluster.drop(table)
        self.cluster.watched()  # (the tables watched here, for their owners' sweeps)

    async def _put_to_sleep(self, table: HubTable) -> None:
        """Saved, out of memory, and no longer this server's: any server brings it back."""
        await super()._put_to_sleep(table)
        if table.code not in self.tables:
            self.asleep.pop(table.code, None)
            await self.cluster.node.release(table.code)

    async def _close(self, table: HubTable, *, delete: bool) -> None:
        await super()._close(table, delete=delete)
        if delete and table.code not in self.tables:
            await self.cluster.node.release(table.code)
