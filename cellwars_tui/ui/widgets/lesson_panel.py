"""The lesson panel every game screen shows during a guided first game, and the biology notes.

:class:`LessonPanel` draws a :class:`~cellwars_tui.learn.run.PanelInfo` (the headless lesson
says everything; the panel decides nothing): which step, what the lesson just played, what to
do next and why, why the last action was not played, the keys to press (as key caps), the
squares, tiles or cards to look at (the game's screen highlights them on its board through
``GameScreen.highlight``) and the biology notes one key away (Shift+B). A click on it is Enter: go on.

:class:`NotesScreen` shows a game's biology notes (``[notes]`` of its lesson file), the ones
the current step is about first; any key or a click closes it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Static

from ...learn.run import PanelInfo
from ...learn.table import NotTheLesson
from ..css import default_css

GO_ON_KEY = "⏎"
# the status line's words for a lesson's refusal too long for it (the panel says it whole)
REFUSAL_POINTER = "✗ Not played: the lesson panel on the right says why, and what to do."


def refusal_line(exc: Exception, width: int) -> str:
    """Why an action was not played, for a game screen's one-line status line ``width``
    columns wide, while the lesson panel shows. A lesson's refusal the line would cut (at 80x24,
    just before what to do) points at the panel instead, which shows it whole and wrapped, at its
    top (``panel_text``); any other error is said as it is."""
    text = str(exc)
    if not isinstance(exc, NotTheLesson):
        return text
    text = f"✗ {text}"
    return text if cell_len(text) <= width else REFUSAL_POINTER


def panel_text(info: PanelInfo, colour: Callable[[str], str]) -> Text:
    """The panel's reading part for ``info``: where the lesson is, what it just played, what to
    do and why, why the last action was not played (``colour``: a theme colour by name)."""
    t = Text()
    muted = colour("muted")
    if info.done:
        t.append("Lesson over" if not info.stopped else "Lesson stopped", style="bold")
        t.append(f" · {info.title}\n", style=muted)
    else:
        t.append(f"Lesson {info.number}/{info.total}", style="bold")
        if info.heading:
            t.append(f" · {info.heading}", style=f"bold {colour('highlight')}")
        if info.number == 1 and info.minutes:
            t.append(f" · about {info.minutes} min", style=muted)
        t.append("\n")
    if info.feedback:  # first: it must show however long the step's text
        t.append("✗ ", style=f"bold {colour('danger')}")
        t.append(f"{info.feedback}\n", style=colour("danger"))
    for line in info.told:
        t.append("› ", style=muted)
        t.append(f"{line}\n", style=muted)
    if info.text:
        t.append(info.text.replace("\n", "\n\n"))
    return t


def keys_text(info: PanelInfo, colour: Callable[[str], str]) -> Text:
    """The panel's acting part, in as few lines as it takes: the keys as key caps and what to
    look at; then Enter when the lesson waits for it and the biology notes. Always in view
    under the reading part."""
    first = Text()
    if info.keys:
        first.append("Keys ", style="bold")
        for key in info.keys:
            first.append(f" {key} ", style="reverse bold")
            first.append(" ")
    if info.marks:
        if first.plain:  # (not "⏎  Look at W2": the keys end, then what to look at)
            first.append("· ", style=colour("muted"))
        first.append("Look at ", style="bold")
        first.append(", ".join(info.marks), style=f"bold {colour('highlight')}")
    second = Text()
    if info.reading or info.done:
        second.append(f" {GO_ON_KEY} ", style="reverse bold")
        second.append(" go on  " if info.reading else " close  ", style="bold")
    if info.notes:
        second.append(" B ", style="reverse")
        second.append(f" biology: {', '.join(info.notes)}", style=colour("muted"))
    return Text("\n").join(line for line in (first, second) if line.plain)


class LessonPanel(Vertical, can_focus=False):
    """The lesson's panel in a game screen's side column: the reading part scrolls (the mouse
    wheel), the keys stay in view under it; a click is Enter: go on."""

    DEFAULT_CSS = default_css(__file__, "lesson_panel.tcss")

    class GoOn(Message):
        """The player clicked the panel: the same as Enter."""

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(id="lesson-text")
        yield Static(id="lesson-keys")

    def show_info(self, info: PanelInfo, colour: Callable[[str], str]) -> None:
        self.query_one("#lesson-text", Static).update(panel_text(info, colour))
        keys = keys_text(info, colour)
        widget = self.query_one("#lesson-keys", Static)
        widget.update(keys)
        widget.display = bool(keys.plain)
        self.query_one(VerticalScroll).scroll_home(animate=False)

    @property
    def plain(self) -> str:
        """What the panel says, as plain text (tests wait for it)."""
        return "\n".join(str(self.query_one(f"#lesson-{part}", Static).render())
                         for part in ("text", "keys"))

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.GoOn())


def notes_text(notes: Mapping[str, str], first: Sequence[str] = ()) -> Text:
    """Every note, the ones named in ``first`` first (the current step's)."""
    order = [n for n in first if n in notes] + [n for n in notes if n not in first]
    t = Text()
    for i, name in enumerate(order):
        if i:
            t.append("\n\n")
        t.append(name, style="bold")
        t.append("\n" + notes[name])
    return t


class NotesScreen(ModalScreen[None]):
    """A game's biology notes: the arrows, Page keys, Home and End scroll, any other key or a
    click closes them. The title and that hint stay in view while the notes scroll."""

    CSS_PATH = "notes_screen.tcss"
    SCROLL_KEYS = {"up": -1, "down": 1, "pageup": -10, "pagedown": 10,
                   "home": -10_000, "end": 10_000}

    def __init__(self, heading: str, notes: Mapping[str, str], first: Sequence[str] = ()) -> None:
        super().__init__()
        self.heading = heading
        self.notes = dict(notes)
        self.first = tuple(first)

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(self.heading, id="notes-title")
            yield Static(notes_text(self.notes, self.first) if self.notes
                         else "No notes for this game yet.", id="notes-text")
            yield Static("↑↓ PgUp PgDn scroll · any other key closes these notes.",
                         id="notes-hint")

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        lines = self.SCROLL_KEYS.get(event.key)
        if lines is not None:
            self.query_one(VerticalScroll).scroll_relative(y=lines, animate=False)
            return
        self.dismiss(None)

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.dismiss(None)
