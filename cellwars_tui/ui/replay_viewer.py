"""The replay viewer: a recorded game on the game's own screen in read-only mode, with a replay bar.

``ReplayScreen(path)`` shows a recorded game with a replay bar under it: step, jump, turns of a
seat, autoplay, a scrubber the mouse can drag, a seat's view or reveal-all, Play from here and
move-list export. The position lives in the headless :class:`cellwars_tui.replay.Replay`; the
screen is the game's own class (``screens.screen_class``) with :class:`ReplayScreen` mixed in
front, so every game replays with no code of its own.

Why a class made per game and not composition: a Textual screen cannot hold another screen, the
game screens draw themselves (their keys included: looking around a board stays possible in a
replay), and key bindings belong to classes. The made class puts :class:`ReplayScreen` first
(its keys and repaint guard win), adds the replay bar's look to the game screen's CSS_PATH,
and keeps the game screen's CSS type names through ``_css_bases``, the one private Textual name
used here: the game screens' selectors (``VirusFightScreen.building ...``) need their type name,
and Textual follows only a class's first base for it.
"""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Static

from ..core.api import CHANCE
from ..core.errors import CellwarsError
from ..core.match import Seat
from ..record.format import write_atomic
from ..replay import SPEEDS, Replay
from ..table.replay import ReplayTable
from .game_screen import GameScreen
from .host import Host
from .replay_analysis import ReplayAnalysis
from .replay_dialogs import AskText, SeatsDialog
from .replay_files import confined, exports_dir, stem, user_file
from .widgets.analysis_panel import AnalysisPanel
from .widgets.scrubber import Scrubber

VIEWER_CSS = str(Path(__file__).with_name("replay_viewer.tcss"))
log = logging.getLogger(__name__)


def _paths(css_path: Any) -> list[Any]:
    """A screen's CSS_PATH as a list (it may be None, one path or a list)."""
    if css_path is None:
        return []
    return list(css_path) if isinstance(css_path, (list, tuple)) else [css_path]


class ReplayBar(Vertical):
    """The scrubber and a line saying where the replay is and how it is shown."""

    def compose(self) -> ComposeResult:
        with Horizontal(id="rb-track"):
            yield Static("0", id="rb-start")
            yield Scrubber(id="rb-scrubber")
            yield Static("0", id="rb-end")
        yield Static(id="rb-info")
        yield Static(id="rb-note")  # where a damaged record stops, origin, version notes
        yield Static(id="rb-step")


