"""A table's keys in a panel over it."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static


class KeysPanel(ModalScreen[None]):
    """The keys of the table in a panel that fits the window; any key or a click closes it
    (the key does nothing else, so nothing is played blind)."""

    CSS_PATH = "keys_panel.tcss"

    def __init__(self, heading: str, text: str) -> None:
        super().__init__()
        self.heading = heading
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.heading, id="keys-title")
            yield Static(self.text, id="keys-text")
            yield Static("Any key closes this panel.", id="keys-hint")

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        self.dismiss(None)

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.dismiss(None)
