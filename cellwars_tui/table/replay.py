"""A read-only table over a replay position: what a game screen needs to draw a recorded game.

It implements the :class:`~.protocol.Table` protocol, so the game's own screen shows a replay
unchanged, in read-only mode: nothing can be played, undone or saved through it. ``viewer()`` is
the seat chosen in the replay bar, or None to reveal all. The replay itself
(:class:`cellwars_tui.replay.model.Replay`) is above this layer: the table knows it only as a
:class:`Position`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, Protocol

from ..core.api import Event, Game, Options, Outcome
from ..core.errors import IllegalAction
from ..core.match import Seat, Step
from .listeners import ChangeListeners
from .naming import seat_kind_detail
from .log import Entry, sentences, step_entries
from .protocol import A, LogEntry, NoUndo, RoundClock, S


class Position(Protocol):
    """What the replay table reads of a replay (``cellwars_tui.replay.model.Replay``)."""

    @property
    def game(self) -> Game: ...

    @property
    def options(self) -> Options: ...

    @property
    def players(self) -> int: ...

    @property
    def seed(self) -> int: ...

    @property
    def cursor(self) -> int: ...

    @property
    def steps(self) -> Sequence[Step]: ...

    @property
    def events(self) -> Sequence[tuple[Event, ...]]: ...

    @property
    def state(self) -> Any: ...

    @property
    def seats(self) -> tuple[Seat, ...]: ...

    def seek(self, n: int) -> Any: ...

    def seat_names(self) -> list[str]: ...

    def who(self, seat: int) -> str: ...

    def view(self, seat: int | None) -> Any: ...

    def to_act(self) -> tuple[int, ...]: ...

    def outcome(self) -> Outcome | None: ...

    def is_over(self) -> bool: ...


class ReplayTable(NoUndo, ChangeListeners, Generic[S, A]):
    """The state at a replay's cursor, seen by a chosen seat (None: everything)."""

    read_only = True
    spectator = False
    owns_time = False
    has_public_view = True
    match = None
    paused = ""

    def __init__(self, replay: Position, seat: int | None = None) -> None:
        self.replay = replay
        self.game: Game[S, A] = replay.game
        self.players: int = replay.players
        self.humans: frozenset[int] = frozenset()
        self.revision = 0
        self.save_problem: str | None = None
        self.seat: int | None = seat if seat is None or 0 <= seat < self.players else None
        self._listeners: list[Callable[[], None]] = []

    # -- the replay drives the table ---------------------------------------------------------
    def seek(self, n: int) -> None:
        """Move the position (clamped) and tell the screen, if it changed."""
        before = self.replay.cursor
        self.replay.seek(n)
        if self.replay.cursor != before:
            self._changed()

    def set_seat(self, seat: int | None) -> None:
        """Show the game through ``seat``'s eyes (None: reveal all)."""
        seat = seat if seat is None or 0 <= seat < self.players else None
        if seat != self.seat:
            self.seat = seat
            self._changed()

    # -- who sits here -----------------------------------------------------------------------
    @property
    def seats(self) -> tuple[Seat, ...]:
        return self.replay.seats

    def names(self) -> list[str]:
        return self.replay.seat_names()

    def seat_name(self, seat: int | None) -> str:
        if seat is None:
            return "everyone"
        return self.replay.who(seat)

    def seat_kind(self, seat: int) -> str:
        return seat_kind_detail(self.seats[seat])

    def hot_seat(self) -> bool:
        return False

    # -- what the screen shows ---------------------------------------------------------------
    def viewer(self) -> int | None:
        return self.seat

    def view(self, seat: int | None) -> S:
        view: S = self.replay.view(seat)
        return view

    def public_view(self) -> S:
        return self.game.view(self.replay.state, None)

    def state(self) -> S:
        state: S = self.replay.state
        return state

    def to_act(self) -> tuple[int, ...]:
        return self.replay.to_act()

    def humans_to_act(self) -> tuple[int, ...]:
        return ()

    def legal(self, seat: int) -> list[A]:
        return []

    def step(self) -> int:
        return self.replay.cursor

    # -- nothing is played here --------------------------------------------------------------
    def submit(self, seat: int, action: A) -> None:
        raise IllegalAction("this is a replay: use Play from here to play on")

    def submit_system(self, action: A) -> None:
        raise IllegalAction("this is a replay: nothing is played here")

    def bot_to_move(self) -> int | None:
        return None

    def start_bots(self) -> None:
        return None  # (no bot plays here)

    def stop_bots(self) -> None:
        return None

    def save(self) -> None:
        return None

    def flush(self) -> None:
        return None

    # -- real time: the recorded times are the clock (the screen reads them) -------------------
    @property
    def history(self) -> Position:
        return self.replay

    def round_clock(self) -> RoundClock | None:
        return None

    def time_left(self) -> float | None:
        return None

    def request_pause(self, on: bool) -> None:
        raise IllegalAction("this is a replay: autoplay stops with space")

    # -- the log and the end -----------------------------------------------------------------
    def events(self, last: int | None = None) -> list[LogEntry]:
        """(step, seat, sentence) up to the position, as the chosen seat may read it (see
        :meth:`sentences`). Moves without events are spelled out, except other seats' moves
        when the game hides information and a seat is watching (its own moves it knows)."""
        r = self.replay
        names = self.names()
        n = r.cursor
        start = 0 if last is None else max(0, n - last)
        entries: list[Entry] = []
        for i in range(start, n):
            step = r.steps[i]
            entries += step_entries(self.game, i + 1, step.seat, step.action, r.events[i],
                                    self.seat_name(step.seat), reader=self.seat,
                                    everything=self.seat is None)
        out = sentences(self.game, entries, names, reader=self.seat, everything=self.seat is None)
        return out if last is None else out[-last:]

    def sentences(self, n: int, names: list[str] | None = None) -> list[str]:
        """What step ``n`` (1-based) did, as the chosen seat may read it: the game's
        ``view_event(event, seat)`` hook hides (None) or masks what that seat did not know;
        reveal-all reads every event as it is."""
        r = self.replay
        if not 1 <= n <= len(r.steps):
            return []
        names = names if names is not None else self.names()
        entries: list[Entry] = [(n, None, event) for event in r.events[n - 1]]
        return [text for _, _, text in sentences(self.game, entries, names, reader=self.seat,
                                                  everything=self.seat is None)]

    def outcome(self) -> Outcome | None:
        return self.replay.outcome()

    def is_over(self) -> bool:
        return self.replay.is_over()

    def outcome_text(self) -> str:
        outcome = self.outcome()
        if outcome is None:
            return ""
        return outcome.text(self.names(), team=self.game.meta.cooperative)

    def _changed(self) -> None:
        self._tell_listeners()
