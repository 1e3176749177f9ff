"""A bar of numbered choices under a board: ``[1] charge  [2] mutate  [0] end``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget

from ..css import default_css


class Choice(Protocol):
    """What the bar shows of a choice."""

    @property
    def key(self) -> str:  # "1".."9", "0", or another key that picks it
        ...

    @property
    def label(self) -> str:
        ...


class ChoiceBar(Widget):
    """Choices as ``[1] charge  [2] mutate  [0] end``, wrapped; a click posts
    :class:`ChoiceBar.Picked` with the choice."""

    DEFAULT_CSS = default_css(__file__, "choice_bar.tcss")

    class Picked(Message):
        """A choice of the bar was clicked."""

        def __init__(self, choice: Choice) -> None:
            super().__init__()
            self.choice = choice

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.choices: Sequence[Choice] = []
        self._spans: list[tuple[int, int, int, int]] = []  # (line, x0, x1, index)

    def set_choices(self, choices: Sequence[Choice]) -> None:
        before = [(c.key, c.label) for c in self.choices]
        width = self.content_region.width or self.size.width
        lines_before = len(self._layout(width)[0]) if self.choices else 1
        self.choices = choices
        if before == [(c.key, c.label) for c in choices]:
            return
        lines_now = len(self._layout(width)[0]) if choices else 1
        self.refresh(layout=lines_now != lines_before)

    def _layout(self, width: int) -> tuple[list[list[tuple[str, int]]], list]:
        lines: list[list[tuple[str, int]]] = [[]]
        spans = []
        x = 0
        width = max(10, width)
        for i, c in enumerate(self.choices):
            piece = f"[{c.key}] {c.label}"
            if len(piece) > width:
                piece = piece[: width - 1] + "…"
            gap = 2 if x else 0
            if x + gap + len(piece) > width and x:
                lines.append([])
                x, gap = 0, 0
            x += gap
            if gap:
                lines[-1].append(("  ", -1))
            lines[-1].append((piece, i))
            spans.append((len(lines) - 1, x, x + len(piece), i))
            x += len(piece)
        return lines, spans

    def get_content_height(self, container, viewport, width: int) -> int:
        lines, _ = self._layout(width)
        return max(1, len(lines)) if self.choices else 1

    def render(self) -> Text:
        lines, self._spans = self._layout(self.content_region.width or self.size.width)
        out = Text(no_wrap=True, overflow="ellipsis")
        for n, line in enumerate(lines):
            if n:
                out.append("\n")
            for piece, i in line:
                if i < 0:
                    out.append(piece)
                    continue
                key_end = piece.find("]") + 1
                out.append(piece[:key_end], style="bold reverse")
                out.append(piece[key_end:], style="bold")
        return out

    def index_at(self, x: int, y: int) -> int:
        for line, x0, x1, i in self._spans:
            if line == y and x0 <= x < x1:
                return i
        return -1

    def offset_of(self, index: int) -> tuple[int, int]:
        """Widget offset of choice ``index`` (for clicks in tests)."""
        _, spans = self._layout(self.content_region.width or self.size.width)
        for line, x0, _x1, i in spans:
            if i == index:
                return x0 + 1 + self.styles.padding.left, line
        raise IndexError(index)

    def on_click(self, event: events.Click) -> None:
        i = self.index_at(event.x - self.styles.padding.left, event.y)
        if 0 <= i < len(self.choices):
            event.stop()
            self.post_message(self.Picked(self.choices[i]))
