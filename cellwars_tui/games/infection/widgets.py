"""The Infection table's own widgets: the countdown, the virus columns, your dice, your line and
your powers. Each turns a click into a message the screen answers (no rule here, no table)."""

from __future__ import annotations

from textual import events
from textual.message import Message
from textual.widgets import Digits, Static


class CountdownDigits(Digits):
    """The big countdown; a click pauses or resumes."""

    class Pressed(Message):
        """The countdown was clicked."""

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Pressed())


class ColumnList(Static):
    """One column of the virus: a card per line, top first; a click targets that card."""

    class Picked(Message):
        def __init__(self, column: int, line: int) -> None:
            super().__init__()
            self.column = column
            self.line = line

    def __init__(self, column: int) -> None:
        super().__init__(id=f"inf-col-{column}", classes="inf-col")
        self.column = column

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is not None:
            event.stop()
            self.post_message(self.Picked(self.column, offset.y))


class DieBox(Static):
    """One of your three coloured dice; a click holds or releases it."""

    class Pressed(Message):
        def __init__(self, die: int) -> None:
            super().__init__()
            self.die = die

    def __init__(self, die: int) -> None:
        super().__init__(id=f"inf-die-{die}", classes="inf-die")
        self.die = die

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Pressed(self.die))


class MineLine(Static):
    """Your line beside the dice (what to do next); a click does it: roll the white die, roll
    the free dice, or take the completed card (as space does)."""

    class Pressed(Message):
        """Your line was clicked."""

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Pressed())


class PowerList(Static):
    """Your unused powers, one per line with its key; a click uses it."""

    class Picked(Message):
        def __init__(self, line: int) -> None:
            super().__init__()
            self.line = line

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is not None:
            event.stop()
            self.post_message(self.Picked(offset.y))
