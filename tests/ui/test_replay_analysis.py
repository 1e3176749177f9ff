"""The replay viewer's analysis: a runs it in the background with a progress bar (the replay keeps
stepping), the chart jumps to the clicked step, n / N go through the judged moves, the log marks
them, b plays on from just before one with its mover offered to a person, a saved analysis shows
at once, and a damaged sidecar is one line with the replay open all the same."""

from __future__ import annotations

import msgspec
from textual.widgets import Select

from cellwars_tui.analysis import BLUNDER, analyse, sidecar
from cellwars_tui.replay import Replay
from cellwars_tui.ui.replay import SeatsDialog
from cellwars_tui.ui.widgets.advantage_chart import LABEL, AdvantageChart
from cellwars_tui.ui.widgets.analysis_panel import AnalysisPanel
from tests.replay.helpers import save_toy
from tests.ui.helpers import until
from cellwars_tui.ui.host import Host as ShellHost
from tests.ui.test_replay_screen import Host

SIZE = (80, 24)


def _saved_analysis(path, budget=6):
    """The record's analysis, with one decision judged a blunder (the toy race at a tiny budget
    has none of its own: the viewer is what these tests are about)."""
    result = analyse(Replay.open(path), budget=budget, workers=1)
    decisions = list(result.decisions)
    i = next(i for i, d in enumerate(decisions) if d.step >= 5 and not d.forced)
    decisions[i] = msgspec.structs.replace(decisions[i], judgment=BLUNDER, best="hold")
    result = msgspec.structs.replace(result, decisions=tuple(decisions))
    sidecar.save(path, result)
    return result