class ReplayScreen(ReplayAnalysis, GameScreen):
    """The replay viewer. ``ReplayScreen(source)`` (a record path or an open :class:`Replay`)
    builds an instance of the game's own screen class with this class mixed in front of it."""

    BINDINGS = [
        # short footer words: at 100 columns every key of the replay shows beside Rules and Back
        Binding("right,j", "step(1)", "Step", priority=True, key_display="←→/jk"),
        Binding("left,k", "step(-1)", "Step back", priority=True, show=False),
        Binding("home", "home", "Start", priority=True, show=False),
        Binding("end", "end", "End", priority=True, show=False),
        # letters are priority too: a game screen's focused board must not shadow the replay's keys
        Binding("space", "autoplay", "Play", priority=True),
        Binding("g", "jump", "Go to", priority=True),
        # n / N: the judged moves of the analysis (a runs it); ] / [: a seat's turns
        Binding("a", "analyse", "Analyse", priority=True),
        Binding("n", "next_mistake(1)", "Mistake", priority=True, key_display="n/N"),
        Binding("N", "next_mistake(-1)", "Previous mistake", show=False, priority=True),
        Binding("b", "try_better", "Try the better move", show=False, priority=True),
        Binding("w", "worst", "Worst move", show=False, priority=True),
        Binding("right_square_bracket", "turn(1)", "Turn", show=False, priority=True,
                key_display="]"),
        Binding("left_square_bracket", "turn(-1)", "Previous turn", show=False, priority=True,
                key_display="["),
        Binding("t", "turn_seat", "Turns of", show=False, priority=True),
        Binding("plus,equals_sign", "speed(1)", "Faster", show=False, priority=True),
        Binding("minus", "speed(-1)", "Slower", show=False, priority=True),
        Binding("v", "view", "View", priority=True),
        Binding("V", "reveal", "Reveal all", show=False, priority=True),
        Binding("p", "play_from_here", "Play on", priority=True),
        Binding("e", "export", "Export", priority=True),
    ]

    _made_classes: dict[type, type] = {}  # (not ``_classes``: Textual's CSS classes)
    _opened: Replay  # set by __new__ for __init__
    _replay_base: type[GameScreen] | None = None  # on a made class: the game's own screen class

    @classmethod
    def _css_bases(cls, base: type) -> list[type]:  # type: ignore[override]
        """Textual follows only the first base class for CSS (type names, DEFAULT_CSS); a made
        replay class has ReplayScreen first, so the game screen's chain is put back after it:
        the game's DEFAULT_CSS and its ``VirusFightScreen.building ...`` selectors apply."""
        game_screen = base.__dict__.get("_replay_base")
        if game_screen is None:
            return list(Screen._css_bases(base))
        return [base, ReplayScreen, *game_screen._css_bases(game_screen)]

    def __new__(cls, source: Path | str | Replay, *args: Any, **kwargs: Any) -> ReplayScreen:
        replay = source if isinstance(source, Replay) else Replay.open(Path(source))
        if cls is ReplayScreen:
            cls = replay_screen_class(replay.game)
        self = super().__new__(cls)
        self._opened = replay
        return self

    def __init__(self, source: Path | str | Replay, *, seat: int | None = -1) -> None:
        replay: Replay = self.__dict__.pop("_opened", None) or (
            source if isinstance(source, Replay) else Replay.open(Path(source)))
        self.replay = replay
        if seat == -1:  # default: a seat's eyes when the game hides things, else everything
            seat = _default_seat(replay) if replay.game.hidden_information else None
        self.replay_table = ReplayTable(replay, seat)
        self.turn_seat = seat if seat is not None else _default_seat(replay)
        self.speed = 1
        self.playing = False
        self._timer: Timer | None = None
        self.draw_problem: str | None = None  # why the game's screen could not draw the step
        super().__init__(self.replay_table, read_only=True)

    # -- layout ------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield from super().compose()
        yield AnalysisPanel(id="analysis-panel")
        yield ReplayBar(id="replay-bar")

    def on_mount(self) -> None:
        # No super().on_mount(): Textual itself calls the on_mount of every class in the MRO (the
        # game screen's and GameScreen's, which subscribes and paints), most derived first.
        self.replay_table.subscribe(self._paint_bar)
        self._paint_bar()
        self.load_saved_analysis()
        if self.replay.problem:
            self.notify(f"This record is damaged: {self.replay.problem}", severity="warning",
                        timeout=10)
        if self.replay.warning:
            self.notify(f"Note: {self.replay.warning}", timeout=10)

    def refresh_table(self) -> None:
        """The game's own repaint, guarded: a game screen that cannot draw some recorded
        position says so in the status line and the replay goes on (it never crashes the app)."""
        try:
            super().refresh_table()
        except Exception as exc:
            log.exception("%s could not draw replay step %s", type(self).__name__,
                          self.replay.cursor)
            self.draw_problem = (f"{self.game.title}'s screen cannot draw step "
                                 f"{self.replay.cursor}: {type(exc).__name__}: {exc}")
            try:
                self.query_one("#gs-status", Static).update(
                    Text(self.draw_problem, no_wrap=True, overflow="ellipsis",
                         style=self.colour("danger")))
            except Exception:  # not composed (yet): the bar still says where the replay is
                pass
        else:
            self.draw_problem = None

    def on_unmount(self) -> None:  # (GameScreen.on_unmount is called by Textual, as on_mount)
        self._stop()
        self.stop_analysis()
        self.replay_table.unsubscribe(self._paint_bar)

    def on_screen_suspend(self) -> None:
        self._stop()

    def _paint_bar(self) -> None:
        try:
            scrubber = self.query_one(Scrubber)
        except NoMatches:  # not composed yet
            return
        r = self.replay
        scrubber.total = len(r)
        scrubber.position = r.cursor
        self.query_one("#rb-end", Static).update(str(len(r)))
        table = self.replay_table
        seat = table.viewer()
        view = "everything" if seat is None else table.seat_name(seat)
        state = f"▶ x{self.speed}" if self.playing else f"⏸ x{self.speed}"
        info = Text(no_wrap=True, overflow="ellipsis")
        info.append(f"Step {r.cursor}/{len(r)}", style="bold")
        if self.game.real_time:
            info.append(f" · {r.time_at(r.cursor):.1f}s")
        info.append(f" · {state} (+/-) · view: {view} (v, V) · "
                    f"turns of: {table.seat_name(self.turn_seat)} (t, ] [)")
        info.append(" · analysed (n/N, b)" if self.analysis is not None else " · a: analyse")
        self.query_one("#rb-info", Static).update(info)
        note = Text(no_wrap=True, overflow="ellipsis")
        if r.problem:
            note.append(f"Damaged record: {r.problem}. ", style=self.colour("danger"))
        if r.warning:
            note.append(f"Note: {r.warning}. ")
        if r.origin:
            note.append(f"Played on from {origin_text(r.origin)}.")
        note_widget = self.query_one("#rb-note", Static)
        note_widget.update(note)
        note_widget.display = bool(note.plain)
        step = Text(no_wrap=True, overflow="ellipsis", style=self.colour("muted"))
        if r.cursor == 0:
            step.append("The start of the game.")
        else:
            s = r.steps[r.cursor - 1]
            secret = (self.game.hidden_information and seat is not None
                      and s.seat not in (seat, CHANCE))
            step.append(f"{r.cursor}. {r.who(s.seat)}")
            if not secret:
                step.append(f": {r.game.action_to_str(s.action)}")
            sentences = table.sentences(r.cursor)
            if sentences:
                step.append(" — " + " ".join(sentences))
            elif secret:  # (it read "297. Player 2" alone)
                step.append(f": a move {view} does not see (V shows everything)")
        self.query_one("#rb-step", Static).update(step)
        self.paint_analysis()

    def log_events(self, last: int) -> list[tuple[int, int | None, str]]:
        """The log, with the analysis' marks on judged moves."""
        return self.analysed_log(super().log_events(last))

    # -- navigation --------------------------------------------------------------------------
    def seek(self, n: int) -> None:
        self.replay_table.seek(n)

    def action_step(self, delta: int) -> None:
        self._stop()
        self.seek(self.replay.cursor + delta)

    def action_home(self) -> None:
        self._stop()
        self.seek(0)

    def action_end(self) -> None:
        self._stop()
        self.seek(len(self.replay))

    def action_jump(self) -> None:
        self._stop()

        def chosen(text: str | None) -> None:
            if text is None:
                return
            try:
                n = int(text)
            except ValueError:
                self.say(f"Not a step number: {text!r}")
                return
            if not 0 <= n <= len(self.replay):
                self.say(f"Step {n} is outside 0..{len(self.replay)}; went to the nearest.")
            self.seek(n)

        self.app.push_screen(
            AskText(f"Go to step (0 to {len(self.replay)}):", str(self.replay.cursor),
                    integer=True), chosen)

    def action_turn(self, direction: int) -> None:
        self._stop()
        seat = self.turn_seat
        r = self.replay
        n = r.next_turn(seat) if direction > 0 else r.previous_turn(seat)
        if n is None:
            word = "later" if direction > 0 else "earlier"
            self.say(f"No {word} turn of {self.replay_table.seat_name(seat)}.")
            return
        self.seek(n)

    def action_turn_seat(self) -> None:
        self.turn_seat = (self.turn_seat + 1) % self.replay.players
        self._paint_bar()

    def action_view(self) -> None:
        """Cycle the view: each seat in turn, then everything."""
        seat = self.replay_table.viewer()
        players = self.replay.players
        nxt = 0 if seat is None else (None if seat + 1 >= players else seat + 1)
        self.set_view(nxt)

    def action_reveal(self) -> None:
        self.set_view(None)

    def set_view(self, seat: int | None) -> None:
        if seat is not None:
            self.turn_seat = seat
        self.replay_table.set_seat(seat)
        self._paint_bar()

    @on(Scrubber.Moved)
    def _scrubbed(self, event: Scrubber.Moved) -> None:
        self._stop()
        self.seek(event.position)

    # -- autoplay ----------------------------------------------------------------------------
    def action_autoplay(self) -> None:
        if self.playing:
            self._stop()
            self._paint_bar()
            return
        if self.replay.at_end:
            self.seek(0)
        self.playing = True
        self._schedule()
        self._paint_bar()

    def action_speed(self, delta: int) -> None:
        i = SPEEDS.index(self.speed) if self.speed in SPEEDS else 0
        self.speed = SPEEDS[max(0, min(len(SPEEDS) - 1, i + delta))]
        if self.playing:
            self._schedule()
        self._paint_bar()

    def _schedule(self) -> None:
        if self._timer is not None:
            self._timer.stop()
        delay = self.replay.delay_before(self.replay.cursor, self.speed)
        self._timer = self.set_timer(max(delay, 0.001), self._tick)

    def _tick(self) -> None:
        self._timer = None
        if not self.playing or not self.is_attached:
            return
        self.seek(self.replay.cursor + 1)
        if self.replay.at_end:
            self.playing = False
            self._paint_bar()
            return
        self._schedule()

    def _stop(self) -> None:
        self.playing = False
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    # -- leaving the replay ------------------------------------------------------------------
    def action_play_from_here(self, person: int | None = None) -> None:
        """Play on from here; ``person``: a seat the dialog offers to a person first."""
        self._stop()
        self._paint_bar()

        def chosen(seats: list[Seat] | None) -> None:
            if seats is None:
                return
            try:
                match = self.replay.play_from_here(seats)
            except CellwarsError as exc:
                self.say(str(exc))
                return
            if isinstance(self.app, Host):
                self.app.start_match(match)
            else:  # an app without the shell's helpers (tests of this module alone)
                from .screens import screen_class
                from ..table.local import LocalTable

                table: LocalTable[Any, Any] = LocalTable(match)
                table.save()
                self.app.push_screen(screen_class(match.game)(table))

        self.app.push_screen(SeatsDialog(self.replay, person=person), chosen)

    def default_export_path(self) -> Path:
        return exports_dir() / f"{stem(self.replay.path, self.game.id)}.txt"

    def action_export(self) -> None:
        self._stop()

        def chosen(text: str | None) -> None:
            if text is None:
                return
            path = user_file(text)
            if path is None:
                self.say(f"Not a file name: {text!r}")
                return
            shown = f"exports/{path.name}" if confined() else str(path)  # no server path
            try:
                write_atomic(path, self.replay.export_text().encode("utf-8"))
            except OSError as exc:
                self.say(f"Could not write {shown}: {exc.strerror or exc}")
                return
            self.say(f"Move list written to {shown}")
            self.notify(f"Move list written to {shown}")

        if confined():
            prompt, value = "Export the move list to (a file in your exports folder):", \
                self.default_export_path().name
        else:
            prompt, value = "Export the move list to:", str(self.default_export_path())
        self.app.push_screen(AskText(prompt, value), chosen)

    def palette_commands(self) -> list[tuple[str, str, Any]]:
        return [
            ("Replay: play / pause", "Autoplay the replay", self.action_autoplay),
            ("Replay: go to step", "Jump to a step number", self.action_jump),
            ("Replay: start", "Go to the start", self.action_home),
            ("Replay: end", "Go to the end", self.action_end),
            ("Replay: next turn", "The next turn of the chosen seat", lambda: self.action_turn(1)),
            ("Replay: previous turn", "The previous turn of the chosen seat",
             lambda: self.action_turn(-1)),
            ("Replay: faster", "Autoplay speed x1, x2, x4, x8", lambda: self.action_speed(1)),
            ("Replay: slower", "Autoplay speed x8, x4, x2, x1", lambda: self.action_speed(-1)),
            ("Replay: turns of the next seat", "Whose turns n and N jump to",
             self.action_turn_seat),
            ("Replay: change view", "Each seat's view in turn, then everything",
             self.action_view),
            ("Replay: reveal all", "Show everything, hidden cards included", self.action_reveal),
            ("Replay: play from here", "Start a new game from this position",
             self.action_play_from_here),
            ("Replay: export move list", "Write the moves as plain text", self.action_export),
            *self.analysis_commands(),
            *super().palette_commands(),
        ]


