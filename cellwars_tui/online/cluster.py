"""The hub among other hubs: several ``cellwars serve`` sharing one PostgreSQL store share one
lobby and every table (:class:`Cluster`, the hub's ``cluster`` when it runs with ``--store
postgresql://...``).

* **One owner per table** (:mod:`.pg.node`: the table's advisory lock). The owner holds the
  table's game (:class:`~.game.OnlineGame` with the store's durable saver): it checks, plays,
  saves and answers every request, runs the bots and a real-time game's clock. A table is
  owned by the server where it was made; when its owner dies, another server takes it over
  (:meth:`Cluster._take_over`, every ``ORPHAN_INTERVAL``) from its last committed version, a
  real-time round paused as after a restart.
* **Replicas.** Any other server with a player or spectator at the table holds a read-only copy
  (no saver, no bots, no clock), set up again from the store whenever the table's version
  moves (the notification ``t CODE VERSION SERVER`` carries no state), and sends each of its
  sessions its own view, as the owner does.
* **Requests go to the owner.** A seated player's move (or sit, stand, bot, start, pause) made
  at a replica travels as a notification (``q``, under 8,000 bytes) to the owner, which carries
  it out for a stand-in of that player (:class:`RemoteClient`) and answers the same way (``r``):
  the move played (the session's ``played``) or refused in one line. Moves made at once from two
  servers reach the owner one after the other: the second is checked against the table as the
  first left it, and refused ("the table moved on") when it no longer stands. A move with no
  answer within ``ANSWER_SECONDS`` (its owner died meanwhile) is refused in one line and never
  half-played: the store has it or not, and the table's state says which.
* **One lobby.** Every table's summary (seats, host, status) is in the store; each server lists
  them all, and follows them by their notifications. Who is connected where is shared too
  (``p`` notifications), so an owner knows a player connected to another server is there (a
  real-time game does not pause for them).
* **Chat and clocks.** A chat line is checked where it is said (its limits, cleaning and flood
  guard) and announced (``h``, the line itself): every server shows it, the table's owner keeps
  it with the table; a lobby line is kept in the store before it is shown. A line said at a
  table nobody owns now (its owner died; nobody has taken it over yet) is written into the
  table's row by the server where it was said, under the table's lock
  (:meth:`~.pg.store.PostgresTableStore.keep_unowned_line`), so the new owner finds it. A
  real-time table's owner announces its round clock (``c``, :mod:`.pg.replica_clock`) so that
  its replicas show the same countdown.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any

import msgspec

from . import protocol as p
from .chat import ChatLine, kept_line
from .pg import replica_clock as rc
from .pg.node import ORPHAN_INTERVAL, Note
from .pg.schema import NOTIFY_MAX
from .pg.store import TableSummary
from .saving import TableSaver
from .store import StoreError, StoredTable
from .tables import HubError, HubTable

if TYPE_CHECKING:
    from .hub import Client
    from .hub_cluster import ClusterHub
    from .pg.shared import SharedStore

log = logging.getLogger(__name__)

ANSWER_SECONDS = 8.0  # a forwarded move with no answer by then is refused
TAKE_OVER_WAIT = 2  # scans a server with nobody at an orphaned table waits before taking it
FORWARDED = (p.Sit, p.Stand, p.SetBot, p.Start, p.Play, p.Pause, p.Rematch)
TAKE_OVER_SECONDS = 5.0  # a chat line heard while a table is being taken over waits this long


class Forward(msgspec.Struct, frozen=True, array_like=True):
    """A request made at a replica, for the table's owner."""

    code: str
    origin: str  # the server whose session asked
    rid: int  # that server's number for the request
    identity: str
    name: str
    body: bytes  # the request (protocol msgpack)


class Answer(msgspec.Struct, frozen=True, array_like=True):
    to: str
    rid: int
    kind: str  # "error" | "notice" | "played" | "done" (a request other than a move, carried out)
    message: str = ""
    seq: int = 0


class Said(msgspec.Struct, frozen=True, array_like=True):
    """A chat line said at a server: to the lobby (``where`` "") or to a table."""

    where: str
    server: str
    line: ChatLine


_said = msgspec.msgpack.Decoder(Said)
_forward = msgspec.msgpack.Decoder(Forward)
_answer = msgspec.msgpack.Decoder(Answer)
_encode = msgspec.msgpack.Encoder().encode


