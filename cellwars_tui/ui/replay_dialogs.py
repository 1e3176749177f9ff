"""The replay viewer's dialogs: one line of input (a step, a file), and who takes each seat
when playing on from a replay position."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select

from ..core.errors import CellwarsError
from ..core.match import Seat
from ..replay import Replay
from ..table.naming import SEAT_CHOICES, seat_choice

class AskText(ModalScreen[str | None]):
    """One line of input (a step number, a file path); Enter accepts, Escape cancels."""

    CSS_PATH = "replay_dialogs.tcss"

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




class SeatsDialog(ModalScreen[list[Seat] | None]):
    """Who takes each seat when playing on from a replay position."""

    CSS_PATH = "replay_dialogs.tcss"
    AUTO_FOCUS = "#seats-play"  # Enter plays at once; Tab goes back to the seats

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, replay: Replay, *, person: int | None = None) -> None:
        super().__init__()
        self.replay = replay
        self.person = person  # a seat to offer to a person (try the better move: its mover)

    def compose(self) -> ComposeResult:
        r = self.replay
        with Vertical(classes="replay-dialog", id="seats-dialog"):
            yield Label(f"Play on from step {r.cursor} of {len(r)}: who sits where?")
            for i, seat in enumerate(r.seats):
                kind = seat_choice(seat)  # a level; the search from before levels: hard
                if i == self.person:
                    kind = "human"
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
        for i in range(len(self.replay.seats)):
            name = self.query_one(f"#seat-name-{i}", Input).value
            kind = str(self.query_one(f"#seat-kind-{i}", Select).value)
            out.append(make_seat(self.replay.game, i, kind, None, name))
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