def origin_text(origin: str) -> str:
    """``"/…/games/virus-fight-2026….cellwars.json#60"`` -> ``"virus-fight-2026… step 60"``."""
    source, _, step = origin.rpartition("#")
    if not source:
        return origin
    return f"{stem(Path(source), source)} step {step}"


def _default_seat(replay: Replay) -> int:
    humans = [i for i, s in enumerate(replay.seats) if not s.is_bot]
    return humans[0] if humans else 0


def replay_screen_class(game: Any) -> type[ReplayScreen]:
    """The game's own screen class with :class:`ReplayScreen` in front (made once per class)."""
    from .screens import screen_class

    base = screen_class(game)
    made = ReplayScreen._made_classes.get(base)
    if made is None:
        # The game's own keys stay (looking around a board is harmless; playing is refused) but
        # leave the footer to the replay's keys, Rules and Back.
        merged = base._merged_bindings
        assert merged is not None  # a Screen class's bindings, merged when it was made
        quiet = [
            dataclasses.replace(binding, show=False)
            for bindings in merged.key_to_bindings.values()
            for binding in bindings
            if binding.show and binding.action not in ("rules", "back")
        ]
        made = type(f"{base.__name__}Replay", (ReplayScreen, base), {
            "__module__": base.__module__,  # keeps the game screen's relative CSS_PATH working
            "CSS_PATH": [*_paths(base.CSS_PATH), VIEWER_CSS],
            "_replay_base": base,
            "BINDINGS": [*quiet, *ReplayScreen.BINDINGS],
        })
        ReplayScreen._made_classes[base] = made
    return made


def open_replay(app: App, path: Path | str | Replay, seat: int | None = -1) -> Screen | None:
    """Push the replay viewer for ``path`` (``seat``: whose eyes it opens with, as
    :class:`ReplayScreen` takes it); a record that cannot be opened at all is a one-line error
    notification instead."""
    try:
        screen = ReplayScreen(path, seat=seat)
    except CellwarsError as exc:
        app.notify(str(exc), severity="error", timeout=10)
        return None
    except Exception as exc:  # a game screen's bug: a message, never a crash of the app
        log.exception("cannot open a replay of %s", path)
        app.notify(f"{path}: this game's screen cannot show a replay "
                   f"({type(exc).__name__}: {exc})", severity="error", timeout=10)
        return None
    app.push_screen(screen)
    return screen
