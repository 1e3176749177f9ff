"""The hub's tables: seats, the game being played, the log, what each seat may see, and a table
as the store keeps it (:mod:`.store`).

A :class:`HubTable` holds its seats, watchers and log; once its game starts, the game is an
:class:`~.game.OnlineGame` (the table authority: every move is checked, played, logged, saved
and answered by bots there), and the table's saves go through its :class:`~.saving.TableSaver`.

A seat belongs to an identity, never to a name: a key's fingerprint (``key:SHA256:...``), or a
guest's secret (``guest:`` and an HMAC of the guest's reconnect code, :func:`guest_identity`).
A guest is given a reconnect code when they pick a nickname; typing it again (in the lobby, from
any connection) is the only way back to that guest's seats. A nickname is only what others read.

This module holds no connection and sends nothing: the hub (:mod:`.hub`) does.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import random
import re
import secrets
import time
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import msgspec

from ..ai.levels import RECORDED, TIME_CAP, check_seats
from ..core.api import Game, Options
from ..core.errors import CellwarsError
from ..core.match import Match, Seat, Step
from ..core.registry import get_game
from ..record.format import decode_record, encode_match, record_to_match
from ..table.log import Entry, sentences
from ..table.realtime import RoundSession
from ..timer import Timer
from . import names
from . import protocol as p
from .game import OnlineGame
from .hub_league import TableLeague
from .league import game_id_of
from .saving import NoSaver, TableSaver
from .store import StoredLine, StoredSlot, StoredTable, TableStore

if TYPE_CHECKING:
    from .hub import Client

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ"  # no I or O: codes are read aloud and typed
CODE_LENGTH = 4
MAX_NAME = names.MAX_NAME
LOG_KEPT = 60  # log entries a table keeps
LOG_SENT = 30  # log lines sent with each table state
# Why a real-time game restored after a restart waits (until a seated player plays on).
RESTORED_PAUSE = "paused: the server restarted; a seated player plays on (p)"



def round_seconds(game: Game, options) -> float | None:
    """The length of a real-time game's round, when it plays on a round timer (the game's
    declared ``Game.round_seconds``)."""
    return game.round_seconds(options) if game.real_time else None


class HubError(CellwarsError):
    """A request the hub refuses; its text is sent to the player."""


def clean_name(text: str) -> str:
    """``text`` as a display name, by the one rule for every player (:mod:`.names`); HubError
    saying why it cannot be one."""
    try:
        return names.clean_name(text)
    except names.BadName as exc:
        raise HubError(str(exc)) from None


# Login names that say nothing about who logs in: not offered as a guest's nickname.
ANONYMOUS_LOGINS = frozenset({"guest", "anonymous", "player", "user", "root", "nobody"})


def suggested_nickname(login: str) -> str:
    """The nickname offered to a guest: the name they logged in with (``ssh ann@host``), if it
    is a valid one and says who they are; "" otherwise. Only offered: the guest confirms it,
    and a nickname in use is refused then, as one typed is."""
    try:
        name = clean_name(login)
    except HubError:
        return ""
    return "" if name.casefold() in ANONYMOUS_LOGINS or normal_code(name) else name


# -- guests' secrets ----------------------------------------------------------------------------
# A reconnect code: ten characters from 32 (about 50 bits), shown as XXXXX-XXXXX. It is never
# stored: the hub keeps only the identity made from it.
RECONNECT_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no I, O, 0 or 1: read aloud and typed
RECONNECT_LENGTH = 10
_NOT_CODE = re.compile(f"[^{RECONNECT_ALPHABET}]")


def new_reconnect_code() -> str:
    code = "".join(secrets.choice(RECONNECT_ALPHABET) for _ in range(RECONNECT_LENGTH))
    return f"{code[:5]}-{code[5:]}"


def normal_code(text: str) -> str:
    """A typed reconnect code without spaces, dashes or case ("" if it cannot be one)."""
    code = _NOT_CODE.sub("", text.upper().replace("O", "0").replace("I", "1"))
    return code if len(code) == RECONNECT_LENGTH and len(text) <= 40 else ""


def guest_identity(code: str, secret: bytes) -> str:
    """The identity a reconnect code stands for: an HMAC of the code keyed with the server's
    secret (kept beside its host key, never in the table store), so a copy of the store cannot
    be searched for the codes (about 50 bits each) that would give the seats back. The code
    itself is never kept."""
    digest = hmac.new(secret, normal_code(code).encode(), hashlib.sha256).hexdigest()
    return "guest:" + digest[:32]


def legacy_guest_identity(code: str) -> str:
    """The identity a reconnect code stood for before the server had a secret (a hash with a
    fixed salt): a seat held under it is handed to the new identity when its guest comes back
    with the code (:meth:`.hub.Hub._reclaim`)."""
    digest = hashlib.sha256(b"cellwars guest\0" + normal_code(code).encode()).hexdigest()
    return "guest:" + digest[:32]


class Slot:
    """One seat at a table."""

    __slots__ = ("kind", "identity", "name", "bot")

    def __init__(self) -> None:
        self.kind = "free"  # "free" | "human" | "bot"
        self.identity = ""
        self.name = ""
        self.bot = ""

    def seat(self, think: float) -> Seat:
        """The match's seat. A bot's ``think``: the table's seconds for the search from before
        levels (a table stored then), the levels' guard for a level."""
        if self.kind == "bot":
            guard = think if self.bot in RECORDED else TIME_CAP
            return Seat(name=self.name, kind="bot", bot=self.bot, think=guard)
        return Seat(name=self.name, identity=self.identity)

    def stored(self) -> StoredSlot:
        return StoredSlot(kind=self.kind, identity=self.identity, name=self.name, bot=self.bot)

    @classmethod
    def from_stored(cls, s: StoredSlot) -> Slot:
        slot = cls()
        if s.kind in ("human", "bot"):
            slot.kind, slot.identity, slot.name, slot.bot = s.kind, s.identity, s.name, s.bot
        return slot


