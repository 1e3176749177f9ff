"""The New-game dialog: seats (a person or a bot level), player count, the game's own options
and the seed.

The option fields come from the game's ``options_type`` (int -> checked input, bool -> switch,
Literal/Enum -> select, str -> input): no dialog code per game. Checking is done by
:func:`new_game_request` (shared with ``cellwars play``), so the dialog refuses exactly what the
command line refuses, with the same one-line message. A bot seat is a level (Random, Easy,
Normal, Hard: ai/levels.py), Normal by default; a level is its own search budget, so the dialog
asks for no thinking time.
"""

from __future__ import annotations

from typing import Any

import msgspec
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from ..core.api import Game
from ..core.errors import CellwarsError
from .footer import Footer
from ..ai.levels import DEFAULT_LEVEL
from ..table.naming import SEAT_CHOICES
from .request import (
    NewGameRequest,
    literal_choices,
    new_game_request,
    option_fields,
    option_hint,
)

__all__ = ["NewGameRequest", "NewGameScreen", "new_game_request"]

KIND_CHOICES = list(SEAT_CHOICES)  # Person, Random, Easy, Normal, Hard


def _label(name: str) -> str:
    return name.replace("_", " ").capitalize()


class NewGameScreen(ModalScreen[NewGameRequest | None]):
    """Ask for everything a new game needs; dismisses with a checked request (or None)."""

    CSS_PATH = "setup.tcss"
    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+s", "start", "Start", priority=True),
    ]

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = game
        self.fields = option_fields(game)
        self._default_options = game.options_type()

    def compose(self) -> ComposeResult:
        game = self.game
        with Vertical(id="setup-box"):
            yield Static(f"New game: {game.title}", id="setup-title")
            with VerticalScroll(id="setup-form"):
                if game.min_players != game.max_players:
                    with Horizontal(classes="setup-row"):
                        yield Label("Players", classes="setup-label")
                        default = min(max(2, game.min_players), game.max_players)
                        yield Select(
                            [(str(n), n) for n in range(game.min_players, game.max_players + 1)],
                            value=default, allow_blank=False, id="setup-players", compact=True,
                        )
                if game.max_players == 1:
                    with Horizontal(classes="setup-row", id="solitaire-row"):
                        yield Label("Seats", classes="setup-label")
                        yield Static("you alone: a solitaire, so no bot levels",
                                     classes="setup-note")
                else:
                    for i in range(game.max_players):
                        with Horizontal(classes="setup-row setup-seat", id=f"seat-row-{i}"):
                            yield Label(f"Seat {i + 1}", classes="setup-label")
                            yield Input(value=game.seat_label(i), max_length=24,
                                        id=f"seat-name-{i}", classes="seat-name", compact=True)
                            yield Select(KIND_CHOICES, value="human" if i == 0 else DEFAULT_LEVEL,
                                         allow_blank=False, id=f"seat-kind-{i}",
                                         classes="seat-kind", compact=True)
                    with Horizontal(classes="setup-row", id="seating-row"):
                        yield Label("", id="setup-seating-label", classes="setup-label")
                        yield Static("", id="setup-seating", classes="setup-note")
                for f in self.fields:
                    yield from self._field_row(f)
                with Horizontal(classes="setup-row"):
                    yield Label("Seed", classes="setup-label")
                    yield Input(placeholder="random", type="integer", id="setup-seed", compact=True)
            # docked to the bottom of the box: the form scrolls, the buttons always show
            with Vertical(id="setup-foot"):
                yield Static("Tab: next field · Ctrl+S or Enter in a text field: start",
                             id="setup-hint")
                yield Static("", id="setup-error")
                with Horizontal(id="setup-buttons"):
                    yield Button("Start", id="setup-start", variant="primary")
                    yield Button("Cancel", id="setup-cancel")
        yield Footer()

    def _field_row(self, f: msgspec.structs.FieldInfo) -> ComposeResult:
        default = getattr(self._default_options, f.name, None)
        wid = f"opt-{f.name}"
        with Horizontal(classes="setup-row"):
            yield Label(_label(f.name), classes="setup-label")
            choices = literal_choices(f.type)
            if f.type is bool:
                # no / yes in words: Textual's Switch and Checkbox tell on from off by colour only
                yield Select([("no", False), ("yes", True)], value=bool(default),
                             allow_blank=False, id=wid, compact=True, classes="option-select")
            elif choices is not None:
                yield Select([(str(c), c) for c in choices], value=default,
                             allow_blank=False, id=wid, compact=True, classes="option-select")
            elif f.type is int:
                yield Input(value=str(default), type="integer", id=wid, compact=True)
            elif f.type is float:
                yield Input(value=str(default), type="number", id=wid, compact=True)
            else:
                yield Input(value="" if default is None else str(default), id=wid, compact=True,
                            placeholder=option_hint(self.game, f.name))

    def on_mount(self) -> None:
        self._sync_seats()
        if self.game.max_players == 1:  # a solitaire: nothing to seat, Enter starts at once
            self.query_one("#setup-start", Button).focus()
            return
        first = self.query("#setup-form Select, #setup-form Input").first()
        first.focus()

    @on(Select.Changed, "#setup-players")
    @on(Select.Changed, "#setup-form .option-select")
    def _players_changed(self) -> None:
        self._sync_seats()

    def _options_now(self) -> Any:
        """The options the form holds, or None while a field is not valid."""
        try:
            return self.request().options
        except CellwarsError:
            return None

    def players(self) -> int:
        if self.game.min_players == self.game.max_players:
            return self.game.min_players
        value = self.query_one("#setup-players", Select).value
        return int(value) if isinstance(value, int) else self.game.min_players

    def _sync_seats(self) -> None:
        players = self.players()
        sides = self.game.sides(players)
        for row in self.query(".setup-seat"):
            index = int((row.id or "0").rsplit("-", 1)[1])
            row.display = index < players
            if index < players:
                row.query_one(".setup-label", Label).update(self.seat_title(index, sides))
        if self.query("#seating-row"):
            seating = self.game.seating(players, self._options_now())
            self.query_one("#seating-row").display = seating is not None
            label, line = seating or ("", "")
            self.query_one("#setup-seating-label", Label).update(label)
            self.query_one("#setup-seating", Static).update(line)

    def seat_title(self, index: int, sides: tuple[str, ...]) -> str:
        """A seat's title: "Seat 2", or "Seat 2 · Cancer" in a game of camps (where a seat's
        side is not its own name), so the dialog says which camp each seat leads."""
        side = sides[index]
        return f"Seat {index + 1}" if side == self.game.seat_label(index) else \
            f"Seat {index + 1} · {side}"

    # -- collecting and checking -------------------------------------------------------------
    def request(self) -> NewGameRequest:
        """The request the form describes; BadOptions/CellwarsError with one line if absurd."""
        players = self.players()
        seats: dict[int, str] = {}
        names: dict[int, str] = {}
        for i in range(players):
            if self.query(f"#seat-kind-{i}"):
                seats[i] = str(self.query_one(f"#seat-kind-{i}", Select).value)
                names[i] = self.query_one(f"#seat-name-{i}", Input).value
            else:
                seats[i] = "human"
        options: dict[str, Any] = {}
        for f in self.fields:
            widget = self.query_one(f"#opt-{f.name}")
            if isinstance(widget, Select):
                options[f.name] = widget.value
            elif isinstance(widget, Input):
                text = widget.value.strip()
                if f.type is int:
                    options[f.name] = _int(text, _label(f.name))
                elif f.type is float:
                    options[f.name] = _float(text, _label(f.name))
                else:
                    options[f.name] = text
        seed_text = self.query_one("#setup-seed", Input).value.strip()
        seed = _int(seed_text, "Seed") if seed_text else None
        return new_game_request(self.game.id, players=players, seats=seats, seed=seed,
                                options=options, names=names)

    @on(Button.Pressed, "#setup-start")
    def action_start(self) -> None:
        try:
            request = self.request()
        except CellwarsError as exc:
            self.query_one("#setup-error", Static).update(str(exc))
            return
        self.dismiss(request)

    @on(Button.Pressed, "#setup-cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.action_start()


def _int(text: str, what: str) -> int:
    from ..core.errors import BadOptions

    try:
        return int(text)
    except ValueError:
        raise BadOptions(f"{what} must be a whole number, not {text!r}") from None


def _float(text: str, what: str) -> float:
    from ..core.errors import BadOptions

    try:
        return float(text)
    except ValueError:
        raise BadOptions(f"{what} must be a number, not {text!r}") from None
