"""How the hub runs a table's game: the start, each move, pauses, bots, a real-time game's shared
timer, and saving after every step (a mixin of :class:`~.hub.Hub`, kept apart so the hub's file
holds the connections and the lobby).

A real-time game (Infection) plays on one shared timer per table: every seat sees the same
seconds left, the hub applies the game's ``time-up N`` system action when a round's time runs
out, bot teammates act at a human pace on the timer's play time, and the timer stops while a
seated player is away (the game is paused) and runs on when they are back. A real-time game
restored after a restart waits, paused, until a seated player plays on.

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

from ..core.api import CHANCE, Action
from ..core.errors import CellwarsError
from ..core.match import Match
from ..record.format import SUFFIX, save_match
from ..timer import PAUSED, Timer
from .botpool import BotFailed, BotPool
from .store import StoreError, TableStore
from .tables import (
    REALTIME_BOT_BUDGET, REALTIME_BOT_JITTER, REALTIME_BOT_PACE, THINKING, HubError, Table,
    round_seconds, time_up_action,
)

if TYPE_CHECKING:
    from .hub import Client

log = logging.getLogger("cellwars_tui.ssh.hub")


class TablePlay:
    """The game-running half of the hub (see the module's docstring)."""

    bots: BotPool
    store: TableStore | None
    tables_dir: Path | None
    home_for: Callable[[str], Path | None] | None

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
        table.match = Match(table.game, table.options, seats, secrets.randbits(63))
        table.match.started = _now()  # type: ignore[attr-defined]
        self._set_up_clock(table)
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

    def _set_up_clock(self, table: Table, left: float | None = None) -> None:
        """A real-time game's shared round timer (none for other games), the match timed by its
        play seconds. ``left``: a game restored mid-round, its timer stopped at that many seconds
        (the round it counts is ``table.timer_round``)."""
        secs = round_seconds(table.game, table.options)
        m = table.match
        if secs is None or m is None:
            return
        table.timer = Timer(secs, interval=1.0)
        table.timer.on_expire(lambda: self._time_up(table))
        if left is not None:
            table.timer.start(min(secs, max(1.0, left)))  # what was left of the round...
            table.timer.pause()  # ...waiting for a seated player to play on
        m.set_clock(table.timer.play_time)  # actions are timed in play seconds

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
            timer.start(round_seconds(table.game, table.options))
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


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
