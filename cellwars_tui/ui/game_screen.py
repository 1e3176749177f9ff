"""The base of every game screen (GenericScreen, in :mod:`.generic_screen`, plays any game by
its move notation over it).

A game screen only renders state and turns keys and clicks into actions: the rules stay in the
core. The base gives the layout (title line, the game's board, a side panel with the seats and
the event log, a status line, the footer), the bindings (undo, redo, rules, moves picker, back),
the hot-seat cover for hidden information, and the game-over banner. The table plays its own
bots while the screen shows it (``Table.start_bots``): the screen only draws their moves. A
subclass writes ``compose_board`` and ``show`` and calls ``play``/``say``/``colour``.

During a guided first game the side column shows the lesson panel instead of the log
(:mod:`.lesson_screen`, the base of this one); the log is a :class:`~.widgets.log_panel.LogPanel`.
"""

from __future__ import annotations

from typing import Any, ClassVar, Generic, cast

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from ..core.api import CHANCE, Action
from ..core.errors import CellwarsError
from ..table.naming import seat_text
from ..core.api import Game
from ..table.protocol import A, S, Table
from ..table.realtime import COVERED
from .css import default_css
from .dialogs import HandOff, MovesPicker, RulesScreen
from .footer import Footer
from .host import Host
from .lesson_screen import LessonScreen
from .size_guard import TooSmall
from .widgets.lesson_panel import LessonPanel, refusal_line
from .widgets.log_panel import LogPanel

SEAT_GLYPHS = ("①", "②", "③", "④", "⑤", "⑥")
LOG_LINES = 40


class GameScreen(LessonScreen, Generic[S, A]):
    """Base of every game screen, typed against the :class:`~cellwars_tui.table.Table` protocol
    (a local, replay or online table), generic in the game's state and action types: a game's
    screen is ``GameScreen[ItsState, ItsAction]``, and its table's views are typed."""

    # what takes the keys when the screen opens: the first focusable widget of the board (never
    # a banner button; those cannot take focus until the game is over anyway)
    AUTO_FOCUS: ClassVar[str | None] = "#gs-board *"

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

    def __init__(self, table: Table[S, A], *, read_only: bool = False) -> None:
        super().__init__()
        self.table: Table[S, A] = table
        self.read_only = read_only or table.read_only
        self.game: Game[S, A] = table.game
        self._shown_viewer: int | None = None
        self._covered = False
        self._legal: list[A] = []
        self._status = ""
        self._status_at: int | None = None  # the table's step when the message was said
        self._subscribed = False
        self._over = False  # the game was over at the last repaint (the footer's keys change)

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

    def show(self, view: S, seat: int | None, legal: list[A]) -> None:
        """Repaint from ``view`` as ``seat`` sees it; ``legal`` = what the local human may do."""

    # -- calls for subclasses ----------------------------------------------------------------
    def play(self, action: A) -> bool:
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
    def legal(self) -> list[A]:
        return self._legal

    # -- the footer ---------------------------------------------------------------------------
    def footer_hidden(self) -> frozenset[str]:
        """Actions whose keys work now but stay out of the footer, so that the keys that
        matter at this moment fit 80 columns (a screen says which; call refresh_bindings()
        when it changes). ``check_action`` returning False hides a key and disables it too."""
        return frozenset()

    def every_binding(self) -> dict[str, Any]:
        """Every key this screen takes now: Textual's active bindings, those
        ``footer_hidden`` leaves out of the footer included."""
        return super().active_bindings

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

    def needs_cover(self, view: S, seat: int) -> bool:
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

    def action_moves(self, typed: str = "") -> None:
        """The list of every legal action, its filter starting with ``typed``."""
        if not self._legal:
            self.say("No move for you to make now.")
            return

        def picked(action: Action | None) -> None:
            if action is not None:
                self.play(cast(A, action))  # (one of this table's legal actions)

        self.app.push_screen(MovesPicker(self.game, list(self._legal), typed=typed), picked)

    def action_rules(self) -> None:
        self.app.push_screen(RulesScreen(self.game))

    def _public_view(self) -> S:
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
