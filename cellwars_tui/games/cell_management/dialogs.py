"""Cell Management's dialogs: a puzzle by number, and the rest of an optimal solution."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static


class PuzzleNumber(ModalScreen[str | None]):
    """Ask for a puzzle number (#1234, 4#12) or a setup code."""

    CSS_PATH = "dialogs.tcss"
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("Puzzle by number: #1234, 5#12, 4#7 or a setup code")
            yield Input(placeholder="#1234", id="cm-number-input")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class SolutionScreen(ModalScreen[None]):
    """The rest of one optimal solution, round by round."""

    CSS_PATH = "dialogs.tcss"
    BINDINGS = [Binding("escape,enter,s,q", "close", "Close")]

    def __init__(self, title: str, lines: list[str]) -> None:
        super().__init__()
        self.title_text = title
        self.lines = lines

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.title_text)
            with VerticalScroll():
                yield Static(Text("\n".join(self.lines)), id="cm-solution-text")
            yield Button("Close", id="cm-solution-close")

    @on(Button.Pressed, "#cm-solution-close")
    def action_close(self) -> None:
        self.dismiss(None)
