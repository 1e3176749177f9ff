"""Replays in the app: the Replays page (saved games) and the replay viewer.

``ReplayScreen(path)`` shows a recorded game on the game's own screen in read-only mode, with a
replay bar under it: step, jump, turns of a seat, autoplay, a scrubber the mouse can drag, a seat's
view or reveal-all, Play from here and move-list export. The position lives in the headless
:class:`cellwars_tui.replay.Replay`; the screen is the game's own class (``screens.screen_class``)
with :class:`ReplayScreen` mixed in front, so every game replays with no code of its own.
"""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import events, on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.css.query import NoMatches
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Button, DataTable, Footer, Input, Label, Select, Static

from ..core.api import CHANCE
from ..core.errors import CellwarsError, RecordError
from ..core.match import Seat
from ..locations import confined as locations_confined
from ..locations import data_dir
from ..record.files import MAX_MOVE_LIST_BYTES, check_user_file, read_user_file  # noqa: F401 (re-exported)
from ..record.format import SUFFIX, write_atomic
from ..replay import SPEEDS, Replay, rows, search
from ..table.replay import ReplayTable
from .game_screen import GameScreen
from ..table.naming import KIND_WORDS

_CSS = Path(__file__).with_name("replay.tcss").read_text(encoding="utf-8")
log = logging.getLogger(__name__)