def _packed(kind: str, value: msgspec.Struct) -> str:
    return f"{kind} " + base64.b64encode(_encode(value)).decode("ascii")


class RemoteClient:
    """A player of another server, as the owner's hub sees them for one request: their identity
    and name, at the table; what the hub would send them goes back to their server."""

    def __init__(self, cluster: Cluster, fwd: Forward, table: HubTable) -> None:
        self.cluster = cluster
        self.fwd = fwd
        self.identity = fwd.identity
        self.name = fwd.name
        self.code = ""  # (a guest's reconnect code never leaves their server)
        self.table: HubTable | None = table
        self.wrong_codes = 0
        self.lobby_sent = None
        self.table_sent = None
        self._played = 0

    @property
    def named(self) -> bool:
        return bool(self.identity) and self.identity != "guest"

    @property
    def played(self) -> int:
        return self._played

    @played.setter
    def played(self, seq: int) -> None:  # (MoveTicket.accepted: the move is in the store)
        self._played = seq
        self.cluster.answer(self.fwd, "played", seq=seq)

    def send(self, msg: p.Msg) -> None:
        if isinstance(msg, p.Error):
            self.cluster.answer(self.fwd, "error", msg.message, msg.seq)
        elif isinstance(msg, p.Notice):
            self.cluster.answer(self.fwd, "notice", msg.message)


