"""How the hub runs a table's game: the start, each move, pauses, bots, a real-time game's shared
timer, and saving after every step (a mixin of :class:`~.hub.Hub`, kept apart so the hub's file
holds the connections and the lobby).

A real-time game (Infection) plays its rounds in the table layer's round session
(:class:`cellwars_tui.table.RoundSession`, the same as a game played in one terminal): one shared
timer per table (every seat sees the same seconds left), the game's ``time_up`` when a round's
time runs out, clock steps that keep the time reached, bot teammates at the pace chosen for them
with the dice-landing wait, on the timer's play time. The hub plays through the session's
``play`` (its :meth:`TablePlay._session_play`) and tells it why the game waits: a seated player
away, a player's pause, a restart not yet played on. A real-time game restored after a restart
waits, paused, until a seated player plays on.

Bots think in worker processes (:mod:`.botpool`), never in the server's: a search bot must not
make every other player's keys and frames wait; a worker that fails gives a random legal move.

Every step is saved in the table store (:mod:`.store`) before anyone is told of it; a finished
game's record is also written in the tables folder and in every keyed player's saved games. A
save that fails is said once in the table's log (and the detail once in the server's log), not
once per step.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as _dt
import logging
import random
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..ai.levels import seat_bot, seat_budget
from ..core.api import CHANCE, Action, Game
from ..core.errors import CellwarsError
from ..core.match import Match
from ..record.format import SUFFIX, save_match
from ..table.authority import REALTIME_BOT_BUDGET
from ..table.realtime import AWAY, PLAYER, RoundSession
from ..timer import Clock
from .botpool import BotFailed, BotPool
from .store import StoreError, TableStore
from .tables import RESTORED, HubError, Table, round_seconds

if TYPE_CHECKING:
    from .hub import Client

log = logging.getLogger("cellwars_tui.online.hub")


class TablePlay:
    """The game-running half of the hub (see the module's docstring)."""

    bots: BotPool
    store: TableStore | None
    tables_dir: Path | None
    home_for: Callable[[str], Path | None] | None
    realtime_clock: Clock | None = None  # real-time tables' clock (tests: a FakeClock)
    realtime_tick: float = 1.0  # seconds between two ticks of a real-time table's timer

    def _new_seed(self) -> int:
        """A new game's seed (its dice; and its bots' pace in real time)."""
        return secrets.randbits(63)

    def _here(self, client: Client) -> Table:  # the hub's
        raise NotImplementedError

    def _table_changed(self, table: Table) -> None:  # the hub's
        raise NotImplementedError

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
        table.match = Match(table.game, table.options, seats, self._new_seed())
        self._set_up_session(table)
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
        if step != m.cursor and not _only_time_passed(m, step) \
                and not _unseen_by(table.game, m, step, seat):
            raise HubError("the table moved on before your move arrived; look again")
        if len(text) > 4000:
            raise HubError("that move is too long")
        try:
            action = table.game.action_from_str(text)
            before = m.state
            events = m.play(seat, action)
        except CellwarsError as exc:
            raise HubError(str(exc)) from None
        if table.session is not None:  # a roll lands (no landing is enforced on people here)
            table.session.acted(seat, action, table.game.view(before, None))
        client.played = seq  # the states sent next tell the session its move went through
        self._after_step(table, seat, action, events)

    def _set_up_session(self, table: Table, left: float | None = None) -> None:
        """A real-time game's round session (none for other games), its timer running on the
        hub's clock. ``left``: a game restored mid-round, its round having that many seconds
        left (it waits, paused, for a seated player to play on)."""
        m = table.match
        if m is None or not round_seconds(table.game, table.options):
            return
        table.session = RoundSession(
            table.game, m, play=lambda seat, action, replace: self._session_play(
                table, seat, action, replace),
            think=lambda seat, view: self._session_think(table, seat, view),
            bots=[i for i, slot in enumerate(table.slots) if slot.kind == "bot"])
        self._follow_session(table)  # paused as it should be before its timer starts
        table.session.start(clock=self.realtime_clock, tick=self.realtime_tick, left=left)

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
        if not on and table.restored:  # the first player back after a restart plays on
            table.restored = False
            table.paused_by = ""
        elif on == bool(table.paused_by):
            return  # already so (two players pressed the key together)
        table.paused_by = client.name if on else ""
        table.note(f"{client.name} pauses the game." if on else f"{client.name} plays on.")
        self._advance(table)  # the timer and the bots follow
        self._table_changed(table)

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
        game's round session in step (a new round, a pause, the end)."""
        m = table.match
        if table.session is not None:
            self._follow_session(table)
            return
        if m is None or m.is_over() or table.paused():
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        if any(table.slots[s].kind == "bot" for s in m.to_act() if s >= 0):
            table.bot_task = asyncio.create_task(self._bots(table))

    # -- real time ------------------------------------------------------------------------------
    def _follow_session(self, table: Table) -> None:
        """Tell a real-time table's round session why the game waits (a seated player away, a
        player's pause, a restart not yet played on) and which seats bots play, then let it
        follow the match."""
        session = table.session
        assert session is not None
        session.set_paused(AWAY, bool(table.away()))
        session.set_paused(PLAYER, bool(table.paused_by))
        session.set_paused(RESTORED, table.restored)
        session.set_bots([i for i, slot in enumerate(table.slots) if slot.kind == "bot"])
        session.follow()

    def _session_play(self, table: Table, seat: int, action: Action,
                      replace: bool = False) -> None:
        """The round session plays: a bot's action, or a system action (time-up, a clock
        step) for the CHANCE seat. Raises IllegalAction when the table moved on."""
        m = table.match
        assert m is not None and table.session is not None
        last = m.steps[m.cursor - 1] if m.cursor else None
        if (replace and last is not None and last.seat == CHANCE and m.cursor == len(m.steps)
                and type(last.action) is type(action)):
            m.seek(m.cursor - 1)  # the time reached moves on (one clock step between actions)
        before = m.state
        events = m.play(seat, action)
        if seat >= 0:
            table.session.acted(seat, action, table.game.view(before, None))
        self._after_step(table, seat, action, events)

    async def _session_think(self, table: Table, seat: int, view) -> Action:
        """A real-time bot's choice, thought in the bots' pool (a random legal move when the
        worker fails)."""
        slot = table.slots[seat]
        seed = table.rng.getrandbits(64)  # the bot's RNG: random.Random(seed), in the worker
        try:
            action, _pid = await self.bots.choose(table.game, view, seat,
                                                  seat_bot(slot.seat(table.think)), seed,
                                                  REALTIME_BOT_BUDGET)
            return action
        except BotFailed as exc:  # a crashed or broken bot must not stop the table
            log.warning("table %s: bot of seat %d failed (%s); a random move instead",
                        table.code, seat + 1, exc)
            m = table.match
            instead = self._instead_of_failed_bot(table, m, seat, seed, exc) if m else None
            if instead is None:
                raise CellwarsError(f"{slot.name} could not move") from None
            return instead

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
            action: Action | None
            try:
                spec = m.seats[seat]  # its level (or the search from before levels, timed)
                action, _pid = await self.bots.choose(table.game, view, seat, seat_bot(spec),
                                                      seed, seat_budget(spec))
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

    # -- saving ---------------------------------------------------------------------------------
    def _save(self, table: Table) -> None:
        """Keep ``table`` in the store (after every action), and a finished game's record in the
        tables folder and in the saved games of every keyed player at the table."""
        problems: list[str] = []
        m = table.match
        if m is not None and m.is_over() and not table.saved_for_players:
            try:
                self._save_record(table, m)
            except OSError as exc:
                problems.append(f"its record: {exc.strerror or exc}")
        if self.store is not None:
            try:
                self.store.save(table.stored())
            except StoreError as exc:
                problems.append(f"the table store: {exc}")
        self._saved(table, problems)

    def _save_record(self, table: Table, m: Match) -> None:
        if self.tables_dir is None:
            return
        if not table.record_name:
            stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
            table.record_name = f"{table.game.id}-{stamp}-{table.code}{SUFFIX}"
        save_match(m, self.tables_dir / table.record_name)
        for slot in table.slots:
            home = self.home_for(slot.identity) if self.home_for and slot.identity else None
            if home is not None:
                save_match(m, home / "data" / "games" / table.record_name)
        table.saved_for_players = True

    def _saved(self, table: Table, problems: list[str]) -> None:
        """Say in the table's log that its game could not be saved, once (the server's log gets
        why, once) until a save works again; never a server path in the table's log."""
        if problems and not table.save_failed:
            table.save_failed = True
            table.note("the game could not be saved; the server's operator can see why")
            log.warning("table %s: could not be saved: %s", table.code, "; ".join(problems))
        elif not problems and table.save_failed:
            table.save_failed = False
            table.note("the game is saved again.")
            log.warning("table %s: saved again", table.code)


def _only_time_passed(m: Match, step: int) -> bool:
    """The steps since ``step`` changed nothing but the recorded time (a real-time game's clock
    steps): a move made on the state a player saw at ``step`` still stands."""
    return 0 <= step < m.cursor and all(m.states[i] == m.state for i in range(step, m.cursor))


def _unseen_by(game: Game, m: Match, step: int, seat: int) -> bool:
    """Nothing ``seat`` may see changed since ``step``: its view then is its view now and no
    event since is one it may read (other seats' secret moves, such as instructions added to a
    program written in secret). A move made on that view still stands: the seat knew all it
    could, and is never told that the others moved (the hub sends it no state for that)."""
    if not 0 <= step < m.cursor or game.view(m.states[step], seat) != m.view(seat):
        return False
    return all(game.view_event(e, seat) is None for evs in m.events[step:m.cursor] for e in evs)
