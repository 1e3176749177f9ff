"""The replay's analysis panel under the board: a progress bar while the analysis runs (or, in its
place, why it waits to start), then the advantage chart and one line about the step shown (its
judgment, the move preferred, each player's accuracy). Hidden until there is an analysis or one
is running, so a replay that is not analysed keeps all its room."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import ProgressBar, Static

from ..css import default_css
from .advantage_chart import AdvantageChart


class AnalysisPanel(Vertical):
    DEFAULT_CSS = default_css(__file__, "analysis_panel.tcss")

    def compose(self) -> ComposeResult:
        with Horizontal(id="ap-progress"):
            yield Static("Analysing", id="ap-progress-label")
            yield ProgressBar(id="ap-bar", show_eta=False)
        yield AdvantageChart(id="ap-chart")
        yield Static(id="ap-line")

    def running(self, done: int, total: int, label: str = "Analysing") -> None:
        """Show the progress bar at ``done`` of ``total`` decisions."""
        self.display = True
        self.set_class(True, "running")
        self.set_class(False, "waiting")
        self.query_one("#ap-progress-label", Static).update(label)
        self.query_one(ProgressBar).update(total=max(1, total), progress=done)

    def waiting(self, words: str) -> None:
        """The analysis waits to start: ``words`` say why, in place of the bar."""
        self.display = True
        self.set_class(True, "running")
        self.set_class(True, "waiting")
        self.query_one("#ap-progress-label", Static).update(words)

    @property
    def progress_text(self) -> str:
        return str(self.query_one("#ap-progress-label", Static).render())

    def finished(self) -> None:
        self.set_class(False, "running")
        self.set_class(False, "waiting")

    def show_line(self, text: Text) -> None:
        self.query_one("#ap-line", Static).update(text)

    @property
    def chart(self) -> AdvantageChart:
        return self.query_one(AdvantageChart)

    def on_mount(self, event: Any = None) -> None:
        self.display = False
