"""The replay viewer's analysis: ``a`` (or the command palette) runs it in the background with a
progress bar, the advantage chart and a line about the step shown appear under the board, ``n`` /
``N`` jump to the next / previous judged move, the log marks judged moves (``?!`` ``?`` ``??``)
with the move preferred, and ``b`` plays on from just before a judged move (the existing
take-over) to try the better move.

The analysis itself is headless (:mod:`cellwars_tui.analysis`); it runs in a thread worker that
waits on a process pool over the machine's cores (the search never runs in the UI's process, so
the replay keeps stepping while it works); in a confined SSH or browser session it searches on
that thread itself, at a lower priority, so that a server's sessions never each start a pool, and
only once one of the server's analysis slots is free (the progress line says it waits, and how
many analyses are running; leaving the replay cancels the wait as it stops an analysis). A saved
analysis (the sidecar beside the record) is shown as soon as the replay opens; a damaged one, or
one of another record, is one line and the replay opens all the same.
"""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import work
from textual.css.query import NoMatches

from ..analysis import Analysis, AnalysisError, Stopped, analyse, mark, record_key
from ..analysis import sidecar
from ..analysis.slots import waiting_words
from ..core.errors import CellwarsError
from .widgets.advantage_chart import AdvantageChart
from .widgets.analysis_panel import AnalysisPanel

if TYPE_CHECKING:
    from ..replay import Replay

log = logging.getLogger(__name__)
SEAT_GLYPHS = ("①", "②", "③", "④", "⑤", "⑥")
LINE_GLYPHS = {"Team": "✚", "Virus": "✖"}


