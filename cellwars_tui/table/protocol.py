"""What a game screen may ask of a table: the :class:`Table` protocol, and what it hands out.

Three tables implement it: :class:`~.local.LocalTable` (a match played in this terminal: the
table authority with local ports, :mod:`.authority`), :class:`~.replay.ReplayTable` (a recorded
game at the replay bar's position) and the online ``RemoteTable`` (a seat at a table of the
server's hub, :mod:`cellwars_tui.online.remote`). A screen is typed against
``Table`` and never probes a table with ``getattr``: whatever differs between them is a declared
capability (``read_only``, ``spectator``, ``supports_undo``, ``owns_time``, ``has_public_view``)
or a member that says "nothing here" (``match`` and ``history`` are None, ``round_clock()`` is
None, ``undo()`` returns False).

Real time: a table of a real-time game hands out a :class:`RoundClock` (``round_clock()``), the
clock the screen draws and animates from. At a local table it is the headless
:class:`~.realtime.RoundSession`, which also runs the round timer, the bots and the clock steps
(``owns_time``); at a remote table it follows the clock the hub keeps.

No textual or rich here: tables are headless, screens do the drawing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

import msgspec

from ..core.api import Action, Event, Game, Options, Outcome
from ..core.match import Match, Seat, Step

if TYPE_CHECKING:
    from ..timer import Clock

Listener = Callable[[], None]
S = TypeVar("S", bound=msgspec.Struct)  # a table's game's state (what its views are)
A = TypeVar("A", bound=Action)  # a table's game's actions
LogEntry = tuple[int, int | None, str]  # (step, seat or None, sentence)


class Landing(msgspec.Struct, frozen=True):
    """An action still landing at the table (dice tumbling): its seat does nothing meanwhile, and
    the screen shows its result only once it has landed (``Game.landing_seconds``)."""

    action: Action
    before: Any  # the state (public view) before the action: which dice were in hand
    step: int  # the table's step count right after it: the step whose log lines tell the result
    until: float  # play time (seconds of the round clock) at which it has landed


@runtime_checkable
class History(Protocol):
    """The steps a table's position is made of (a Match here, a Replay at the replay bar)."""

    @property
    def options(self) -> Options: ...

    @property
    def seed(self) -> int: ...

    @property
    def cursor(self) -> int: ...

    @property
    def steps(self) -> Sequence[Step]: ...

    @property
    def events(self) -> Sequence[tuple[Event, ...]]: ...


@runtime_checkable
class RoundClock(Protocol):
    """A real-time table's clock as a screen sees it: ticks to repaint by, the seconds left, the
    play time (pauses excluded) and the actions still landing."""

    @property
    def owns_time(self) -> bool:
        """This clock runs the rounds (time-up, bots, clock steps); else it follows one."""
        ...

    def start(self, *, clock: Clock | None = None, tick: float = 0.025) -> None:
        """The table is on screen: run, ticking every ``tick`` seconds on ``clock``."""
        ...

    def stop(self) -> None:
        """The table leaves the screen: the time reached is kept, nothing ticks any more."""
        ...

    def subscribe(self, fn: Callable[[tuple[int, ...]], None]) -> Callable[[], None]:
        """Call ``fn(landed)`` at every tick (``landed``: seats whose action landed just now);
        returns a function that unsubscribes."""
        ...

    def remaining(self) -> float:
        """Seconds left in the current round."""
        ...

    def play_time(self) -> float:
        """Seconds the clock has run (pauses excluded): what ``Landing.until`` counts in."""
        ...

    def landing(self, seat: int) -> Landing | None:
        """``seat``'s action still landing now, if any."""
        ...

    def set_hidden(self, hidden: bool) -> None:
        """The table cannot be seen (a "terminal too small" notice covers it): a clock this
        terminal owns pauses until it can be seen again."""
        ...

    def set_held(self, reason: str, on: bool) -> None:
        """The screen holds a clock this terminal owns for ``reason`` ("covered": another
        screen is over the table; "ready": a round waits for its player), or lets it go; it
        runs again once nothing holds it."""
        ...


class Undoing(Protocol):
    """The undo part of a :class:`Table`: taking moves back and playing them again."""

    @property
    def supports_undo(self) -> bool:
        """Undo and redo mean something here (not at a shared online table)."""
        ...

    def can_undo(self) -> bool: ...

    def undo(self) -> bool: ...

    def can_redo(self) -> bool: ...

    def redo(self) -> bool: ...

    def undo_stopped_by_chance(self) -> bool:
        """A decision could be taken back, but a die roll or draw after it forbids it."""
        ...


class NoUndo:
    """:class:`Undoing` for a table where nothing is ever taken back (a replay, whose position is
    the replay bar's; a shared online table, whose game the hub keeps): no undo, no redo, and
    so nothing a die roll could stop. The replay and online tables mix it in."""

    supports_undo = False

    def can_undo(self) -> bool:
        return False

    def undo(self) -> bool:
        return False

    def can_redo(self) -> bool:
        return False

    def redo(self) -> bool:
        return False

    def undo_stopped_by_chance(self) -> bool:
        return False


