"""Cell Management's ship as widgets: the containment cells, the secret hideouts and the escape
area, laid out on a grid by the number of species. A click posts a message for the screen."""

from __future__ import annotations

from textual import events
from textual.message import Message
from textual.widgets import Static

# Grid slots (row, column) of the cell and the hideout for each position, clockwise from the top.
ROWS, COLS = 6, 5
CENTRE = (2, 2)  # spans two rows
SLOTS = {
    "top": ((0, 2), (1, 2)),
    "upper-right": ((1, 4), (2, 3)),
    "right": ((2, 4), (2, 3)),
    "lower-right": ((4, 4), (3, 3)),
    "bottom": ((5, 2), (4, 2)),
    "lower-left": ((4, 0), (3, 1)),
    "left": ((2, 0), (2, 1)),
    "upper-left": ((1, 0), (2, 1)),
}
LAYOUTS = {
    4: ("top", "right", "bottom", "left"),
    5: ("top", "upper-right", "lower-right", "lower-left", "upper-left"),
    6: ("top", "upper-right", "lower-right", "bottom", "lower-left", "upper-left"),
}


class CellBox(Static):
    """A containment cell: its key number and species on the frame, its captives inside."""

    def __init__(self, position: int) -> None:
        super().__init__(id=f"cm-cell-{position + 1}", classes="cm-cell")
        self.position = position

    class Clicked(Message):
        """The cell at ``position`` was clicked."""

        def __init__(self, position: int) -> None:
            super().__init__()
            self.position = position

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Clicked(self.position))


class HideoutBox(Static):
    """A secret hideout: friendly or hostile, empty or holding one captive."""

    def __init__(self, position: int) -> None:
        super().__init__(id=f"cm-hideout-{position + 1}", classes="cm-hideout")
        self.position = position

    class Clicked(Message):
        """The hideout at ``position`` was clicked."""

        def __init__(self, position: int) -> None:
            super().__init__()
            self.position = position

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Clicked(self.position))


class EscapeArea(Static):
    """The centre of the ship: one slot per species, filled when a captive got out."""

    def __init__(self) -> None:
        super().__init__(id="cm-centre")
        self.species = 6

    def species_at(self, x: int, y: int) -> int | None:
        """The species drawn at content offset (x, y): slots are 2 columns wide, centred in the
        box (any row counts)."""
        left = max(0, (self.content_region.width - (2 * self.species - 1)) // 2)
        index = (x - left) // 2 if x >= left else -1
        return index if 0 <= index < self.species else None

    class Clicked(Message):
        """The escape area was clicked on ``species``'s slot (None: between slots)."""

        def __init__(self, species: int | None) -> None:
            super().__init__()
            self.species = species

    def on_click(self, event: events.Click) -> None:
        event.stop()
        region = self.content_region
        self.post_message(self.Clicked(self.species_at(event.screen_x - region.x,
                                                       event.screen_y - region.y)))
