"""The side log of a game screen (``#gs-log``): the last lines of the game, newest in view."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events
from textual.strip import Strip
from textual.visual import Visual
from textual.widgets import Static


class LogPanel(Static):
    """The side log (``#gs-log``): holds the last lines of the game, oldest first, and shows the
    end of them, newest last, however tall they wrap; the mouse wheel scrolls back (an update
    goes to the end again). A screen that paints the log itself with ``update`` gets the same."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.back = 0  # rows scrolled back from the end
        self._strips: list[Strip] = []
        self._strips_key: tuple[Any, ...] | None = None

    def show_entries(self, entries: list[Text]) -> None:
        """Show ``entries`` (one Text each, oldest first), scrolled to the newest."""
        self.update(Text("\n").join(entries))

    def update(self, *args: Any, **kwargs: Any) -> None:
        self.back = 0
        self._strips_key = None
        super().update(*args, **kwargs)

    def _all_strips(self) -> list[Strip]:
        width = self.size.width
        key = (width, id(self.visual), self.visual_style)
        if key != self._strips_key:
            self._strips = Visual.to_strips(self, self.visual, width, None, self.visual_style)
            self._strips_key = key
        return self._strips

    def hidden_rows(self) -> int:
        """Rows above the window when scrolled to the end (0: everything shows)."""
        return max(0, len(self._all_strips()) - self.size.height)

    def render_line(self, y: int) -> Strip:
        super().render_line(y)  # keeps the widget's own render cache (and dirty marks) in step
        strips = self._all_strips()
        top = max(0, self.hidden_rows() - self.back)
        try:
            return strips[top + y]
        except IndexError:
            return Strip.blank(self.size.width, self.visual_style.rich_style)

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        event.stop()
        back = min(self.hidden_rows(), self.back + 1)
        if back != self.back:
            self.back = back
            self.refresh()

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        event.stop()
        if self.back:
            self.back -= 1
            self.refresh()
