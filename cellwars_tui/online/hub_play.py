"""What the hub allows at a table's game: who starts it, who moves and on what view, who pauses.

:class:`TablePlay` holds the hub's permissions and the checks only the hub can make (a seat's
identity, the step a player's move was made on); everything else about a move belongs to the
table's game, the table authority (:class:`~.game.OnlineGame`): the turn, the pause, the dice
landing, the rules, the step, the log, the durable save, the bots and the round session of a
real-time game. A real-time game restored after a restart waits, paused, until a seated player
plays on.

Actions come up in the game's notation and are read once, here; the table's legal moves go down
in it, written once per state (:mod:`.tables`).

A finished game's record is written off the event loop into the tables folder and every keyed
player's saved games (once; a failure is said once in the table's log, the detail in the
server's log). A finished table set up here from the store, whose record its owner wrote on its
own disk, gets the same files here before its players here are told the record's name
(:mod:`.hub_records`).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.errors import CellwarsError
from ..core.match import Match
from ..record.format import encode_match, write_atomic
from ..timer import Clock
from .botpool import BotPool
from .game import MoveTicket, OnlineGame, PoolThinker
from .hub_records import plain_name, record_file_name, save_for_player
from .league import game_id_of
from .tables import HubError, HubTable, round_seconds

if TYPE_CHECKING:
    from .hub import Client

log = logging.getLogger("cellwars_tui.online.hub")

MAX_NOTATION = 4000  # characters of a move's notation, at most


class TablePlay:
    """The game-running side of the hub (see the module's docstring)."""

    def __init__(self, bots: BotPool, *, tables_dir: Path | None,
                 home_for: Callable[[str], Path | None] | None,
                 changed: Callable[[HubTable], None]) -> None:
        self.bots = bots
        self.thinker = PoolThinker(bots)
        self.tables_dir = tables_dir
        self.home_for = home_for
        self.changed = changed  # the hub's: tell a table's watchers and the lobby
        self.realtime_clock: Clock | None = None  # real-time tables' clock (tests: a FakeClock)
        self.realtime_tick = 1.0  # seconds between two ticks of a real-time table's timer
        self.new_seed: Callable[[], int] = lambda: secrets.randbits(63)  # a new game's seed
        self._writing: set[HubTable] = set()  # tables whose records are being written
        self._copying: set[str] = set()  # records of other servers' tables being written here
        self.current: Callable[[str], HubTable | None] = lambda code: None  # the hub's table

    # -- a table's game -------------------------------------------------------------------------
    def set_up(self, table: HubTable, match: Match, *, left: float | None = None) -> OnlineGame:
        """``table``'s game over ``match``: its authority, bots playing, and a real-time game's
        round session running on the hub's clock (``left``: a game restored mid-round, its
        round having that many seconds left; it waits, paused, for a seated player)."""
        game = OnlineGame(table, match, saver=table.saver, thinker=self.thinker)
        table.authority = game
        game.subscribe(lambda: self._stepped(table))
        if round_seconds(table.game, table.options) and not match.is_over():
            game.open_session(game.bot_seats())
            game.start_session(clock=self.realtime_clock, tick=self.realtime_tick, left=left)
        game.start_bots()
        self._records_due(table)
        return game

    def _stepped(self, table: HubTable) -> None:
        """The game changed: a finished game's record is written once; the watchers are told."""
        self._records_due(table)
        self.changed(table)

    def _records_due(self, table: HubTable) -> None:
        m = table.match
        if m is None or not m.is_over() or table in self._writing:
            return
        if not table.saved_for_players:
            self._write_records(table, m)
        else:
            self.records_here(table)  # (written by a server that owned it before)

    # -- requests -------------------------------------------------------------------------------
    def start(self, client: Client, table: HubTable) -> None:
        if client.identity != table.host_identity:
            raise HubError("only the table's host can start the game")
        if table.authority is not None:
            raise HubError("the game has already started")
        free = [i + 1 for i, s in enumerate(table.slots) if s.kind == "free"]
        if free:
            raise HubError(f"fill every seat first (free: {', '.join(map(str, free))})")
        self.begin(table)

    def begin(self, table: HubTable) -> None:
        """Start ``table``'s game with its seats as they are (every one filled)."""
        seats = [s.seat(table.think) for s in table.slots]
        match = Match(table.game, table.options, seats, self.new_seed())
        table.league.started_at = time.time()  # (its result says how long the game took)
        game = self.set_up(table, match)
        table.note(f"{table.game.title} starts.")
        game.save()
        self.changed(table)

    def play(self, client: Client, table: HubTable, step: int, text: str, seq: int = 0) -> None:
        """A seated player's move, made on the state they saw at ``step``: refused at once
        (HubError), or on its way to the table's game (the answer names ``seq``)."""
        game = table.authority
        if game is None:
            raise HubError("the game has not started")
        seat = table.seat_of(client.identity)
        if seat is None:
            raise HubError("you are watching this table, not playing at it")
        if len(text) > MAX_NOTATION:
            raise HubError("that move is too long")
        ticket = MoveTicket(client, table, seat, step, seq)
        try:
            action = table.game.action_from_str(text)  # read once
            game.submit(seat, action, ticket)
        except CellwarsError as exc:
            raise HubError(ticket.reason(str(exc))) from None

    def pause(self, client: Client, table: HubTable, on: bool) -> None:
        """Any seated player pauses a real-time game for everyone, and any seated player plays
        on (as anyone at a real table may stop or turn the sand timer again); spectators may
        not. A pause for a player who is away lasts until they are back, whatever is asked."""
        m = table.match
        if m is None or m.is_over() or table.authority is None:
            raise HubError("no game is being played at this table")
        if not table.game.real_time:
            raise HubError("only a real-time game pauses; this one waits for each move")
        if table.seat_of(client.identity) is None:
            raise HubError("you are watching this table: only its players pause it")
        if not on and table.away():
            raise HubError(f"the game is {table.paused()}")
        if not on and table.restored:  # the first player back after a restart plays on
            table.restored = False
            table.paused_by = ""
        elif on == bool(table.paused_by):
            return  # already so (two players pressed the key together)
        table.paused_by = client.name if on else ""
        table.note(f"{client.name} pauses the game." if on else f"{client.name} plays on.")
        table.authority.advance()  # the timer and the bots follow
        table.save()
        self.changed(table)

    # -- a finished game's records ----------------------------------------------------------------
    def _write_records(self, table: HubTable, m: Match) -> None:
        """Write a finished game's records in a thread; the table is saved again once they are
        (a failure is said in the table's log and the server's, and tried at the next change)."""
        if self.tables_dir is None:
            return
        self._writing.add(table)

        async def write() -> None:
            try:
                await self.write_records(table, m)
            except OSError as exc:
                table.note("the game's record could not be written; the server's operator can "
                           "see why")
                log.warning("table %s: its record could not be written: %s", table.code,
                            exc.strerror or exc)
            finally:
                self._writing.discard(table)
            table.save()
            self.changed(table)

        asyncio.ensure_future(write())

    async def write_records(self, table: HubTable, m: Match) -> None:
        """The record in the tables folder and in the saved games of every keyed player at the
        table, written in a thread (OSError if one cannot be); then the table names it to its
        players."""
        if self.tables_dir is None:
            return
        name = table.record_name or record_file_name(table.game.id, table.code)
        await self._write_files(table, m, name)
        table.record_name = name  # (told to the players once the files are there)
        table.saved_for_players = True

    async def _write_files(self, table: HubTable, m: Match, name: str) -> None:
        """``m``'s record as ``name`` in the tables folder, and in the saved games of every
        keyed player at the table that lack it (:func:`.hub_records.save_for_player`)."""
        assert self.tables_dir is not None
        homes = [self.home_for(slot.identity) if self.home_for and slot.identity else None
                 for slot in table.slots]
        folders = [home / "data" / "games" for home in homes if home is not None]
        path = self.tables_dir / name
        game_id = game_id_of(table.code, m)

        def write() -> None:
            data = encode_match(m)
            write_atomic(path, data)
            for folder in folders:
                save_for_player(folder, game_id, name, data)

        await asyncio.get_running_loop().run_in_executor(None, write)

    def records_here(self, table: HubTable) -> None:
        """A finished table set up here from the store (another server's, or taken over
        from a server that wrote its records on its own disk): the same files are written
        here (the table page's Replay opens the tables folder's), and the record's name is
        told to the players here once they are."""
        m = table.match
        name = table.record_name
        if m is None or not m.is_over() or self.tables_dir is None or not plain_name(name):
            return
        if name not in self._copying and (self.tables_dir / name).is_file():
            return
        table.record_name = ""  # (not yet here)
        if name in self._copying:
            return
        self._copying.add(name)

        async def copy() -> None:
            try:
                await self._write_files(table, m, name)
            except OSError as exc:
                log.warning("table %s: its record could not be written here: %s", table.code,
                            exc.strerror or exc)
            finally:
                self._copying.discard(name)
            now = self.current(table.code)
            if now is not None and not now.record_name and now.saved_for_players:
                now.record_name = name
                now.save()  # (its owner keeps the name in the store; a replica saves nothing)
                self.changed(now)

        asyncio.ensure_future(copy())
