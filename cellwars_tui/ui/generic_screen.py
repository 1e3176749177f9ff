"""GenericScreen: plays any registered game by its move notation (the state as text, the legal
moves as a list), over the same game-screen base as every game's own screen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..core.api import Action
from .game_screen import GameScreen


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
