"""The lesson table: a local table that follows a lesson, then goes on as a normal game.

:class:`LessonTable` is a :class:`~cellwars_tui.table.local.LocalTable` over the lesson's match
(its seed, seats and options; chance outcomes forced by the lesson) with a :class:`LessonRun`:

* the player's action is played only when it is the lesson's; any other is refused with a
  :class:`NotTheLesson` error that says why (the panel shows it too), and nothing is played;
* the other seats' steps, the player's steps the lesson plays for them and the chance steps are
  played by the lesson, at once;
* read steps wait for :meth:`go_on` (Enter); in a real-time game the round clock is paused
  while the player reads, runs while the lesson waits for an action or for the clock, and is
  wound on when a step says so;
* nothing is saved, and nothing taken back, during the lesson (undo says there is nothing); once its last step is played the
  lesson counts as finished (the user's settings), the other seats' bots start to play, and the
  game is saved and played on like any other.

Screens only draw it: :meth:`panel` is everything the lesson panel shows. No textual here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from ..core.api import Action, Game
from ..core.errors import CellwarsError, IllegalAction
from ..table.authority import Ticket
from ..table.local import LocalTable
from .lesson import AUTO, BOT, CLOCK, DO, Lesson
from .progress import mark_finished
from .run import LessonRun, PanelInfo, lesson_match

LESSON = "lesson"  # the round session's pause reason while the player reads


class NotTheLesson(IllegalAction):
    """An action the lesson does not play now (the message says why, kindly)."""


class LessonTable(LocalTable):
    """A lesson of ``game`` played here by one person (the lesson's seat)."""

    def __init__(self, game: Game, lesson: Lesson, *,
                 remember: Callable[[str], str | None] = mark_finished) -> None:
        self.lesson = lesson
        self.run = LessonRun(game, lesson)
        self._remember = remember
        self.progress_problem: str | None = None  # why "finished" could not be remembered
        match = lesson_match(game, lesson, self.run)
        super().__init__(match, humans=[lesson.you], autosave=False)
        self._end_cursor: int | None = None  # the match's step where the lesson ended
        self._wound = -1  # the step whose clock was wound on
        self._play_automatic()

    # -- what the screen shows -------------------------------------------------------------
    @property
    def active(self) -> bool:
        """The lesson still guides the game (False once it is over: a normal game)."""
        return not self.run.over

    @property
    def reading(self) -> bool:
        """The lesson waits for the player to read and press Enter."""
        return self.run.reading

    def panel(self) -> PanelInfo:
        info = self.run.panel()
        if info.done and self.progress_problem:  # (the lesson is done; keeping it was not)
            info = dataclasses.replace(info, feedback=self.progress_problem)
        return info

    def notes(self) -> dict[str, str]:
        return self.lesson.notes

    def go_on(self) -> bool:
        """The player read the step (Enter): the lesson goes on. False if nothing was waiting."""
        if not self.run.go_on():
            return False
        self.run.feedback = ""
        self._play_automatic()
        self._tell_listeners()
        return True

    @property
    def paused(self) -> str:
        session = self._session
        if session is not None and LESSON in session.pause_reasons:
            return "paused: read the lesson, then press Enter"
        return super().paused

    def request_pause(self, on: bool) -> None:
        session = self._session
        if session is not None and LESSON in session.pause_reasons:
            raise IllegalAction("the lesson holds the clock while you read: press Enter to go on")
        super().request_pause(on)

    # -- acting ------------------------------------------------------------------------------
    def submit(self, seat: int, action: Action, ticket: Ticket | None = None) -> None:
        if not self.active or seat not in self.humans:
            super().submit(seat, action, ticket)
            return
        why = self.run.check(self.match.state, seat, action)
        if why is not None:
            self.run.refused(why)
            self._tell_listeners()
            raise NotTheLesson(why)
        step = self.run.begin()
        try:
            super().submit(seat, action)
        except CellwarsError:
            self.run.take_back(step)
            raise
        self._play_automatic()
        self._tell_listeners()

    def submit_system(self, action: Action, *, replace_clock: bool = False) -> None:
        """The round clock's actions: the time-up a clock step waits for moves the lesson on;
        a clock step (time recorded) changes nothing; an unexpected end of round stops it."""
        if not self.active:
            super().submit_system(action, replace_clock=replace_clock)
            return
        step = self.run.step
        if step is not None and step.kind == CLOCK and action == step.action:
            self.run.begin()
            super().submit_system(action)
            self._play_automatic()
            self._tell_listeners()
            return
        quiet = action == self.game.clock_step(self.match.state)
        super().submit_system(action, replace_clock=replace_clock)
        if not quiet:
            self.run.stop("The round ended before the lesson's move: the lesson stops here. "
                          "Play on as you like: the game goes on against the bot.")
            self._finish()
            self._tell_listeners()

    def _play_automatic(self) -> None:
        """Play the other seats' steps that come now; then follow the clock and the end."""
        while self.active:
            step = self.run.step
            if step is None or step.kind not in (BOT, AUTO):
                break
            assert step.action is not None
            self.run.begin()
            try:
                self.play_unchecked(step.seat, step.action)
            except CellwarsError as exc:  # (a lesson the tests played through cannot get here)
                self.run.stop(f"The lesson cannot go on ({exc}): play on as you like.")
                break
        if not self.active:
            self._finish()
        self._follow_clock()

    def _finish(self) -> None:
        if self._end_cursor is not None:
            return
        self._end_cursor = self.match.cursor
        if self.run.finished:
            self.progress_problem = self._remember(self.lesson.game_id)
        self.autosave_enabled = True
        self._follow_clock()
        self.save()
        self.advance()  # the other seats' bots play from now on

    def _follow_clock(self) -> None:
        session = self._session
        if session is None:
            return
        step = self.run.step
        running = step is None or step.kind in (DO, CLOCK)
        session.set_paused(LESSON, not running)
        if step is not None and step.wind is not None and self._wound != step.number:
            self._wound = step.number
            session.wind_to(step.wind)

    # -- bots, undo ----------------------------------------------------------------------------
    def bot_seats(self) -> list[int]:
        """No bot plays while the lesson plays the other seats itself."""
        return [] if self.active else super().bot_seats()

    def bot_to_move(self) -> int | None:
        return None if self.active else super().bot_to_move()

    def can_undo(self) -> bool:
        """Nothing is taken back during the lesson, nor back into it afterwards."""
        if not super().can_undo() or self._end_cursor is None:
            return False
        target = self.match.undo_target(self._undo_humans(),
                                        keep_chance=self.game.undo_keeps_chance)
        return target is not None and target >= self._end_cursor

