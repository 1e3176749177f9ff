"""Messages between a session's app (the child) and the hub, over a Unix socket.

Each frame is a 4-byte big-endian length followed by one msgpack-encoded message; messages are a
tagged union of frozen msgspec Structs (``t`` names the kind). Up: what a player asks for
(actions included, in the game's own notation). Down: the lobby, a table's state as the reader's
seat may see it (``view`` is the game's encoded view: a seat never receives what it may not see),
and errors as one plain sentence.
"""

from __future__ import annotations

import asyncio
import struct
from typing import Any, Union

import msgspec

from ..core.api import Outcome
from ..core.errors import CellwarsError
from .chat import ChatLine
from .league import GameResult, Leaderboard, Profile

VERSION = 1
MAX_FRAME = 1 << 20  # one message is at most 1 MiB
_LEN = struct.Struct(">I")


class ProtocolError(CellwarsError):
    """A frame that is too large, cut short, or not a message."""


class Msg(msgspec.Struct, frozen=True, kw_only=True, tag_field="t"):
    pass


# -- up: child -> hub ---------------------------------------------------------------------------
class Hello(Msg, frozen=True, tag="hello"):
    token: str
    version: int = VERSION


class SetName(Msg, frozen=True, tag="name"):
    """A nickname (guests) or display name (keyed players); or, with ``code``, a guest's
    reconnect code: that guest's identity and seats back (``name`` is then not used)."""
    name: str
    code: str = ""


class CreateTable(Msg, frozen=True, tag="create"):
    game: str
    players: int
    options: dict[str, Any] = {}
    think: float = 1.0  # seconds per decision of a search bot from before levels (a level: its own)
    rated: bool = False  # a rated table: keyed players only, no bots (online/ratings.py)


class Join(Msg, frozen=True, tag="join"):
    code: str


class Sit(Msg, frozen=True, tag="sit"):
    seat: int


class Stand(Msg, frozen=True, tag="stand"):
    pass


class SetBot(Msg, frozen=True, tag="bot"):
    seat: int
    bot: str = "normal"  # a bot level (ai.levels; "bot" and "mcts": normal and hard); "" frees


class Start(Msg, frozen=True, tag="start"):
    pass


class Play(Msg, frozen=True, tag="play"):
    step: int  # the step the player saw: a move made on a stale view is refused
    action: str  # the game's notation (action_to_str)
    seq: int = 0  # the session's number for this move: the hub's answer names it (0: none)


class Pause(Msg, frozen=True, tag="pause"):
    """A seated player pauses a real-time game for everyone (``on``), or plays on."""
    on: bool = True


class Leave(Msg, frozen=True, tag="leave"):
    pass


class Say(Msg, frozen=True, tag="say"):
    """A chat line (or ``/mute NAME``) to where you are: your table's chat, or the lobby's."""
    text: str


class Remove(Msg, frozen=True, tag="remove"):
    """The host sends the player in ``seat`` away from a casual table that has not started."""
    seat: int


class Rematch(Msg, frozen=True, tag="rematch"):
    """At a finished game: offer the same players a new game, seats rotated, or accept the
    offer (``on``); or take your offer back."""
    on: bool = True


class AskLeaderboard(Msg, frozen=True, tag="ask-board"):
    game: str


class AskProfile(Msg, frozen=True, tag="ask-profile"):
    """A player's profile: by identity (a leaderboard's row), or by seat at your table."""
    identity: str = ""
    seat: int = -1


class AskGame(Msg, frozen=True, tag="ask-game"):
    """A finished game kept by the server (its record and chat), to replay it."""
    game_id: str


# -- down: hub -> child -------------------------------------------------------------------------
class SeatInfo(msgspec.Struct, frozen=True, kw_only=True):
    kind: str = "free"  # "free" | "human" | "bot"
    name: str = ""
    connected: bool = False
    bot: str = ""


class TableInfo(msgspec.Struct, frozen=True, kw_only=True):
    code: str
    game: str
    title: str
    seats: tuple[SeatInfo, ...]
    spectators: int = 0
    host: str = ""  # the host's display name
    status: str = "open"  # "open" | "playing" | "over"
    rated: bool = False  # a rated table (keyed players only, no bots)


class Welcome(Msg, frozen=True, tag="welcome"):
    identity: str
    name: str
    need_name: bool = False
    code: str = ""  # a guest's reconnect code: the only way back to their seats (never stored)
    suggest: str = ""  # a nickname to offer a guest: the name they logged in with (ssh ann@host)


class Lobby(Msg, frozen=True, tag="lobby"):
    tables: tuple[TableInfo, ...] = ()
    mine: tuple[str, ...] = ()  # codes of the tables where you hold a seat


