"""The hub: lobby, tables, seats and the authoritative game state, in the server process.

Every session's app connects to the hub's Unix socket and proves who it is with the secret token
the server gave it (the server admitted that token with the player's identity: a key fingerprint,
or ``guest`` until the guest picks a nickname). Players never claim an identity themselves, so
nobody can take another player's seat.

A table holds a game, its options and its seats (free, a person, or a bot). Its host fills seats
with bots and starts it. From then on the hub owns the :class:`~cellwars_tui.core.match.Match`:
every action goes through the rules core, and each watcher receives the view of its own seat
(``game.view(state, seat)``; spectators get the public view). A dropped connection keeps its seat:
turn-based games wait for the player, who comes back by connecting again with the same key or
nickname; the host may hand the seat to a bot. Tables nobody has watched for a while close.
Bots think in worker processes (:mod:`.botpool`), never in the server's: a search bot must not make
every other player's keys and frames wait; a worker that fails gives a random legal move instead.

A real-time game (Infection) plays on one shared timer per table, kept here: every seat sees the
same seconds left, the hub applies the game's ``time-up N`` system action when a round's time runs
out, bot teammates act at a human pace on the timer's play time, and the timer stops while a seated
player is away (the game is paused) and runs on when they are back.

Games are saved after every step in the server's ``ssh/tables`` folder, and a finished game is also
copied into the saved games of every keyed player at the table, where the app lists it for replay.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as _dt
import logging
import random
import secrets
import shutil
import tempfile
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path

from ..ai.bots import make_bot
from ..core.api import CHANCE, Action, Game
from ..core.errors import CellwarsError
from ..core.match import Match, Seat
from ..core.registry import get_game
from ..record.format import SUFFIX, save_match
from ..timer import PAUSED, RUNNING, Timer
from ..ui.naming import seat_kind_word
from . import protocol as p
from .botpool import BotFailed, BotPool

log = logging.getLogger(__name__)

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ"  # no I or O: codes are read aloud and typed
CODE_LENGTH = 4
MAX_TABLES = 200
MAX_NAME = 20
LOG_KEPT = 60  # log entries a table keeps
LOG_SENT = 30  # log lines sent with each table state
MAX_WRITE_BUFFER = 4 << 20  # a session that reads nothing is dropped rather than buffered for
REALTIME_BOT_PACE = 1.2  # seconds between two actions of a bot in a real-time game (on average)
REALTIME_BOT_JITTER = 0.3  # each wait is the pace times a factor in [1 - jitter, 1 + jitter]
REALTIME_BOT_BUDGET = 0.02  # seconds a real-time bot thinks per action
# Lobby updates are sent at most once per this many seconds (the first at the end of the loop
# turn that asked for it, the next no sooner than this after it), and never to a client whose
# lobby would not change: a crowd logging in together asked for one broadcast to every lobby
# client per login (50 logins: about 1,250 messages, each a full table list).
LOBBY_INTERVAL = 0.1
THINKING = "thinking"  # Table.bot_due's mark for a real-time bot whose action is being thought


def round_seconds(game: Game, options) -> float | None:
    """The length of a real-time game's round, when it plays on a round timer.

    The contract (Infection's): ``options.round_seconds``, ``state.round`` counting the rounds, and
    the system action ``time-up N`` (seat CHANCE) that ends round N when its time runs out."""
    if not game.real_time:
        return None
    secs = getattr(options, "round_seconds", None)
    return float(secs) if isinstance(secs, (int, float)) and secs > 0 else None


def time_up_action(game: Game, state) -> Action | None:
    """The system action that ends the current round, if the game has one legal now."""
    try:
        action = game.action_from_str(f"time-up {getattr(state, 'round', 0)}")
    except CellwarsError:
        return None
    return action if game.is_legal(state, CHANCE, action) else None


class HubError(CellwarsError):
    """A request the hub refuses; its text is sent to the player."""


def clean_name(text: str) -> str:
    name = " ".join(text.split())
    if not 1 <= len(name) <= MAX_NAME:
        raise HubError(f"a name has 1 to {MAX_NAME} characters")
    if not all(ch.isalnum() or ch in " -_." for ch in name):
        raise HubError("a name has letters, digits, spaces, - _ and . only")
    return name


class Slot:
    """One seat at a table."""

    __slots__ = ("kind", "identity", "name", "bot")

    def __init__(self) -> None:
        self.kind = "free"  # "free" | "human" | "bot"
        self.identity = ""
        self.name = ""
        self.bot = ""

    def seat(self, think: float) -> Seat:
        if self.kind == "bot":
            return Seat(name=self.name, kind="bot", bot=self.bot, think=think)
        return Seat(name=self.name, identity=self.identity)


class Client:
    """One connected session."""

    def __init__(self, hub: Hub, writer: asyncio.StreamWriter) -> None:
        self.hub = hub
        self.writer = writer
        self.identity = ""
        self.name = ""
        self.table: Table | None = None
        self.played = 0  # the seq of this session's last move applied (told in table states)
        self.lobby_sent: p.Lobby | None = None  # the last lobby sent (an equal one is not resent)

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


class Table:
    def __init__(self, hub: Hub, code: str, game: Game, options, think: float, host: Client) -> None:
        self.hub = hub
        self.code = code
        self.game = game
        self.options = options
        self.think = think
        self.slots = [Slot() for _ in range(options.players)]
        self.host_identity = host.identity
        self.host_name = host.name
        self.watchers: set[Client] = set()
        self.match: Match | None = None
        self.record_path: Path | None = None
        # (step, seat, what): what is a public sentence, or a game Event told per seat (see lines_for)
        self.log: deque[tuple[int, int | None, object]] = deque(maxlen=LOG_KEPT)
        self.last_watched = time.monotonic()
        self.bot_task: asyncio.Task | None = None
        self.rng = random.Random(secrets.randbits(64))
        self.saved_for_players = False
        self.away_ids: set[str] = set()  # seated players known to be away (for the log)
        self.timer: Timer | None = None  # a real-time game's shared round timer
        self.timer_round: object = None  # the round the timer counts down
        self.bot_due: dict[int, object] = {}  # real time: a bot seat's next action, scheduled
        self.think_tasks: set[asyncio.Task] = set()  # real time: bots' actions being thought
        self.paused_by = ""  # real time: the seated player who paused the game ("": nobody)

    @property
    def status(self) -> str:
        if self.match is None:
            return "open"
        return "over" if self.match.is_over() else "playing"

    def seat_of(self, identity: str) -> int | None:
        for i, slot in enumerate(self.slots):
            if slot.kind == "human" and slot.identity == identity:
                return i
        return None

    def info(self) -> p.TableInfo:
        online = self.hub.online
        seats = tuple(
            p.SeatInfo(kind=s.kind, name=s.name, bot=s.bot,
                       connected=s.kind == "bot" or (s.kind == "human" and s.identity in online))
            for s in self.slots
        )
        seated = {s.identity for s in self.slots if s.kind == "human"}
        spectators = sum(1 for c in self.watchers if c.identity not in seated)
        return p.TableInfo(code=self.code, game=self.game.id, title=self.game.title, seats=seats,
                           spectators=spectators, host=self.host_name, status=self.status)

    def note(self, text: str, seat: int | None = None) -> None:
        """A public line in the table's log."""
        self.log.append((self.match.cursor if self.match is not None else 0, seat, text))

    def away(self) -> list[str]:
        """Names of seated players who are not connected."""
        online = self.hub.online
        return [s.name for s in self.slots if s.kind == "human" and s.identity not in online]

    def paused(self) -> str:
        """Why a real-time game is paused now ("" when it runs): a seated player is away, or
        one of them paused it."""
        if self.match is None or self.match.is_over() or not self.game.real_time:
            return ""
        away = self.away()
        if away:
            return f"paused: waiting for {', '.join(away)} to come back"
        return f"paused by {self.paused_by}" if self.paused_by else ""

    def lines_for(self, you: int | None) -> tuple[p.LogLine, ...]:
        """The log as seat ``you`` may read it: the game's ``view_event(event, seat)`` hook
        hides (None) or masks events another seat may not know of."""
        names = [s.name for s in self.slots]
        out: list[p.LogLine] = []
        for step, seat, what in self.log:
            if isinstance(what, str):
                out.append(p.LogLine(step, seat, what))
                continue
            try:
                event = self.game.view_event(what, you)
            except Exception:  # a game's bug must not leak nor break the table
                event = None
            if event is None:
                continue
            try:
                text = self.game.describe_event(event, names)
            except Exception as exc:
                text = f"({type(event).__name__}: {exc})"
            out.append(p.LogLine(step, seat, text))
        return tuple(out[-LOG_SENT:])

    def state_for(self, client: Client, info: p.TableInfo, cache: dict) -> p.TableState:
        you = self.seat_of(client.identity)
        if you not in cache:
            m = self.match
            legal: tuple[str, ...] = ()
            paused = self.paused()
            if m is not None and you is not None and you in m.to_act() and not paused:
                legal = tuple(self.game.action_to_str(a) for a in m.legal_actions(you))
            cache[you] = dict(
                you=you, log=self.lines_for(you), legal=legal, paused=paused,
                record=str(self.record_path) if self.record_path else "",
            )
            if m is not None:
                cache[you].update(step=m.cursor, view=self.game.encode_state(m.view(you)),
                                  to_act=m.to_act(), outcome=m.outcome())
            if self.timer is not None:
                cache[you].update(clock=round(self.timer.remaining(), 2),
                                  clock_running=self.timer.state == RUNNING)
        return p.TableState(info=info, host=client.identity == self.host_identity,
                            played=client.played, **cache[you])


class Hub:
    """Lobby and tables; serves the sessions' apps on a Unix socket."""

    def __init__(
        self,
        tables_dir: Path | None = None,
        *,
        home_for: Callable[[str], Path | None] | None = None,
        idle_table_seconds: float = 600.0,
        sweep_interval: float = 10.0,
        bots: BotPool | None = None,
    ) -> None:
        if tables_dir is not None:
            tables_dir.mkdir(parents=True, exist_ok=True)
        self._dir = Path(tempfile.mkdtemp(prefix="cellwars-hub-"))  # short path, mode 0700
        self.socket_path = self._dir / "hub.sock"
        self.tables_dir = tables_dir
        self.home_for = home_for
        self.idle_table_seconds = idle_table_seconds
        self.sweep_interval = sweep_interval
        self.tokens: dict[str, tuple[str, str]] = {}
        self.names: dict[str, str] = {}  # identity -> chosen display name
        self.clients: set[Client] = set()
        self.tables: dict[str, Table] = {}
        self._server: asyncio.base_events.Server | None = None
        self._sweeper: asyncio.Task | None = None
        self._handlers: dict[asyncio.Task, asyncio.StreamWriter] = {}
        self.bots = bots or BotPool()  # turn-based bots think in worker processes (none yet)
        self._lobby_due: asyncio.TimerHandle | None = None  # the coming lobby broadcast
        self._lobby_sent_at = float("-inf")  # loop time of the last one
        self.lobby_broadcasts = 0  # how many were sent (for tests and curious operators)

    # -- lifecycle ----------------------------------------------------------------------------
    async def start(self) -> None:
        self._server = await asyncio.start_unix_server(self._handle, path=str(self.socket_path))
        self._sweeper = asyncio.create_task(self._sweep())

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        if self._lobby_due is not None:
            self._lobby_due.cancel()
            self._lobby_due = None
        bot_tasks = [t.bot_task for t in self.tables.values() if t.bot_task is not None]
        bot_tasks += [task for t in self.tables.values() for task in t.think_tasks]
        for task in [self._sweeper, *bot_tasks]:
            if task is not None:
                task.cancel()
        await asyncio.gather(*bot_tasks, return_exceptions=True)
        await self.bots.close()  # no worker process outlives the hub
        for table in self.tables.values():
            if table.timer is not None:
                table.timer.close()
        for writer in list(self._handlers.values()):
            writer.close()  # each handler then sees the end of its stream and returns
        if self._handlers:
            _, late = await asyncio.wait(list(self._handlers), timeout=2)
            for task in late:
                task.cancel()
        shutil.rmtree(self._dir, ignore_errors=True)

    def admit(self, token: str, identity: str, name: str) -> None:
        """The server vouches for the session holding ``token``."""
        self.tokens[token] = (identity, name)

    def dismiss(self, token: str) -> None:
        self.tokens.pop(token, None)

    @property
    def online(self) -> set[str]:
        return {c.identity for c in self.clients if c.named}

    # -- connections ----------------------------------------------------------------------------
    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        self._handlers[task] = writer
        client = Client(self, writer)
        try:
            body = await asyncio.wait_for(p.read_frame(reader), 10)
            hello = p.decode_up(body) if body is not None else None
            if not isinstance(hello, p.Hello) or hello.token not in self.tokens:
                client.send(p.Error(message="not a session of this server"))
                return
            identity, name = self.tokens[hello.token]
            self._welcome(client, identity, name)
            while True:
                body = await p.read_frame(reader)
                if body is None:
                    break
                msg = p.decode_up(body)
                try:
                    self._dispatch(client, msg)
                except HubError as exc:
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
        if identity.startswith("key:"):
            try:
                client.name = self.names.get(identity) or clean_name(name)
            except HubError:
                client.name = "player"
        self.clients.add(client)
        client.send(p.Welcome(identity=identity, name=client.name, need_name=not client.named))
        if client.named:
            self._changed_presence(client.identity)
        self._send_lobby(client)
        self._rejoin(client)

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
            table.last_watched = time.monotonic()
            if table.match is None and not self._still_online(client.identity):
                self._release_seat(table, client.identity)
        if client.named:
            self._changed_presence(client.identity)

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
    def _dispatch(self, client: Client, msg: p.Msg) -> None:
        if isinstance(msg, p.SetName):
            self._set_name(client, msg.name)
            return
        if not client.named:
            raise HubError("pick a nickname first")
        match msg:
            case p.CreateTable():
                self._create(client, msg)
            case p.Join():
                self._join(client, msg.code)
            case p.Sit():
                self._sit(client, msg.seat)
            case p.Stand():
                self._stand(client)
            case p.SetBot():
                self._set_bot(client, msg.seat, msg.bot)
            case p.Start():
                self._start(client)
            case p.Play():
                self._play(client, msg.step, msg.action, msg.seq)
            case p.Pause():
                self._pause(client, msg.on)
            case p.Leave():
                self._leave(client)
            case _:
                raise HubError("that request is not understood here")

    def _set_name(self, client: Client, text: str) -> None:
        name = clean_name(text)
        if client.identity.startswith("key:"):
            client.name = name
            self.names[client.identity] = name
        else:
            if client.table is not None:
                raise HubError("leave the table before changing your nickname")
            identity = "guest:" + name.casefold()
            if any(c.identity == identity for c in self.clients if c is not client):
                raise HubError(f"the nickname {name!r} is in use; pick another")
            client.identity = identity
            client.name = name
        client.send(p.Welcome(identity=client.identity, name=client.name))
        self._changed_presence(client.identity)
        self._rejoin(client)

    def _create(self, client: Client, msg: p.CreateTable) -> None:
        if len(self.tables) >= MAX_TABLES:
            raise HubError("the server has as many tables as it can hold; join one")
        try:
            game = get_game(msg.game)
            options = game.options_from_dict({**msg.options, "players": msg.players})
        except CellwarsError as exc:
            raise HubError(str(exc)) from None
        if not 0.01 <= msg.think <= 30:
            raise HubError("bots think between 0.01 and 30 seconds")
        code = self._new_code()
        table = Table(self, code, game, options, msg.think, client)
        self.tables[code] = table
        self._enter(client, table)
        self._sit(client, 0)

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.tables:
                return code

    def _table(self, code: str) -> Table:
        table = self.tables.get(code.strip().upper()[:16])
        if table is None:
            raise HubError(f"no table has the code {code.strip()[:16]!r}")
        return table

    def _join(self, client: Client, code: str) -> None:
        self._enter(client, self._table(code))

    def _enter(self, client: Client, table: Table) -> None:
        if client.table is not None and client.table is not table:
            self._leave(client)
        client.table = table
        table.watchers.add(client)
        table.last_watched = time.monotonic()
        self._broadcast_table(table)
        self._broadcast_lobby()

    def _here(self, client: Client) -> Table:
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
        self._release_seat(table, client.identity)
        slot.kind, slot.identity, slot.name = "human", client.identity, client.name
        self._table_changed(table)

    def _release_seat(self, table: Table, identity: str) -> None:
        seat = table.seat_of(identity)
        if seat is not None:
            table.slots[seat] = Slot()

    def _stand(self, client: Client) -> None:
        table = self._here(client)
        if table.match is not None:
            raise HubError("the game has started: a seat is kept until the game ends")
        self._release_seat(table, client.identity)
        self._table_changed(table)

    def _set_bot(self, client: Client, seat: int, bot: str) -> None:
        table = self._here(client)
        if client.identity != table.host_identity:
            raise HubError("only the table's host can seat bots")
        if not 0 <= seat < len(table.slots):
            raise HubError(f"this table has seats 1 to {len(table.slots)}")
        slot = table.slots[seat]
        if bot:
            try:
                make_bot(bot)
            except ValueError as exc:
                raise HubError(str(exc)) from None
        if table.match is None:
            if slot.kind == "human":
                raise HubError(f"seat {seat + 1} is taken by {slot.name}")
            if bot:
                slot.kind, slot.bot, slot.identity = "bot", bot, ""
                slot.name = table.game.seat_label(seat)  # shown as "Blue (search bot)"
            else:
                table.slots[seat] = Slot()
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

    def _start(self, client: Client) -> None:
        table = self._here(client)
        if client.identity != table.host_identity:
            raise HubError("only the table's host can start the game")
        if table.match is not None:
            raise HubError("the game has already started")
        free = [i + 1 for i, s in enumerate(table.slots) if s.kind == "free"]
        if free:
            raise HubError(f"fill every seat first (free: {', '.join(map(str, free))})")
        seats = [s.seat(table.think) for s in table.slots]
        secs = round_seconds(table.game, table.options)
        clock = {}
        if secs is not None:
            table.timer = Timer(secs, interval=1.0)
            table.timer.on_expire(lambda: self._time_up(table))
            clock = {"clock": table.timer.play_time}  # actions are timed in play seconds
        table.match = Match(table.game, table.options, seats, secrets.randbits(63), **clock)
        table.match.started = _now()  # type: ignore[attr-defined]
        table.note(f"{table.game.title} starts.")
        self._save(table)
        self._advance(table)
        self._table_changed(table)

    def _play(self, client: Client, step: int, text: str, seq: int = 0) -> None:
        table = self._here(client)
        m = table.match
        if m is None:
            raise HubError("the game has not started")
        seat = table.seat_of(client.identity)
        if seat is None:
            raise HubError("you are watching this table, not playing at it")
        paused = table.paused()
        if paused:
            raise HubError(f"the game is {paused}")
        if step != m.cursor:
            raise HubError("the table moved on before your move arrived; look again")
        if len(text) > 4000:
            raise HubError("that move is too long")
        try:
            action = table.game.action_from_str(text)
            events = m.play(seat, action)
        except CellwarsError as exc:
            raise HubError(str(exc)) from None
        client.played = seq  # the states sent next tell the session its move went through
        self._after_step(table, seat, action, events)

    def _pause(self, client: Client, on: bool) -> None:
        """Any seated player pauses a real-time game for everyone, and any seated player plays
        on (as anyone at a real table may stop or turn the sand timer again); spectators may
        not. A pause for a player who is away lasts until they are back, whatever is asked."""
        table = self._here(client)
        m = table.match
        if m is None or m.is_over():
            raise HubError("no game is being played at this table")
        if not table.game.real_time:
            raise HubError("only a real-time game pauses; this one waits for each move")
        if table.seat_of(client.identity) is None:
            raise HubError("you are watching this table: only its players pause it")
        if not on and table.away():
            raise HubError(f"the game is {table.paused()}")
        if on == bool(table.paused_by):
            return  # already so (two players pressed the key together)
        table.paused_by = client.name if on else ""
        table.note(f"{client.name} pauses the game." if on else f"{client.name} plays on.")
        self._advance(table)  # the timer and the bots follow
        self._table_changed(table)

    def _leave(self, client: Client) -> None:
        table = client.table
        if table is None:
            return
        table.watchers.discard(client)
        client.table = None
        table.last_watched = time.monotonic()
        if table.match is None:
            self._release_seat(table, client.identity)
        self._table_changed(table)
        client.send(p.Left())
        self._send_lobby(client)

    # -- the game -------------------------------------------------------------------------------
    def _after_step(self, table: Table, seat: int, action, events) -> None:
        m = table.match
        assert m is not None
        if not events and not table.game.hidden_information and seat >= 0:
            with contextlib.suppress(Exception):
                table.note(f"{table.slots[seat].name}: {table.game.action_to_str(action)}", seat)
        for event in events:
            table.log.append((m.cursor, seat, event))
        self._save(table)
        self._advance(table)  # first: a real-time game's timer follows the new state
        self._table_changed(table)

    def _advance(self, table: Table) -> None:
        """Let the bots move when it is their turn (one bot task per table); keep a real-time
        game's timer in step (a new round, a pause, the end)."""
        m = table.match
        if table.timer is not None:
            self._follow_clock(table)
            return
        if m is None or m.is_over() or table.paused():
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        if any(table.slots[s].kind == "bot" for s in m.to_act() if s >= 0):
            table.bot_task = asyncio.create_task(self._bots(table))

    # -- real time ------------------------------------------------------------------------------
    def _follow_clock(self, table: Table) -> None:
        timer, m = table.timer, table.match
        assert timer is not None and m is not None
        if m.is_over():
            timer.close()
            table.bot_due.clear()
            return
        rnd = getattr(m.state, "round", None)
        if rnd != table.timer_round:  # the first round, or a round ended early: a full period
            table.timer_round = rnd
            timer.start()
        if table.paused():
            timer.pause()
        elif timer.state == PAUSED:
            timer.resume()
        for seat in m.to_act():
            if seat >= 0 and table.slots[seat].kind == "bot" and seat not in table.bot_due:
                wait = REALTIME_BOT_PACE * table.rng.uniform(1 - REALTIME_BOT_JITTER,
                                                             1 + REALTIME_BOT_JITTER)
                table.bot_due[seat] = timer.after(wait, lambda s=seat: self._realtime_bot(table, s))

    def _realtime_bot(self, table: Table, seat: int) -> None:
        """A bot teammate's next action in a real-time game (play-time paced: pauses stop it),
        thought in the bots' pool; the seat gets no other turn scheduled meanwhile."""
        table.bot_due.pop(seat, None)
        m = table.match
        if m is None or table.match is not m or m.is_over() or table.paused():
            return
        if seat not in m.to_act() or table.slots[seat].kind != "bot":
            self._follow_clock(table)
            return
        table.bot_due[seat] = THINKING
        seed = table.rng.getrandbits(64)  # the bot's RNG: random.Random(seed), in the worker
        task = asyncio.create_task(self._realtime_think(table, m, seat, m.view(seat), seed))
        table.think_tasks.add(task)
        task.add_done_callback(table.think_tasks.discard)

    async def _realtime_think(self, table: Table, m: Match, seat: int, view, seed: int) -> None:
        slot = table.slots[seat]
        failed: BotFailed | None = None
        try:
            action, _pid = await self.bots.choose(table.game, view, seat, slot.bot, seed,
                                                  REALTIME_BOT_BUDGET)
        except BotFailed as exc:  # a crashed or broken bot must not stop the table
            log.warning("table %s: bot of seat %d failed (%s); a random move instead",
                        table.code, seat + 1, exc)
            failed, action = exc, None
        finally:
            if table.bot_due.get(seat) is THINKING:
                del table.bot_due[seat]
        if (table.match is not m or m.is_over() or table.paused() or seat not in m.to_act()
                or table.slots[seat] is not slot or slot.kind != "bot"):
            if table.match is m and not m.is_over():
                self._follow_clock(table)  # schedules the seat's next turn (after a pause)
            return
        if failed is not None:
            action = self._instead_of_failed_bot(table, m, seat, seed, failed)
            if action is None:
                return
        try:
            events = m.play(seat, action)
        except CellwarsError:  # the table moved on while the bot thought: its next turn comes
            self._follow_clock(table)
            return
        self._after_step(table, seat, action, events)

    def _instead_of_failed_bot(self, table: Table, m: Match, seat: int, seed: int,
                               failed: BotFailed) -> Action | None:
        """A crashed or broken bot's seat plays a random legal move (from the bot's seed), noted
        in the table's log; None (and a note) when the seat has no legal move at all."""
        slot = table.slots[seat]
        legal = list(m.legal_actions(seat))
        if not legal:
            table.note(f"{slot.name} could not move: {failed}")
            self._table_changed(table)
            return None
        table.note(f"{slot.name}'s bot failed ({failed}); it plays a random move.", seat)
        return random.Random(seed).choice(legal)

    def _time_up(self, table: Table) -> None:
        """The shared timer ran out: the hub plays the game's time-up system action."""
        m = table.match
        if m is None or m.is_over():
            return
        action = time_up_action(table.game, m.state)
        if action is None:
            return
        try:
            events = m.play(CHANCE, action)
        except CellwarsError as exc:
            table.note(f"the timer could not end the round: {exc}")
            self._table_changed(table)
            return
        self._after_step(table, CHANCE, action, events)

    async def _bots(self, table: Table) -> None:
        try:
            await self._bot_moves(table)
        except Exception as exc:  # a broken bot or game must not take the server down
            table.note(f"the bots stopped: {exc}")
            self._table_changed(table)

    async def _bot_moves(self, table: Table) -> None:
        m = table.match
        while m is not None and not m.is_over() and not table.paused():
            bot_seats = [s for s in m.to_act() if s >= 0 and table.slots[s].kind == "bot"]
            if not bot_seats:
                return
            seat = bot_seats[0]
            slot = table.slots[seat]
            cursor, view = m.cursor, m.view(seat)
            seed = table.rng.getrandbits(64)  # the bot's RNG: random.Random(seed), in the worker
            try:
                action, _pid = await self.bots.choose(table.game, view, seat, slot.bot, seed,
                                                      table.think)
            except BotFailed as exc:  # a crashed or broken bot must not stop the table
                log.warning("table %s: bot of seat %d failed (%s); a random move instead",
                            table.code, seat + 1, exc)
                if m.cursor != cursor or table.match is not m or seat not in m.to_act():
                    continue  # someone moved meanwhile: think again
                action = self._instead_of_failed_bot(table, m, seat, seed, exc)
                if action is None:
                    return
            if m.cursor != cursor or table.match is not m or seat not in m.to_act():
                continue  # someone moved meanwhile: think again
            try:
                events = m.play(seat, action)
            except CellwarsError as exc:
                table.note(f"{slot.name} tried an illegal move: {exc}")
                self._table_changed(table)
                return
            self._after_step(table, seat, action, events)

    def _save(self, table: Table) -> None:
        m = table.match
        if m is None or self.tables_dir is None:
            return
        if table.record_path is None:
            stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
            table.record_path = self.tables_dir / f"{table.game.id}-{stamp}-{table.code}{SUFFIX}"
        try:
            save_match(m, table.record_path)
            if m.is_over() and not table.saved_for_players:
                table.saved_for_players = True
                for slot in table.slots:
                    home = self.home_for(slot.identity) if self.home_for and slot.identity else None
                    if home is not None:
                        save_match(m, home / "data" / "games" / table.record_path.name)
        except OSError as exc:
            table.note(f"the game could not be saved: {exc.strerror or exc}")

    # -- sending --------------------------------------------------------------------------------
    def _table_changed(self, table: Table) -> None:
        self._broadcast_table(table)
        self._broadcast_lobby()

    def _broadcast_table(self, table: Table) -> None:
        info = table.info()
        views: dict = {}
        for client in list(table.watchers):
            client.send(table.state_for(client, info, views))

    def _lobby_for(self, client: Client, infos: list[p.TableInfo]) -> p.Lobby:
        mine = tuple(code for code, t in self.tables.items() if t.seat_of(client.identity) is not None)
        return p.Lobby(tables=tuple(infos), mine=mine)

    def _send_lobby(self, client: Client) -> None:
        infos = [t.info() for t in self.tables.values()]
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
        infos = [t.info() for t in self.tables.values()]
        for client in list(self.clients):
            if client.table is None:
                lobby = self._lobby_for(client, infos)
                if lobby != client.lobby_sent:
                    client.lobby_sent = lobby
                    client.send(lobby)

    async def _sweep(self) -> None:
        """Close tables nobody has watched for a while (their records stay saved)."""
        while True:
            await asyncio.sleep(self.sweep_interval)
            self.sweep()

    def sweep(self, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        closed = False
        for code, table in list(self.tables.items()):
            if table.watchers:
                continue
            if now - table.last_watched >= self.idle_table_seconds:
                for task in [table.bot_task, *table.think_tasks]:
                    if task is not None:
                        task.cancel()
                if table.timer is not None:
                    table.timer.close()
                del self.tables[code]
                closed = True
        if closed:
            self._broadcast_lobby()


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
