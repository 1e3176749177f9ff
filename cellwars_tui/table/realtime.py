"""Real time written once: the round session that runs a real-time game's clock, and the clock a
table shows when another process keeps the time.

:class:`RoundSession` owns a match's real time, headless, for the table authority that plays it
(:mod:`.authority`: a local game, or a table of the online hub):

* one :class:`~cellwars_tui.timer.Timer` per table, restarted for each round
  (``Game.round_seconds``, ``Game.round_of``); when a round's time runs out the session plays the
  game's ``time_up`` system action; a resumed game goes on with the time its round had left;
* every action is recorded at the timer's play time (pauses excluded), and the time reached is
  kept by a ``clock_step`` (the one after the last action moved on, every
  ``Game.clock_step_seconds`` of play without an action, and on leaving), so leaving and
  resuming never gives time back; like the bots' turns, these fall due on the timer's play time,
  never on its ticks, so how often a screen repaints changes nothing in the record;
* bots act on the timer's play time at their pace (``Game.bot_wait``, drawn from an RNG seeded
  by the match's seed, so a seed gives the same action times on every table), never while their
  last action is still landing (``Game.landing_seconds``: dice in the air); a person's action
  lands the same way, and the table refuses that seat's next action until it has;
* pause and resume for several reasons at once: a player pressed pause (:data:`PLAYER`), the
  table cannot be seen (:data:`HIDDEN`: a "terminal too small" notice covers it), a seated player
  is away (:data:`AWAY`, online). The timer, the bots and the landings wait while any holds.

:class:`FollowingClock` is the clock of a table whose time is kept elsewhere (a seat at the hub's
table): it ticks for the screen, reads the seconds left from the table, and lands the seat's own
actions; it decides nothing.

No textual or rich here.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import random
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..ai.levels import seat_level
from ..core.api import CHANCE, Action, Game
from ..core.errors import CellwarsError, IllegalAction
from ..core.match import Match
from ..timer import EXPIRED, IDLE, PAUSED, RUNNING, Clock, Tick, Timer
from .protocol import Landing

if TYPE_CHECKING:
    from .protocol import Table

log = logging.getLogger(__name__)

PLAYER, HIDDEN, AWAY = "player", "hidden", "away"  # why a session is paused
# ... and two a screen holds it for: another screen covers the table (the rules page, a list of
# moves, the theme picker), or a round waits for its player to say they are ready
COVERED, READY = "covered", "ready"
TICK = 0.025  # seconds between two ticks unless the table's screen asks for another rate

TickListener = Callable[[tuple[int, ...]], None]
Thinker = Callable[[int, Any], "Action | Awaitable[Action]"]


class _Ticks:
    """Tick listeners and the actions still landing: what both clocks share."""

    def __init__(self) -> None:
        self._tick_listeners: list[TickListener] = []
        self._landings: dict[int, Landing] = {}
        self.timer: Timer | None = None

    def subscribe(self, fn: TickListener) -> Callable[[], None]:
        if fn not in self._tick_listeners:
            self._tick_listeners.append(fn)

        def unsubscribe() -> None:
            if fn in self._tick_listeners:
                self._tick_listeners.remove(fn)

        return unsubscribe

    def play_time(self) -> float:
        return self.timer.play_time() if self.timer is not None else 0.0

    def landing(self, seat: int) -> Landing | None:
        found = self._landings.get(seat)
        return found if found is not None and found.until > self.play_time() else None

    def _landed(self) -> tuple[int, ...]:
        """Forget the landings that are over; the seats they were for."""
        now = self.play_time()
        done = tuple(seat for seat, item in self._landings.items() if item.until <= now)
        for seat in done:
            del self._landings[seat]
        return done

    def _tell(self, landed: tuple[int, ...] = ()) -> None:
        for fn in list(self._tick_listeners):
            fn(landed)

    def _land(self, game: Game, seat: int, action: Action, before: Any, step: int) -> None:
        secs = game.landing_seconds(action)
        if secs > 0 and seat >= 0:
            self._landings[seat] = Landing(action, before, step, self.play_time() + secs)


class RoundSession(_Ticks):
    """A real-time match's rounds, bots and clock, driven by the table that owns the match.

    ``play(seat, action, replace_clock)`` is the owning table's way to play an action (a bot's,
    or a system action for seat CHANCE; ``replace_clock``: a clock step that replaces one
    recorded just before it): the table authority (:mod:`.authority`) applies it, records and
    saves, tells its screens, and calls :meth:`check` before and :meth:`acted` after, as it does
    for a person's action; then it calls :meth:`follow`. ``think(seat, view)`` is a bot's choice, an action or an awaitable one
    (the hub thinks in worker processes). ``bots``: the seats bots play.
    """

    owns_time = True

    def __init__(self, game: Game, match: Match, *, play: Callable[[int, Action, bool], None],
                 think: Thinker, bots: Sequence[int] = ()) -> None:
        super().__init__()
        self.game = game
        self.match = match
        self.round_seconds = float(game.round_seconds(match.options) or 0.0)
        if not self.round_seconds > 0:
            raise ValueError(f"{game.title} has no round timer")
        self._play = play
        self._think = think
        self._bots = tuple(bots)
        self._rng = random.Random(f"cellwars-pace/{match.seed}")
        self._reasons: set[str] = set()
        self._round: int | None = None  # the round the timer counts down (None: not yet)
        self._handles: dict[int, Any] = {}  # bot seat -> its next action on the timer
        self._clock_due: Any = None  # the next clock step on the timer
        self._thinking: dict[int, asyncio.Task[None]] = {}  # bot seat -> an awaited choice
        self._left: float | None = None  # what the first round had left, when told
        self._notice_listeners: list[Callable[[str], None]] = []

    # -- the table's screen shows it, or stops showing it ------------------------------------
    def start(self, *, clock: Clock | None = None, tick: float = TICK,
              left: float | None = None) -> None:
        """Run the clock (inside the event loop), going on from the time the record reached
        (``left``: the seconds the current round had left when a clock was kept apart from the
        record, as the hub's table store does)."""
        if self.timer is not None:
            return
        self.timer = Timer(self.round_seconds, interval=tick, clock=clock)
        self.timer.subscribe(self._on_tick)
        self.timer.on_expire(self._on_expire)
        # every action is timed in play seconds from here on, going on from the last step's time
        self.match.set_clock(self.timer.play_time)
        self._round = None
        self._left = left
        self.follow()

    def stop(self) -> None:
        """Record the time reached (a clock step) and stop: nothing ticks, no bot acts."""
        if self.timer is None:
            return
        self._record_clock(0.0)
        self._cancel_bots()
        self._landings.clear()
        self.timer.close()
        self.timer = None
        self._round = None

    @property
    def started(self) -> bool:
        return self.timer is not None

    @property
    def round(self) -> int | None:
        """The round the timer counts down (None before it starts)."""
        return self._round

    def pending(self) -> list[asyncio.Task[None]]:
        """Bots' choices being awaited (an owner closing down waits for them once cancelled)."""
        return list(self._thinking.values())

    # -- pause ---------------------------------------------------------------------------------
    def set_paused(self, reason: str, on: bool) -> None:
        """Pause for ``reason`` (PLAYER, HIDDEN, AWAY ...), or lift that reason; the clock runs
        again once no reason holds."""
        if on:
            self._reasons.add(reason)
        else:
            self._reasons.discard(reason)
        self._follow_pause()

    def set_hidden(self, hidden: bool) -> None:
        self.set_paused(HIDDEN, hidden)

    def set_held(self, reason: str, on: bool) -> None:
        """The screen holds the clock for ``reason`` (COVERED, READY), or lets it go."""
        self.set_paused(reason, on)

    @property
    def pause_reasons(self) -> frozenset[str]:
        return frozenset(self._reasons)

    @property
    def paused(self) -> bool:
        return bool(self._reasons)

    def _follow_pause(self) -> None:
        timer = self.timer
        if timer is None:
            return
        if self._reasons and timer.state == RUNNING:
            timer.pause()
        elif not self._reasons and timer.state == PAUSED:
            timer.resume()

    def wind_to(self, left: float) -> None:
        """Leave at most ``left`` seconds in the current round (a lesson skips to its end)."""
        if self.timer is not None and self._round is not None:
            self.timer.cut(left)

    # -- reading -------------------------------------------------------------------------------
    def remaining(self) -> float:
        timer = self.timer
        if timer is None or (timer.state == IDLE and self._round is None):
            return self.round_seconds
        return timer.remaining()

    @property
    def running(self) -> bool:
        return self.timer is not None and self.timer.state == RUNNING

    def on_notice(self, fn: Callable[[str], None]) -> None:
        """Call ``fn(line)`` when a bot's action or the end of a round could not be played."""
        self._notice_listeners.append(fn)

    def _notice(self, text: str) -> None:
        log.warning("%s: %s", self.game.title, text)
        for fn in list(self._notice_listeners):
            fn(text)

    # -- the owning table calls these around every action --------------------------------------
    def check(self, seat: int) -> None:
        """IllegalAction when ``seat`` may not act now: the game is paused, or the seat's last
        action is still landing."""
        if seat == CHANCE:
            return
        if self._reasons:
            raise IllegalAction("the game is paused")
        if self.landing(seat) is not None:
            raise IllegalAction("the last action is still landing")

    def acted(self, seat: int, action: Action, before: Any) -> None:
        """``seat`` played ``action`` from ``before`` (the public view): it lands now."""
        self._land(self.game, seat, action, before, self.match.cursor)

    def follow(self) -> None:
        """Keep the timer in step with the match: a new round starts a full period (the first
        one what its round had left), the end of the game stops everything."""
        timer = self.timer
        if timer is None:
            return
        state = self.match.state
        if self.game.is_terminal(state):
            if timer.state in (RUNNING, PAUSED):
                timer.stop()
            self._cancel_bots()
            self._landings.clear()  # dice in the air at the end lie as the end left them
            return
        if self._clock_due is not None:
            self._clock_due.cancel()  # the idle time counts from this change on
        self._clock_due = timer.after(self.game.clock_step_seconds, self._clock_step_due)
        rnd = self.game.round_of(state)
        if rnd == self._round:
            return
        first = self._round is None
        self._round = rnd
        duration = self.round_seconds
        if first and self._left is not None:
            duration = min(self.round_seconds, max(1.0, self._left))
        elif first and self.match.cursor:  # a resumed game: what its round had left
            played = self.match.steps[self.match.cursor - 1].t - self._round_start()
            duration = min(self.round_seconds, max(1.0, self.round_seconds - played))
        self._landings.clear()
        timer.start(duration)
        if self._reasons:
            timer.pause()
        if first:
            for seat in self._bots:
                self._schedule(seat, self._bot_wait(seat))

    def _round_start(self) -> float:
        """Play time at which the current round began, from the record (0 in the first)."""
        m = self.match
        rnd = self.game.round_of(m.state)
        for i in range(m.cursor - 1, -1, -1):
            if self.game.round_of(m.states[i]) != rnd:
                return m.steps[i].t
        return 0.0

    # -- the timer -----------------------------------------------------------------------------
    def _on_tick(self, tick: Tick) -> None:
        self._tell(self._landed())

    def _clock_step_due(self) -> None:
        self._clock_due = None
        self._record_clock(self.game.clock_step_seconds)
        if self._clock_due is None and self.timer is not None and not self.match.is_over():
            # nothing was recorded (between two rounds, a die to roll): look again later
            self._clock_due = self.timer.after(self.game.clock_step_seconds,
                                               self._clock_step_due)

    def _on_expire(self) -> None:
        action = self.game.time_up(self.match.state)
        if action is None:
            return
        try:
            self._play(CHANCE, action, False)
        except CellwarsError as exc:
            self._notice(f"the timer could not end the round: {exc}")

    def _record_clock(self, idle: float) -> None:
        """Record a clock step when ``idle`` seconds of play have passed since the last step (at
        once when 0: leaving). A clock step recorded since the last action is moved on, not
        followed by another."""
        m = self.match
        if self._round is None or self.game.round_of(m.state) != self._round:
            return
        action = self.game.clock_step(m.state)
        if action is None:
            return
        last = m.steps[m.cursor - 1] if m.cursor else None
        if m.now() - (last.t if last is not None else 0.0) < max(idle - 0.005, 0.01):
            return  # (the 5 ms: step times are rounded to the millisecond)
        try:  # (the owner replaces a clock step recorded just before: the time reached moves on)
            self._play(CHANCE, action, True)
        except CellwarsError as exc:
            self._notice(f"the time reached could not be recorded: {exc}")

    # -- bots ----------------------------------------------------------------------------------
    def set_bots(self, seats: Sequence[int]) -> None:
        """The seats bots play now (a seat handed to a bot online); new ones start at once."""
        new = [s for s in seats if s not in self._bots]
        for seat in [s for s in self._bots if s not in seats]:
            handle = self._handles.pop(seat, None)
            if handle is not None:
                handle.cancel()
        self._bots = tuple(seats)
        if self.timer is not None and self._round is not None:
            for seat in new:
                self._schedule(seat, self._bot_wait(seat))

    def _schedule(self, seat: int, wait: float) -> None:
        assert self.timer is not None
        old = self._handles.get(seat)
        if old is not None:
            old.cancel()
        self._handles[seat] = self.timer.after(wait, lambda: self._bot_turn(seat))

    def _cancel_bots(self) -> None:
        for handle in self._handles.values():
            handle.cancel()
        self._handles.clear()
        if self._clock_due is not None:
            self._clock_due.cancel()
            self._clock_due = None
        for task in self._thinking.values():
            task.cancel()
        self._thinking.clear()

    def _bot_wait(self, seat: int) -> float:
        """The wait before a bot's next action: the game's pace for the seat's level."""
        m = self.match
        return self.game.bot_wait(m.options, seat, self._rng, seat_level(m.seats[seat]))

    def _bot_turn(self, seat: int) -> None:
        """A bot's turn came: it acts if it may (after the choice, when that is awaited), then
        waits its pace (and its action's landing) for the next one."""
        self._handles.pop(seat, None)
        m = self.match
        if self.timer is None or m.is_over() or seat not in self._bots:
            return
        wait = self._bot_wait(seat)
        if seat in m.to_act() and self.landing(seat) is None and seat not in self._thinking:
            try:
                choice = self._think(seat, m.view(seat))
            except CellwarsError as exc:  # (no legal move at all, or a broken bot)
                self._notice(f"a bot failed: {exc}")
                self._schedule_next(seat, wait)
                return
            if inspect.isawaitable(choice):
                task = asyncio.ensure_future(self._await_bot(seat, m.cursor, choice, wait))
                self._thinking[seat] = task
                return
            self._bot_play(seat, choice)
        self._schedule_next(seat, wait)

    async def _await_bot(self, seat: int, cursor: int, choice: Awaitable[Action],
                         wait: float) -> None:
        try:
            action = await choice
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a broken bot must not stop the table
            self._notice(f"a bot failed: {exc}")
            action = None
        finally:
            self._thinking.pop(seat, None)
        m = self.match
        if self.timer is None or m.is_over() or seat not in self._bots:
            return
        if (action is not None and not self._reasons
                and self.game.is_legal(m.state, seat, action)):  # (else the table moved on)
            self._bot_play(seat, action)
        self._schedule_next(seat, wait)

    def _bot_play(self, seat: int, action: Action) -> None:
        try:
            self._play(seat, action, False)
        except CellwarsError as exc:
            self._notice(f"{self.match.seats[seat].name or f'seat {seat + 1}'}: {exc}")

    def _schedule_next(self, seat: int, wait: float) -> None:
        if self.timer is None or self.match.is_over():
            return
        landing = self.landing(seat)
        if landing is not None:
            wait += landing.until - self.play_time()
        self._schedule(seat, wait)


class FollowingClock(_Ticks):
    """The clock of a table whose time is kept elsewhere (a seat at a table of the hub): ticks
    for the screen while the round runs, the seconds left as the table tells them, and the
    seat's own actions landing. It plays nothing and pauses nothing by itself."""

    owns_time = False

    def __init__(self, table: Table) -> None:
        super().__init__()
        self.table = table
        self._clock: Clock | None = None
        self._tick = TICK

    def start(self, *, clock: Clock | None = None, tick: float = TICK) -> None:
        if self.timer is not None:
            return
        self._clock, self._tick = clock, tick
        self.timer = Timer(3600.0, interval=tick, clock=clock)
        self.timer.subscribe(self._on_tick)
        self.table.subscribe(self.follow)
        self.follow()

    def stop(self) -> None:
        if self.timer is None:
            return
        self.table.unsubscribe(self.follow)
        self.timer.close()
        self.timer = None
        self._landings.clear()

    def follow(self) -> None:
        """The table changed: tick while its round runs, stand still while it waits."""
        timer = self.timer
        if timer is None:
            return
        left = self.table.time_left()
        if left is None or self.table.paused or self.table.is_over():
            if timer.state == RUNNING:
                timer.pause()
            return
        if timer.state in (IDLE, EXPIRED):
            timer.start()
        elif timer.state == PAUSED:
            timer.resume()

    def remaining(self) -> float:
        left = self.table.time_left()
        return 0.0 if left is None else left

    def set_hidden(self, hidden: bool) -> None:
        """The time is the hub's: a window too small here does not stop the others' game."""

    def set_held(self, reason: str, on: bool) -> None:
        """The time is the hub's: nothing on this screen holds the others' game."""

    def check(self, seat: int) -> None:
        if self.landing(seat) is not None:
            raise IllegalAction("the last action is still landing")

    def acted(self, seat: int, action: Action, before: Any) -> None:
        self._land(self.table.game, seat, action, before, self.table.step())

    def _on_tick(self, tick: Tick) -> None:
        self._tell(self._landed())
