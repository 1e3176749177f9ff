"""Small modal screens shared by every game screen: moves picker, hot-seat cover, rules page,
a one-line text prompt."""

from __future__ import annotations

import sys
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from ..core.api import Action, Game
from .footer import Footer


class MovesPicker(ModalScreen[Action | None]):
    """Every legal action by its notation; type to filter, Enter to play, Escape to close."""

    CSS_PATH = "dialogs.tcss"
    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding("down", "cursor(1)", "Next", show=False),
        Binding("up", "cursor(-1)", "Previous", show=False),
    ]

    def __init__(self, game: Game, legal: list[Action], title: str = "Moves",
                 typed: str = "") -> None:
        super().__init__()
        self.game = game
        self.legal = legal
        self.title_text = title
        self.typed = typed  # the filter's first letters, typed before the list opened
        self._notation = [game.action_to_str(a) for a in legal]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(f"{self.title_text} ({len(self.legal)}): type to filter, Enter plays")
            # (what was typed stays as typed: not selected, so the next key adds to it)
            yield Input(value=self.typed, placeholder="filter", id="moves-filter",
                        select_on_focus=not self.typed)
            yield OptionList(*self._options(self.typed), id="moves-list")

    def _options(self, text: str) -> list[Option]:
        text = text.strip().lower()
        return [
            Option(n, id=str(i)) for i, n in enumerate(self._notation) if text in n.lower()
        ]

    def on_mount(self) -> None:
        self.query_one(Input).focus()
        options = self.query_one(OptionList)
        if options.option_count:
            options.highlighted = 0

    def action_cursor(self, delta: int) -> None:
        options = self.query_one(OptionList)
        if delta > 0:
            options.action_cursor_down()
        else:
            options.action_cursor_up()

    @on(Input.Changed)
    def _filter(self, event: Input.Changed) -> None:
        options = self.query_one(OptionList)
        options.clear_options()
        options.add_options(self._options(event.value))
        if options.option_count:
            options.highlighted = 0

    @on(Input.Submitted)
    def _submit_filter(self) -> None:
        options = self.query_one(OptionList)
        if options.option_count:
            index = options.highlighted or 0
            self.dismiss(self.legal[int(options.get_option_at_index(index).id or 0)])

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.legal[int(event.option.id or 0)])

    def action_close(self) -> None:
        self.dismiss(None)


class HandOff(ModalScreen[None]):
    """Covers the whole table between two people's secret turns in hot-seat play."""

    CSS_PATH = "dialogs.tcss"
    BINDINGS = [Binding("enter", "ready", "I am ready", priority=True)]

    def __init__(self, name: str) -> None:
        super().__init__()
        self.seat_name = name

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(f"Pass to {self.seat_name}", id="handoff-title")
            yield Label("Everyone else, look away.")
            yield Button(f"I am {self.seat_name}: press Enter", id="handoff-ready",
                         variant="primary")

    @on(Button.Pressed, "#handoff-ready")
    def action_ready(self) -> None:
        self.dismiss(None)


def rules_path(game: Game) -> Path | None:
    """``rules.md`` beside the game's rules module, if it has one."""
    module = sys.modules.get(type(game).__module__)
    file = getattr(module, "__file__", None)
    if not file:
        return None
    path = Path(file).with_name("rules.md")
    return path if path.is_file() else None


def rules_text(game: Game) -> str:
    path = rules_path(game)
    if path is not None:
        try:
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            return f"# {game.title}\n\nThe rules page could not be read: {exc}\n"
    players = (
        f"{game.min_players}" if game.min_players == game.max_players
        else f"{game.min_players}-{game.max_players}"
    )
    return f"# {game.title}\n\n{game.blurb}\n\nPlayers: {players}.\n\n(No rules page yet.)\n"


class RulesScreen(ModalScreen[None]):
    """The game's rules page (its ``rules.md``), scrollable."""

    CSS_PATH = "dialogs.tcss"
    BINDINGS = [
        Binding("escape,q,question_mark,f1", "close", "Close"),
        Binding("j,down", "scroll(1)", "Down", show=False),
        Binding("k,up", "scroll(-1)", "Up", show=False),
    ]

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = game

    def compose(self) -> ComposeResult:
        # Rich's Markdown in one Static: Textual's Markdown widget builds a widget per block and
        # took seconds to open a long rules page.
        from rich.markdown import Markdown

        with Vertical():
            with VerticalScroll(id="rules-scroll"):
                yield Static(Markdown(rules_text(self.game), hyperlinks=False), id="rules-text")
            yield Footer()

    def on_mount(self) -> None:
        self.query_one("#rules-scroll").focus()

    def action_scroll(self, lines: int) -> None:
        self.query_one("#rules-scroll", VerticalScroll).scroll_relative(y=lines, animate=False)

    def action_close(self) -> None:
        self.dismiss(None)


class Notice(ModalScreen[None]):
    """A short message with an OK button."""

    CSS_PATH = "dialogs.tcss"
    BINDINGS = [Binding("escape,enter", "close", "Close")]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.text)
            yield Button("OK", id="notice-ok")

    @on(Button.Pressed)
    def action_close(self) -> None:
        self.dismiss(None)


class TextPrompt(ModalScreen[str | None]):
    """Ask for one line of text (Enter keeps it, Escape gives None)."""

    CSS_PATH = "dialogs.tcss"
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, help_text: str = "", *, placeholder: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.help_text = help_text
        self.placeholder = placeholder

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.title_text, classes="prompt-title")
            if self.help_text:
                yield Label(self.help_text, classes="prompt-help")
            yield Input(placeholder=self.placeholder, id="prompt-input")

    def on_mount(self) -> None:
        self.query_one("#prompt-input").focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
