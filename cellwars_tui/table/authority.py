"""The table authority: one headless owner of the loop around every move, for every front end.

A game played in this terminal (:class:`~.local.LocalTable`) and a table of the online hub
(:mod:`cellwars_tui.online.game`) are both a :class:`TableAuthority`. It owns, in one place:

* **the checks** of a move: the seat's turn, why the game waits (a pause, a player away, the
  store down), the seat's dice still landing, and the rules (``Match.play`` refuses an illegal
  action); a front end may add its own (a :class:`Ticket`'s ``check``: the hub's stale view);
* **the step**: ``Match.play`` is called here and nowhere else (a test greps), the clock step that
  replaces the one before it, the round session's landing and timer (:mod:`.realtime`);
* **the log**: what each step adds to it, with one builder (:mod:`.log`);
* **saving** through the :class:`~.ports.Saver` port, after every step;
* **the bots**: one turn-based bot loop (:meth:`start_bots`; the choice comes from the
  :class:`~.ports.Thinker` port, an answer for a position that has changed meanwhile is dropped,
  a bot that fails plays a random legal move, said in the log), and a real-time game's paced bots
  in the round session, thinking through the same port;
* **notify**: listeners are told after every change (screens repaint, the hub sends each seat its
  view).

Durable saving (online). With a durable saver a step is told to nobody, the mover included,
until its save is durable: the step is applied, saved off the event loop, and only then
acknowledged (the :class:`Ticket`), logged to the listeners, landed and answered by the bots.
Steps that arrive meanwhile wait in order (a person's, a bot's, the round clock's) and are
checked when their turn comes. A save that fails takes its step back (the match, its log lines:
never half-saved) and refuses it to its mover in one line; while the saver's store is down every
move is refused with one line and a real-time game pauses; play resumes by itself once the
saver's retries get through (the saver says so: :meth:`store_changed`). A step acknowledged is
in the store. Locally (the record writer's thread) a step is told at once and written soon: a
key press never waits for the disk.

No textual or rich here.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import random
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, cast

from ..core.api import CHANCE, Action, Event, Game
from ..core.errors import CellwarsError, IllegalAction
from ..core.match import Match
from ..timer import Clock
from .listeners import ChangeListeners
from .ports import BotTurn, SaveFailed, Saver, Thinker
from .protocol import A, S
from .realtime import RoundSession

log = logging.getLogger(__name__)

STORE = "store"  # the round session's pause reason while the store is down
REALTIME_BOT_BUDGET = 0.02  # seconds a bot thinks per action in a real-time game
MAX_WAITING = 64  # steps waiting behind a durable save, at most (then: "wait for the table")
NOT_SAVED = "the game could not be saved, so that move was not played: try again soon"


class Ticket(Protocol):
    """Who waits for the answer to one move (online: the mover's session)."""

    def check(self) -> None:
        """Raise IllegalAction when the move no longer stands (checked when its turn comes)."""
        ...

    def accepted(self) -> None:
        """The move is played and saved: the next states tell the mover so."""
        ...

    def refused(self, reason: str) -> None:
        """The move was not played (one line)."""
        ...


@dataclass
class _Step:
    """A step on its way: who plays what, how it is checked and who hears the answer."""

    seat: int
    action: Any  # (the table's action type)
    checked: bool = True  # a person's or a bot's move (the round clock's steps are not)
    lands: bool = True  # a real-time step lands (dice in the air) before its seat acts again
    replace_clock: bool = False  # a clock step replacing the one recorded just before
    ticket: Ticket | None = None
    refused: Callable[[str], None] | None = None  # told when no ticket is
    # filled in when it is played: how to take it back
    undo: tuple[Any, ...] = ()
    logged: list[Any] = field(default_factory=list)
    before: Any = None  # the public view before it (what a landing shows)


class TableAuthority(ChangeListeners, Generic[S, A]):
    """The owner of one table's game (see the module's docstring). A table kind gives the ports
    and answers the hooks below (who sits where, where the log goes, why the game waits)."""

    def __init__(self, match: Match, *, saver: Saver, thinker: Thinker,
                 read_only: bool = False, autosave: bool = True) -> None:
        self.match: Match = match
        self.game: Game[S, A] = match.game
        self.saver = saver
        self.thinker = thinker
        self.read_only = read_only
        self.autosave_enabled = autosave and not read_only
        self.revision = 0  # bumped on every change (ChangeListeners)
        self.save_problem: str | None = None
        self._listeners: list[Callable[[], None]] = []
        self._session: RoundSession | None = None
        self._position = 0  # bumped whenever the match moves: a bot's answer for an older one drops
        self._bots_on = False
        self._bot_task: asyncio.Task[None] | None = None
        self._in_flight: asyncio.Task[None] | None = None  # a step's durable save
        self._waiting: deque[_Step] = deque()
        self._held = ""  # why moves are refused: the store is down

    # -- hooks: what a table kind says ----------------------------------------------------------
    def seat_title(self, seat: int) -> str:
        """A seat as the log names it."""
        return self.match.seats[seat].name or self.game.seat_label(seat)

    def bot_seats(self) -> Iterable[int]:
        """The seats bots play at this table."""
        return (i for i, s in enumerate(self.match.seats) if s.is_bot)

    def waits(self) -> str:
        """Why the game waits for everyone now ("": it does not), beyond the round session's
        own pause (a seated player away, online)."""
        return ""

    def pause_reasons(self) -> dict[str, bool]:
        """The round session's pause reasons this table decides (online: a player away, a
        player's pause, a restart not yet played on)."""
        return {}

    def bot_seed(self, seat: int) -> int | str:
        """The seed of the RNG a bot at ``seat`` chooses with now."""
        m = self.match
        return f"cellwars-bot/{m.seed}/{m.cursor}/{seat}"

    def bot_budget(self, seat: int) -> float:
        from ..ai.levels import seat_budget

        return seat_budget(self.match.seats[seat])

    def note(self, text: str, seat: int | None = None) -> None:
        """A public line in the table's log (default: the server's log only)."""
        log.warning("%s: %s", self.game.title, text)

    def log_step(self, seat: int, action: Action, events: tuple[Event, ...]) -> list[Any]:
        """Put the step just played in the table's log; what was put (to take it back).
        Default: nothing (a local table reads its log from the match)."""
        return []

    def unlog(self, logged: list[Any]) -> None:
        """Take the lines of a step taken back out of the log."""

    def played(self, seat: int) -> None:
        """``seat`` just moved (a local table remembers its last person)."""

    # -- the checks -----------------------------------------------------------------------------
    def check(self, seat: int, action: A) -> None:
        """IllegalAction (one line) when ``seat`` may not play now: not its turn, the game
        waits, or its dice are still landing. The rules check the action itself."""
        if self.read_only:
            raise IllegalAction("this table is read-only")
        if self._held:
            raise IllegalAction(self._held)
        why = self.waits()
        if why:
            raise IllegalAction(f"the game is {why}")
        if seat not in self.match.to_act():
            raise IllegalAction(f"it is not {self.seat_title(seat)}'s turn")
        if self._session is not None:
            self._session.check(seat)  # paused, or the seat's last roll still in the air

    # -- acting ---------------------------------------------------------------------------------
    def submit(self, seat: int, action: A, ticket: Ticket | None = None) -> None:
        """Play ``action`` for ``seat``. Refused at once: IllegalAction (one line). Behind a
        durable save: the move waits its turn and its ``ticket`` hears the answer."""
        self._submit(_Step(seat, action, ticket=ticket))

    def submit_system(self, action: A, *, replace_clock: bool = False) -> None:
        """A system action for the CHANCE seat (a real-time round's ``time-up``, a clock step),
        recorded like a die roll (``replace_clock``: a clock step that replaces the clock step
        recorded just before it, when it is the last step)."""
        if self.read_only:
            raise IllegalAction("this table is read-only")
        self._submit(_Step(CHANCE, action, checked=False, replace_clock=replace_clock))

    def play_unchecked(self, seat: int, action: A) -> None:
        """Play a step someone else decided and checked (a lesson plays the other seats' steps
        and the player's own it plays for them): no turn or landing check, no landing."""
        self._submit(_Step(seat, action, checked=False, lands=False))

    def _submit(self, step: _Step) -> None:
        if self._in_flight is not None:
            if self._held:
                raise IllegalAction(self._held)
            last = self._waiting[-1] if self._waiting else None
            if step.replace_clock and last is not None and last.replace_clock:
                self._waiting[-1] = step  # the time reached moves on: one clock step waits
                return
            if len(self._waiting) >= MAX_WAITING:
                raise IllegalAction("too many moves on their way: wait for the table")
            self._waiting.append(step)
            return
        self._play(step)

    def _play(self, step: _Step) -> None:
        """Check, apply, log and save one step; tell it now, or once its save is durable."""
        m = self.match
        if step.checked:
            self.check(step.seat, step.action)
        elif self._held:
            raise IllegalAction(self._held)
        if step.ticket is not None:
            step.ticket.check()
        durable = self.saver.durable and self.autosave_enabled
        if durable or step.replace_clock:
            step.undo = (m.cursor, list(m.states), list(m.steps), list(m.events))
        if self._session is not None and step.seat >= 0:
            step.before = self.game.view(m.state, None)
        if step.replace_clock and m.cursor and m.cursor == len(m.steps):
            last = m.steps[m.cursor - 1]
            if last.seat == CHANCE and type(last.action) is type(step.action):
                # the time reached moves on: one clock step between two actions, not one every
                # few seconds (it changes nothing, so dropping the older one replays the same)
                m.seek(m.cursor - 1)
        try:
            events = m.play(step.seat, step.action)  # IllegalAction with a one-line message
        except BaseException:
            if step.undo:
                self._restore(step)
            raise
        self._position += 1
        step.logged = self.log_step(step.seat, step.action, events)
        pending = self._save()
        if pending is None:
            self._told(step)
            return
        self._in_flight = asyncio.ensure_future(self._when_saved(step, pending))

    async def _when_saved(self, step: _Step, pending: Awaitable[None]) -> None:
        try:
            await pending
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - SaveFailed, or a store's bug: the same
            self._restore(step)
            self.unlog(step.logged)
            self._position += 1
            reason = NOT_SAVED if isinstance(exc, SaveFailed) else f"{NOT_SAVED} ({exc})"
            self._refuse(step, reason)
            self._in_flight = None
            self._refuse_waiting(reason)
            self._changed()
            return
        self._in_flight = None
        self._told(step)
        self._next_waiting()

    def _restore(self, step: _Step) -> None:
        cursor, states, steps, events = step.undo
        m = self.match
        m.states[:], m.steps[:], m.events[:] = states, steps, events
        m.cursor = cursor

    def _told(self, step: _Step) -> None:
        """The step is kept: it lands, its mover and everyone hear of it, the bots answer."""
        if step.seat >= 0:
            self.played(step.seat)
            if self._session is not None and step.lands:
                self._session.acted(step.seat, step.action, step.before)
        if step.ticket is not None:
            step.ticket.accepted()
        self._changed()

    def _refuse(self, step: _Step, reason: str) -> None:
        if step.ticket is not None:
            step.ticket.refused(reason)
        elif step.refused is not None:
            step.refused(reason)
        else:
            log.info("%s: a step was not played: %s", self.game.title, reason)

    def _next_waiting(self) -> None:
        while self._in_flight is None and self._waiting:
            step = self._waiting.popleft()
            try:
                self._play(step)
            except CellwarsError as exc:
                self._refuse(step, str(exc))

    def _refuse_waiting(self, reason: str) -> None:
        while self._waiting:
            self._refuse(self._waiting.popleft(), reason)

    @property
    def busy(self) -> bool:
        """A step's save is on its way (others wait behind it)."""
        return self._in_flight is not None

    async def settled(self) -> None:
        """Wait until no step waits for its save."""
        while self._in_flight is not None:
            await asyncio.shield(self._in_flight)

    # -- saving ---------------------------------------------------------------------------------
    def save(self) -> None:
        """Keep the table as it is now (a change that is not a step: a seat, a note, the clock).
        Queued locally; online, written in order after the saves before it."""
        pending = self._save()
        if pending is not None:
            asyncio.ensure_future(pending).add_done_callback(_seen)

    def _save(self) -> Awaitable[None] | None:
        if not self.autosave_enabled:
            return None
        pending = self.saver.save()
        self.save_problem = self.saver.problem
        return pending

    def flush(self) -> None:
        """Wait until the saves asked for are written (a local game is left, the app quits)."""
        if not self.autosave_enabled:
            return
        self.saver.flush()
        self.save_problem = self.saver.problem

    def store_changed(self) -> None:
        """The durable saver's store went down, or came back: refuse moves (a real-time game
        pauses) until it is back, then play on."""
        held = self.saver.down
        if held:
            held = f"the game waits: it cannot be saved now ({held})"
        if held == self._held:
            return
        self._held = held
        if held:
            self._refuse_waiting(held)
        self._changed()

    # -- changes, bots and the round session -----------------------------------------------------
    def _changed(self) -> None:
        self.advance()
        self._tell_listeners()

    def advance(self) -> None:
        """Keep a real-time game's round session in step (a new round, a pause, the end); let
        a turn-based bot think when it is its turn (one at a time)."""
        session = self._session
        if session is not None:
            for reason, on in self.pause_reasons().items():
                session.set_paused(reason, on)
            if self._held or STORE in session.pause_reasons:
                session.set_paused(STORE, bool(self._held))
            session.set_bots(list(self.bot_seats()))
            session.follow()
            return
        if not self._bots_on or self._bot_task is not None or self._held:
            return
        if self.bot_to_move() is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop: whoever drives the table asks the bots itself
            return
        self._bot_task = loop.create_task(self._bot_turn())

    def bot_to_move(self) -> int | None:
        """The turn-based bot to act now (None: none, or a real-time game's session plays its
        bots on the round clock)."""
        if self.read_only or self._session is not None or self.match.is_over():
            return None
        bots = set(self.bot_seats())
        return next((seat for seat in self.match.to_act() if seat in bots), None)

    @property
    def thinking(self) -> bool:
        """A turn-based bot is choosing now."""
        return self._bot_task is not None

    def start_bots(self) -> None:
        """Bots play at this table from now on, whenever it is their turn (a front end plays it:
        a screen shows it, the hub runs it)."""
        self._bots_on = True
        self.advance()

    def stop_bots(self) -> None:
        """No bot plays any more (the front end left); a choice being thought is dropped."""
        self._bots_on = False
        if self._bot_task is not None:
            self._bot_task.cancel()
            self._bot_task = None

    def moved(self) -> None:
        """The match moved outside a step (undo, redo): drop a bot's choice thought for before."""
        self._position += 1
        if self._bot_task is not None:
            self._bot_task.cancel()
            self._bot_task = None

    def turn(self, seat: int, view: Any, *, real_time: bool = False) -> BotTurn:
        """The decision the bot at ``seat`` is asked for now."""
        return BotTurn(self.game, view, seat, self.match.seats[seat], self.bot_seed(seat),
                       REALTIME_BOT_BUDGET if real_time else self.bot_budget(seat), real_time)

    async def _bot_turn(self) -> None:
        m, position = self.match, self._position
        seat = self.bot_to_move()  # (now: the table may have moved since the task was made)
        try:
            if seat is None:
                return
            turn = self.turn(seat, m.view(seat))
            action: Action | None
            try:
                choice = self.thinker.choose(turn)
                action = await choice if inspect.isawaitable(choice) else choice
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - a broken bot must not stop the table
                action = None if position != self._position else self.instead(seat, turn, exc)
                if action is None and position == self._position:
                    return  # (no legal move at all: said in the log)
            if position != self._position or action is None:
                return  # someone moved meanwhile: think again (finally)
            self._bot_task = None
            try:
                self.submit(seat, cast(A, action))
            except CellwarsError as exc:
                self.note(f"{self.seat_title(seat)} tried an illegal move: {exc}")
                self._tell_listeners()
        finally:
            if self._bot_task is asyncio.current_task():
                self._bot_task = None
                if position != self._position:
                    self.advance()

    def instead(self, seat: int, turn: BotTurn, failed: Exception) -> Action | None:
        """A crashed or broken bot plays a random legal move (from its seed), said in the log;
        None (and a line) when the seat has no legal move at all."""
        log.warning("%s: the bot of seat %d failed (%s); a random move instead",
                    self.game.title, seat + 1, failed)
        legal = list(self.match.legal_actions(seat))
        name = self.seat_title(seat)
        if not legal:
            self.note(f"{name} could not move: {failed}")
            self._tell_listeners()
            return None
        self.note(f"{name}'s bot failed ({failed}); it plays a random move.", seat)
        return random.Random(turn.seed).choice(legal)

    # -- real time ------------------------------------------------------------------------------
    def open_session(self, bots: Iterable[int]) -> RoundSession:
        """A real-time game's round session over this table's match (not started)."""
        self._session = RoundSession(self.game, self.match, play=self._session_play,
                                     think=self._session_think, bots=list(bots))
        return self._session

    @property
    def session(self) -> RoundSession | None:
        return self._session

    def start_session(self, *, clock: Clock | None = None, tick: float = 1.0,
                      left: float | None = None) -> None:
        """Run the round session's timer on ``clock`` (a table that runs its own time: the
        hub's), paused as the table says first."""
        session = self._session
        if session is None:
            return
        self.advance()
        session.start(clock=clock, tick=tick, left=left)

    def _session_play(self, seat: int, action: Action, replace_clock: bool = False) -> None:
        """The round session plays: a bot's action, or the clock's (time-up, a clock step) for
        the CHANCE seat, through ``submit`` and ``submit_system`` as anyone's (a table kind may
        add to them: a lesson's). A step refused later (behind a durable save) goes to the
        server's log."""
        if seat == CHANCE:
            self.submit_system(cast(A, action), replace_clock=replace_clock)
        else:
            self.submit(seat, cast(A, action))

    def _session_think(self, seat: int, view: Any) -> Action | Awaitable[Action]:
        """A real-time bot's choice through the thinker (a random legal move when it fails)."""
        turn = self.turn(seat, view, real_time=True)
        try:
            choice = self.thinker.choose(turn)
        except Exception as exc:  # noqa: BLE001 - a broken bot must not stop the table
            return self._or_instead(seat, turn, exc)
        if inspect.isawaitable(choice):
            return self._awaited_choice(seat, turn, choice)
        return choice

    async def _awaited_choice(self, seat: int, turn: BotTurn, choice: Awaitable[Action]) -> Action:
        try:
            return await choice
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - a broken bot must not stop the table
            return self._or_instead(seat, turn, exc)

    def _or_instead(self, seat: int, turn: BotTurn, failed: Exception) -> Action:
        action = self.instead(seat, turn, failed)
        if action is None:
            raise CellwarsError(f"{self.seat_title(seat)} could not move") from None
        return action

    async def close(self) -> None:
        """The table closes (the hub stops, or sweeps it): no bot thinks, the time reached is
        kept (the table saved with its round's seconds left, then the round session's last
        clock step), and every save asked for is made."""
        self.stop_bots()
        await self.settled()
        session = self._session
        if session is not None:
            tasks = session.pending()
            if session.started:
                self.save()
            session.stop()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        await self.settled()


def _seen(future: asyncio.Future[None]) -> None:
    """A save nobody waits for: its failure is the saver's to tell (it went down)."""
    if not future.cancelled():
        future.exception()
