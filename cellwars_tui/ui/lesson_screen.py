"""The lesson part of every game screen: a guided first game (``follow_lesson``) shows the
lesson panel instead of the log, tells the game's screen what to highlight (``highlight``, a hook
with a default: a screen that draws highlights overrides it, or reads ``highlighted``), waits for
Enter on a step to read, and says that a lesson left part-way is not saved. Also the biology
notes (Shift+B) and the theme colours every game screen paints with. :class:`GameScreen
<.game_screen.GameScreen>` is a :class:`LessonScreen`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on
from textual.css.query import NoMatches

from ..core.api import Game
from .host import CommandScreen
from .widgets.lesson_panel import LessonPanel, NotesScreen

if TYPE_CHECKING:
    from ..learn.table import LessonTable


class LessonScreen(CommandScreen):
    """A screen that may follow a lesson (see the module's docstring)."""

    game: Game
    read_only: bool

    def __init__(self) -> None:
        super().__init__()
        self.lesson: LessonTable | None = None  # the lesson this table follows (follow_lesson)
        self.highlighted: tuple[str, ...] = ()  # what the lesson points at (see highlight)
        self._lesson_shown = False  # the lesson panel is showing
        self._lesson_was_reading: bool | None = None  # at the last paint (the footer's keys)
        self._lesson_over_told = False  # lesson_over was called

    def refresh_table(self) -> None:
        """Hook: repaint everything from the table (the game screen's)."""

    def colour(self, name: str) -> str:
        """A theme colour by semantic name ("seat-1", "board", "danger" ...) for Rich text."""
        value = self.app.theme_variables.get(name)
        if value is None:
            from .themes import FALLBACK_VARIABLES

            value = FALLBACK_VARIABLES.get(name, "white")
        return value

    def seat_colour(self, seat: int) -> str:
        return self.colour(f"seat-{seat % 6 + 1}")

    # -- a guided first game (learn/) ----------------------------------------------------------
    def follow_lesson(self, lesson: LessonTable) -> None:
        """Show ``lesson``'s panel (call before the screen is mounted; ``lesson`` is its table)."""
        self.lesson = lesson
        self._lesson_shown = True
        self.set_class(True, "-lesson")

    def highlight(self, marks: tuple[str, ...]) -> None:
        """Hook: the lesson points at ``marks`` (squares, tiles, cards, dice, in the names the
        game's lesson file uses; () for none). Called before ``show`` repaints; the default keeps
        them in ``highlighted`` for the screen's painting to read."""
        self.highlighted = marks

    def lesson_over(self) -> None:
        """Hook: the lesson has just ended; the game goes on as a normal one. Default: nothing
        (Infection holds its clock for the player's ready moment)."""

    def lesson_reading(self) -> bool:
        """The lesson waits for Enter: a step to read, or its closing words."""
        lesson = self.lesson
        return (lesson is not None and self._lesson_shown and not self.read_only
                and (lesson.reading or not lesson.active))

    def lesson_go_on(self) -> None:
        """Enter (or a click on the panel) while the lesson waits for it."""
        lesson = self.lesson
        if lesson is None or not self._lesson_shown:
            return
        if lesson.active:
            lesson.go_on()
            return
        self._lesson_shown = False  # the closing words are read: the log comes back
        self.set_class(False, "-lesson")
        self.highlight(())
        self.refresh_table()
        self.refresh_bindings()

    def _paint_lesson(self) -> None:
        lesson = self.lesson
        if lesson is None or not self._lesson_shown:
            return
        try:
            panel = self.query_one("#gs-lesson", LessonPanel)
        except NoMatches:  # not composed (yet)
            return
        panel.show_info(lesson.panel(), self.colour)
        if not lesson.active and not self._lesson_over_told:
            self._lesson_over_told = True
            self.lesson_over()
        reading = self.lesson_reading()
        if self._lesson_was_reading != reading:
            self._lesson_was_reading = reading
            self.refresh_bindings()  # the footer's Enter: "Go on" while the lesson waits for it

    @on(LessonPanel.GoOn)
    def _panel_clicked(self) -> None:
        if self.lesson_reading():
            self.lesson_go_on()

    def action_biology(self) -> None:
        """The biology of the game's pieces and cards, in short notes (Shift+B)."""
        from ..learn.lesson import lesson_notes

        first: tuple[str, ...] = ()
        if self.lesson is not None:
            notes = self.lesson.notes()
            if self._lesson_shown:
                first = self.lesson.panel().notes
        else:
            notes = lesson_notes(self.game)
        self.app.push_screen(NotesScreen(f"{self.game.title}: the biology", notes, first))

    def _in_lesson(self) -> bool:
        """A lesson still guides this game: it is not saved until it ends (LessonTable)."""
        return self.lesson is not None and self.lesson.active and not self.read_only

    def _leaving_words(self) -> str:
        if self._in_lesson():
            return "Leave the lesson (it is not saved: Learn to play starts it again)"
        return "Leave this game (it is saved)"