class Presence(Protocol):
    """What a table asks of its hub: who is connected now."""

    @property
    def online(self) -> set[str]: ...


class HubTable:
    """One table of the hub: seats, watchers, the log and, once it starts, its game."""

    def __init__(self, hub: Presence, code: str, game: Game, options: Options, think: float,
                 host_identity: str, host_name: str, *, store: TableStore | None = None,
                 version: int = 0) -> None:
        self.hub = hub
        self.code = code
        self.game = game
        self.options = options
        self.think = think
        self.slots = [Slot() for _ in range(options.players)]
        self.host_identity = host_identity
        self.host_name = host_name
        self.watchers: set[Client] = set()
        self.authority: OnlineGame | None = None  # the game, once it starts
        self.record_name = ""  # the finished game's record file (in the hub's tables folder)
        self.record_steps: list[Any] = []  # the record's steps it was last read from the store with
        # (step, seat, what): what is a public sentence, or a game Event told per seat (see lines_for)
        self.log: deque[Entry] = deque(maxlen=LOG_KEPT)
        self.last_watched = time.time()  # when someone last watched it (the hub's clock)
        self.active_at = time.time()  # when its last action was saved (the hub's clock)
        self.rng = random.Random(secrets.randbits(64))
        self.saved_for_players = False
        self.away_ids: set[str] = set()  # seated players known to be away (for the log)
        self.paused_by = ""  # real time: the seated player who paused the game ("": nobody)
        self.restored = False  # real time: restored after a restart, waiting for a player
        self.changed: Callable[[], None] = lambda: None  # the hub's: tell the watchers
        self.saver: TableSaver | NoSaver = NoSaver() if store is None else TableSaver(
            code, self.stored, store, version=version, changed=self._store_changed)
        self.league = TableLeague()  # rated or casual, chat, rematch, result (hub_league.py)

    @property
    def match(self) -> Match | None:
        return self.authority.match if self.authority is not None else None

    @property
    def session(self) -> RoundSession | None:
        """A real-time game's rounds: the shared timer, time-up, paced bots (table/realtime.py)."""
        return self.authority.session if self.authority is not None else None

    @property
    def timer(self) -> Timer | None:
        """A real-time game's shared round timer, while it runs its rounds."""
        return self.session.timer if self.session is not None else None

    def save(self) -> None:
        """Keep the table in the store (a seat, a note, the clock: written after the saves asked
        for before; a store that is down is the saver's to tell)."""
        if self.authority is not None:
            self.authority.save()
            return
        pending = self.saver.save()
        if pending is not None:
            pending.add_done_callback(_seen)

    def _store_changed(self) -> None:
        """The store went down, or came back: one line for the players, moves wait meanwhile."""
        if self.saver.down:
            self.note("the game could not be saved, so moves wait until it can be; the "
                      "server's operator can see why")
        else:
            self.note("the game is saved again: play on.")
            self.save()
        if self.authority is not None:
            self.authority.store_changed()
        self.changed()

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
                           spectators=spectators, host=self.host_name, status=self.status,
                           rated=self.league.rated)

    def note(self, text: str, seat: int | None = None) -> None:
        """A public line in the table's log."""
        self.log.append((self.match.cursor if self.match is not None else 0, seat, text))

    def away(self) -> list[str]:
        """Names of seated players who are not connected."""
        online = self.hub.online
        return [s.name for s in self.slots if s.kind == "human" and s.identity not in online]

    def paused(self) -> str:
        """Why a real-time game is paused now ("" when it runs): a seated player is away, one of
        them paused it, or it was restored after a restart and nobody has played on yet."""
        if self.match is None or self.match.is_over() or not self.game.real_time:
            return ""
        away = self.away()
        if away:
            return f"paused: waiting for {', '.join(away)} to come back"
        if self.restored:
            return RESTORED_PAUSE
        return f"paused by {self.paused_by}" if self.paused_by else ""

    def lines_for(self, you: int | None) -> tuple[p.LogLine, ...]:
        """The log as seat ``you`` may read it (table/log.py: the game's ``view_event`` hides
        or masks what another seat may not know)."""
        names = [s.name for s in self.slots]
        out = sentences(self.game, self.log, names, reader=you)
        return tuple(p.LogLine(step, seat, text) for step, seat, text in out[-LOG_SENT:])

    def state_for(self, client: Client, info: p.TableInfo, cache: dict[Any, Any]) -> p.TableState:
        you = self.seat_of(client.identity)
        if you not in cache:
            m = self.match
            legal: tuple[str, ...] = ()
            paused = self.paused()
            if m is not None and you is not None and you in m.to_act() and not paused:
                legal = tuple(self.game.action_to_str(a) for a in m.legal_actions(you))
            cache[you] = dict(you=you, log=self.lines_for(you), legal=legal, paused=paused,
                              record=self.record_name)
            if m is not None:
                cache[you].update(step=m.cursor, view=self.game.encode_state(m.view(you)),
                                  to_act=m.to_act(), outcome=m.outcome())
                if m.is_over():
                    cache[you].update(game_id=game_id_of(self.code, m))
            cache[you].update(self.league.state_fields(self))
            if self.session is not None and self.session.started:
                cache[you].update(clock=round(self.session.remaining(), 2),
                                  clock_running=self.session.running)
        return p.TableState(info=info, host=client.identity == self.host_identity,
                            played=client.played, **cache[you])

    # -- the store ----------------------------------------------------------------------------
    def stored(self) -> StoredTable:
        """Everything needed to set this table up again after a restart."""
        m = self.match
        encode = msgspec.msgpack.encode
        lines = []
        for step, seat, what in self.log:
            if isinstance(what, str):
                lines.append(StoredLine(step, seat, what))
            else:
                lines.append(StoredLine(step, seat, "", encode(what)))
        return StoredTable(
            code=self.code, game=self.game.id, options=msgspec.to_builtins(self.options),
            think=self.think, host_identity=self.host_identity, host_name=self.host_name,
            slots=tuple(s.stored() for s in self.slots),
            record=encode_match(m) if m is not None else b"",
            record_name=self.record_name, log=tuple(lines),
            clock_left=self.session.remaining() if self.session is not None else -1.0,
            timer_round=self.session.round if self.session is not None else None,
            paused_by=self.paused_by, saved_for_players=self.saved_for_players,
            active_at=self.active_at, status=self.status, league=self.league.stored(),
        )

    @classmethod
    def from_stored(cls, hub: Presence, s: StoredTable, *, store: TableStore | None = None,
                    previous: HubTable | None = None) -> tuple[HubTable, Match | None]:
        """The table ``s`` describes, and its game so far (the hub sets its game up again, and
        its real-time timer). Raises CellwarsError (one line) for a table this build cannot set
        up: an unknown game, options or a record that no longer make sense. ``previous``: the
        same table as read before (a replica, read again at each version): its game goes on
        with only the new steps when the record is its record and more, instead of being
        played again from the start (:func:`_extended`)."""
        game = get_game(s.game)
        options = game.options_from_dict(dict(s.options))
        if len(s.slots) != options.players:
            raise CellwarsError(f"{len(s.slots)} seats stored for {options.players} players")
        table = cls(hub, s.code, game, options, s.think, s.host_identity, s.host_name,
                    store=store, version=s.version)
        table.slots = [Slot.from_stored(x) for x in s.slots]
        check_seats(slot.seat(table.think) for slot in table.slots)  # an unknown bot level
        table.record_name = s.record_name
        table.saved_for_players = s.saved_for_players
        table.paused_by = s.paused_by
        table.league = TableLeague.from_stored(s.league)
        if s.active_at > 0:  # (0: stored before this was kept; the hub counts from now)
            table.active_at = s.active_at
        match = None
        if s.record:
            record = decode_record(s.record, f"table {s.code}")
            match = _extended(previous, record.steps)
            if match is None:
                match = record_to_match(record, f"table {s.code}", expect_game=game.id)
            table.record_steps = record.steps
            match.seats = tuple(slot.seat(table.think) for slot in table.slots)
        events = msgspec.msgpack.Decoder(game.event_type)
        for line in s.log:
            if not line.event:
                table.log.append((line.step, line.seat, line.text))
                continue
            try:
                table.log.append((line.step, line.seat, events.decode(line.event)))
            except (msgspec.DecodeError, msgspec.ValidationError):
                continue  # an event this build no longer knows: the line is left out
        return table, match


def _extended(previous: HubTable | None, steps: list[Any]) -> Match | None:
    """``previous``'s game with the steps of ``steps`` beyond those it was read with, when
    ``steps`` begins with exactly those and its game stands at its last one (else None: the
    record is played from its start). A step that does not apply gives None the same way."""
    match = previous.match if previous is not None else None
    if match is None or previous is None:
        return None
    known = previous.record_steps
    n = len(known)
    if not known or len(steps) < n or steps[:n] != known or match.cursor != n \
            or len(match.steps) != n:
        return None
    game = match.game
    try:
        match.replay_steps([Step(rs.seat, game.decode_action(rs.action), rs.t)
                            for rs in steps[n:]])
    except CellwarsError:
        return None
    return match


def _seen(future: asyncio.Future[None]) -> None:
    """A save nobody waits for: its failure is the saver's to tell (the store went down)."""
    if not future.cancelled():
        future.exception()