# -- the scrubber ------------------------------------------------------------------------------
class Scrubber(Widget):
    """A one-line track of the whole game with a thumb at the position; click or drag to seek."""

    DEFAULT_CSS = "Scrubber { height: 1; width: 1fr; }"

    position: reactive[int] = reactive(0)
    total: reactive[int] = reactive(0)

    class Moved(Message):
        def __init__(self, scrubber: Scrubber, position: int) -> None:
            super().__init__()
            self.scrubber = scrubber
            self.position = position

    def __init__(self, total: int = 0, position: int = 0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.set_reactive(Scrubber.total, total)
        self.set_reactive(Scrubber.position, position)
        self._dragging = False

    def render(self) -> Text:
        width = max(self.content_size.width, 3)
        thumb = self.thumb_x(width)
        text = Text(no_wrap=True)
        text.append("━" * thumb, style="bold")
        text.append("●", style="bold reverse" if self._dragging else "bold")
        text.append("─" * (width - thumb - 1), style="dim")
        return text

    def thumb_x(self, width: int | None = None) -> int:
        width = max(width or self.content_size.width, 3)
        if self.total <= 0:
            return 0
        return round(self.position / self.total * (width - 1))

    def position_at(self, x: int) -> int:
        width = max(self.content_size.width, 3)
        x = max(0, min(x, width - 1))
        return round(x / (width - 1) * self.total)

    def _seek_to(self, x: int) -> None:
        position = self.position_at(x)
        if position != self.position:
            self.position = position
            self.post_message(self.Moved(self, position))

    def on_mouse_down(self, event: events.MouseDown) -> None:
        self._dragging = True
        self.capture_mouse()
        self._seek_to(event.x)
        self.refresh()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        if self._dragging:
            self._seek_to(event.x)

    def on_mouse_up(self, event: events.MouseUp) -> None:
        if self._dragging:
            self._seek_to(event.x)
            self._dragging = False
            self.release_mouse()
            self.refresh()


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


# -- dialogs -----------------------------------------------------------------------------------
DIALOG_CSS = """
{name} {{ align: center middle; }}
{name} .replay-dialog {{
    width: 70; max-width: 95%; height: auto; border: round $primary; background: $surface;
    padding: 0 1;
}}
{name} .seat-row {{ height: auto; }}
{name} .seat-name {{ width: 1fr; }}
{name} .seat-kind {{ width: 24; }}
{name} .dialog-buttons {{ height: auto; margin-top: 1; }}
"""


class AskText(ModalScreen[str | None]):
    """One line of input (a step number, a file path); Enter accepts, Escape cancels."""

    DEFAULT_CSS = DIALOG_CSS.format(name="AskText")

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, prompt: str, value: str = "", *, placeholder: str = "",
                 integer: bool = False) -> None:
        super().__init__()
        self.prompt = prompt
        self.value = value
        self.placeholder = placeholder
        self.integer = integer

    def compose(self) -> ComposeResult:
        with Vertical(classes="replay-dialog"):
            yield Label(self.prompt)
            # a step number is typed over; a path is edited (the cursor at its end)
            yield Input(self.value, placeholder=self.placeholder, id="ask-input",
                        type="integer" if self.integer else "text",
                        select_on_focus=self.integer)

    def on_mount(self) -> None:
        field = self.query_one(Input)
        field.focus()
        if not self.integer:
            field.cursor_position = len(field.value)

    @on(Input.Submitted)
    def _done(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


SEAT_CHOICES = tuple((KIND_WORDS[k], k) for k in ("human", "mcts", "random"))


class SeatsDialog(ModalScreen[list[Seat] | None]):
    """Who takes each seat when playing on from a replay position."""

    DEFAULT_CSS = DIALOG_CSS.format(name="SeatsDialog")

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, replay: Replay) -> None:
        super().__init__()
        self.replay = replay

    def compose(self) -> ComposeResult:
        r = self.replay
        with Vertical(classes="replay-dialog", id="seats-dialog"):
            yield Label(f"Play on from step {r.cursor} of {len(r)}: who sits where?")
            for i, seat in enumerate(r.seats):
                kind = (seat.bot if seat.bot in ("mcts", "random") else "mcts") if seat.is_bot \
                    else "human"
                with Horizontal(classes="seat-row"):
                    yield Input(seat.name or r.game.seat_label(i), id=f"seat-name-{i}",
                                classes="seat-name")
                    yield Select(SEAT_CHOICES, value=kind, allow_blank=False, id=f"seat-kind-{i}",
                                 classes="seat-kind")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Play", id="seats-play", variant="primary")
                yield Button("Cancel", id="seats-cancel")

    def seats(self) -> list[Seat]:
        from .request import make_seat

        out = []
        for i, old in enumerate(self.replay.seats):
            name = self.query_one(f"#seat-name-{i}", Input).value
            kind = str(self.query_one(f"#seat-kind-{i}", Select).value)
            out.append(make_seat(self.replay.game, i, kind, old.think if old.is_bot else 1.0, name))
        return out

    @on(Button.Pressed, "#seats-play")
    @on(Input.Submitted)
    def _play(self) -> None:
        try:
            self.dismiss(self.seats())
        except CellwarsError as exc:
            self.notify(str(exc), severity="error")

    @on(Button.Pressed, "#seats-cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


# -- the replay viewer -------------------------------------------------------------------------
def exports_dir() -> Path:
    path = data_dir() / "exports"
    path.mkdir(parents=True, exist_ok=True)
    return path


def confined() -> bool:
    """Whether this app is a session a server runs for someone else (``cellwars serve``,
    ``cellwars web``, ``locations.confined``): a remote player's files then stay in that
    player's own exports folder (no path on the server can be named, none is shown)."""
    return locations_confined()


def user_file(text: str) -> Path | None:
    """The file a player named for an export or import: a bare name is in the exports folder;
    any other path is used as given, except in a server session (its name in the exports
    folder). None when ``text`` names no file."""
    path = Path(text.strip()).expanduser()
    if confined():
        name = Path(text.strip()).name
        return exports_dir() / name if name not in ("", ".", "..") else None
    if not path.name:
        return None
    if not path.is_absolute() and len(path.parts) == 1 and not path.exists():
        return exports_dir() / path
    return path


def _stem(path: Path | None, fallback: str) -> str:
    if path is None:
        return fallback
    name = path.name
    return name[: -len(SUFFIX)] if name.endswith(SUFFIX) else path.stem


class ReplayScreen(GameScreen):
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
        Binding("n", "turn(1)", "Turn", priority=True, key_display="n/N"),
        Binding("N", "turn(-1)", "Previous turn", show=False, priority=True),
        Binding("t", "turn_seat", "Turns of", show=False, priority=True),
        Binding("plus,equals_sign", "speed(1)", "Faster", show=False, priority=True),
        Binding("minus", "speed(-1)", "Slower", show=False, priority=True),
        Binding("v", "view", "View", priority=True),
        Binding("a", "reveal", "Reveal all", show=False, priority=True),
        Binding("p", "play_from_here", "Play on", priority=True),
        Binding("e", "export", "Export", priority=True),
    ]

    _classes: dict[type, type] = {}
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
        yield ReplayBar(id="replay-bar")

    def on_mount(self) -> None:
        # No super().on_mount(): Textual itself calls the on_mount of every class in the MRO (the
        # game screen's and GameScreen's, which subscribes and paints), most derived first.
        self.replay_table.subscribe(self._paint_bar)
        self._paint_bar()
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
        info.append(f" · {state} (+/-) · view: {view} (v, a) · "
                    f"turns of: {table.seat_name(self.turn_seat)} (t)")
        self.query_one("#rb-info", Static).update(info)
        note = Text(no_wrap=True, overflow="ellipsis")
        if r.problem:
            note.append(f"Damaged record: {r.problem}. ", style=self.colour("danger"))
        if r.warning:
            note.append(f"Note: {r.warning}. ")
        if r.origin:
            note.append(f"Played on from {_origin_text(r.origin)}.")
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
        self.query_one("#rb-step", Static).update(step)

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
    def action_play_from_here(self) -> None:
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
            start = getattr(self.app, "start_match", None)
            if start is not None:
                start(match)
            else:  # an app without the shell's helpers (tests of this module alone)
                from .screens import screen_class
                from ..table.local import LocalTable

                table = LocalTable(match)
                table.save()
                self.app.push_screen(screen_class(match.game)(table))

        self.app.push_screen(SeatsDialog(self.replay), chosen)

    def default_export_path(self) -> Path:
        return exports_dir() / f"{_stem(self.replay.path, self.game.id)}.txt"

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
            *super().palette_commands(),
        ]


