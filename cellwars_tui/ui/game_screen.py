"""The base of every game screen, and GenericScreen that plays any game by its move notation.

A game screen only renders state and turns keys and clicks into actions: the rules stay in the
core. The base gives the layout (title line, the game's board, a side panel with the seats and
the event log, a status line, the footer), the bindings (undo, redo, rules, moves picker, back),
the hot-seat cover for hidden information, and the game-over banner. The table plays its own
bots while the screen shows it (``Table.start_bots``): the screen only draws their moves. A subclass writes ``compose_board`` and ``show`` and calls ``play``/``say``/``colour``.

During a guided first game (``follow_lesson``) the side column shows the lesson panel instead of
the log, and the base tells the game's screen what to highlight through ``highlight`` (a hook
with a default: a screen that draws highlights overrides it, or reads ``highlighted``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.strip import Strip
from textual.visual import Visual
from textual.widgets import Button, OptionList, Static
from textual.widgets.option_list import Option

from ..core.api import CHANCE, Action
from ..core.errors import CellwarsError
from ..table.naming import seat_text
from ..table.protocol import Table
from ..table.realtime import COVERED
from .css import default_css
from .dialogs import HandOff, MovesPicker, RulesScreen
from .footer import Footer
from .host import CommandScreen, Host
from .size_guard import TooSmall
from .widgets.lesson_panel import LessonPanel, NotesScreen, refusal_line

if TYPE_CHECKING:
    from ..learn.table import LessonTable

SEAT_GLYPHS = ("①", "②", "③", "④", "⑤", "⑥")
LOG_LINES = 40


class LogPanel(Static):
    """The side log (``#gs-log``): holds the last lines of the game, oldest first, and shows the
    end of them, newest last, however tall they wrap; the mouse wheel scrolls back (an update
    goes to the end again). A screen that paints the log itself with ``update`` gets the same."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.back = 0  # rows scrolled back from the end
        self._strips: list[Strip] = []
        self._strips_key: tuple[Any, ...] | None = None

    def show_entries(self, entries: list[Text]) -> None:
        """Show ``entries`` (one Text each, oldest first), scrolled to the newest."""
        self.update(Text("\n").join(entries))

    def update(self, *args: Any, **kwargs: Any) -> None:
        self.back = 0
        self._strips_key = None
        super().update(*args, **kwargs)

    def _all_strips(self) -> list[Strip]:
        width = self.size.width
        key = (width, id(self.visual), self.visual_style)
        if key != self._strips_key:
            self._strips = Visual.to_strips(self, self.visual, width, None, self.visual_style)
            self._strips_key = key
        return self._strips

    def hidden_rows(self) -> int:
        """Rows above the window when scrolled to the end (0: everything shows)."""
        return max(0, len(self._all_strips()) - self.size.height)

    def render_line(self, y: int) -> Strip:
        super().render_line(y)  # keeps the widget's own render cache (and dirty marks) in step
        strips = self._all_strips()
        top = max(0, self.hidden_rows() - self.back)
        try:
            return strips[top + y]
        except IndexError:
            return Strip.blank(self.size.width, self.visual_style.rich_style)

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        event.stop()
        back = min(self.hidden_rows(), self.back + 1)
        if back != self.back:
            self.back = back
            self.refresh()

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        event.stop()
        if self.back:
            self.back -= 1
            self.refresh()


class GameScreen(CommandScreen):
    """Base of every game screen, typed against the :class:`~cellwars_tui.table.Table` protocol
    (a local, replay or online table)."""

    # what takes the keys when the screen opens: the first focusable widget of the board (never
    # a banner button; those cannot take focus until the game is over anyway)
    AUTO_FOCUS = "#gs-board *"

    # default CSS, not CSS_PATH: each game's own CSS_PATH overrides it (ui/css.py says why)
    DEFAULT_CSS = default_css(__file__, "game_screen.tcss")

    BINDINGS = [
        Binding("u,ctrl+z", "undo", "Undo"),
        Binding("r,ctrl+y", "redo", "Redo"),
        Binding("m", "moves", "Moves"),
        Binding("question_mark,f1", "rules", "Rules", key_display="?"),
        Binding("q,escape", "back", "Back"),
        # Shift+B: the one key no game screen uses (Infection's i is its legend)
        Binding("B", "biology", "Biology", show=False),
    ]

    def __init__(self, table: Table, *, read_only: bool = False) -> None:
        super().__init__()
        self.table = table
        self.read_only = read_only or table.read_only
        self.game = table.game
        self._shown_viewer: int | None = None
        self._covered = False
        self._legal: list[Action] = []
        self._status = ""
        self._status_at: int | None = None  # the table's step when the message was said
        self._subscribed = False
        self._over = False  # the game was over at the last repaint (the footer's keys change)
        self.lesson: LessonTable | None = None  # the lesson this table follows (follow_lesson)
        self.highlighted: tuple[str, ...] = ()  # what the lesson points at (see highlight)
        self._lesson_shown = False  # the lesson panel is showing
        self._lesson_was_reading: bool | None = None  # at the last paint (the footer's keys)
        self._lesson_over_told = False  # lesson_over was called

    # -- layout ------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(self.game.title, id="gs-title")
        with Horizontal(id="gs-main"):
            with Vertical(id="gs-board"):
                yield from self.compose_board()
            with Vertical(id="gs-side"):
                yield Static(id="gs-seats")
                if self.lesson is not None:
                    yield LessonPanel(id="gs-lesson")
                yield LogPanel(id="gs-log")
        with Horizontal(id="gs-banner"):
            yield Static(id="gs-result")
            # hidden while playing, and unable to take focus (Enter would start a new game)
            again = Button("New game", id="gs-again", variant="primary")
            back = Button("Back", id="gs-back")
            again.can_focus = back.can_focus = False
            yield again
            yield back
        yield Static(id="gs-status")
        yield Footer()

    def compose_board(self) -> ComposeResult:
        """The game's own widgets (subclass hook)."""
        yield from ()

    def show(self, view: Any, seat: int | None, legal: list[Action]) -> None:
        """Repaint from ``view`` as ``seat`` sees it; ``legal`` = what the local human may do."""

    # -- calls for subclasses ----------------------------------------------------------------
    def play(self, action: Action) -> bool:
        """Submit ``action`` for the local human to act; an illegal one is a status message."""
        if self.read_only:
            self.say(f"{self.read_only_text()}: nothing can be played here.")
            return False
        seat = self.acting_seat()
        if seat is None:
            self.say("It is not your turn.")
            return False
        try:
            self.table.submit(seat, action)
        except CellwarsError as exc:  # (a lesson's refusal: refusal_line)
            self.say(refusal_line(exc, self.size.width - 2) if self._lesson_shown else str(exc))
            return False
        return True

    @property
    def spectator(self) -> bool:
        """The table is someone else's game being watched (a spectator over SSH), not a replay."""
        return self.table.spectator

    @property
    def can_take_back(self) -> bool:
        """Undo and redo mean something here (not at a table over SSH, nor in real time)."""
        return not self.read_only and self.table.supports_undo

    def read_only_text(self) -> str:
        return "You are watching" if self.spectator else "This is a replay"

    def say(self, text: str) -> None:
        """Put ``text`` on the status line now; the next repaint keeps it if the game has not
        moved on since (a message about the position: a hint, "Undone", a refused key). Once a
        move is made it is stale and the status line says what is true then (issue 19: a hint
        stayed on into the next round)."""
        self._status = text
        self._status_at = self._status_mark()
        if self.is_mounted and self.is_attached:
            self.query_one("#gs-status", Static).update(Text(text), layout=False)  # one line

    def tell(self, text: str) -> None:
        """A passing remark on the status line (the tile under the cursor, say): shown now,
        never carried into the next repaint."""
        if self.is_mounted and self.is_attached:
            self.query_one("#gs-status", Static).update(
                Text(text, no_wrap=True, overflow="ellipsis"), layout=False)

    def _status_mark(self) -> int | None:
        try:
            return self.table.step()
        except Exception:  # noqa: BLE001 - a table not started yet (online) has no step
            return None

    def pending_status(self) -> str:
        """The message said for this position, if any (see ``say``)."""
        if self._status and self._status_at != self._status_mark():
            self._status = ""
        return self._status

    def seat_title(self, seat: int) -> str:
        """A seat as every list and dialog names it: "Ann", "Blue (search bot)" (ui/naming.py)."""
        name = self.table.seat_name(seat)
        seats = self.table.seats
        return seat_text(name, seats[seat]) if 0 <= seat < len(seats) else name

    def reader(self) -> int | None:
        """The seat that reads the result as "You win" / "You lose": the one person playing at
        this screen. None (names) in a replay, for a spectator, and at a hot-seat table shared
        by several people or played by bots alone."""
        if self.read_only or self.spectator:
            return None
        humans = self.table.humans
        return next(iter(humans)) if len(humans) == 1 else None

    def result_text(self) -> str:
        """The end of the game worded for whoever reads this screen (``Outcome.text``): "You
        win", "You lose: Ben wins", "Tie", "Team wins"; "" while the game goes on."""
        outcome = self.table.outcome()
        if outcome is None:
            return ""
        return outcome.text(self.table.names(), self.reader(), team=self.game.meta.cooperative)

    def log_events(self, last: int) -> list[tuple[int, int | None, str]]:
        """The table's last ``last`` log lines (step, seat, sentence), and once the game is over
        a last line with the result as this screen's reader reads it (``result_text``): every
        screen's log ends with it."""
        entries = self.table.events(last=last)
        result = self.result_text()
        if result:
            step = entries[-1][0] if entries else self.table.step()
            entries = [*entries, (step, None, result)]
        return entries

    def prompt_text(self) -> str:
        """What the player to act does now, in words, for the status line ("" for the plain
        "Ann: your move (7 legal)"): a screen that knows its decisions says it here."""
        return ""

    def colour(self, name: str) -> str:
        """A theme colour by semantic name ("seat-1", "board", "danger" ...) for Rich text."""
        value = self.app.theme_variables.get(name)
        if value is None:
            from .themes import FALLBACK_VARIABLES

            value = FALLBACK_VARIABLES.get(name, "white")
        return value

    def seat_colour(self, seat: int) -> str:
        return self.colour(f"seat-{seat % 6 + 1}")

    def acting_seat(self) -> int | None:
        """The local human who may act now (the seat the screen shows)."""
        if self.read_only or self._covered:
            return None
        acting = self.table.humans_to_act()
        viewer = self.table.viewer()
        if viewer in acting:
            return viewer
        return acting[0] if acting else None

    @property
    def legal(self) -> list[Action]:
        return self._legal

    # -- the footer ---------------------------------------------------------------------------
    def footer_hidden(self) -> frozenset[str]:
        """Actions whose keys work now but stay out of the footer, so that the keys that
        matter at this moment fit 80 columns (a screen says which; call refresh_bindings()
        when it changes). ``check_action`` returning False hides a key and disables it too."""
        return frozenset()

    @property
    def active_bindings(self) -> dict[str, Any]:
        """Textual's active bindings (what the footer and the palette list) less those of
        ``footer_hidden``; pressing their keys still runs them."""
        bindings = super().active_bindings
        hidden = self.footer_hidden()
        if not hidden:
            return bindings
        return {key: active for key, active in bindings.items()
                if active.binding.action.split("(", 1)[0] not in hidden}

    # -- keeping in step with the table ------------------------------------------------------
    def on_mount(self) -> None:
        # Textual runs the on_mount of every class of the screen, so a subclass calling
        # super().on_mount() gets here twice: the second time does nothing
        if self._subscribed:
            return
        self._subscribed = True
        self.table.subscribe(self._table_changed)
        self.table.start_bots()  # the table's bots play while it is on screen
        self.refresh_table()

    def on_unmount(self) -> None:
        if not self._subscribed:
            return
        self._subscribed = False
        self.table.unsubscribe(self._table_changed)
        self.table.stop_bots()

    def on_screen_resume(self) -> None:
        self._uncovered()
        if self.is_mounted:
            self.refresh_table()

    def _table_changed(self) -> None:
        self.refresh_table()

    def step_label(self) -> str:
        """How far the game is, for the title line and undo/redo messages ("step 12"). A screen
        returns "" while the count would tell a secret (how many instructions another seat has
        written, say)."""
        return f"step {self.table.step()}"

    def needs_cover(self, view: Any, seat: int) -> bool:
        """Whether the hot-seat hand-off cover must hide the table before ``seat`` sees it.
        ``view`` is what everyone may see (the public view). Asked only while the game goes on
        and ``seat`` is a local human to act. Default: the game has hidden information, several
        humans share this screen, and the seat shown last was another one. A screen overrides it
        to skip the cover when nothing is secret any more (after a reveal, say)."""
        return bool(self.table.hot_seat()) and seat != self._shown_viewer

    def refresh_table(self) -> None:
        """Repaint everything from the table. Does nothing on a screen no longer attached (a
        table change arriving after it closed)."""
        if not self.is_attached or not self.is_mounted or not self.app.is_running:
            return  # (not running: the app is shutting down and taking the widgets apart)
        table = self.table
        over = table.is_over()
        viewer = table.viewer()
        if (
            not self.read_only
            and not over
            and viewer is not None
            and viewer != self._shown_viewer
            and table.hot_seat()
            and viewer in table.humans_to_act()
        ):
            if self.needs_cover(self._public_view(), viewer):
                self._cover_seat(viewer)
                return
        if not self._covered and viewer is not None:
            self._shown_viewer = viewer
        if self._covered:
            return
        bot = None if (over or self.read_only) else table.bot_to_move()
        seat = self.acting_seat()
        self._legal = table.legal(seat) if seat is not None else []
        lesson = self.lesson
        marks = lesson.panel().marks if lesson is not None and self._lesson_shown else ()
        if marks != self.highlighted:
            self.highlight(marks)
        self.show(table.view(viewer) if viewer is not None else table.view(None), viewer,
                  self._legal)
        self._paint_frame(viewer, bot)
        self._paint_lesson()

    def you_seat(self, viewer: int | None) -> int | None:
        """The seat the side panel marks "(you)": the viewer while the game runs; once it is
        over (every secret shown, so no viewer) the one person playing at this terminal, still
        (none in a replay, a bots' game or a hot-seat game of several people)."""
        if viewer is not None:
            return viewer
        humans = self.table.humans
        return next(iter(humans)) if len(humans) == 1 and not self.table.read_only else None

    def paint_seats(self, viewer: int | None, acting: list[int], over: bool) -> None:
        """The side panel's seat list (a game screen that draws its own panel overrides this, so
        the table is not drawn twice for each step)."""
        table = self.table
        seats = Text()
        you = self.you_seat(viewer)
        for i in range(table.players):
            marker = "▶ " if i in acting else "  "
            glyph = SEAT_GLYPHS[i % 6]
            seats.append(marker)
            seats.append(f"{glyph} {table.seat_name(i)}", style=f"bold {self.seat_colour(i)}")
            seats.append(f"  {table.seat_kind(i)}", style=self.colour("muted"))
            if you == i:
                seats.append(" (you)")
            seats.append("\n")
        self.query_one("#gs-seats", Static).update(seats)

    def paint_log(self) -> None:
        """The log panel (a game screen with its own log overrides this)."""
        entries = []
        muted = self.colour("muted")
        for step, seat, sentence in self.log_events(LOG_LINES):
            entry = Text(f"{step:>3} ", style=muted)
            entry.append(sentence, style=self.seat_colour(seat) if seat is not None else "")
            entries.append(entry)
        log_widget = self.query_one("#gs-log", Static)
        if isinstance(log_widget, LogPanel):
            log_widget.show_entries(entries)
        else:
            log_widget.update(Text("\n").join(entries))

    def _paint_frame(self, viewer: int | None, bot: int | None) -> None:
        table = self.table
        over = table.is_over()
        acting = [s for s in table.to_act() if s != CHANCE]
        if over:
            line = "game over"
        elif acting:
            line = ", ".join(table.seat_name(s) for s in acting) + " to act"
        else:
            line = ""
        self.query_one("#gs-title", Static).update(  # one line: no new layout for it
            Text(" · ".join(p for p in (self.game.title, self.step_label(), line) if p),
                 no_wrap=True,
                 overflow="ellipsis"),
            layout=False,
        )
        self.paint_seats(viewer, acting, over)
        self.paint_log()
        banner = self.query_one("#gs-banner")
        banner.set_class(over, "over")
        if over != self._over:
            self._over = over
            self.refresh_bindings()
        again = self.query_one("#gs-again", Button)
        back = self.query_one("#gs-back", Button)
        again.can_focus = over and not self.read_only
        back.can_focus = over
        if over:
            self.query_one("#gs-result", Static).update(self.result_text())
            if self.read_only:
                again.display = False
        if over:
            # the game is over: no hint or message of the last move stays in the status line
            self._status = ""
            status = f"Game over: {self.result_text()}"
        elif self.pending_status():
            status = self._status
            self._status = ""
        elif self.lesson_reading():
            status = ("Read the lesson, then press Enter to go on."
                      if self.lesson is not None and self.lesson.active
                      else "The lesson is over: Enter closes its panel. Play on!")
        elif self._legal:
            status = self.prompt_text() or \
                f"{table.seat_name(self.acting_seat())}: your move ({len(self._legal)} legal)"
            if bot is not None:
                status += f" · {table.seat_name(bot)} is thinking…"
        elif bot is not None:
            status = f"{table.seat_name(bot)} is thinking…"
        elif self.read_only:
            status = "Watching" if self.spectator else "Replay"
        else:
            status = ""
        problem = table.save_problem
        if problem:
            status = problem
        self.query_one("#gs-status", Static).update(Text(status, no_wrap=True, overflow="ellipsis"),
                                                    layout=False)  # one line

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

    # -- hot-seat cover ----------------------------------------------------------------------
    def _cover_seat(self, seat: int) -> None:
        if self._covered:
            return
        self._covered = True
        self._legal = []
        self.show(self._public_view(), None, [])

        def uncovered(_: None) -> None:
            self._covered = False
            self._shown_viewer = seat
            self.refresh_table()

        self.app.push_screen(HandOff(self.table.seat_name(seat)), uncovered)

    # -- actions -------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("undo", "redo") and not self.can_take_back:
            return False  # hidden from the footer (and the keys do nothing)
        if action == "moves" and (self.read_only or self._over):
            return False  # (nothing to pick from in a replay or a finished game)
        return True

    def action_undo(self) -> None:
        if not self.table.can_undo():
            self.say("Nothing to undo.")
            return
        self.table.undo()
        where = self.step_label()
        self.say(f"Undone: back to {where}." if where else "Undone.")
        self.refresh_table()

    def action_redo(self) -> None:
        if not self.table.can_redo():
            self.say("Nothing to redo.")
            return
        self.table.redo()
        where = self.step_label()
        self.say(f"Redone: {where}." if where else "Redone.")
        self.refresh_table()

    def action_moves(self) -> None:
        if not self._legal:
            self.say("No move for you to make now.")
            return

        def picked(action: Action | None) -> None:
            if action is not None:
                self.play(action)

        self.app.push_screen(MovesPicker(self.game, list(self._legal)), picked)

    def action_rules(self) -> None:
        self.app.push_screen(RulesScreen(self.game))

    def _public_view(self) -> Any:
        """What every seat may see (the hot-seat cover shows it)."""
        table = self.table
        return table.public_view() if table.has_public_view else table.view(None)

    def on_screen_suspend(self) -> None:
        """Another screen covers the table (the rules page, the moves list, a keys panel, the
        theme picker): a real-time clock this terminal runs stands still until it is back."""
        clock = self.table.round_clock()
        if clock is not None:
            clock.set_held(COVERED, True)

    def _uncovered(self) -> None:
        clock = self.table.round_clock()
        if clock is not None:
            clock.set_held(COVERED, False)

    def on_too_small_covered(self, message: TooSmall.Covered) -> None:
        """The "terminal too small" notice covers the table, or went: a real-time clock this
        terminal runs stands still while nobody can see the table."""
        clock = self.table.round_clock()
        if clock is not None:
            clock.set_hidden(message.covered)

    def _in_lesson(self) -> bool:
        """A lesson still guides this game: it is not saved until it ends (LessonTable)."""
        return self.lesson is not None and self.lesson.active and not self.read_only

    def _leaving_words(self) -> str:
        if self._in_lesson():
            return "Leave the lesson (it is not saved: Learn to play starts it again)"
        return "Leave this game (it is saved)"

    def action_back(self) -> None:
        if self._in_lesson():
            self.app.notify("You left the lesson part-way: it is not saved. Learn to play "
                            "starts it again.", timeout=8)
        elif not self.read_only:
            self.table.save()
            self.table.flush()  # the launcher lists saved games next: this one is written
        self.table.stop_bots()
        self.dismiss_game()

    # Closing this screen quits the app: the screen the command line opened on its own
    # (``cellwars replay FILE``), where q leads back to the shell, not to a launcher never seen.
    leaves_app = False

    def dismiss_game(self) -> None:
        if len(self.app.screen_stack) > 1 and not self.leaves_app:
            self.app.pop_screen()
        else:
            self.app.exit()

    def action_new_game(self) -> None:
        if isinstance(self.app, Host):
            self.app.play_again(self)

    @on(Button.Pressed, "#gs-again")
    def _again(self) -> None:
        self.action_new_game()

    @on(Button.Pressed, "#gs-back")
    def _back(self) -> None:
        self.action_back()

    def palette_commands(self) -> list[tuple[str, str, Any]]:
        """(title, help, callback) for the command palette: every action of this screen."""
        out = [("Rules", f"Show the rules of {self.game.title}", self.action_rules),
               ("Biology notes", "What the pieces and cards stand for, in short notes (B)",
                self.action_biology),
               ("Back to launcher", self._leaving_words(), self.action_back)]
        if not self.read_only:
            out[:0] = [
                *([("Undo", "Take back the last decision", self.action_undo),
                   ("Redo", "Replay the decision undone", self.action_redo)]
                  if self.can_take_back else []),
                *([("Moves", "Pick a move from the list of legal moves", self.action_moves)]
                  if not self._over else []),
                ("New game (same seats)", f"Start another {self.game.title}",
                 self.action_new_game),
                ("New game (choose seats and options)",
                 f"{self._leaving_words()} and set up a new {self.game.title}",
                 self.action_new_game_dialog),
            ]
        return out

    def action_new_game_dialog(self) -> None:
        """Back to the launcher and the New-game dialog for this game."""
        app, game = self.app, self.game
        self.action_back()
        if isinstance(app, Host):
            app.call_later(app.new_game_dialog, game)


def format_state(view: Any) -> str:
    """A plain text dump of a state, field by field (the GenericScreen's board)."""
    try:
        data = msgspec.to_builtins(view)
    except (TypeError, msgspec.EncodeError):
        return repr(view)
    if not isinstance(data, dict):
        return repr(data)
    lines = []
    for key, value in data.items():
        text = msgspec.json.encode(value).decode() if not isinstance(value, str) else value
        if len(text) > 300:
            text = text[:297] + "..."
        lines.append(f"{key}: {text}")
    return "\n".join(lines)


class GenericScreen(GameScreen):
    """Plays any registered game: the state as text and the legal moves as a list."""

    CSS_PATH = str(Path(__file__).with_name("generic_screen.tcss"))  # full: subclassed elsewhere

    def compose_board(self) -> ComposeResult:
        with VerticalScroll(id="generic-view-scroll"):
            yield Static(id="generic-view")
        yield OptionList(id="generic-moves")

    def show(self, view: Any, seat: int | None, legal: list[Action]) -> None:
        self.query_one("#generic-view", Static).update(Text(format_state(view)))
        moves = self.query_one("#generic-moves", OptionList)
        moves.clear_options()
        moves.add_options(
            Option(self.game.action_to_str(a), id=str(i)) for i, a in enumerate(legal)
        )
        if legal:
            moves.highlighted = 0
            if self.focused is None or not self.focused.is_attached:
                moves.focus()

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#generic-moves", OptionList).focus()

    @on(OptionList.OptionSelected, "#generic-moves")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        index = int(event.option.id or 0)
        if 0 <= index < len(self._legal):
            self.play(self._legal[index])