async def test_a_analyses_in_the_background_and_the_replay_keeps_stepping(tmp_path, monkeypatch):
    monkeypatch.setattr("cellwars_tui.analysis.evaluators.DEFAULT_BUDGET",
                        {"toy-race": 4})  # (a cheap search: the figures are the bench's)
    monkeypatch.setattr("cellwars_tui.analysis.run.default_workers", lambda: 1)
    _, path = save_toy(tmp_path, moves=12)
    app = Host(path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await until(pilot, lambda: screen.is_mounted)
        assert not screen.query_one(AnalysisPanel).display  # nothing analysed: no room taken
        await pilot.press("home", "a", "right")
        assert screen.replay.cursor == 1
        await until(pilot, lambda: screen.analysis is not None, "the analysis")
        assert screen.query_one(AnalysisPanel).display
        assert sidecar.sidecar_path(path).exists()
        assert screen.query_one(AdvantageChart).cursor == 1


async def test_the_chart_jumps_to_the_clicked_step_and_n_goes_through_judged_moves(tmp_path):
    _, path = save_toy(tmp_path, moves=30)
    result = _saved_analysis(path)
    app = Host(path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await until(pilot, lambda: screen.analysis is not None, "the saved analysis")
        assert screen.analysis == result
        chart = screen.query_one(AdvantageChart)
        await pilot.press("home")
        column = chart.plot_width() // 2
        assert chart.region.height >= 3, chart.region
        await pilot.click(AdvantageChart, offset=(LABEL + column, 0))
        await until(pilot, lambda: screen.replay.cursor == chart.step_at(column), "the jump")
        assert chart.cursor == screen.replay.cursor > 0
        chart.focus()
        before = screen.replay.cursor
        await pilot.press("end", "home")
        await pilot.press("n")
        judged = result.judged_steps()
        if judged:
            assert screen.replay.cursor == judged[0]
            entries = screen.log_events(40)
            assert any(result.decisions and "best:" in text for _, _, text in entries)
        else:
            assert screen.replay.cursor == 0
        assert before > 0


async def test_b_plays_on_from_just_before_a_judged_move_with_its_mover_a_person(tmp_path):
    _, path = save_toy(tmp_path, moves=30)
    result = _saved_analysis(path)
    judged = result.judged_steps()
    assert judged, "the toy record has a judged move at this budget"
    app = Host(path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await until(pilot, lambda: screen.analysis is not None, "the saved analysis")
        await pilot.press("home", "n", "b")
        await until(pilot, lambda: isinstance(app.screen, SeatsDialog), "the seats dialog")
        assert screen.replay.cursor == judged[0] - 1
        mover = result.decision_at(judged[0]).seat
        assert app.screen.query_one(f"#seat-kind-{mover}", Select).value == "human"


async def test_a_damaged_sidecar_is_one_line_and_the_replay_opens(tmp_path):
    _, path = save_toy(tmp_path, moves=8)
    sidecar.sidecar_path(path).write_text("{not json")
    app = Host(path)
    notes = []
    async with app.run_test(size=SIZE) as pilot:
        app.notify = lambda message, **kw: notes.append(message)  # type: ignore[method-assign]
        screen = app.screen
        await until(pilot, lambda: screen.is_mounted)
        await pilot.press("end")
        assert screen.replay.at_end and screen.analysis is None
    assert not notes or all("\n" not in n for n in notes)


async def test_the_replays_list_shows_each_players_accuracy_for_analysed_games(tmp_path):
    from cellwars_tui.ui.replay_list import ReplayListScreen

    _, path = save_toy(tmp_path, moves=10)
    save_toy(tmp_path, name="other.cellwars.json", moves=6)
    result = _saved_analysis(path)

    class ListHost(ShellHost):
        def on_mount(self) -> None:
            self.push_screen(ReplayListScreen(tmp_path))

    app = ListHost()
    async with app.run_test(size=(120, 30)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ReplayListScreen) and app.screen.rows,
                    "the rows")
        screen = app.screen
        assert screen.accuracy == {path: result.accuracy_text()}
        table = screen.query_one("DataTable")
        titles = [str(c.label) for c in table.columns.values()]
        assert titles[-1] == "Accuracy"


async def test_w_goes_to_the_worst_move_of_the_seat_t_chose(tmp_path):
    _, path = save_toy(tmp_path, moves=30)
    result = _saved_analysis(path)
    blunder = next(d for d in result.decisions if d.judgment)
    app = Host(path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await until(pilot, lambda: screen.analysis is not None, "the saved analysis")
        while screen.turn_seat != blunder.seat:
            await pilot.press("t")
        await pilot.press("home", "w")
        assert screen.replay.cursor == result.worst(blunder.seat).step


async def test_a_sessions_analysis_waits_for_a_free_slot_in_words_then_runs(tmp_path, monkeypatch):
    """A server's session (``cellwars serve --analyses 1``) while another session's analysis runs:
    the progress line says it waits, leaving the replay cancels the wait, and the analysis starts
    by itself when the slot frees."""
    from cellwars_tui.analysis.slots import Slots, session_env
    from cellwars_tui.locations import ENV_CONFINED
    from cellwars_tui.ui.replay import open_replay

    monkeypatch.setattr("cellwars_tui.analysis.evaluators.DEFAULT_BUDGET", {"toy-race": 4})
    monkeypatch.setattr("cellwars_tui.analysis.slots.POLL", 0.02)
    for name, value in session_env(tmp_path / "slots", 1).items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv(ENV_CONFINED, "1")
    waits_ended: list[object] = []
    take = Slots.take
    monkeypatch.setattr(Slots, "take", lambda self, *a, **kw: waits_ended.append(
        take(self, *a, **kw)) or waits_ended[-1])
    _, path = save_toy(tmp_path, moves=12)
    taken = Slots(tmp_path / "slots", 1).try_take()  # another session's analysis
    app = Host(path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await until(pilot, lambda: screen.is_mounted)
        await pilot.press("a")
        await until(pilot, lambda: screen.waiting_for_slot, "the wait")
        await pilot.press("escape")  # leaving the replay
        await until(pilot, lambda: waits_ended == [None], "the wait to be cancelled")
        open_replay(app, path)
        await until(pilot, lambda: app.screen is not screen and app.screen.is_mounted)
        screen = app.screen
        panel = screen.query_one(AnalysisPanel)
        await pilot.press("a")
        await until(pilot, lambda: panel.has_class("waiting"), "the wait")
        assert panel.progress_text == ("Waiting for a free analysis slot: 1 analysis is running "
                                       "on this server")
        await pilot.press("a")
        assert "starts by itself when a slot frees" in screen._status
        await pilot.press("home", "right")  # the replay steps while it waits
        assert screen.replay.cursor == 1 and screen.analysis is None
        taken.release()
        await until(pilot, lambda: screen.analysis is not None, "the analysis")
        assert not panel.has_class("waiting") and waits_ended[-1] is not None
