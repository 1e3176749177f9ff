"""The table a game screen talks to: who sits where, what each seat may see and do.

``LocalTable`` wraps a :class:`~cellwars_tui.core.match.Match` for play in this terminal (hot-seat
humans and bots). The SSH helper's ``RemoteTable`` has the same public surface, so a game screen
works over the network unchanged. This module imports no textual: the screens do the drawing.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from ..ai.bots import make_bot
from ..core.api import CHANCE, Action, Game, Outcome
from ..core.errors import CellwarsError, IllegalAction
from ..core.match import Match, Seat
from .listeners import ChangeListeners


def seat_bot_id(seat: Seat) -> str:
    """The bot a seat runs ("mcts" for a plain "bot")."""
    return seat.bot if seat.bot in ("random", "mcts") else "mcts"


class LocalTable(ChangeListeners):
    """A match played here: local humans (hot-seat) and bots."""

    def __init__(
        self,
        match: Match,
        humans: Iterable[int] | None = None,
        *,
        read_only: bool = False,
        autosave: bool = True,
    ) -> None:
        self.match: Match | None = match
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
        self._bots: dict[int, Any] = {}
        if not read_only and match.auto_chance:
            match.resolve_chance()  # a record saved just before a roll
        for step in reversed(match.history):
            if step.seat in self.humans:
                self.last_human = step.seat
                break

    # -- who sits here -----------------------------------------------------------------------
    @property
    def seats(self) -> tuple[Seat, ...]:
        assert self.match is not None
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

    def view(self, seat: int | None) -> Any:
        assert self.match is not None
        if seat is None:
            return self.match.state
        return self.game.view(self.match.state, seat)

    def public_view(self) -> Any:
        assert self.match is not None
        return self.game.view(self.match.state, None)

    def state(self) -> Any:
        assert self.match is not None
        return self.match.state

    def to_act(self) -> tuple[int, ...]:
        assert self.match is not None
        return self.match.to_act()

    def humans_to_act(self) -> tuple[int, ...]:
        if self.read_only:
            return ()
        return tuple(s for s in self.to_act() if s in self.humans)

    def legal(self, seat: int) -> list[Action]:
        if self.read_only or seat not in self.to_act():
            return []
        assert self.match is not None
        return list(self.match.legal_actions(seat))

    def step(self) -> int:
        """How many steps (chance included) the game has gone through."""
        assert self.match is not None
        return self.match.cursor

    # -- acting ------------------------------------------------------------------------------
    def submit(self, seat: int, action: Action) -> None:
        if self.read_only:
            raise IllegalAction("this table is read-only")
        if seat not in self.to_act():
            raise IllegalAction(f"it is not {self.seat_name(seat)}'s turn")
        assert self.match is not None
        self.match.play(seat, action)  # raises IllegalAction with a one-line message
        if seat in self.humans:
            self.last_human = seat
        self._changed()

    def submit_system(self, action: Action) -> None:
        """Play a system action (a screen's own timer ran out: ``time-up``, a ``clock`` step) for
        the CHANCE seat, recorded like a die roll, and tell the listeners. RemoteTable's has the
        same meaning (there the hub plays it)."""
        if self.read_only:
            raise IllegalAction("this table is read-only")
        assert self.match is not None
        self.match.play(CHANCE, action)  # raises IllegalAction with a one-line message
        self._changed()

    def _undo_humans(self) -> set[int] | None:
        return set(self.humans) if len(self.humans) < self.players else None

    def can_undo(self) -> bool:
        if self.read_only or self.match is None:
            return False
        return self.match.undo_target(
            self._undo_humans(), keep_chance=self.game.undo_keeps_chance
        ) is not None

    def undo(self) -> bool:
        if not self.can_undo():
            return False
        assert self.match is not None
        self.match.undo(self._undo_humans(), keep_chance=self.game.undo_keeps_chance)
        self._changed()
        return True

    def can_redo(self) -> bool:
        return not self.read_only and self.match is not None and self.match.can_redo()

    def redo(self) -> bool:
        if not self.can_redo():
            return False
        assert self.match is not None
        self.match.redo(self._undo_humans())
        self._changed()
        return True

    # -- the log and the end -----------------------------------------------------------------
    def events(self, last: int | None = None) -> list[tuple[int, int | None, str]]:
        """(step, seat, sentence) for what happened so far, oldest first."""
        m = self.match
        assert m is not None
        names = self.names()
        out: list[tuple[int, int | None, str]] = []
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
        assert self.match is not None
        return self.match.outcome()

    def is_over(self) -> bool:
        assert self.match is not None
        return self.match.is_over()

    def outcome_text(self) -> str:
        outcome = self.outcome()
        return "" if outcome is None else outcome.text(self.names(), team=self.game.meta.cooperative)

    # -- bots --------------------------------------------------------------------------------
    def bot_to_move(self) -> int | None:
        if self.read_only or self.match is None:
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
        assert m is not None
        spec = self.seats[seat]
        bot = self._bots.get(seat)
        if bot is None:
            bot = self._bots[seat] = make_bot(seat_bot_id(spec))
        view = self.game.view(m.state, seat)
        rng = random.Random(f"cellwars-bot/{m.seed}/{m.cursor}/{seat}")
        return bot.choose(self.game, view, seat, rng, spec.think)

    # -- listeners and saving ----------------------------------------------------------------
    def save(self) -> None:
        if not self.autosave_enabled or self.match is None:
            return
        from ..record.store import autosave

        try:
            autosave(self.match)
            self.save_problem = None
        except OSError as exc:
            self.save_problem = f"could not save the game: {exc.strerror or exc}"

    def _changed(self) -> None:
        self.save()
        self._tell_listeners()
