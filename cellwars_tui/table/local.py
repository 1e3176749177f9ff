"""The table of a match played in this terminal: hot-seat humans and bots.

``LocalTable`` wraps a :class:`~cellwars_tui.core.match.Match` and implements the
:class:`~.protocol.Table` protocol every game screen is typed against. It saves after every change
(encoded here, written by the record writer's thread: :mod:`cellwars_tui.record.writer`), and a
real-time game's clock, bots and clock steps run in its :class:`~.realtime.RoundSession`
(``round_clock()``), which the screen starts while it shows the table.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

from ..ai.bots import Bot, make_bot
from ..core.api import CHANCE, Action, Game, Outcome
from ..core.errors import CellwarsError, IllegalAction
from ..core.match import Match, Seat
from .listeners import ChangeListeners
from .naming import seat_bot_id
from .protocol import LogEntry, RoundClock
from .realtime import PLAYER, READY, RoundSession

REALTIME_BOT_BUDGET = 0.02  # seconds a bot thinks per action in a real-time game


class LocalTable(ChangeListeners):
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
        self.match: Match = match
        self.game: Game = match.game
        self.players: int = match.options.players
        if humans is None:
            humans = [i for i, s in enumerate(match.seats) if not s.is_bot]
        self.humans: frozenset[int] = frozenset(humans)
        self.read_only = read_only
        self.autosave_enabled = autosave and not read_only
        self.revision = 0  # bumped on every change: a bot result for an old revision is dropped
        self.last_human: int | None = None
        self.save_problem: str | None = None
        self._listeners: list[Callable[[], None]] = []
        self._bots: dict[int, Bot] = {}
        self._session: RoundSession | None = None
        if not read_only and match.auto_chance:
            match.resolve_chance()  # a record saved just before a roll
        for step in reversed(match.history):
            if step.seat in self.humans:
                self.last_human = step.seat
                break
        if self.game.real_time and not read_only and self.game.round_seconds(match.options):
            bots = [i for i, s in enumerate(match.seats) if s.is_bot and i not in self.humans]
            self._session = RoundSession(self.game, match, play=self._play_for_session,
                                         think=self._think_now, bots=bots)

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
        if seat is None:
            return "everyone"
        if seat == CHANCE:
            return "chance"
        names = self.names()
        return names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"

    def seat_kind(self, seat: int) -> str:
        s = self.seats[seat]
        if not s.is_bot:
            return "human"
        return "random bot" if seat_bot_id(s) == "random" else f"search bot {s.think:g}s"

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

    def view(self, seat: int | None) -> object:
        if seat is None:
            return self.match.state
        return self.game.view(self.match.state, seat)

    def public_view(self) -> object:
        return self.game.view(self.match.state, None)

    def state(self) -> object:
        return self.match.state

    def to_act(self) -> tuple[int, ...]:
        return self.match.to_act()

    def humans_to_act(self) -> tuple[int, ...]:
        if self.read_only:
            return ()
        return tuple(s for s in self.to_act() if s in self.humans)

    def legal(self, seat: int) -> list[Action]:
        if self.read_only or seat not in self.to_act():
            return []
        return list(self.match.legal_actions(seat))

    def step(self) -> int:
        """How many steps (chance included) the game has gone through."""
        return self.match.cursor

    # -- acting ------------------------------------------------------------------------------
    def submit(self, seat: int, action: Action) -> None:
        if self.read_only:
            raise IllegalAction("this table is read-only")
        if seat not in self.to_act():
            raise IllegalAction(f"it is not {self.seat_name(seat)}'s turn")
        session = self._session
        if session is not None:
            session.check(seat)  # paused, or the seat's last roll still in the air
        before = self.match.state
        self.match.play(seat, action)  # raises IllegalAction with a one-line message
        if seat in self.humans:
            self.last_human = seat
        if session is not None:
            session.acted(seat, action, self.game.view(before, None))
        self._changed()

    def submit_system(self, action: Action) -> None:
        """Play a system action (a round's ``time-up``, a ``clock`` step) for the CHANCE seat,
        recorded like a die roll, and tell the listeners."""
        if self.read_only:
            raise IllegalAction("this table is read-only")
        self.match.play(CHANCE, action)  # raises IllegalAction with a one-line message
        self._changed()

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
        self._changed()
        return True

    def can_redo(self) -> bool:
        return self.supports_undo and self.match.can_redo()

    def redo(self) -> bool:
        if not self.can_redo():
            return False
        self.match.redo(self._undo_humans())
        self._changed()
        return True

    def undo_stopped_by_chance(self) -> bool:
        return (self.supports_undo and self.game.undo_keeps_chance
                and self.match.undo_stopped_by_chance(self._undo_humans()))

    # -- the log and the end -----------------------------------------------------------------
    def events(self, last: int | None = None) -> list[LogEntry]:
        """(step, seat, sentence) for what happened so far, oldest first."""
        m = self.match
        names = self.names()
        out: list[LogEntry] = []
        start = 0 if last is None else max(0, m.cursor - last)
        show_actions = not self.game.hidden_information
        for i in range(start, m.cursor):
            step = m.steps[i]
            seat = None if step.seat == CHANCE else step.seat
            evs = m.events[i]
            if not evs and show_actions and seat is not None:
                text = self.game.action_to_str(step.action)
                out.append((i + 1, seat, f"{self.seat_name(seat)}: {text}"))
            for ev in evs:
                try:
                    sentence = self.game.describe_event(ev, names)
                except Exception as exc:  # a game's text bug must not break the table
                    sentence = f"({type(ev).__name__}: {exc})"
                out.append((i + 1, seat, sentence))
        if last is not None:
            out = out[-last:]
        return out

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
    def bot_to_move(self) -> int | None:
        """A bot to think in the screen's worker (None in real time: the session's bots act on
        the round clock)."""
        if self.read_only or self._session is not None:
            return None
        for seat in self.to_act():
            if seat != CHANCE and seat not in self.humans and self.seats[seat].is_bot:
                return seat
        return None

    def bot_step(self, seat: int | None = None) -> Action:
        """Let the bot at ``seat`` (default: the first bot to act) choose. Blocking: run it in a
        worker, then ``submit`` if ``revision`` has not changed meanwhile."""
        if seat is None:
            seat = self.bot_to_move()
        if seat is None:
            raise CellwarsError("no bot is to act")
        m = self.match
        spec = self.seats[seat]
        view = self.game.view(m.state, seat)
        rng = random.Random(f"cellwars-bot/{m.seed}/{m.cursor}/{seat}")
        return self._bot(seat).choose(self.game, view, seat, rng, spec.think)

    def _bot(self, seat: int) -> Bot:
        bot = self._bots.get(seat)
        if bot is None:
            bot = self._bots[seat] = make_bot(seat_bot_id(self.seats[seat]))
        return bot

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

    def _play_for_session(self, seat: int, action: Action) -> None:
        if seat == CHANCE:
            self.submit_system(action)
        else:
            self.submit(seat, action)

    def _think_now(self, seat: int, view: object) -> Action:
        """A real-time bot's choice: its bot, thinking a moment (the clock runs meanwhile)."""
        m = self.match
        rng = random.Random(f"cellwars-bot/{m.seed}/{m.cursor}/{seat}")
        return self._bot(seat).choose(self.game, view, seat, rng, REALTIME_BOT_BUDGET)

    # -- listeners and saving ----------------------------------------------------------------
    def save(self) -> None:
        """Queue the record for the writer thread (the fsync happens off the event loop)."""
        if not self.autosave_enabled:
            return
        from ..record.format import encode_match
        from ..record.store import record_path
        from ..record.writer import saves

        try:
            path = record_path(self.match)
            data = encode_match(self.match)
        except OSError as exc:  # (the saved-games folder cannot be made)
            self.save_problem = f"could not save the game: {exc.strerror or exc}"
            return
        writer = saves()
        writer.put(path, data)
        self.save_problem = writer.problem(path)  # a failed earlier write, told until one works

    def flush(self) -> None:
        """Wait until the saves asked for are on disk (the game is left, or the app quits)."""
        if not self.autosave_enabled:
            return
        from ..record.writer import saves

        saves().flush(10.0)
        path = self.match.path
        self.save_problem = saves().problem(path) if path is not None else None

    def _changed(self) -> None:
        self.save()
        if self._session is not None:
            self._session.follow()
        self._tell_listeners()
