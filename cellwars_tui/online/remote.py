"""``RemoteTable``: a networked table, implementing :class:`cellwars_tui.table.Table`.

A game's own screen draws a table of ``cellwars serve`` unchanged through it (the protocol:
``cellwars_tui/table/protocol.py``). The hub owns the game; this table holds the latest
:class:`~.protocol.TableState` of the session's seat: the state as that seat may see it, the seat's
legal actions (worked out by the hub), the log lines the seat may read, and the outcome.
``submit`` sends the action up and returns at once; the hub's answer arrives as a new state
(``update``), and listeners are called then. The legal moves come in the game's notation and are
read once per state: a move is checked against them and sent as the hub wrote it, never written
and read again. One move is on its way at a time: moves made before
the hub answers (a player typing fast) wait in a queue and go up one by one, each once the hub
has answered the one before; a queued move the new state no longer allows is dropped with a
one-line notice (``notify``). Nothing is undone over the network, no bot runs here
(the hub runs the bots) and nothing is saved here (the hub records the game).

This module imports no textual.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from typing import Generic, cast

from ..core.api import Game, Outcome
from ..core.errors import CellwarsError, IllegalAction
from ..core.match import Seat
from ..core.registry import get_game
from ..table.listeners import ChangeListeners
from ..table.naming import seat_kind_word, seat_name, seat_text
from ..table.protocol import A, NoUndo, RoundClock, S
from ..table.realtime import FollowingClock
from . import protocol as p


def seat_of(info: p.SeatInfo, label: str) -> Seat:
    """A seat of the hub's table as a :class:`Seat` (``label``: the game's name for an unnamed
    seat), for :mod:`~cellwars_tui.table.naming`'s wording."""
    if info.kind == "bot":
        return Seat(name=info.name or label, kind="bot", bot=info.bot)
    return Seat(name=info.name or "(free)")


def seat_words(info: p.SeatInfo, label: str) -> str:
    """How a seat of the hub's table reads in lists: "ann", "Blue (normal bot)", "free"."""
    if info.kind == "free":
        return "free"
    seat = seat_of(info, label)
    return seat_text(seat.name, seat)


MAX_QUEUED = 16  # moves a seat may make ahead of the hub's answers