@runtime_checkable
class Table(Undoing, Protocol[S, A]):
    """Who sits where, what each seat may see and do, and what happened: all a screen needs
    (its undo part is :class:`Undoing`). Generic in its game's state and action types: a
    screen of one game reads its views typed (``Table[CWState, Action]``)."""

    # -- capabilities ------------------------------------------------------------------------
    @property
    def read_only(self) -> bool:
        """Nothing can be played here (a replay, a spectator's seat)."""
        ...

    @property
    def spectator(self) -> bool:
        """Someone else's live game being watched (as opposed to a replay)."""
        ...

    @property
    def owns_time(self) -> bool:
        """This table runs a real-time game's clock and bots itself (a local game being played);
        a replay takes time from the record, an online table from the hub."""
        ...

    @property
    def has_public_view(self) -> bool:
        """``public_view()`` is what every seat may see (an online seat only receives its own
        view, which ``public_view()`` then returns)."""
        ...

    # -- who sits here -----------------------------------------------------------------------
    @property
    def game(self) -> Game[S, A]: ...

    @property
    def players(self) -> int: ...

    @property
    def seats(self) -> tuple[Seat, ...]: ...

    @property
    def humans(self) -> frozenset[int]:
        """The seats played by people at this terminal."""
        ...

    def names(self) -> list[str]: ...

    def seat_name(self, seat: int | None) -> str: ...

    def seat_kind(self, seat: int) -> str: ...

    def hot_seat(self) -> bool:
        """Several people share this screen and must not see each other's secrets."""
        ...

    # -- what the screen shows ---------------------------------------------------------------
    def viewer(self) -> int | None:
        """The seat whose eyes the screen uses now (None: reveal all)."""
        ...

    def view(self, seat: int | None) -> S:
        """The state as ``seat`` may see it (None: everything, where this table may show it)."""
        ...

    def public_view(self) -> S: ...

    def state(self) -> S: ...

    def to_act(self) -> tuple[int, ...]: ...

    def humans_to_act(self) -> tuple[int, ...]: ...

    def legal(self, seat: int) -> list[A]: ...

    def step(self) -> int:
        """How many steps (chance included) the game has gone through."""
        ...

    @property
    def match(self) -> Match | None:
        """The match played at this table, when it is played here (None: a replay, online)."""
        ...

    @property
    def history(self) -> History | None:
        """The recorded steps up to the position, when this table has them (None: online)."""
        ...

    # -- acting ------------------------------------------------------------------------------
    def submit(self, seat: int, action: A) -> None:
        """Play ``action`` for ``seat``; IllegalAction (one line) when it may not."""
        ...

    def submit_system(self, action: A) -> None:
        """A system action for the CHANCE seat (a real-time game's ``time-up``)."""
        ...

    # -- the log and the end -----------------------------------------------------------------
    def events(self, last: int | None = None) -> list[LogEntry]:
        """(step, seat, sentence) for what happened so far, oldest first."""
        ...

    def outcome(self) -> Outcome | None: ...

    def is_over(self) -> bool: ...

    def outcome_text(self) -> str: ...

    # -- bots ----------------------------------------------------------------------------------
    def bot_to_move(self) -> int | None:
        """The bot seat thinking now at this table (None: none, or the bots play elsewhere)."""
        ...

    def start_bots(self) -> None:
        """A front end plays at this table now: its bots move whenever it is their turn (the
        table authority runs them; nothing where the bots play elsewhere or nowhere)."""
        ...

    def stop_bots(self) -> None:
        """The front end left: no bot plays any more."""
        ...

    # -- real time -----------------------------------------------------------------------------
    def round_clock(self) -> RoundClock | None:
        """A real-time game's clock (None: the game is turn-based, or a replay)."""
        ...

    def time_left(self) -> float | None:
        """Seconds left in the current round (None: no round timer)."""
        ...

    @property
    def paused(self) -> str:
        """Why a real-time game waits now ("": it runs)."""
        ...

    def request_pause(self, on: bool) -> None:
        """Pause the game for everyone at the table (``on``), or play on."""
        ...

    # -- changes and saving --------------------------------------------------------------------
    @property
    def revision(self) -> int:
        """Bumped on every change: a bot's answer for an older revision is dropped."""
        ...

    def subscribe(self, fn: Listener) -> None: ...

    def unsubscribe(self, fn: Listener) -> None: ...

    def save(self) -> None:
        """Save the game (queued: it is written off the event loop)."""
        ...

    def flush(self) -> None:
        """Wait until every save asked for is written (leaving the table, quitting)."""
        ...

    @property
    def save_problem(self) -> str | None:
        """A line for the status line: why the game could not be saved, or why it waits."""
        ...