class LogLine(msgspec.Struct, frozen=True, array_like=True):
    """One line of a table's log: the step it happened at, whose step (None: chance or the hub)."""

    step: int
    seat: int | None
    text: str


class TableState(Msg, frozen=True, tag="table"):
    info: TableInfo
    you: int | None = None  # your seat, None when watching
    host: bool = False  # you are the table's host
    step: int = 0
    view: bytes = b""  # game.encode_state(game.view(state, you)); empty before the start
    to_act: tuple[int, ...] = ()
    outcome: Outcome | None = None
    log: tuple[LogLine, ...] = ()  # the latest events this seat may know of, one sentence each
    record: str = ""  # the finished game's record: a file name in the server's tables folder
    legal: tuple[str, ...] = ()  # your legal actions now (notation); () when you are not to act
    paused: str = ""  # why the game waits (a real-time game pauses while a player is away)
    clock: float = -1.0  # seconds left on a real-time game's shared round timer (-1: no timer)
    clock_running: bool = False  # the timer runs (False: paused, or between rounds)
    played: int = 0  # the ``seq`` of the last move of this session the hub applied
    ratings: tuple[str, ...] = ()  # each seat's rating in this game at a rated table ("1532?")
    changes: tuple[str, ...] = ()  # each seat's rating change once a rated game is over ("+29")
    rematch: tuple[int, ...] = ()  # seats that offered or accepted a rematch (game over)
    game_id: str = ""  # the finished game's id in the server's store (AskGame replays it)
    chat_closed: str = ""  # why the table's chat is closed now (Virus Fight's secret writing)


class Left(Msg, frozen=True, tag="left"):
    reason: str = ""


class ChatLines(Msg, frozen=True, tag="chat"):
    """A chat as the reader may see it (muted names left out): the lobby's (``where`` is
    "lobby") or a table's (its code). ``closed``: why the table's chat is closed now."""
    where: str
    lines: tuple[ChatLine, ...] = ()
    closed: str = ""


class LeaderboardView(Msg, frozen=True, tag="board"):
    board: Leaderboard


class ProfileView(Msg, frozen=True, tag="profile"):
    """A player's profile (None: no game of theirs is kept); ``bot``: the seat asked about is a
    bot's, of this level (a bot has no profile). ``identity`` and ``seat`` repeat the question."""
    profile: Profile | None = None
    name: str = ""
    bot: str = ""
    game: str = ""  # the game of the table whose seat was asked about
    identity: str = ""
    seat: int = -1


class FinishedGame(Msg, frozen=True, tag="game"):
    result: GameResult


class Notice(Msg, frozen=True, tag="notice"):
    """Something the player should know (not an error): their reconnect code, for one."""
    message: str


class Error(Msg, frozen=True, tag="error"):
    message: str
    seq: int = 0  # the ``seq`` of the move refused (0: the error is not about a move)


Up = Union[Hello, SetName, CreateTable, Join, Sit, Stand, SetBot, Start, Play, Pause, Leave, Say,
           Remove, Rematch, AskLeaderboard, AskProfile, AskGame]
Down = Union[Welcome, Lobby, TableState, Left, Notice, Error, ChatLines, LeaderboardView,
             ProfileView, FinishedGame]

_encoder = msgspec.msgpack.Encoder()
_up = msgspec.msgpack.Decoder(Up)
_down = msgspec.msgpack.Decoder(Down)


def frame(msg: Msg) -> bytes:
    body = _encoder.encode(msg)
    if len(body) > MAX_FRAME:
        raise ProtocolError(f"message of {len(body)} bytes is over the {MAX_FRAME} limit")
    return _LEN.pack(len(body)) + body


def decode_up(body: bytes) -> Msg:
    try:
        return _up.decode(body)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise ProtocolError(f"not a request: {exc}") from None


def decode_down(body: bytes) -> Msg:
    try:
        return _down.decode(body)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise ProtocolError(f"not a hub message: {exc}") from None


async def read_frame(reader: asyncio.StreamReader) -> bytes | None:
    """The next frame's body, or None at a clean end of stream."""
    try:
        head = await reader.readexactly(_LEN.size)
    except asyncio.IncompleteReadError as exc:
        if exc.partial:
            raise ProtocolError("connection ended inside a frame header") from None
        return None
    (size,) = _LEN.unpack(head)
    if size > MAX_FRAME:
        raise ProtocolError(f"frame of {size} bytes is over the {MAX_FRAME} limit")
    try:
        return await reader.readexactly(size)
    except asyncio.IncompleteReadError:
        raise ProtocolError("connection ended inside a frame") from None
