"""The table of a match played in this terminal: hot-seat humans and bots.

``LocalTable`` is the table authority (:mod:`.authority`) with local ports: the record writer's
thread saves after every change (:class:`~.ports.RecordSaver`), bots think in a thread of the
event loop's executor (:class:`~.ports.ThreadThinker`, once a front end calls ``start_bots``),
and a real-time game's clock, paced bots and clock steps run in its
:class:`~.realtime.RoundSession` (``round_clock()``), which the screen starts while it shows the
table. It implements the :class:`~.protocol.Table` protocol every game screen is typed against.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from ..ai.levels import check_seats
from ..core.api import Outcome
from ..core.errors import CellwarsError, IllegalAction
from ..core.match import Match, Seat
from .authority import REALTIME_BOT_BUDGET, TableAuthority
from .log import Entry, sentences, step_entries
from .naming import seat_kind_detail, seat_name, seat_text
from .ports import RecordSaver, ThreadThinker
from .protocol import A, LogEntry, RoundClock, S
from .realtime import PLAYER, READY

__all__ = ["REALTIME_BOT_BUDGET", "LocalTable"]


class LocalTable(TableAuthority[S, A]):
    """A match played here: local humans (hot-seat) and bots."""

    spectator = False
    has_public_view = True

    def __init__(
        self,
        match: Match,
        humans: Iterable[int] | None = None,
        *,
        read_only: bool = False,
        autosave: bool = True,
    ) -> None:
        if not read_only:
            check_seats(match.seats)  # a record naming an unknown bot level: one line
        self.threads = ThreadThinker()
        super().__init__(match, saver=RecordSaver(lambda: self.match), thinker=self.threads,
                         read_only=read_only, autosave=autosave)
        self.players: int = match.options.players
        if humans is None:
            humans = [i for i, s in enumerate(match.seats) if not s.is_bot]
        self.humans: frozenset[int] = frozenset(humans)
        self.last_human: int | None = None
        self._notes: list[tuple[int, int | None, str]] = []  # lines of the table, not the game's
        if not read_only and match.auto_chance:
            match.resolve_chance()  # a record saved just before a roll
        for step in reversed(match.history):
            if step.seat in self.humans:
                self.last_human = step.seat
                break
        if self.game.real_time and not read_only and self.game.round_seconds(match.options):
            self.open_session(self.bot_seats())

    # -- the authority's hooks -------------------------------------------------------------------
    def bot_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.match.seats) if s.is_bot and i not in self.humans]

    def seat_title(self, seat: int) -> str:
        """A seat as every list names it: "Ann", "Bot (random bot)" (naming.py)."""
        name = self.seat_name(seat)
        return seat_text(name, self.seats[seat]) if 0 <= seat < self.players else name

    def played(self, seat: int) -> None:
        if seat in self.humans:
            self.last_human = seat

    def note(self, text: str, seat: int | None = None) -> None:
        """A line of the table in its log (a bot that failed), after the step it came at."""
        self._notes.append((self.match.cursor, seat, text))

    # -- capabilities --------------------------------------------------------------------------
    @property
    def supports_undo(self) -> bool:
        return not self.read_only and not self.game.real_time

    @property
    def owns_time(self) -> bool:
        return self._session is not None

    # -- who sits here -----------------------------------------------------------------------
    @property
    def history(self) -> Match:
        return self.match

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self.match.seats

    def names(self) -> list[str]:
        return [s.name or self.game.seat_label(i) for i, s in enumerate(self.seats)]

    def seat_name(self, seat: int | None) -> str:
        return seat_name(self.names(), seat)

    def seat_kind(self, seat: int) -> str:
        return seat_kind_detail(self.seats[seat])

    def hot_seat(self) -> bool:
        """Whether several people share this screen and must not see each other's secrets."""
        return self.game.hidden_information and len(self.humans) > 1

    # -- what the screen shows ---------------------------------------------------------------
    def viewer(self) -> int | None:
        """The seat whose eyes the screen uses now (None: reveal all)."""
        if self.is_over():
            return None
        if not self.humans:
            return None
        if len(self.humans) == 1:
            return next(iter(self.humans))
        acting = self.humans_to_act()
        if acting:
            return acting[0]
        if self.last_human is not None:
            return self.last_human
        return min(self.humans)

    def view(self, seat: int | None) -> S:
        if seat is None:
            state: S = self.match.state
            return state
        return self.game.view(self.match.state, seat)

    def public_view(self) -> S:
        return self.game.view(self.match.state, None)

    def state(self) -> S:
        state: S = self.match.state
        return state

    def to_act(self) -> tuple[int, ...]:
        return self.match.to_act()

    def humans_to_act(self) -> tuple[int, ...]:
        if self.read_only:
            return ()
        return tuple(s for s in self.to_act() if s in self.humans)

    def legal(self, seat: int) -> list[A]:
        if self.read_only or seat not in self.to_act():
            return []
        return list(self.game.legal_actions(self.match.state, seat))

    def step(self) -> int:
        """How many steps (chance included) the game has gone through."""
        return self.match.cursor

    # -- undo ------------------------------------------------------------------------------
    def _undo_humans(self) -> set[int] | None:
        return set(self.humans) if len(self.humans) < self.players else None

    def can_undo(self) -> bool:
        if not self.supports_undo:
            return False
        return self.match.undo_target(
            self._undo_humans(), keep_chance=self.game.undo_keeps_chance
        ) is not None

    def undo(self) -> bool:
        if not self.can_undo():
            return False
        self.match.undo(self._undo_humans(), keep_chance=self.game.undo_keeps_chance)
        self._taken_back()
        return True

    def can_redo(self) -> bool:
        return self.supports_undo and self.match.can_redo()

    def redo(self) -> bool:
        if not self.can_redo():
            return False
        self.match.redo(self._undo_humans())
        self._taken_back()
        return True

    def _taken_back(self) -> None:
        self.moved()
        self.save()
        self._changed()

    def undo_stopped_by_chance(self) -> bool:
        return (self.supports_undo and self.game.undo_keeps_chance
                and self.match.undo_stopped_by_chance(self._undo_humans()))

    # -- the log and the end -----------------------------------------------------------------
    def events(self, last: int | None = None) -> list[LogEntry]:
        """(step, seat, sentence) for what happened so far, oldest first (every event as it is:
        the people at this terminal share it)."""
        m = self.match
        start = 0 if last is None else max(0, m.cursor - last)
        notes: dict[int, list[Entry]] = {}
        for n, seat, text in self._notes:
            if start <= n <= m.cursor:
                notes.setdefault(n, []).append((n, seat, text))
        entries: list[Entry] = notes.get(start, []) if start == 0 else []
        for i in range(start, m.cursor):
            step = m.steps[i]
            name = self.seat_name(step.seat)
            entries += step_entries(self.game, i + 1, step.seat, step.action, m.events[i], name)
            entries += notes.get(i + 1, [])
        out = sentences(self.game, entries, self.names(), everything=True)
        return out if last is None else out[-last:]

    def outcome(self) -> Outcome | None:
        return self.match.outcome()

    def is_over(self) -> bool:
        return self.match.is_over()

    def outcome_text(self) -> str:
        outcome = self.outcome()
        if outcome is None:
            return ""
        return outcome.text(self.names(), team=self.game.meta.cooperative)

    # -- bots --------------------------------------------------------------------------------
    def bot_step(self, seat: int | None = None) -> A:
        """Let the bot at ``seat`` (default: the first bot to act) choose, here and now
        (blocking: for scripts and tests; a front end calls ``start_bots`` instead)."""
        if seat is None:
            seat = self.bot_to_move()
        if seat is None:
            raise CellwarsError("no bot is to act")
        view = self.game.view(self.match.state, seat)
        return cast(A, self.threads.choose_now(self.turn(seat, view)))

    # -- real time -----------------------------------------------------------------------------
    def round_clock(self) -> RoundClock | None:
        """The session running this table's rounds (a real-time game being played here)."""
        return self._session

    def time_left(self) -> float | None:
        return self._session.remaining() if self._session is not None else None

    @property
    def paused(self) -> str:
        session = self._session
        if session is None or not session.paused:
            return ""
        if PLAYER in session.pause_reasons:
            return "paused"
        if session.pause_reasons == {READY}:
            return "waiting: ready?"
        return "paused: the table cannot be seen"

    def request_pause(self, on: bool) -> None:
        """The player pauses every seat at once (bots too), or plays on."""
        if self._session is None:
            raise IllegalAction("only a real-time game pauses; this one waits for each move")
        self._session.set_paused(PLAYER, on)
        self._tell_listeners()
