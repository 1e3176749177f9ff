"""Pilot tests of the Virus Fight screen's read-only replay (what each view shows while
programs are built, line-by-line board repaints) and of one repaint per action in play."""

from __future__ import annotations

import random

from cellwars_tui.games.virus_fight import engine as E
from cellwars_tui.games.virus_fight import rules as R
from cellwars_tui.games.virus_fight.board_view import BoardView
from cellwars_tui.games.virus_fight.screen import VirusFightScreen
from cellwars_tui.ui.app import CellwarsApp
from tests.ui.helpers import repaints_while_playing

from .screen_helpers import screen_text, settle, vf_match, widget_text


def _saved_random_game(seed: int):
    """A two-player game of random moves played to its end (5 rounds) and autosaved."""
    from cellwars_tui.record.store import autosave

    match = vf_match(humans=0, seed=9, round_limit=5)
    rng = random.Random(seed)
    while not match.is_over():
        seat = next(s for s in match.to_act() if s >= 0)
        match.play(seat, rng.choice(match.legal_actions(seat)))
    autosave(match)
    return match


async def _open_replay(pilot, match):
    """The replay of ``match``'s saved record, opened over the running app."""
    from cellwars_tui.ui.replay import ReplayScreen

    await pilot.pause()
    screen = ReplayScreen(match.path)
    pilot.app.push_screen(screen)
    await pilot.pause()
    return screen


async def test_a_finished_game_replays_read_only_on_the_same_screen(tmp_path):
    match = _saved_random_game(0)
    app = CellwarsApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open_replay(pilot, match)
        assert isinstance(screen, VirusFightScreen) and screen.read_only
        await pilot.press("end")
        await pilot.pause()
        assert screen.view_state.phase == R.OVER
        board = screen.board_text(screen.view_state).plain
        assert "①" in board or "②" in board
        cursor = screen.cursor
        await pilot.press("up", "enter", "y", "1")
        await pilot.pause()
        assert screen.cursor == cursor and not screen.legal
        await pilot.press("home", "V")  # the replay's own keys still work: reveal every program
        await pilot.pause()
        assert screen.seat is None


async def test_the_replay_shows_while_building_what_the_viewed_seat_may_see():
    from cellwars_tui.record.store import autosave
    from cellwars_tui.ui.replay import ReplayScreen

    match = vf_match(humans=0, prebuilt=False, seed=3)
    match.play(0, R.Add(E.code(0, 2)))  # Ann: M2 W1, marker on W1, not ready
    match.play(0, R.Add(E.code(1, 1)))
    match.play(1, R.Add(E.code(2, 3)))  # Bob: J3
    match.play(0, R.Mark(1))
    autosave(match)
    app = CellwarsApp()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = ReplayScreen(match.path)
        app.push_screen(screen)
        await pilot.pause()
        assert isinstance(screen, VirusFightScreen) and screen.view_state.phase == R.BUILD

        def slots() -> list[str]:
            return [widget_text(screen.query_one(f"#vf-slot-{i}")) for i in range(1, 6)]

        screen.set_view(0)  # Ann's own program being written, Bob's kept secret
        await pilot.pause()
        assert screen.query_one("#vf-program").display and slots()[:3] == ["M2", "▼W1", ""]
        assert "Ann's secret program (2/5)" in widget_text(screen.query_one("#vf-build-title"))
        assert "J3" not in widget_text(screen.query_one("#vf-others"))
        assert not screen.query_one("#vf-palette").display  # nothing to play in a replay
        screen.set_view(1)
        await pilot.pause()
        assert slots()[:2] == ["J3", ""]
        others = widget_text(screen.query_one("#vf-others"))
        assert "Ann: writing…" in others and "M2" not in others and "W1" not in others
        screen.set_view(None)  # reveal all: every program
        await pilot.pause()
        assert not screen.query_one("#vf-program").display
        assert "revealed" in widget_text(screen.query_one("#vf-build-title"))
        others = widget_text(screen.query_one("#vf-others"))
        assert "Ann: writing…  M2 [W1]" in others and "Bob: writing…  J3" in others


async def test_one_repaint_per_action_in_play():
    app = CellwarsApp(match=vf_match())
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, VirusFightScreen) and screen.legal
        table = screen.table
        assert table._listeners.count(screen._table_changed) == 1
        assert repaints_while_playing(screen, screen.legal[0]) == 1


async def test_a_replay_step_repaints_only_the_board_lines_that_changed(tmp_path):
    match = _saved_random_game(1)
    app = CellwarsApp()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await _open_replay(pilot, match)
        n = next(i for i, s in enumerate(match.states) if s.phase == R.PLAY) + 2
        screen.seek(n)
        await pilot.pause()
        board = screen.query_one(BoardView)
        shown = screen_text(app)
        for line in screen.board_text(screen.view_state).plain.splitlines():
            assert line.rstrip() in shown
        before = list(board._strips)
        assert all(s is not None for s in before)  # every line was drawn
        lines = screen.board_lines(screen.view_state)
        assert screen.board_lines(screen.view_state) is lines  # built once per state
        screen.seek(n + 1)
        after = screen.board_lines(screen.view_state)
        changed = {y for y, (a, b) in enumerate(zip(lines, after)) if a != b}
        assert changed and len(changed) < len(lines)
        assert {y for y, s in enumerate(board._strips) if s is None} == changed
        await pilot.pause()
        assert all(s is not None for s in board._strips)
        assert [board._strips[y] is before[y] for y in range(len(lines))] == [
            y not in changed for y in range(len(lines))]