class RemoteTable(NoUndo, ChangeListeners, Generic[S, A]):
    """The session's seat at a table of the hub (or a spectator's public view)."""

    match = None  # the authoritative match lives in the hub

    def __init__(self, state: p.TableState, send: Callable[[p.Msg], None],
                 game: Game[S, A] | None = None, *, clock: Callable[[], float] = time.monotonic,
                 notify: Callable[[str], None] | None = None) -> None:
        self.game: Game[S, A] = game or get_game(state.info.game)
        self.players: int = len(state.info.seats)
        self._send = send
        self.revision = 0
        self.autosave_enabled = False
        self._listeners: list[Callable[[], None]] = []
        self._state = state
        self._view: S | None = None
        self._legal: list[tuple[A, str]] = []  # (move, its notation as the hub wrote it)
        self._seq = state.played  # numbers this session's moves; the hub's answers name them
        self._in_flight: int | None = None  # the seq of the move on its way to the hub
        self._queue: deque[A] = deque()  # moves made since, sent one by one
        self._notify = notify or (lambda text: None)
        self._clock = clock
        self._received = clock()
        self._round_clock: FollowingClock | None = None
        self._load(state)

    # -- the hub drives the table ------------------------------------------------------------
    @property
    def code(self) -> str:
        return self._state.info.code

    def update(self, state: p.TableState) -> None:
        """A new state from the hub: remember it and tell the screen."""
        if state.info.code != self.code:
            return
        self._load(state)
        self._send_queued()
        self._changed()

    def _changed(self) -> None:
        self._tell_listeners()

    def _load(self, state: p.TableState) -> None:
        self._state = state
        self._received = self._clock()
        self.players = len(state.info.seats)
        self._view = self.game.decode_state(state.view) if state.view else None
        legal: list[tuple[A, str]] = []
        for text in state.legal:
            try:
                legal.append((self.game.action_from_str(text), text))  # read once, here
            except CellwarsError:
                continue  # a notation this build cannot read: offered nowhere
        self._legal = legal
        if self._in_flight is not None and state.played == self._in_flight:
            self._in_flight = None  # the hub applied it: the next queued move may go

    @property
    def read_only(self) -> bool:
        """Spectators only watch."""
        return self._state.you is None

    @property
    def spectator(self) -> bool:
        """Watching a live table (as opposed to replaying a record)."""
        return self._state.you is None

    @property
    def humans(self) -> frozenset[int]:
        you = self._state.you
        return frozenset() if you is None else frozenset({you})

    @property
    def started(self) -> bool:
        return self._view is not None

    @property
    def save_problem(self) -> str | None:
        """A line the game screen puts on its status line: why the game waits, if it does."""
        return self._state.paused or None

    # -- a real-time game's shared timer (kept by the hub) -----------------------------------
    def has_timer(self) -> bool:
        """Whether this table plays on a shared round timer (a real-time game that started)."""
        return self._state.clock >= 0

    def time_left(self) -> float | None:
        """Seconds left on the shared round timer now (None without one); counts down locally
        between the hub's updates."""
        left = self._state.clock
        if left < 0:
            return None
        if self._state.clock_running:
            left -= self._clock() - self._received
        return max(0.0, left)

    def timer_running(self) -> bool:
        return self._state.clock >= 0 and self._state.clock_running and not self._state.paused

    @property
    def paused(self) -> str:
        """Why the game waits ("" when it does not): a real-time game pauses while a player is
        away, or when one of its players pauses it."""
        return self._state.paused

    def request_pause(self, on: bool) -> None:
        """Ask the hub to pause the shared game for everyone (``on``) or to play on; the new
        state arrives through ``update`` (a player who is away keeps it paused)."""
        if self._state.you is None:
            raise IllegalAction("you are watching this table: only its players pause it")
        self._send(p.Pause(on=on))

    # -- who sits here -----------------------------------------------------------------------
    @property
    def seats(self) -> tuple[Seat, ...]:
        return tuple(seat_of(s, self.game.seat_label(i))
                     for i, s in enumerate(self._state.info.seats))

    def names(self) -> list[str]:
        return [s.name or self.game.seat_label(i) for i, s in enumerate(self._state.info.seats)]

    def seat_name(self, seat: int | None) -> str:
        return seat_name(self.names(), seat)

    def seat_kind(self, seat: int) -> str:
        s = self._state.info.seats[seat]
        if s.kind == "bot":
            return seat_kind_word(seat_of(s, self.game.seat_label(seat)))
        if s.kind == "free":
            return "free"
        return "player" if s.connected else "player (away)"

    def hot_seat(self) -> bool:
        return False  # every player has a terminal of their own

    # -- what the screen shows ---------------------------------------------------------------
    def viewer(self) -> int | None:
        return self._state.you

    def view(self, seat: int | None = None) -> S:
        """The state as this session's seat may see it (the only view it receives; a remote
        table is made for a game that has started, so there is one)."""
        return cast(S, self._view)

    def public_view(self) -> S:
        return self.view()

    def state(self) -> S:
        return self.view()

    def to_act(self) -> tuple[int, ...]:
        return self._state.to_act

    def humans_to_act(self) -> tuple[int, ...]:
        you = self._state.you
        if you is None or self._state.paused:
            return ()
        return (you,) if you in self._state.to_act else ()  # moves made now queue if need be

    def legal(self, seat: int) -> list[A]:
        if seat != self._state.you or not self.humans_to_act():
            return []
        return [action for action, _ in self._legal]

    def step(self) -> int:
        return self._state.step

    # -- acting ------------------------------------------------------------------------------
    def submit(self, seat: int, action: A) -> None:
        """Send ``action`` to the hub; the new state arrives later through ``update``. While an
        earlier move is on its way, ``action`` waits in the queue (checked when its turn comes)."""
        you = self._state.you
        if you is None:
            raise IllegalAction("you are watching this table")
        seats = self._state.info.seats
        if seat != you and 0 <= seat < len(seats) and seats[seat].kind == "bot":
            return  # a screen that drives its own bots (Infection): the hub's bot plays this seat
        if seat != you:
            raise IllegalAction(f"you play {self.seat_name(you)}, not {self.seat_name(seat)}")
        if self._round_clock is not None:
            self._round_clock.check(seat)  # your dice still in the air
        if self._in_flight is not None:
            if len(self._queue) >= MAX_QUEUED:
                raise IllegalAction("too many moves on their way: wait for the table")
            self._queue.append(action)
        else:
            why = self._why_not(action)
            if why:
                raise IllegalAction(why)
            self._send_now(action)
        if self._round_clock is not None:
            self._round_clock.acted(seat, action, self._view)

    def moves_on_their_way(self) -> int:
        """Moves sent or queued that the hub has not answered yet."""
        return len(self._queue) + (self._in_flight is not None)

    def _why_not(self, action: A) -> str:
        """Why this seat may not make ``action`` now ("" when it may)."""
        you = self._state.you
        if self._state.paused:
            return f"the game is {self._state.paused}"
        if you not in self._state.to_act:
            return f"it is not {self.seat_name(you)}'s turn"
        if self._notation(action) is None:
            return f"{self.game.action_to_str(action)} is not a legal move now"
        return ""

    def _notation(self, action: A) -> str | None:
        """``action``'s notation as the hub wrote it among the legal moves (None: not legal)."""
        return next((text for legal, text in self._legal if legal == action), None)

    def _send_now(self, action: A) -> None:
        text = self._notation(action)
        assert text is not None  # (checked by _why_not)
        self._seq += 1
        self._in_flight = self._seq
        self._send(p.Play(step=self._state.step, action=text, seq=self._seq))

    def _send_queued(self) -> None:
        """The hub answered: send the next queued move the state allows; drop those it does not."""
        dropped: list[str] = []
        reason = ""
        if self._state.outcome is not None and self._queue:
            dropped = [self.game.action_to_str(a) for a in self._queue]
            self._queue.clear()
            reason = "the game is over"
        while self._in_flight is None and self._queue:
            action = self._queue.popleft()
            why = self._why_not(action)
            if why:
                dropped.append(self.game.action_to_str(action))
                reason = why
                continue
            self._send_now(action)
        if len(dropped) == 1:
            self._notify(f"dropped your queued move: {reason}")
        elif dropped:
            self._notify(f"dropped {len(dropped)} queued moves ({', '.join(dropped)}): {reason}")

    def submit_system(self, action: A) -> None:
        """A screen's own timer ran out (``time-up``): nothing to send, the hub keeps the one
        shared timer and plays the system action itself."""
        return None

    def refused(self, seq: int | None = None) -> None:
        """The hub refused move ``seq`` (None: the move on its way, whatever it was): the next
        queued move goes if the state allows it, and the seat may act again."""
        if self._in_flight is None or (seq is not None and seq != self._in_flight):
            return  # not about the move on its way (an older one, or no move at all)
        self._in_flight = None
        self._send_queued()
        self._changed()

    # -- the log and the end -----------------------------------------------------------------
    def events(self, last: int | None = None) -> list[tuple[int, int | None, str]]:
        out = [(line.step, line.seat, line.text) for line in self._state.log]
        return out if last is None else out[-last:]

    def outcome(self) -> Outcome | None:
        return self._state.outcome

    def is_over(self) -> bool:
        return self._state.outcome is not None or self._state.info.status == "over"

    def outcome_text(self) -> str:
        outcome = self.outcome()
        if outcome is None:
            return ""
        return outcome.text(self.names(), team=self.game.meta.cooperative)

    # -- bots: the hub runs them -------------------------------------------------------------
    def bot_to_move(self) -> int | None:
        return None

    def start_bots(self) -> None:
        return None  # the hub runs the bots

    def stop_bots(self) -> None:
        return None

    # -- listeners and saving ----------------------------------------------------------------
    def save(self) -> None:
        return None  # the hub records networked games

    # -- the rest of the Table protocol (cellwars_tui/table/protocol.py) ----------------------
    owns_time = False  # the hub keeps a real-time game's clock and runs its bots
    has_public_view = False  # a seat receives its own view only

    @property
    def history(self) -> None:
        return None  # the steps stay in the hub

    def flush(self) -> None:
        return None

    def round_clock(self) -> RoundClock | None:
        """A real-time game's clock, following the hub's (it ticks for the screen)."""
        if not self.game.real_time:
            return None
        if self._round_clock is None:
            self._round_clock = FollowingClock(self)
        return self._round_clock
