"""The advantage chart under a replay's board: one row per line of the analysis (each seat's
Win%, or Infection's team against the virus), the whole game left to right, a mark row under
them with the judged moves (``⁈`` inaccuracy, ``?`` mistake, ``⁇`` blunder) and ``▲`` at the
current step. Click a column (or press Left/Right while it has focus) to jump there.

Each row is a sparkline on a fixed 0-100 scale (Textual's ``Sparkline`` scales every series to its
own minimum and maximum, which would make 48% and 52% look like 0 and 100): a block per column,
its height the line's Win% there, in the seat's colour and led by the seat's glyph and name, so a
reader who cannot tell the colours apart reads the rows by their labels.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from ..css import default_css

BLOCKS = " ▁▂▃▄▅▆▇█"
MARK_GLYPHS = {"inaccuracy": "⁈", "mistake": "?", "blunder": "⁇"}
SEVERITY = {"": 0, "inaccuracy": 1, "mistake": 2, "blunder": 3}
LABEL = 10  # columns of a row's label ("① Ann  64 ")


class AdvantageChart(Widget, can_focus=True):
    """Rows of Win% over the game (see the module docstring)."""

    DEFAULT_CSS = default_css(__file__, "advantage_chart.tcss")
    BINDINGS = [
        Binding("left", "nudge(-1)", "Earlier", show=False),
        Binding("right", "nudge(1)", "Later", show=False),
    ]

    cursor: reactive[int] = reactive(0)

    class Jump(Message):
        """The reader clicked (or arrowed to) cursor ``step`` on the chart."""

        def __init__(self, chart: AdvantageChart, step: int) -> None:
            super().__init__()
            self.chart = chart
            self.step = step

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.line_names: tuple[str, ...] = ()
        self.line_glyphs: tuple[str, ...] = ()
        self.line_styles: tuple[str, ...] = ()
        self.line_values: tuple[tuple[float, ...], ...] = ()
        self.judged: dict[int, str] = {}  # cursor (after the judged step) -> judgment

    def set_data(self, lines: Sequence[str], glyphs: Sequence[str], styles: Sequence[str],
                 values: Sequence[Sequence[float]], marks: dict[int, str]) -> None:
        self.line_names, self.line_glyphs, self.line_styles = tuple(lines), tuple(glyphs), tuple(styles)
        self.line_values = tuple(tuple(v) for v in values)
        self.judged = dict(marks)
        self.line_styles += ("",) * (len(self.line_names) - len(self.line_styles))
        self.line_glyphs += ("•",) * (len(self.line_names) - len(self.line_glyphs))
        self.refresh(layout=True)

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return len(self.line_names) + 1 if self.line_names else 0

    @property
    def steps(self) -> int:
        return max(0, len(self.line_values) - 1)

    def plot_width(self) -> int:
        return max(1, self.content_size.width - LABEL)

    def column_of(self, step: int) -> int:
        """The column that shows cursor ``step``."""
        cols = min(self.plot_width(), self.steps + 1)
        return min(cols - 1, step * cols // (self.steps + 1))

    def step_at(self, column: int) -> int:
        """The first cursor a column shows (columns past the chart's end: the last step)."""
        cols = min(self.plot_width(), self.steps + 1)
        column = max(0, min(column, cols - 1))
        return min(self.steps, -(-column * (self.steps + 1) // cols))

    def render(self) -> Text:
        text = Text(no_wrap=True, overflow="crop")
        if not self.line_values:
            return text
        cols = min(self.plot_width(), self.steps + 1)
        here = self.column_of(self.cursor)
        starts = [self.step_at(c) for c in range(cols)]
        now = self.line_values[min(self.cursor, self.steps)]
        for row, name in enumerate(self.line_names):
            style = self.line_styles[row]
            label = f"{self.line_glyphs[row]} {name[:3]:<3} {now[row]:>3.0f}"
            text.append(f"{label:<{LABEL}}", style=f"bold {style}".strip())
            for c in range(cols):
                v = self.line_values[starts[c]][row]
                block = BLOCKS[max(0, min(8, round(v / 100 * 8)))]
                text.append(block, style=f"{style} reverse" if c == here and block == " "
                            else style)
            text.append("\n")
        worst: dict[int, str] = {}
        for step, name in self.judged.items():
            c = self.column_of(step)
            if SEVERITY[name] > SEVERITY[worst.get(c, "")]:
                worst[c] = name
        text.append(f"step {self.cursor:>4} "[-LABEL:], style="dim")
        for c in range(cols):
            if c == here:
                text.append("▲", style="bold")
            else:
                text.append(MARK_GLYPHS.get(worst.get(c, ""), " "), style="bold")
        return text

    def watch_cursor(self) -> None:
        self.refresh()

    def on_click(self, event: events.Click) -> None:
        x = event.x - self.gutter.left - LABEL
        if x < 0 or not self.line_values:
            return
        self.post_message(self.Jump(self, self.step_at(x)))

    def action_nudge(self, delta: int) -> None:
        """Left/Right with the chart focused: the next column's first step (one step when every
        step has its own column)."""
        column = self.column_of(self.cursor) + delta
        step = self.step_at(column)
        if step == self.cursor:
            step = max(0, min(self.steps, self.cursor + delta))
        self.post_message(self.Jump(self, step))