class Cluster:
    """The hub's link to the servers sharing its store (see the module's docstring)."""

    def __init__(self, hub: ClusterHub, shared: SharedStore) -> None:
        self.hub = hub
        self.store = shared.store
        self.node = shared.node
        self.name = shared.node.name
        self.summaries: dict[str, TableSummary] = {}  # every table of the store, for the lobby
        self.remote: dict[str, dict[str, str]] = {}  # server -> identity -> name (connected)
        self.versions: dict[str, int] = {}  # replica code -> the version it shows
        self.orphaned: dict[str, int] = {}  # code -> scans it has been seen with no owner
        self._notes: asyncio.Queue[Note | None] = asyncio.Queue()
        self._asked: dict[int, tuple[Client, int, float]] = {}  # rid -> (client, seq, asked at)
        self._rid = 0
        self._tasks: list[asyncio.Task[None]] = []
        self.takeovers: list[tuple[str, float]] = []  # (code, monotonic time): tests, bench
        self.clocks: dict[str, rc.Shown] = {}  # replica code -> its owner's round clock
        self.clocks_told: dict[str, rc.Shown] = {}  # owned code -> its clock as last announced
        hub.league.on_said = self.said
        shared.node.on_note = self._notes.put_nowait
        shared.node.on_lost = self._lost
        shared.node.on_back = self._back
        shared.node.on_listening_again = lambda: self._later(self._read_all())

    # -- lifecycle ----------------------------------------------------------------------------
    async def start(self) -> None:
        await self._read_all()
        self._tasks = [asyncio.create_task(self._follow()),
                       asyncio.create_task(self._take_over_loop())]

    async def _read_all(self) -> None:
        """The lobby and who is where, read whole (at start, and after the database was away:
        notifications may have been missed)."""
        with contextlib.suppress(StoreError):
            self.summaries = {s.code: s for s in await self.store.summaries()}
        with contextlib.suppress(StoreError):
            self.remote = {server: who for server, who in (await self.node.presence()).items()
                           if server != self.name}
        for code in list(self.versions):
            self._notes.put_nowait(Note("t", server="", code=code, version=1 << 62))
        await self.hub.league.read_lobby_chat()  # (lines said elsewhere meanwhile: kept there)
        self.hub._broadcast_lobby()

    async def stop(self) -> None:
        """Follow and take over no more (the hub closes: its tables' last saves come next)."""
        self._notes.put_nowait(None)
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks = []

    async def close(self) -> None:
        await self.stop()
        await self.node.close()  # (the tables' locks go with it)

    # -- who is where -------------------------------------------------------------------------
    def online(self) -> set[str]:
        return {identity for who in self.remote.values() for identity in who}

    def names(self) -> list[tuple[str, str]]:
        return [(identity, name) for who in self.remote.values() for identity, name in who.items()]

    def presence(self, identity: str, name: str, online: bool) -> None:
        self.node.players = sum(1 for c in self.hub.clients if c.named)
        self._later(self.node.set_presence(identity, name, online))

    def _later(self, work: Any) -> None:
        async def run() -> None:
            with contextlib.suppress(StoreError):
                await work

        self.hub._later(run())

    # -- the lobby ----------------------------------------------------------------------------
    def infos(self) -> list[p.TableInfo]:
        """The lobby's entries of the tables this server does not hold."""
        from ..core.errors import CellwarsError
        from ..core.registry import get_game

        online = self.hub.online
        out = []
        for code, s in self.summaries.items():
            if code in self.hub.tables or s.status not in ("open", "playing", "over"):
                continue
            try:
                title = get_game(s.game).title
            except CellwarsError:
                continue
            seats = tuple(p.SeatInfo(kind=x.kind, name=x.name, bot=x.bot,
                                     connected=x.kind == "bot" or (x.kind == "human"
                                                                   and x.identity in online))
                          for x in s.slots)
            out.append(p.TableInfo(code=code, game=s.game, title=title, seats=seats,
                                   spectators=0, host=s.host_name, status=s.status))
        return out

    def mine(self, identity: str) -> list[str]:
        return [code for code, s in self.summaries.items() if code not in self.hub.tables
                and any(x.kind == "human" and x.identity == identity for x in s.slots)]

    def seat_names(self) -> list[tuple[str, str]]:
        """(identity, name) of every person's seat at a table this server does not hold."""
        return [(x.identity, x.name) for code, s in self.summaries.items()
                if code not in self.hub.tables for x in s.slots if x.kind == "human"]

    # -- tables in memory ---------------------------------------------------------------------
    def is_replica(self, table: HubTable) -> bool:
        return table.code in self.versions

    def created(self, table: HubTable) -> None:
        """A table made here: this server owns it."""
        self._later(self.node.own(table.code))

    async def bring(self, code: str) -> HubTable | None:
        """The table ``code`` in memory (a replica, or this server's if nobody owns it and a
        person of it is here); None if the store has no such table."""
        table = self.hub.tables.get(code)
        if table is not None:
            return table
        try:
            stored = await self.store.fetch(code)
        except StoreError as exc:
            raise HubError(f"the table cannot be read now ({exc})") from None
        if stored is None or code in self.hub.tables:
            return self.hub.tables.get(code)
        return self._set_up(stored, owner=False)

    async def bring_tables_of(self, identity: str) -> None:
        """A player connected here: the games they sit at are held here (a replica; their own
        if nobody runs it: a game that slept)."""
        for code, s in list(self.summaries.items()):
            if s.status == "playing" and any(x.kind == "human" and x.identity == identity
                                             for x in s.slots):
                with contextlib.suppress(HubError):
                    await self.bring(code)
        with contextlib.suppress(StoreError):
            await self._take_over(coming=identity)

    def _set_up(self, stored: StoredTable, *, owner: bool, back: bool = False
                ) -> HubTable | None:
        """``stored`` in memory here: owned (its game, bots and clock run here) or a replica.
        ``back``: this server held it before the database went away, and its players here
        keep their seats even at a table not started yet."""
        old = self.hub.tables.pop(stored.code, None)
        watchers = old.watchers if old is not None else set()
        if old is not None:
            _stop(old)
        if owner:
            self.versions.pop(stored.code, None)
            self.clocks.pop(stored.code, None)
            table = self.hub._set_up(stored, restarted=True, seated_stay=back, why="")
        else:
            self.versions[stored.code] = stored.version
            self.clocks_told.pop(stored.code, None)
            table = self.hub.set_up_replica(stored, previous=old)
            if table is not None and table.game.real_time and stored.code not in self.clocks:
                self._later(self.store.notify(f"k {stored.code} {self.name}"))
        if table is None:
            self.versions.pop(stored.code, None)
            return None
        table.watchers = watchers
        for client in watchers:
            client.table = table
        if old is not None:
            table.last_watched = old.last_watched
            if not owner and table.league.rematch_code and not old.league.rematch_code:
                self._later(self._to_rematch(table))
        self.hub._table_changed(table)
        if old is not None and list(old.league.chat) != list(table.league.chat):
            self.hub.league.send_table_chat(table)  # (lines read with the table's new version)
        if table.status == "playing":  # its players here in the lobby go to it (as on connect),
            for client in list(self.hub.clients):  # and those at the game it is the rematch of
                at = client.table  # (whose new version may have come first: _to_rematch)
                if at is None and table.seat_of(client.identity) is not None or \
                        at is not None and at.league.rematch_code == table.code:
                    self.hub._enter(client, table)
        return table

    async def _to_rematch(self, table: HubTable) -> None:
        """The rematch of a replica's game was made at its owner: its watchers here go to it,
        as the owner's own do."""
        new = await self.bring(table.league.rematch_code)
        if new is None:
            return
        for client in list(table.watchers):
            if client.table is table or client.table is self.hub.tables.get(table.code):
                self.hub._enter(client, new)

    def watched(self) -> None:
        """Tell the owners of the tables watched here that they are (their sweeps close only
        tables nobody of any server has watched for a while): one short notification per
        sweep, the codes of the replicas someone here watches."""
        codes = sorted(c for c, t in self.hub.tables.items()
                       if self.is_replica(t) and t.watchers)
        while codes:
            head = f"w {self.name}"
            chunk: list[str] = []
            while codes and len(head) + sum(len(c) + 1 for c in chunk) + len(codes[0]) + 1 \
                    < NOTIFY_MAX:
                chunk.append(codes.pop(0))
            self._later(self.store.notify(" ".join([head, *chunk])))

    def _heard_watched(self, note: Note) -> None:
        if note.server == self.name:
            return
        for code in note.code.split():
            table = self.hub.tables.get(code)
            if table is not None and not self.is_replica(table):
                table.last_watched = self.hub.clock()

    def drop(self, table: HubTable) -> None:
        """A replica nobody here watches leaves memory (the store keeps the table)."""
        self.hub.tables.pop(table.code, None)
        self.versions.pop(table.code, None)
        self.clocks.pop(table.code, None)
        _stop(table)

    # -- a real-time table's round clock (.pg.replica_clock) ----------------------------------
    def clock_changed(self, table: HubTable, *, ask: bool = False) -> None:
        """An owned table was shown to its players here: its round clock is announced to the
        other servers if it is not what they show (``ask``: whatever it is)."""
        session = table.session
        if table.code not in self.node.owned or self.is_replica(table) \
                or not table.game.real_time:
            return
        if session is not None and session.started:
            left, running = round(session.remaining(), 2), session.running
        else:
            left, running = -1.0, False
        paused = table.paused()
        told = self.clocks_told.get(table.code)
        if not ask and (told is None and left < 0 or
                        told is not None and not told.differs(left, running, paused)):
            return
        note = rc.ClockNote(code=table.code, server=self.name, left=left, running=running,
                            paused=paused[:500])
        self.clocks_told[table.code] = rc.shown(note)
        self._later(self.store.notify(rc.packed(note)))

    def replica_clock(self, code: str) -> rc.Shown | None:
        return self.clocks.get(code)

    def _heard_clock(self, note: rc.ClockNote) -> None:
        if note.server == self.name:
            return
        self.clocks[note.code] = rc.shown(note)
        table = self.hub.tables.get(note.code)
        if table is not None and self.is_replica(table):
            self.hub._broadcast_table(table)

    # -- chat: a line said at any server reaches the players of every server ----------------
    def said(self, where: str, line: ChatLine) -> None:
        """A line said here (checked, cleaned, flood-guarded here; a lobby line kept in the
        store already), to the lobby (``where`` "") or to a table: every other server shows it;
        a table's owner keeps it with the table. At a table this server does not own, the line
        is first kept in the table's row if no server owns the table now (its owner died and
        nobody has taken it over yet): whoever takes it over finds the line there."""
        payload = _packed("h", Said(where=where, server=self.name, line=line))
        if len(payload.encode()) > NOTIFY_MAX:  # (never: a line is a few hundred bytes)
            return
        table = self.hub.tables.get(where) if where else None
        if table is not None and self.is_replica(table):
            self._later(self._say_at_replica(where, line, payload))
        else:
            self._later(self.store.notify(payload))

    async def _say_at_replica(self, code: str, line: ChatLine, payload: str) -> None:
        try:
            await self.store.keep_unowned_line(code, line, self.name)
        finally:  # (kept or not, every server shows it; an owner keeps it as it hears it)
            await self.store.notify(payload)

    def _heard_said(self, said: Said) -> None:
        if said.server == self.name:
            return
        league = self.hub.league
        line = kept_line(said.line)  # (as from any store: cleaned again)
        if line is None:
            return
        if not said.where:
            if league.add_lobby_line(line):
                league.send_lobby_chat()
            return
        table = self.hub.tables.get(said.where)
        if said.where in self.node.owned and (table is None or self.is_replica(table)):
            self._later(self._heard_while_taking_over(said.where, line))
            return  # (this server took the table a moment ago and is setting it up)
        if table is not None:  # (else not shown here: its owner keeps the line)
            self._heard_at(table, line)

    def _heard_at(self, table: HubTable, line: ChatLine) -> None:
        if line in table.league.chat:
            return  # (read with the table already: its owner saved it before this came)
        table.league.chat.append(line)
        if not self.is_replica(table):
            table.save()  # the chat is kept with the table, by its owner
        self.hub.league.send_table_chat(table)

    async def _heard_while_taking_over(self, code: str, line: ChatLine) -> None:
        """A line for a table this server has just taken over (its lock is held: the saying
        server could not keep the line in the row) is kept once the table is set up here."""
        for _ in range(int(TAKE_OVER_SECONDS / 0.05)):
            table = self.hub.tables.get(code)
            if code not in self.node.owned:
                return  # (it could not be set up here: released)
            if table is not None and not self.is_replica(table):
                self._heard_at(table, line)
                return
            await asyncio.sleep(0.05)

    # -- requests made here for another server's table ----------------------------------------
    async def forward(self, client: Client, table: HubTable, msg: p.Msg) -> None:
        """``client``'s request at ``table`` (a replica), sent to the table's owner."""
        self._rid += 1
        fwd = Forward(code=table.code, origin=self.name, rid=self._rid,
                      identity=client.identity, name=client.name, body=_encode(msg))
        payload = _packed("q", fwd)
        if len(payload.encode()) > NOTIFY_MAX:
            raise HubError("that request is too long")
        seq = msg.seq if isinstance(msg, p.Play) else 0
        self._asked[self._rid] = (client, seq, time.monotonic())
        if isinstance(msg, p.Sit) and client.code:
            client.send(p.Notice(message=f"Your reconnect code is {client.code}: type it in "
                                         "the lobby (o) to come back to this seat."))
        try:
            await self.store.notify(payload)
        except StoreError as exc:
            self._asked.pop(self._rid, None)
            raise HubError(f"the table's server cannot be reached now ({exc})") from None

    def answer(self, fwd: Forward, kind: str, message: str = "", seq: int = 0) -> None:
        payload = _packed("r", Answer(to=fwd.origin, rid=fwd.rid, kind=kind,
                                      message=message[:2000], seq=seq))
        self._later(self.store.notify(payload))

    async def _carry_out(self, fwd: Forward) -> None:
        """The owner carries out a request made at another server."""
        table = self.hub.tables.get(fwd.code)
        if table is None or fwd.code not in self.node.owned or self.is_replica(table):
            return  # (not ours: its owner answers)
        try:
            msg = p.decode_up(fwd.body)
        except p.ProtocolError:
            return
        if not isinstance(msg, FORWARDED):
            return
        client = RemoteClient(self, fwd, table)
        try:
            await self.hub._dispatch(client, msg)  # type: ignore[arg-type]
        except HubError as exc:
            client.send(p.Error(message=str(exc), seq=msg.seq if isinstance(msg, p.Play) else 0))
            return
        if not isinstance(msg, p.Play):  # (a move is answered once it is saved, or refused)
            self.answer(fwd, "done")

    def _answered(self, answer: Answer) -> None:
        asked = self._asked.pop(answer.rid, None) if answer.kind != "notice" else \
            self._asked.get(answer.rid)
        if asked is None:
            return
        client, _seq, _at = asked
        if answer.kind == "error":
            client.send(p.Error(message=answer.message, seq=answer.seq))
        elif answer.kind == "notice":
            client.send(p.Notice(message=answer.message))
        elif answer.kind == "played":
            client.played = answer.seq
            if client.table is not None:
                self.hub._broadcast_table(client.table)

    def _late_answers(self) -> None:
        now = time.monotonic()
        for rid, (client, seq, at) in list(self._asked.items()):
            if now - at > ANSWER_SECONDS:
                del self._asked[rid]
                what = "that move" if seq else "that request"
                client.send(p.Error(seq=seq, message=(
                    f"{what} got no answer from the table's server (it may have stopped): "
                    "look at the table and try again")))

    # -- what the others say ------------------------------------------------------------------
    async def _follow(self) -> None:
        """Every notification, in order (a table's new version is read before the answer to
        the move that made it)."""
        while True:
            note = await self._notes.get()
            if note is None:
                return
            try:
                await self._heard(note)
            except StoreError as exc:
                log.info("cluster: %s", exc)
            except Exception:  # noqa: BLE001 - one bad notification must not stop the rest
                log.exception("cluster: a notification could not be followed")

    async def _heard(self, note: Note) -> None:
        hub = self.hub
        if note.kind == "t":
            code = note.code
            if note.server == self.name:
                if code not in hub.tables:  # (its last save, leaving memory here)
                    await self._read_summary(code)
                return
            table = hub.tables.get(code)
            if table is not None and not self.is_replica(table):
                if code in self.node.owned:
                    return  # (ours: only a stale writer could have saved, and it failed)
            if table is not None and self.versions.get(code, 0) >= note.version:
                return
            if table is None:  # (only the lobby shows it here, unless a player of it is here)
                await self._read_summary(code)
                s = self.summaries.get(code)
                local = self.hub._local_online()
                if s is not None and s.status == "playing" and any(
                        x.kind == "human" and x.identity in local for x in s.slots):
                    with contextlib.suppress(HubError):
                        await self.bring(code)
                return
            stored = await self.store.fetch(code)
            if stored is None:
                return
            self.summaries[code] = _summary(stored)
            if code in hub.tables:
                self._set_up(stored, owner=False)
            hub._broadcast_lobby()
        elif note.kind == "d":
            self.summaries.pop(note.code, None)
            table = hub.tables.get(note.code)
            if table is not None and self.is_replica(table):
                self.drop(table)
                for client in list(table.watchers):
                    hub._leave(client)
            hub._broadcast_lobby()
        elif note.kind == "p" and note.server != self.name:
            who = self.remote.setdefault(note.server, {})
            if note.online:
                who[note.identity] = note.name
            else:
                who.pop(note.identity, None)
            hub._presence_elsewhere(note.identity)
        elif note.kind == "s" and note.server != self.name:
            for identity in self.remote.pop(note.server, {}):
                hub._presence_elsewhere(identity)
        elif note.kind == "q":
            await self._carry_out(_forward.decode(base64.b64decode(note.code)))
        elif note.kind == "w":
            self._heard_watched(note)
        elif note.kind == "h":
            self._heard_said(_said.decode(base64.b64decode(note.code)))
        elif note.kind == "c":
            self._heard_clock(rc.unpacked(note.code))
        elif note.kind == "k" and note.server != self.name:
            table = hub.tables.get(note.code)
            if table is not None:
                self.clock_changed(table, ask=True)
        elif note.kind == "r":
            answer = _answer.decode(base64.b64decode(note.code))
            if answer.to == self.name:
                self._answered(answer)

    # -- owners ------------------------------------------------------------------------------
    async def _take_over_loop(self) -> None:
        while True:
            await asyncio.sleep(ORPHAN_INTERVAL)
            self._late_answers()
            if not self.node.connected:
                continue
            try:
                await self._take_over()
            except StoreError:
                continue

    async def _read_summary(self, code: str) -> None:
        s = await self.store.summary(code)
        if s is None:
            self.summaries.pop(code, None)
        else:
            self.summaries[code] = s
        self.hub._broadcast_lobby()

    async def _take_over(self, *, coming: str = "") -> None:
        """Own the tables nobody owns that have someone to play for (a person seated is
        connected to some server, or bots play alone), every open table, and every finished
        one (its result is kept, its records written and it is deleted once idle, as its first
        owner would have done: the store keeps a result once). A server with nobody at such a
        table waits ``TAKE_OVER_WAIT`` scans first (one with players there goes first).
        ``coming``: a player connecting here now (only their tables are looked at)."""
        with_coming = {coming} if coming else set()
        online = self.hub.online | with_coming
        local = self.hub._local_online() | with_coming
        orphans = await self.node.orphans()
        seen = set(orphans)
        self.orphaned = {c: n for c, n in self.orphaned.items() if c in seen}
        for code in orphans:
            s = self.summaries.get(code)
            if s is None:
                await self._read_summary(code)  # (made since this server last read them)
                s = self.summaries.get(code)
                if s is None:
                    continue
            humans = [x.identity for x in s.slots if x.kind == "human"]
            if coming and coming not in humans:
                continue
            if humans and not any(h in online for h in humans) and s.status == "playing":
                continue  # asleep: it waits in the store for one of its players
            # (an open or finished table is taken over even with nobody there: its new
            # owner's sweep closes it once nobody has watched it for a while, as its first
            # owner's would, a finished one once its result and records are kept)
            here = code in self.hub.tables or any(h in local for h in humans)
            waited = self.orphaned[code] = self.orphaned.get(code, 0) + 1
            if not here and waited <= TAKE_OVER_WAIT:
                continue
            if not await self.node.own(code):
                continue
            stored = await self.store.fetch(code)
            if stored is None:
                await self.node.release(code)
                continue
            self.orphaned.pop(code, None)
            if self._set_up(stored, owner=True) is None:
                await self.node.release(code)
                continue
            self.takeovers.append((code, time.monotonic()))
            taken = self.hub.tables[code]
            if taken.match is not None and not taken.match.is_over():
                taken.note(f"its server stopped; the game goes on at server {self.name}.")
                self.hub._table_changed(taken)
            log.warning("cluster: table %s taken over at version %d (its server is gone)",
                        code, stored.version)

    def _lost(self) -> None:
        """The database is away (or this server was cut off as stalled): it owns nothing now.
        Its tables stay in memory, saving nothing more (another server may own them by the
        time the database is back: a late save must never overwrite the new owner's moves);
        their players read one line and their moves are refused until it is back."""
        for table in self.hub.tables.values():
            if not self.is_replica(table):
                table.saver.suspend("the database cannot be reached")

    def _back(self) -> None:
        """Back after the database was away: own again what this server held (or follow the
        server that took it), and read the lobby again."""
        self._later(self._own_again())

    async def _own_again(self) -> None:
        """Each table this server held is owned again (set up from its last committed version,
        with a new saver: a real-time round paused) or, if another server took it meanwhile,
        shown as that server's. The first statements after a restart of the database may still
        meet a dead pooled connection: the work is tried again (each table once) while this
        server stays joined; if it is cut off again, the next return starts it afresh."""
        done: set[str] = set()
        wait = 0.1
        while True:
            try:
                await self._own_each_again(done)
                break
            except StoreError:
                if not self.node.connected:
                    return
                await asyncio.sleep(wait)
                wait = min(wait * 2, 2.0)
        await self._read_all()

    async def _own_each_again(self, done: set[str]) -> None:
        for code, table in list(self.hub.tables.items()):
            if code in done or self.is_replica(table):
                continue
            mine = await self.node.own(code)
            stored = await self.store.fetch(code)
            done.add(code)
            if stored is None:
                continue
            saver = table.saver
            kept = False
            if mine and isinstance(saver, TableSaver) and stored.version == saver.version:
                # nobody wrote it meanwhile: what its players were shown here and was not saved
                # yet (a game started, a seat taken as the database went) is saved now, as a
                # single server's saver does once its store is back
                kept = True
                stored = msgspec.structs.replace(saver.snapshot(), version=stored.version)
            again = self._set_up(stored, owner=mine, back=kept)
            if kept and again is not None:
                again.save()
            if mine and stored.status == "playing" and again is not None:
                again.note("the database is back: play on.")

    def released(self, code: str) -> None:
        """A table of this server left memory (asleep, deleted): another server may own it."""
        self.clocks_told.pop(code, None)
        self._later(self.node.release(code))


def _summary(stored: StoredTable) -> TableSummary:
    from .pg.store import summary_of

    return summary_of(stored)


def _stop(table: HubTable) -> None:
    """A table's game stops here with no save (its store copy stays as it is)."""
    table.saver.suspend("the table is shown from the store now", quiet=True)
    game = table.authority
    if game is None:
        return
    from .saving import NoSaver

    game.saver = NoSaver()  # (the session's last clock step is not saved from here)
    game.autosave_enabled = False
    game.stop_bots()
    session = game.session
    if session is not None:
        for task in session.pending():
            task.cancel()
        session.stop()
