"""The hub: lobby, tables, seats and the authoritative game state, in the server process.

Every session's app connects to the hub's Unix socket and proves who it is with the secret token
the server gave it (the server admitted that token with the player's identity: a key fingerprint,
or ``guest`` until the guest picks a nickname). Players never claim an identity themselves.

A seat belongs to an identity, not to a name (:mod:`.tables`): a keyed player comes back to it
with the same key; a guest is given a reconnect code with their nickname, and only that code
gives their seats back (typed in the lobby, or as the SSH user name). A nickname taken by a
player who is away, or seated anywhere, is not given to anyone else.

A table holds a game, its options and its seats (free, a person, or a bot). Its host fills seats
with bots and starts it. From then on the table's game is a table authority
(:class:`~.game.OnlineGame`: every action is checked, played, logged, saved and answered by bots
there; :mod:`.hub_play` holds what the hub allows), and each watcher receives the view of its
own seat (``game.view(state, seat)``; spectators get the public view). A dropped
connection keeps its seat in a game that has started (turn-based games wait; a real-time game
pauses); at an open table the seat is freed. The host may hand an away player's seat to a bot.

A game that has started and is not over is never deleted while a person holds a seat at it: a
table nobody watches closes, goes to sleep (out of memory, kept in the store) until one of its
players comes back, or is archived (:mod:`.hub_sweep`).

With a table store (:mod:`.store`) every table is saved after every action, off the event loop and
before anyone hears of the action (:mod:`.saving`), and set up again when the hub starts:
players come back to their seats, and a real-time game waits, paused, until a seated player
plays on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from ..ai.levels import UnknownLevel, level_name
from ..core.errors import CellwarsError
from ..core.registry import get_game
from ..table.naming import seat_kind_word
from ..timer import Clock
from . import protocol as p
from .botpool import BotPool
from .hub_league import League, LeagueRefused
from .hub_play import TablePlay
from .hub_sweep import Asleep, TableKeeping
from .league_sqlite import MemoryLeague
from .names import name_key
from .store import StoredTable, TableStore
from .tables import (  # noqa: F401  (round_seconds: the hub's name too)
    CODE_ALPHABET, CODE_LENGTH, MAX_NAME, HubError, HubTable, Slot, clean_name, guest_identity,
    legacy_guest_identity, new_reconnect_code, normal_code, round_seconds, suggested_nickname,
)

log = logging.getLogger(__name__)

MAX_TABLES = 200
MAX_OPEN_PER_PLAYER = 3  # open tables (not yet started) one player may host at once
MAX_WRITE_BUFFER = 4 << 20  # a session that reads nothing is dropped rather than buffered for
# Lobby updates are sent at most once per this many seconds (the first at the end of the loop
# turn that asked for it, the next no sooner than this after it), and never to a client whose
# lobby would not change: a crowd logging in together asked for one broadcast to every lobby
# client per login (50 logins: about 1,250 messages, each a full table list).
LOBBY_INTERVAL = 0.1
MAX_WRONG_CODES = 5  # wrong reconnect codes a session may type (then it must connect again)


class Client:
    """One connected session."""

    def __init__(self, hub: Hub, writer: asyncio.StreamWriter) -> None:
        self.hub = hub
        self.writer = writer
        self.identity = ""
        self.name = ""
        self.code = ""  # a guest's reconnect code, given with the nickname (never stored)
        self.address = ""  # where the session connects from (the server says; hub_league)
        self.wrong_codes = 0
        self.table: HubTable | None = None
        self.played = 0  # the seq of this session's last move applied (told in table states)
        self.lobby_sent: p.Lobby | None = None  # the last lobby sent (an equal one is not resent)
        # the last table state sent: one that differs from it only by the step is not sent, so
        # another seat's secret move (an instruction written in secret) reaches no other screen
        self.table_sent: p.TableState | None = None

    @property
    def named(self) -> bool:
        return self.identity != "guest" and bool(self.identity)

    def send(self, msg: p.Msg) -> None:
        if self.writer.is_closing():
            return
        transport = self.writer.transport
        if transport.get_write_buffer_size() > MAX_WRITE_BUFFER:
            self.writer.close()
            return
        self.writer.write(p.frame(msg))


class Hub(TableKeeping):
    """Lobby and tables; serves the sessions' apps on a Unix socket."""

    def __init__(
        self,
        tables_dir: Path | None = None,
        *,
        home_for: Callable[[str], Path | None] | None = None,
        idle_table_seconds: float = 600.0,
        sweep_interval: float = 10.0,
        bots: BotPool | None = None,
        store: TableStore | None = None,
        archive_after: float = 0.0,
        guest_secret: bytes | None = None,
        rated_any_address: bool = False,
    ) -> None:
        if tables_dir is not None:
            tables_dir.mkdir(parents=True, exist_ok=True)
        self.socket_dir = Path(tempfile.mkdtemp(prefix="cellwars-hub-"))  # short path, mode 0700
        self.socket_path = self.socket_dir / "hub.sock"
        self.tables_dir = tables_dir
        self.home_for = home_for
        self.store = store
        self.idle_table_seconds = idle_table_seconds
        self.sweep_interval = sweep_interval
        self.archive_after = archive_after  # seconds a sleeping game may stay idle (0: forever)
        self.clock: Callable[[], float] = time.time  # tables' idle times (kept in the store)
        self.asleep: dict[str, Asleep] = {}  # code -> a table out of memory (see sweep)
        # the key of guests' identities (tables.guest_identity): the server keeps it beside its
        # host key; a hub given none makes one that lasts as long as it does
        self.guest_secret = guest_secret or secrets.token_bytes(32)
        self.tokens: dict[str, tuple[str, str]] = {}
        self.addresses: dict[str, str] = {}  # token -> the session's network address
        self.names: dict[str, str] = {}  # identity -> chosen display name
        self.clients: set[Client] = set()
        self.tables: dict[str, HubTable] = {}
        self._server: asyncio.base_events.Server | None = None
        self._sweeper: asyncio.Task | None = None
        self._handlers: dict[asyncio.Task, asyncio.StreamWriter] = {}
        self._closing: set[asyncio.Task[None]] = set()  # swept tables' last saves and deletions
        self._sleeping: dict[str, asyncio.Task[None]] = {}  # code -> a table going to sleep
        self.bots = bots or BotPool()  # bots think in worker processes (none yet)
        self.play = TablePlay(self.bots, tables_dir=tables_dir, home_for=home_for,
                              changed=self._table_changed)
        self.play.current = self.tables.get
        self._lobby_due: asyncio.TimerHandle | None = None  # the coming lobby broadcast
        self._lobby_sent_at = float("-inf")  # loop time of the last one
        self.lobby_broadcasts = 0  # how many were sent (for tests and curious operators)
        # ratings, results, chat, rematches (hub_league.py); the store keeps the results
        self.league = League(self, store if store is not None else MemoryLeague(),
                             rated_any_address=rated_any_address)

    # -- lifecycle ----------------------------------------------------------------------------
    @property
    def realtime_clock(self) -> Clock | None:
        """Real-time tables' clock (tests: a FakeClock; None: the real one)."""
        return self.play.realtime_clock

    @realtime_clock.setter
    def realtime_clock(self, clock: Clock | None) -> None:
        self.play.realtime_clock = clock

    async def start(self) -> None:
        await self.restore()
        await self.league.read_lobby_chat()  # as the store keeps it
        self._server = await asyncio.start_unix_server(self._handle, path=str(self.socket_path))
        self._sweeper = asyncio.create_task(self._sweep())

    async def restore(self) -> None:
        """Set up again every table of the store (a restart): seats, the game so far, the log;
        at an open table the players have left (their seats are free); a real-time game waits,
        paused, until a seated player plays on. A table that cannot be set up is left out with
        one line in the server's log."""
        if self.store is None:
            return
        stored, problems = await self.store.load()
        for problem in problems:
            log.warning("table store: %s", problem)
        for s in stored:
            if s.code not in self.tables:
                self._set_up(s, restarted=True)

    def _set_up(self, s: StoredTable, *, restarted: bool, seated_stay: bool = False,
                why: str = "the server restarted.") -> HubTable | None:
        """Set up the stored table ``s`` in memory: after a restart (``restarted``), or woken
        for a player who came back. At an open table the players have left (their seats are
        free) unless ``seated_stay`` (they never left: the server only lost its database a
        while); a real-time game waits, paused, until a seated player plays on after a restart,
        and for its players to be back after a sleep. ``why``: the line its log gets after a
        restart ("": its caller says what happened). None (and one line in the server's log)
        when it cannot be set up."""
        try:
            table, match = HubTable.from_stored(self, s, store=self.store)
        except CellwarsError as exc:
            log.warning("table %s cannot be set up again: %s", s.code, exc)
            return None
        table.changed = self._changed_callback(table)
        if s.active_at <= 0:
            table.active_at = self.clock()  # (stored before this was kept: idle from now)
        table.last_watched = self.clock()
        self.tables[s.code] = table
        self.asleep.pop(s.code, None)
        if match is None:
            if seated_stay:
                return table
            for i, slot in enumerate(table.slots):
                if slot.kind == "human":
                    table.slots[i] = Slot()
            return table
        table.away_ids = {slot.identity for slot in table.slots if slot.kind == "human"}
        left = None
        if not match.is_over():
            if restarted and why:
                table.note(why)
            if round_seconds(table.game, table.options):
                table.restored = restarted
                same_round = s.timer_round == table.game.round_of(match.state)
                left = s.clock_left if s.clock_left >= 0 and same_round else None
        self.play.set_up(table, match, left=left)
        self.league.game_over(table)  # a result not yet kept when the server stopped: now, once
        return table

    def _changed_callback(self, table: HubTable) -> Callable[[], None]:
        return lambda: self._table_changed(table)

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        if self._lobby_due is not None:
            self._lobby_due.cancel()
            self._lobby_due = None
        if self._sweeper is not None:
            self._sweeper.cancel()
        await self.settled()  # tables going to sleep or leaving the store
        await self.league.close()  # results being kept are kept
        # every game stops its bots and keeps the time reached; every save asked for is made
        await asyncio.gather(*(t.authority.close() for t in self.tables.values()
                               if t.authority is not None), return_exceptions=True)
        await self.bots.close()  # no worker process outlives the hub
        await asyncio.gather(*(t.saver.close() for t in self.tables.values()),
                             return_exceptions=True)
        for writer in list(self._handlers.values()):
            writer.close()  # each handler then sees the end of its stream and returns
        if self._handlers:
            _, late = await asyncio.wait(list(self._handlers), timeout=2)
            for task in late:
                task.cancel()
        if self.store is not None:
            await self.store.close()
        shutil.rmtree(self.socket_dir, ignore_errors=True)

    async def settled(self) -> None:
        """Wait until the tables the sweep took out of memory are saved (or out of the store)."""
        while self._closing or self._sleeping:
            await asyncio.gather(*self._closing, *self._sleeping.values(),
                                 return_exceptions=True)

    def _later(self, work: Any) -> None:
        """Run ``work`` (a coroutine) in a task the hub waits for before it closes."""
        task = asyncio.ensure_future(work)
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    def _save_clock(self, table: HubTable) -> None:
        """A running real-time game's clock, kept without waiting for the next action."""
        if table.match is not None and not table.match.is_over():
            table.save()

    def admit(self, token: str, identity: str, name: str, address: str = "") -> None:
        """The server vouches for the session holding ``token`` (from ``address``)."""
        self.tokens[token] = (identity, name)
        self.addresses[token] = address

    def dismiss(self, token: str) -> None:
        self.tokens.pop(token, None)
        self.addresses.pop(token, None)

    @property
    def online(self) -> set[str]:
        return {c.identity for c in self.clients if c.named}

    # -- connections ----------------------------------------------------------------------------
    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None  # a connection is handled in a task of its own
        self._handlers[task] = writer
        client = Client(self, writer)
        try:
            body = await asyncio.wait_for(p.read_frame(reader), 10)
            hello = p.decode_up(body) if body is not None else None
            if not isinstance(hello, p.Hello) or hello.token not in self.tokens:
                client.send(p.Error(message="not a session of this server"))
                return
            identity, name = self.tokens[hello.token]
            client.address = self.addresses.get(hello.token, "")
            await self._wake_for(identity, name)  # their games that slept are back in the lobby
            self._welcome(client, identity, name)
            while True:
                body = await p.read_frame(reader)
                if body is None:
                    break
                msg = p.decode_up(body)
                try:
                    await self._dispatch(client, msg)
                except (HubError, LeagueRefused) as exc:
                    seq = msg.seq if isinstance(msg, p.Play) else 0
                    client.send(p.Error(message=str(exc), seq=seq))
        except (p.ProtocolError, asyncio.TimeoutError, ConnectionError):
            pass
        finally:
            self._handlers.pop(task, None)
            self._goodbye(client)
            writer.close()

    def _welcome(self, client: Client, identity: str, name: str) -> None:
        client.identity = identity
        if identity.startswith("key:"):  # their SSH user name, by the rule for every name
            try:
                client.name = self.names.get(identity) or clean_name(name)
            except HubError:
                client.name = "player"
            client.name = self._free_name(client.name, identity)
        elif identity == "guest" and normal_code(name):
            self._reclaim(client, name, quiet=True)  # ``ssh CODE@host``: straight back
        self.clients.add(client)
        client.send(p.Welcome(identity=client.identity, name=client.name,
                              need_name=not client.named,
                              suggest="" if client.named else suggested_nickname(name)))
        if client.named:
            self._changed_presence(client.identity)
        self._send_lobby(client)
        self._rejoin(client)
        self.league.entered(client)  # the lobby's chat, or their table's

    def _rejoin(self, client: Client) -> None:
        """A player who comes back to a game in progress is taken straight to its table."""
        if client.table is not None or not client.named:
            return
        for table in self.tables.values():
            if table.status == "playing" and table.seat_of(client.identity) is not None:
                self._enter(client, table)
                return

    def _goodbye(self, client: Client) -> None:
        if client not in self.clients:
            return
        self.clients.discard(client)
        table = client.table
        if table is not None:
            table.watchers.discard(client)
            table.last_watched = self.clock()
            if table.match is None and not self._still_online(client.identity):
                self._release_seat(table, client.identity)  # an open table: the seat is free
        if client.named:
            self._changed_presence(client.identity)  # tells the tables where they sit
        if table is not None and table.seat_of(client.identity) is None:
            self._table_changed(table)  # its watchers see the seat free (or one spectator less)

    def _still_online(self, identity: str) -> bool:
        return any(c.identity == identity for c in self.clients)

    def _changed_presence(self, identity: str) -> None:
        online = self._still_online(identity)
        for table in self.tables.values():
            seat = table.seat_of(identity)
            if seat is None:
                continue
            if table.status == "playing":
                name = table.slots[seat].name
                if online and identity in table.away_ids:
                    table.away_ids.discard(identity)
                    table.note(f"{name} is back.")
                elif not online and identity not in table.away_ids:
                    table.away_ids.add(identity)
                    then = "the game pauses" if table.game.real_time else "the seat waits"
                    table.note(f"{name} lost the connection; {then}.")
            self._advance(table)  # first: a real-time game's timer pauses or runs on
            self._broadcast_table(table)
        self._broadcast_lobby()

    # -- requests -------------------------------------------------------------------------------
    async def _wake_for(self, identity: str, name: str) -> None:
        """Bring back the sleeping games of who just connected (a key, or a guest whose SSH
        user name is their reconnect code)."""
        if identity.startswith("key:"):
            await self._wake(identity)
        elif identity == "guest" and normal_code(name):
            await self._wake_code(name)

    async def _wake_code(self, code: str) -> None:
        """The sleeping games of the guest whose reconnect code this is."""
        if normal_code(code) and self.asleep:
            await self._wake(guest_identity(code, self.guest_secret))
            await self._wake(legacy_guest_identity(code))

    async def _dispatch(self, client: Client, msg: p.Msg) -> None:
        if isinstance(msg, p.SetName):
            if msg.code:
                await self._wake_code(msg.code)
                self._reclaim(client, msg.code)
            else:
                self._set_name(client, msg.name)
            return
        if not client.named:
            raise HubError("pick a nickname first")
        match msg:
            case p.CreateTable():
                self._create(client, msg)
            case p.Join():
                code = msg.code.strip().upper()[:16]
                if code in self.asleep:
                    await self._wake_table(code)  # a sleeping game, asked for by its room code
                self._join(client, msg.code)
            case p.Sit():
                self._sit(client, msg.seat)
            case p.Stand():
                self._stand(client)
            case p.SetBot():
                self._set_bot(client, msg.seat, msg.bot)
            case p.Start():
                table = self._here(client)
                if client.identity == table.host_identity:
                    self.league.check_start(table)  # a rated game: keyed players, one seat each
                self.play.start(client, table)
            case p.Play():
                self.play.play(client, self._here(client), msg.step, msg.action, msg.seq)
            case p.Pause():
                self.play.pause(client, self._here(client), msg.on)
            case p.Leave():
                self._leave(client)
            case p.Say() | p.Remove() | p.Rematch() | p.AskLeaderboard() | p.AskProfile() \
                    | p.AskGame():
                self.league.request(client, msg)  # chat, rematch, ratings (hub_league.py)
            case _:
                raise HubError("that request is not understood here")

    def _set_name(self, client: Client, text: str) -> None:
        """A keyed player's display name, or a guest's nickname: a guest who names themselves
        for the first time is given a new secret identity and its reconnect code."""
        name = clean_name(text)
        taken = self._name_holder(name, client.identity)
        if taken:
            raise HubError(f"the nickname {name!r} is {taken}; pick another")
        if client.identity.startswith("key:"):
            client.name = name
            self.names[client.identity] = name
        else:
            if client.table is not None:
                raise HubError("leave the table before changing your nickname")
            if not client.code:
                client.code = new_reconnect_code()
                client.identity = guest_identity(client.code, self.guest_secret)
            client.name = name
        self._welcome_again(client)

    def _name_holder(self, name: str, identity: str) -> str:
        """Why ``name`` is not free for ``identity`` ("" when it is): another player connected
        now uses it, or it is the name of another player's seat (they may be away)."""
        key = name_key(name)  # case and look-alike letters aside (.names)
        if any(c.named and c.identity != identity and name_key(c.name) == key
               for c in self.clients):
            return "in use"
        for table in self.tables.values():
            for slot in table.slots:
                if (slot.kind == "human" and slot.identity != identity
                        and name_key(slot.name) == key):
                    return "held by a player at a table"
        for asleep in self.asleep.values():
            if any(who != identity and name_key(held) == key for who, held in asleep.seats):
                return "held by a player at a table"
        return ""

    def _free_name(self, name: str, identity: str) -> str:
        """``name`` if it is free for ``identity``, else it with the first number that makes
        it free ("ann-2"): a keyed player's SSH user name never poses as another player."""
        if not self._name_holder(name, identity):
            return name
        for n in range(2, 10_000):
            suffix = f"-{n}"
            candidate = name[:MAX_NAME - len(suffix)].rstrip() + suffix
            if not self._name_holder(candidate, identity):
                return candidate
        return f"player-{secrets.token_hex(4)}"

    def _reclaim(self, client: Client, text: str, *, quiet: bool = False) -> None:
        """A guest's seats back, by their reconnect code (never by a name). ``quiet``: the code
        came as the SSH user name; if it holds no seat, the guest just picks a nickname."""
        if client.identity.startswith("key:"):
            raise HubError("you came with a key: your seats are your key's")
        if client.wrong_codes >= MAX_WRONG_CODES:
            raise HubError("too many wrong codes: connect again to try another")
        identity = guest_identity(text, self.guest_secret) if normal_code(text) else ""
        if identity:  # (their sleeping games are woken before: _wake_code)
            self._upgrade_guest(legacy_guest_identity(text), identity)
        name = next((slot.name for table in self.tables.values() for slot in table.slots
                     if identity and slot.kind == "human" and slot.identity == identity), "")
        if not name:
            if quiet:
                return
            client.wrong_codes += 1
            raise HubError("no seat is held with that reconnect code")
        if client.table is not None:
            self._leave(client)
        client.code = f"{normal_code(text)[:5]}-{normal_code(text)[5:]}"
        client.identity, client.name = identity, name
        if not quiet:
            self._welcome_again(client)

    def _upgrade_guest(self, legacy: str, identity: str) -> None:
        """Seats held under a reconnect code's identity from before the server's secret (a
        store from an older version) pass to its keyed identity, now that its guest is back
        with the code."""
        for table in self.tables.values():
            if table.seat_of(legacy) is None:
                continue
            for slot in table.slots:
                if slot.kind == "human" and slot.identity == legacy:
                    slot.identity = identity
            if table.host_identity == legacy:
                table.host_identity = identity
            if legacy in table.away_ids:
                table.away_ids = (table.away_ids - {legacy}) | {identity}
            if table.match is not None:
                table.match.seats = tuple(slot.seat(table.think) for slot in table.slots)
            self._save(table)

    def _welcome_again(self, client: Client) -> None:
        client.send(p.Welcome(identity=client.identity, name=client.name, code=client.code))
        self._changed_presence(client.identity)
        self._rejoin(client)
        if client.table is None:  # (a table's chat came with the table)
            self.league.entered(client)  # a guest just named: the lobby's chat so far

    def _create(self, client: Client, msg: p.CreateTable) -> None:
        if len(self.tables) >= MAX_TABLES:
            raise HubError("the server has as many tables as it can hold; join one")
        hosted = sum(1 for t in self.tables.values()
                     if t.match is None and t.host_identity == client.identity)
        if hosted >= MAX_OPEN_PER_PLAYER:
            raise HubError(f"you host {hosted} open tables already (the most one player may): "
                           "start a game at one of them, or wait until they close")
        try:
            game = get_game(msg.game)
            options = game.options_from_dict({**msg.options, "players": msg.players})
        except CellwarsError as exc:
            raise HubError(str(exc)) from None
        if not 0.01 <= msg.think <= 30:
            raise HubError("bots think between 0.01 and 30 seconds")
        self.league.check_new(client, game, msg.rated)
        code = self._new_code()
        table = HubTable(self, code, game, options, msg.think, client.identity, client.name,
                         store=self.store)
        table.league.rated = msg.rated
        table.changed = self._changed_callback(table)
        self.tables[code] = table
        self._enter(client, table)
        self._sit(client, 0)

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.tables and code not in self.asleep:
                return code

    def _table(self, code: str) -> HubTable:
        table = self.tables.get(code.strip().upper()[:16])
        if table is None:
            raise HubError(f"no table has the code {code.strip()[:16]!r}")
        return table

    def _join(self, client: Client, code: str) -> None:
        self._enter(client, self._table(code))

    def _enter(self, client: Client, table: HubTable) -> None:
        if client.table is not None and client.table is not table:
            self._leave(client)
        client.table = table
        client.table_sent = None  # (entering: the table's state comes, whatever came before)
        table.watchers.add(client)
        table.last_watched = self.clock()
        self._broadcast_table(table)
        self._broadcast_lobby()
        self.league.entered(client)

    def _here(self, client: Client) -> HubTable:
        if client.table is None:
            raise HubError("join a table first")
        return client.table

    def _sit(self, client: Client, seat: int) -> None:
        table = self._here(client)
        if table.match is not None:
            raise HubError("the game has started; seats are taken")
        if not 0 <= seat < len(table.slots):
            raise HubError(f"this table has seats 1 to {len(table.slots)}")
        slot = table.slots[seat]
        if slot.kind == "human" and slot.identity == client.identity:
            return
        if slot.kind != "free":
            raise HubError(f"seat {seat + 1} is taken")
        self.league.check_sit(client, table)  # sent away; a rated table's rules
        self._release_seat(table, client.identity)
        slot.kind, slot.identity, slot.name = "human", client.identity, client.name
        if client.code:
            client.send(p.Notice(message=f"Your reconnect code is {client.code}: type it in the "
                                         "lobby (o) to come back to this seat."))
        self._save(table)
        self.league.seated(table)
        self._table_changed(table)

    def _release_seat(self, table: HubTable, identity: str) -> None:
        seat = table.seat_of(identity)
        if seat is not None:
            table.slots[seat] = Slot()

    def _stand(self, client: Client) -> None:
        table = self._here(client)
        if table.match is not None:
            raise HubError("the game has started: a seat is kept until the game ends")
        self._release_seat(table, client.identity)
        self.league.seated(table)
        self._table_changed(table)

    def _set_bot(self, client: Client, seat: int, bot: str) -> None:
        table = self._here(client)
        if client.identity != table.host_identity:
            raise HubError("only the table's host can seat bots")
        if not 0 <= seat < len(table.slots):
            raise HubError(f"this table has seats 1 to {len(table.slots)}")
        slot = table.slots[seat]
        if bot:
            self.league.check_bot(table)
            try:
                bot = level_name(bot)  # a level; "bot" and "mcts" are normal and hard
            except UnknownLevel as exc:
                raise HubError(str(exc)) from None
        if table.match is None:
            if slot.kind == "human":
                raise HubError(f"seat {seat + 1} is taken by {slot.name}")
            if bot:
                slot.kind, slot.bot, slot.identity = "bot", bot, ""
                slot.name = table.game.seat_label(seat)  # shown as "Blue (normal bot)"
            else:
                table.slots[seat] = Slot()
            self._save(table)
        else:
            if table.match.is_over():
                raise HubError("the game is over")
            if not bot or slot.kind != "human" or slot.identity in self.online:
                raise HubError("only the seat of a player who left can go to a bot")
            slot.kind, slot.bot, slot.identity = "bot", bot, ""  # the name stays the player's
            table.match.seats = tuple(s.seat(table.think) for s in table.slots)
            table.note(f"{slot.name}'s seat goes to a {seat_kind_word(table.match.seats[seat])}.")
            self._save(table)
            self._advance(table)
        self._table_changed(table)

    def _leave(self, client: Client, reason: str = "") -> None:
        table = client.table
        if table is None:
            return
        table.watchers.discard(client)
        client.table = None
        client.table_sent = None
        table.last_watched = self.clock()
        if table.match is None:
            self._release_seat(table, client.identity)
        self._table_changed(table)
        client.send(p.Left(reason=reason))
        self._send_lobby(client)
        self.league.entered(client)  # the lobby's chat

    def _advance(self, table: HubTable) -> None:
        """The table's game follows (a real-time game's timer pauses or runs on; bots move)."""
        if table.authority is not None:
            table.authority.advance()

    def _table_changed(self, table: HubTable) -> None:
        self.league.game_over(table)  # a game that just ended: its result and ratings, once
        self._broadcast_table(table)
        self._broadcast_lobby()

    # -- what the league asks of the hub (hub_league.LeagueHub) ---------------------------------
    def changed(self, table: Any) -> None:
        self._table_changed(table)

    def here(self, client: Client) -> HubTable:
        return self._here(client)

    def send_away(self, table: Any, identity: str) -> None:
        """The host sent ``identity`` away (hub_league): their seat is free, and every session
        of theirs at the table goes back to the lobby."""
        self._release_seat(table, identity)
        for client in [c for c in table.watchers if c.identity == identity]:
            self._leave(client, "the host sent you away from this table (you may watch it)")

    def rematch_table(self, table: Any, seats: list[Any]) -> HubTable:
        """A new table like ``table`` (game, options, kind) with ``seats`` in order, its game
        started; the old table's watchers are taken to it."""
        code = self._new_code()
        new = HubTable(self, code, table.game, table.options, table.think, table.host_identity,
                       table.host_name, store=self.store)
        new.changed = self._changed_callback(new)
        new.league.rated = table.league.rated
        for i, old in enumerate(seats):
            slot = new.slots[i]
            slot.kind, slot.identity, slot.name, slot.bot = (old.kind, old.identity, old.name,
                                                             old.bot)
        self.tables[code] = new
        new.note(f"A rematch of table {table.code}: everyone moved one seat on.")
        self.play.begin(new)
        self.league.seated(new)
        for client in list(table.watchers):
            self._enter(client, new)
        return new

    def _broadcast_table(self, table: HubTable) -> None:
        info = table.info()
        views: dict = {}
        for client in list(table.watchers):
            state = table.state_for(client, info, views)
            last = client.table_sent
            if last is not None and msgspec.structs.replace(state, step=last.step) == last:
                continue  # nothing this reader may see changed (the hub takes its moves on)
            client.table_sent = state
            client.send(state)

    def _lobby_for(self, client: Client, infos: list[p.TableInfo]) -> p.Lobby:
        mine = tuple(code for code, t in self.tables.items() if t.seat_of(client.identity) is not None)
        return p.Lobby(tables=tuple(infos), mine=mine)

    def _infos(self) -> list[p.TableInfo]:
        """The lobby's tables (a hub among others adds theirs: .hub_cluster)."""
        return [t.info() for t in self.tables.values()]

    def _send_lobby(self, client: Client) -> None:
        infos = self._infos()
        client.lobby_sent = self._lobby_for(client, infos)
        client.send(client.lobby_sent)

    def _broadcast_lobby(self) -> None:
        """Every client in the lobby (at no table) gets the lobby soon: see LOBBY_INTERVAL."""
        if self._lobby_due is not None:
            return  # one is coming, and it will say what is true by then
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a test driving the hub by hand): at once
            self._flush_lobby()
            return
        wait = max(0.0, self._lobby_sent_at + LOBBY_INTERVAL - loop.time())
        self._lobby_due = loop.call_later(wait, self._flush_lobby)

    def _flush_lobby(self) -> None:
        self._lobby_due = None
        with contextlib.suppress(RuntimeError):
            self._lobby_sent_at = asyncio.get_running_loop().time()
        self.lobby_broadcasts += 1
        infos = self._infos()
        for client in list(self.clients):
            if client.table is None:
                lobby = self._lobby_for(client, infos)
                if lobby != client.lobby_sent:
                    client.lobby_sent = lobby
                    client.send(lobby)

    def _save(self, table: HubTable) -> None:
        """Every save follows an action: the table was active now (``archive_after`` counts
        from its last one)."""
        table.active_at = self.clock()
        table.save()