def _origin_text(origin: str) -> str:
    """``"/…/games/virus-fight-2026….cellwars.json#60"`` -> ``"virus-fight-2026… step 60"``."""
    source, _, step = origin.rpartition("#")
    if not source:
        return origin
    return f"{_stem(Path(source), source)} step {step}"


def _default_seat(replay: Replay) -> int:
    humans = [i for i, s in enumerate(replay.seats) if not s.is_bot]
    return humans[0] if humans else 0


def replay_screen_class(game: Any) -> type[ReplayScreen]:
    """The game's own screen class with :class:`ReplayScreen` in front (made once per class)."""
    from .screens import screen_class

    base = screen_class(game)
    made = ReplayScreen._classes.get(base)
    if made is None:
        # The game's own keys stay (looking around a board is harmless; playing is refused) but
        # leave the footer to the replay's keys, Rules and Back.
        quiet = [
            dataclasses.replace(binding, show=False)
            for bindings in base._merged_bindings.key_to_bindings.values()
            for binding in bindings
            if binding.show and binding.action not in ("rules", "back")
        ]
        made = type(f"{base.__name__}Replay", (ReplayScreen, base), {
            "__module__": base.__module__,  # keeps the game screen's relative CSS_PATH working
            "DEFAULT_CSS": _CSS,
            "_replay_base": base,
            "BINDINGS": [*quiet, *ReplayScreen.BINDINGS],
        })
        ReplayScreen._classes[base] = made
    return made


# -- the Replays page ---------------------------------------------------------------------------
class ReplayListScreen(Screen):
    """Saved games, newest first, with search by game and player; Enter opens the replay."""

    DEFAULT_CSS = _CSS
    BINDINGS = [
        Binding("escape,q", "back", "Back"),
        Binding("slash", "search", "Search", key_display="/"),
        Binding("i", "import_list", "Import move list"),
        Binding("f5", "reload", "Reload", show=False),
    ]

    def __init__(self, directory: Path | None = None) -> None:
        super().__init__()
        self.directory = directory
        self.rows: list = []
        self.problems: list = []
        self.shown: list = []

    def compose(self) -> ComposeResult:
        yield Static("Replays", id="rl-title")
        yield Input(placeholder="search by game or player", id="rl-search")
        yield DataTable(id="rl-table", cursor_type="row", zebra_stripes=True)
        yield Static(id="rl-problems")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        self.action_reload()
        table.focus()

    def on_resize(self) -> None:
        if self.rows:
            self._fill(self.query_one("#rl-search", Input).value)

    def on_screen_resume(self) -> None:
        if self.is_mounted:
            self.action_reload()

    def action_reload(self) -> None:
        self.rows, self.problems = rows(self.directory)
        self._fill(self.query_one("#rl-search", Input).value)
        note = ""
        if self.problems:
            first = self.problems[0].message
            if confined():  # the file's name, not where the server keeps it
                where = str(self.problems[0].path)
                first = self.problems[0].path.name + first[len(where):] if first.startswith(
                    where) else first
            more = f" (and {len(self.problems) - 1} more)" if len(self.problems) > 1 else ""
            note = f"{len(self.problems)} file(s) could not be read: {first}{more}"
        self.query_one("#rl-problems", Static).update(Text(note, no_wrap=True, overflow="ellipsis"))

    def _fill(self, query: str) -> None:
        table = self.query_one(DataTable)
        cursor = table.cursor_row
        table.clear(columns=True)
        self.shown = search(self.rows, query)
        columns = list_columns(self.shown, self.size.width or self.app.size.width)
        for title, width in columns:
            table.add_column(title, width=width, key=title)
        short_date = columns[1][1] < 16
        for row in self.shown:
            cells = list_cells(row, short_date)[:len(columns)]
            table.add_row(*(_cell(c, w) for c, (_, w) in zip(cells, columns)), key=str(row.path))
        if self.shown:
            table.move_cursor(row=min(cursor, len(self.shown) - 1))
        if not self.shown:
            self.query_one("#rl-title", Static).update(
                "Replays: no saved game matches" if self.rows else "Replays: no saved games yet")
        else:
            self.query_one("#rl-title", Static).update(f"Replays ({len(self.shown)})")

    @on(Input.Changed, "#rl-search")
    def _search(self, event: Input.Changed) -> None:
        self._fill(event.value)

    @on(Input.Submitted, "#rl-search")
    def _search_done(self) -> None:
        self.query_one(DataTable).focus()

    def action_search(self) -> None:
        self.query_one("#rl-search", Input).focus()

    @on(DataTable.RowSelected)
    def _open(self, event: DataTable.RowSelected) -> None:
        if event.row_key.value is not None:
            open_replay(self.app, Path(event.row_key.value))

    def action_import_list(self) -> None:
        def chosen(text: str | None) -> None:
            if text is None:
                return
            path = user_file(text)
            if path is None:
                self.notify(f"Not a file name: {text!r}", severity="error")
                return
            try:
                replay = import_move_list(path)
            except CellwarsError as exc:
                self.notify(str(exc), severity="error", timeout=8)
                return
            self.action_reload()
            self.app.push_screen(ReplayScreen(replay))

        if confined():
            ask = AskText("Import a move list from (a file in your exports folder):",
                          placeholder="moves.txt")
        else:
            ask = AskText("Import a move list from:", str(exports_dir()) + "/")
        self.app.push_screen(ask, chosen)

    def action_back(self) -> None:
        if len(self.app.screen_stack) > 1:
            self.app.pop_screen()
        else:
            self.app.exit()


