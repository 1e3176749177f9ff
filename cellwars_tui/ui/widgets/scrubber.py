"""A one-line track of a whole game with a thumb at the position; click or drag to seek."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from ..css import default_css


class Scrubber(Widget):
    """A one-line track of the whole game with a thumb at the position; click or drag to seek."""

    DEFAULT_CSS = default_css(__file__, "scrubber.tcss")

    position: reactive[int] = reactive(0)
    total: reactive[int] = reactive(0)

    class Moved(Message):
        def __init__(self, scrubber: Scrubber, position: int) -> None:
            super().__init__()
            self.scrubber = scrubber
            self.position = position

    def __init__(self, total: int = 0, position: int = 0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.set_reactive(Scrubber.total, total)
        self.set_reactive(Scrubber.position, position)
        self._dragging = False

    def render(self) -> Text:
        width = max(self.content_size.width, 3)
        thumb = self.thumb_x(width)
        text = Text(no_wrap=True)
        text.append("━" * thumb, style="bold")
        text.append("●", style="bold reverse" if self._dragging else "bold")
        text.append("─" * (width - thumb - 1), style="dim")
        return text

    def thumb_x(self, width: int | None = None) -> int:
        width = max(width or self.content_size.width, 3)
        if self.total <= 0:
            return 0
        return round(self.position / self.total * (width - 1))

    def position_at(self, x: int) -> int:
        width = max(self.content_size.width, 3)
        x = max(0, min(x, width - 1))
        return round(x / (width - 1) * self.total)

    def _seek_to(self, x: int) -> None:
        position = self.position_at(x)
        if position != self.position:
            self.position = position
            self.post_message(self.Moved(self, position))

    def on_mouse_down(self, event: events.MouseDown) -> None:
        self._dragging = True
        self.capture_mouse()
        self._seek_to(event.x)
        self.refresh()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        if self._dragging:
            self._seek_to(event.x)

    def on_mouse_up(self, event: events.MouseUp) -> None:
        if self._dragging:
            self._seek_to(event.x)
            self._dragging = False
            self.release_mouse()
            self.refresh()
