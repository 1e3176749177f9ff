"""Lines of a Rich ``Text`` drawn straight to strips, cached per width (a seat panel or a log
painted again at every action)."""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.strip import Strip
from textual.visual import Visual


class TextLines(Visual):
    """Lines of a Rich ``Text`` drawn straight to strips (cached per width), for a seat panel
    or a log painted again at every action (the Cell Wars table's): Textual's general text pipeline
    (markup, spans, selection offsets) took more of a frame than the whole board. ``wrap``: a
    line wider than the panel breaks between words, its later lines indented by ``indent``;
    otherwise it is cut with an ellipsis. ``str()`` is the plain text."""

    def __init__(self, text: Text, console: Any, *, wrap: bool = False, indent: int = 0,
                 cache: dict[tuple, list[Strip]] | None = None) -> None:
        self.text = text
        self.console = console
        self.wrap = wrap
        self.indent = indent
        # strips of each line by (its text and styles, width, base style), kept across updates
        # by the caller: most lines of the next paint were in the last one
        self.cache = cache if cache is not None else {}
        lines = list(text.split("\n", allow_blank=True))
        if lines and text.plain.endswith("\n"):
            lines.pop()  # the newline ending the last line starts no new one
        self.lines: list[Text] = lines
        self._wrapped: dict[int, list[Text]] = {}
        self._strips: dict[tuple[int, Any], list[Strip]] = {}

    def __str__(self) -> str:
        return self.text.plain

    @property
    def plain(self) -> str:
        return self.text.plain

    def get_optimal_width(self, rules: Any, container_width: int) -> int:
        return max((cell_len(line.plain) for line in self.lines), default=0)

    def get_height(self, rules: Any, width: int) -> int:
        return len(self.wrapped(width))

    def wrapped(self, width: int) -> list[Text]:
        out = self._wrapped.get(width)
        if out is None:
            out = []
            for line in self.lines:
                out.extend(self._wrap(line, width) if self.wrap else (line,))
            self._wrapped[width] = out
        return out

    def _wrap(self, line: Text, width: int) -> list[Text]:
        plain = line.plain
        if len(plain) <= width or width <= self.indent + 8:
            return [line]
        if cell_len(plain) != len(plain):  # wide characters: Rich measures them
            return list(line.wrap(self.console, width))
        parts: list[Text] = []
        start, room = 0, width
        while len(plain) - start > room:
            space = plain.rfind(" ", start, start + room + 1)
            end = space if space > start else start + room
            parts.append(line[start:end])
            start = end + 1 if space > start else end
            room = width - self.indent
        parts.append(line[start:])
        pad = Text(" " * self.indent)
        return [parts[0], *(pad + part for part in parts[1:])]

    def render_strips(self, width: int, height: int | None, style: Any,
                      options: Any) -> list[Strip]:
        key = (width, style)
        strips = self._strips.get(key)
        if strips is not None:
            return strips
        cache = self.cache
        if len(cache) > 2000:
            cache.clear()
        base = style.rich_style
        strips = []
        for line in self.lines:
            line_key = (line.plain, tuple(line.spans), str(line.style), width, style)
            done = cache.get(line_key)
            if done is None:
                done = [self._strip(part, width, base) for part in
                        (self._wrap(line, width) if self.wrap else (line,))]
                cache[line_key] = done
            strips.extend(done)
        self._strips[key] = strips
        return strips

    def _strip(self, line: Text, width: int, base: Style) -> Strip:
        strip = Strip(Segment.apply_style(line.render(self.console, end=""), base))
        if strip.cell_length > width:
            cut = strip.crop(0, max(0, width - 1))
            last = list(cut)[-1].style if cut.cell_length else base
            strip = Strip([*cut, Segment("…", last)])
        return strip