def _cell(text: str, width: int) -> Text:
    """A cell shown literally (no markup) and cut with an ellipsis at its column's width."""
    cell = Text(text, no_wrap=True, overflow="ellipsis")
    cell.truncate(width, overflow="ellipsis")
    return cell


def list_cells(row: Any, short_date: bool = False) -> list[str]:
    """A Replays row's cells as plain strings (shown literally: a name is never markup)."""
    date = row.date[5:] if short_date and len(row.date) == 16 else row.date
    return [row.game, date, row.seats, row.result, str(row.length),
            _origin_text(row.origin) if row.origin else ""]


def list_columns(shown: list, width: int) -> list[tuple[str, int]]:
    """The Replays table's (title, width) columns for a screen ``width`` columns wide: every
    header fits; Seats takes what the others leave; From only when some row has an origin."""
    with_origin = any(r.origin for r in shown)
    count = 6 if with_origin else 5
    avail = max(width - 2 - 2 * count, 40)  # the vertical scrollbar, one space each side
    cells = [list_cells(r) for r in shown]

    def natural(i: int, low: int, high: int) -> int:
        return max(low, min(high, max((len(c[i]) for c in cells), default=low)))

    game = natural(0, 4, 16)
    date = 16 if avail >= 80 else 11  # "2026-11-23 01:55" or "11-23 01:55"
    result = natural(3, 6, 14)
    length = 6
    origin = natural(5, 4, 24) if with_origin else 0
    seats = avail - game - date - result - length - origin
    if seats < 20 and with_origin:  # the origin gives way first, then the result
        give = min(20 - seats, origin - 8) if origin > 8 else 0
        origin, seats = origin - give, seats + give
    if seats < 20:
        give = min(20 - seats, result - 8) if result > 8 else 0
        result, seats = result - give, seats + give
    seats = max(seats, 5)
    columns = [("Game", game), ("Date", date), ("Seats", seats), ("Result", result),
               ("Length", length)]
    if with_origin:
        columns.append(("From", origin))
    return columns


def import_move_list(path: Path) -> Replay:
    """Read a plain-text move list and keep it as a saved game (so it is listed). Only a
    regular file of at most :data:`MAX_MOVE_LIST_BYTES` is read."""
    from ..record.store import new_game_path

    data = read_user_file(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError(path, "not a move list (not UTF-8 text)") from None
    replay = Replay.from_text(text, path)
    target = new_game_path(replay.game.id)
    try:
        write_atomic(target, replay.record_bytes())
    except OSError as exc:  # shown anyway, just not kept
        replay.warning = f"not kept as a saved game ({exc.strerror or exc})"
        return replay
    replay.path = target
    return replay


def open_replay(app: App, path: Path | str | Replay) -> Screen | None:
    """Push the replay viewer for ``path``; a record that cannot be opened at all is a
    one-line error notification instead."""
    try:
        screen = ReplayScreen(path)
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