class ReplayAnalysis:
    """Mixed into :class:`~.replay_viewer.ReplayScreen` (which is a game screen)."""

    replay: Replay
    turn_seat: int
    analysis: Analysis | None = None
    _analysing: threading.Event | None = None  # set: the running analysis is to stop
    waiting_for_slot = False  # the analysis waits for one of the server's slots (see _waiting)

    if TYPE_CHECKING:  # what the screen it is mixed into gives it
        app: Any
        game: Any
        replay_table: Any

        def say(self, text: str) -> None: ...
        def notify(self, message: str, **kwargs: Any) -> None: ...
        def seek(self, n: int) -> None: ...
        def _stop(self) -> None: ...
        def colour(self, name: str) -> str: ...
        def seat_colour(self, seat: int) -> str: ...
        def query_one(self, selector: Any, expect_type: Any = None) -> Any: ...
        def refresh_table(self) -> None: ...
        def action_play_from_here(self, person: int | None = None) -> None: ...
        def _paint_bar(self) -> None: ...

    # -- opening ---------------------------------------------------------------------------
    def load_saved_analysis(self) -> None:
        """Show the sidecar's analysis, if there is one for this very record."""
        path = self.replay.path
        if path is None or not sidecar.sidecar_path(path).exists():
            return
        try:
            found = sidecar.load(path, record_key(self.replay))
        except CellwarsError as exc:
            self.notify(str(exc), severity="warning", timeout=10)
            return
        if found is not None:
            self.show_analysis(found)

    # -- running -----------------------------------------------------------------------------
    def action_analyse(self) -> None:
        if self._analysing is not None and self.waiting_for_slot:
            self.say("The analysis starts by itself when a slot frees; leave the replay to "
                     "cancel it.")
            return
        if self._analysing is not None:
            self.say("The analysis is running; the chart appears when it is done.")
            return
        if self.analysis is not None:
            self.say(f"Analysed at {self.analysis.budget} playouts a decision: "
                     f"{self.analysis.accuracy_text()}. n / N: judged moves, b: try the better "
                     "move.")
            return
        self._analysing = threading.Event()
        self.waiting_for_slot = False
        self.panel().running(0, 1)
        self._run_analysis(self._analysing)

    @work(thread=True, exclusive=True, group="analysis")
    def _run_analysis(self, stop: threading.Event) -> None:
        app = self.app

        def progress(done: int, total: int) -> None:
            if not stop.is_set():
                app.call_from_thread(self._progress, done, total)

        def waiting(running: int, ahead: int) -> None:
            if not stop.is_set():
                app.call_from_thread(self._waiting, running, ahead)

        try:
            result = analyse(self.replay, progress=progress, stop=stop.is_set, waiting=waiting)
        except Stopped:
            return
        except CellwarsError as exc:
            app.call_from_thread(self._failed, str(exc))
            return
        except Exception as exc:  # a game's bug met by the search: a line, never a crash
            log.exception("the analysis of %s failed", self.replay.path)
            app.call_from_thread(self._failed, f"the analysis failed ({type(exc).__name__}: "
                                               f"{exc})")
            return
        saved = ""
        if self.replay.path is not None:
            try:
                sidecar.save(self.replay.path, result)
            except OSError as exc:
                saved = f" (not saved: {exc.strerror or exc})"
        if not stop.is_set():
            app.call_from_thread(self._done, result, saved)

    def _progress(self, done: int, total: int) -> None:
        self.waiting_for_slot = False
        self.panel().running(done, total, f"Analysing {done}/{total}")

    def _waiting(self, running: int, ahead: int) -> None:
        """Every analysis slot of the server is taken: this one starts when one frees for it."""
        self.waiting_for_slot = True
        self.panel().waiting(waiting_words(running, ahead))

    def _failed(self, why: str) -> None:
        self._analysing = None
        panel = self.panel()
        panel.finished()
        panel.display = self.analysis is not None
        self.notify(f"Cannot analyse: {why}", severity="warning", timeout=10)

    def _done(self, result: Analysis, saved: str) -> None:
        self._analysing = None
        self.show_analysis(result)
        self.say(f"Analysed: {result.accuracy_text()}{saved}. n / N: judged moves.")

    def stop_analysis(self) -> None:
        """Stop the analysis, running or waiting for a slot (leaving the replay does)."""
        if self._analysing is not None:
            self._analysing.set()
            self._analysing = None
            self.waiting_for_slot = False

    # -- showing -----------------------------------------------------------------------------
    def panel(self) -> AnalysisPanel:
        return self.query_one(AnalysisPanel)

    def show_analysis(self, result: Analysis) -> None:
        self.analysis = result
        panel = self.panel()
        panel.finished()
        panel.display = True
        seat_line = result.lines == result.names  # (else Infection: the team, the virus)
        glyphs = [SEAT_GLYPHS[i % 6] if seat_line else LINE_GLYPHS.get(name, "•")
                  for i, name in enumerate(result.lines)]
        styles = [self.seat_colour(i) if seat_line else ("" if i == 0 else
                  self.colour("danger")) for i in range(len(result.lines))]
        marks = {d.step: d.judgment for d in result.decisions if d.judgment}
        panel.chart.set_data(result.lines, glyphs, styles, result.values, marks)
        self._paint_bar()  # (which paints the analysis' line and the chart's cursor too)
        self.refresh_table()  # (the log's marks)

    def paint_analysis(self) -> None:
        """The chart's cursor and the line about the step shown (called with the replay bar)."""
        result = self.analysis
        if result is None:
            return
        try:
            panel = self.panel()
        except NoMatches:
            return
        cursor = min(self.replay.cursor, result.steps)
        panel.chart.cursor = cursor
        line = Text(no_wrap=True, overflow="ellipsis")
        found = result.decision_at(cursor) if cursor else None
        if found is not None and found.judgment and self.secret_step(cursor):
            line.append(f"{cursor}. {result.names[found.seat]}'s move is hidden in this view "
                        "(V shows everything) · ")
        elif found is not None and found.judgment:
            name = result.names[found.seat]
            near = "~" if found.near else ""  # (a grade the margin could change)
            spread = f" ±{found.margin:.0f}" if found.margin >= 0.5 else ""
            line.append(f"{cursor}. {name}: {found.played} {found.mark}{near} ", style="bold")
            line.append(f"best: {found.best} ", style=self.colour("success"))
            line.append(f"({found.before[found.seat]:.0f}% → {found.after[found.seat]:.0f}%"
                        f"{spread}{'; ' + found.note if found.note else ''}) · b: try it · ")
        elif found is not None and found.forced:
            line.append(f"{cursor}. forced · ")
        line.append("Accuracy " + result.accuracy_text(), style=self.colour("muted"))
        if result.notes and any(n.startswith("the analysis sees") for n in result.notes):
            line.append(" · the analysis sees what was hidden", style=self.colour("muted"))
        panel.show_line(line)

    def analysed_log(self, entries: list[tuple[int, int | None, str]]
                     ) -> list[tuple[int, int | None, str]]:
        """The log with each judged move's mark and the move preferred, on its step's last line."""
        result = self.analysis
        if result is None:
            return entries
        out = list(entries)
        last_of: dict[int, int] = {}
        for i, (step, seat, _) in enumerate(out):
            if seat is not None:
                last_of[step] = i
        for step, i in last_of.items():
            found = result.decision_at(step)
            if found is not None and found.judgment and not self.secret_step(step):
                s, seat, text = out[i]
                out[i] = (s, seat, f"{text} {mark(found.judgment)} best: {found.best}")
        return out

    def secret_step(self, step: int) -> bool:
        """Whether the move at ``step`` is hidden in the view shown (another seat's move in a
        game with hidden information, as the replay bar says it): its judgment and the move
        preferred are not shown either (V shows everything)."""
        viewer = self.replay_table.viewer()
        if not self.game.hidden_information or viewer is None or not 1 <= step <= len(
                self.replay.steps):
            return False
        return self.replay.steps[step - 1].seat not in (viewer, -1)

    # -- moving by judged moves ----------------------------------------------------------------
    def action_next_mistake(self, direction: int) -> None:
        self._stop()
        if self.analysis is None:
            self.say("No analysis yet: press a to analyse this game.")
            return
        steps = self.analysis.judged_steps()
        here = self.replay.cursor
        found = ([s for s in steps if s > here][:1] if direction > 0
                 else [s for s in steps if s < here][-1:])
        if not found:
            word = "later" if direction > 0 else "earlier"
            self.say(f"No {word} judged move.")
            return
        self.seek(found[0])

    def action_worst(self) -> None:
        """The worst move (the largest drop) of the seat whose turns ] and [ follow."""
        self._stop()
        if self.analysis is None:
            self.say("No analysis yet: press a to analyse this game.")
            return
        found = self.analysis.worst(self.turn_seat)
        name = self.analysis.names[self.turn_seat]
        if found is None or not found.judgment:
            self.say(f"{name} made no judged move.")
            return
        self.seek(found.step)

    def action_try_better(self) -> None:
        """Play on from just before the judged move shown, to try the move preferred."""
        self._stop()
        result = self.analysis
        found = result.decision_at(self.replay.cursor) if result and self.replay.cursor else None
        if found is None or not found.judgment:
            self.say("Go to a judged move first (n / N), then b plays on from just before it.")
            return
        self.seek(found.step - 1)
        self.say(f"Try the better move: the analysis prefers {found.best}.")
        self.action_play_from_here(found.seat)

    def on_advantage_chart_jump(self, event: AdvantageChart.Jump) -> None:
        """(By its name: Textual reads ``@on`` decorators only on its own classes.)"""
        self._stop()
        self.seek(event.step)

    def analysis_commands(self) -> list[tuple[str, str, Any]]:
        return [
            ("Replay: analyse", "Win% by step, mistakes marked, each player's accuracy",
             self.action_analyse),
            ("Replay: next judged move", "The next inaccuracy, mistake or blunder",
             lambda: self.action_next_mistake(1)),
            ("Replay: previous judged move", "The previous inaccuracy, mistake or blunder",
             lambda: self.action_next_mistake(-1)),
            ("Replay: worst move", "The worst judged move of the seat t chooses",
             self.action_worst),
            ("Replay: try the better move", "Play on from just before the judged move shown",
             self.action_try_better),
        ]
