"""Virus Fight's small widgets and the helpers that repaint them only when they change.

A :class:`Chip` is a clickable label (an instruction of the palette, a program slot, a spare, a
button); a click posts :class:`Chip.Clicked` for the screen. :class:`Painter` updates a Static
only when its content changes, with a layout pass only when its size may change.
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static


class Chip(Static):
    """A small clickable label: an instruction of the palette, a program slot, a spare, a button."""

    can_focus = False

    class Clicked(Message):
        """A chip was clicked: its ``kind`` ("add", "slot", "spare", ...) and ``value``."""

        def __init__(self, kind: str, value: int) -> None:
            super().__init__()
            self.kind = kind
            self.value = value

    def __init__(self, label: str, kind: str, value: int, **kwargs: Any) -> None:
        super().__init__(label, **kwargs)
        self.kind = kind
        self.value = value

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Clicked(self.kind, self.value))


def hand_layout(name: str, chips: list[str], room: int) -> tuple[str, int]:
    """The spares row's label and how many chips (in order) share its line, for a row ``room``
    columns wide: "Red's spares (11):" when everything fits, else "Spares (11):", and the
    chips that still do not fit go on a second line (never cut off). Each chip takes its
    text and one space."""
    if not chips:
        return f"{name}: no spares", 0
    width = sum(cell_len(c) + 1 for c in chips) - 1
    for title in (f"{name}'s spares ({len(chips)}):", f"Spares ({len(chips)}):"):
        if cell_len(title) + 1 + width <= room:
            return title, len(chips)
    used = cell_len(title) + 1
    for i, chip in enumerate(chips):
        used += cell_len(chip) + 1
        if used - 1 > room:
            return title, i
    return title, len(chips)


def shape(content: Any) -> tuple[int, int]:
    """(lines, widest line) of a text: while it stays the same, so does an auto-sized widget."""
    plain = content.plain if isinstance(content, Text) else str(content)
    lines = plain.split("\n")
    return len(lines), max(map(cell_len, lines))


class Painter:
    """Updates widgets only when what they show changes (each update costs a repaint, and a
    layout pass when the size may change)."""

    def __init__(self) -> None:
        self._shown: dict[Widget, tuple[Any, tuple[int, int]]] = {}

    def put(self, widget: Static, content: Any) -> None:
        """Show ``content`` in ``widget``, with a layout pass only when its size may change
        (another line count or width, or lines that may wrap)."""
        last = self._shown.get(widget)
        if last is not None and last[0] == content:
            return
        new_shape = shape(content)
        width = widget.content_region.width
        same = last is not None and last[1] == new_shape and 0 < new_shape[1] <= width
        self._shown[widget] = (content, new_shape)
        widget.update(content, layout=not same)


def set_class(widget: Widget, on: bool, name: str) -> None:
    """Add or remove a CSS class only when it changes (each change restyles)."""
    if widget.has_class(name) != on:
        widget.set_class(on, name)


def show(widget: Widget, on: bool) -> None:
    """Show or hide ``widget`` only when that changes."""
    if widget.display != on:
        widget.display = on
