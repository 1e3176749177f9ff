"""Pilot tests of the replay viewer over a recorded game of every registered game.

Each game's own screen (``ui.screens.screen_class``) is the viewer, read-only, with no replay code
of its own: new screens are picked up as they appear. ``draw_problem`` is set when a game's screen
cannot draw some recorded position; the failure message names the step and the view.
"""

from __future__ import annotations

import importlib.util

import pytest

from cellwars_tui.core import all_games
from cellwars_tui.record import load_match, save_match
from cellwars_tui.record.writer import flush
from cellwars_tui.ui.game_screen import GameScreen
from cellwars_tui.ui.generic_screen import GenericScreen
from cellwars_tui.ui.replay import AskText, ReplayScreen, SeatsDialog
from cellwars_tui.ui.screens import screen_class, screen_module_name
from tests.test_conformance import play_random
from tests.ui.helpers import until
from tests.ui.test_replay_screen import SIZE, Host


REPLAYABLE = all_games()  # (the online and SSH tests' stand-in games are registered for their own tests only)


def recorded(tmp_path, game, seed=5):
    match = play_random(game, game.min_players, seed, checks=False)
    path = tmp_path / f"{game.id}.cellwars.json"
    save_match(match, path)
    return match, path


@pytest.mark.slow
@pytest.mark.parametrize("game", REPLAYABLE, ids=lambda g: g.id)
async def test_a_recorded_game_of_each_game_replays_and_plays_on_from_a_position(
        tmp_path, game, monkeypatch):
    monkeypatch.setattr("cellwars_tui.replay.model.TURN_DELAY", 0.01)
    monkeypatch.setattr("cellwars_tui.replay.model.CHANCE_DELAY", 0.01)
    monkeypatch.setattr("cellwars_tui.replay.model.MAX_REAL_PAUSE", 0.01)
    match, path = recorded(tmp_path, game)
    app = Host(path)
    failures = []
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        own = screen_class(game)
        module = screen_module_name(game)
        if module is not None and importlib.util.find_spec(module) is not None:
            assert own is not GenericScreen, f"{module} exists but its SCREEN was not found"
        assert isinstance(screen, ReplayScreen) and isinstance(screen, own)
        # the game screen's own CSS (type names and DEFAULT_CSS of its whole chain) applies
        assert {c.__name__ for c in own._css_bases(own)} <= screen._css_type_names
        sources = [css for _, css, _, _ in screen._get_default_css()]
        assert all(c.__dict__["DEFAULT_CSS"] in sources for c in own._css_bases(own)
                   if c.__dict__.get("DEFAULT_CSS"))
        assert screen.read_only and screen.replay.cursor == len(match.steps)
        total = len(match.steps)
        # the game's own screen draws each seat's view and everything, at several positions
        for n in sorted({0, total // 2, total}):
            screen.seek(min(n, total))
            for seat in [*range(screen.replay.players), None]:
                screen.set_view(seat)
                await pilot.pause()
                if screen.draw_problem:
                    failures.append(f"step {n}, view {seat}: {screen.draw_problem}")
        # the footer shows the replay's keys (and Rules, Back), not the game's playing keys
        replay_actions = {b.action for b in ReplayScreen.BINDINGS} | {"rules", "back"}
        shown = {b.binding.action for b in screen.active_bindings.values()
                 if b.binding.show and b.node is screen}
        assert shown and shown <= replay_actions, shown - replay_actions
        # one repaint per step (Textual runs every on_mount in the MRO: no double subscriptions)
        repaints = []
        own_refresh = screen.refresh_table
        screen.refresh_table = lambda: (repaints.append(1), own_refresh())[1]
        moves = 0
        for n in (total // 2, 0, 0):
            moves += screen.replay.cursor != n
            screen.seek(n)
        assert len(repaints) == moves
        del screen.refresh_table
        # nothing can be played on it
        assert screen.acting_seat() is None and screen.table.legal(0) == []
        if total:
            assert not screen.play(match.steps[-1].action)
        # keys step, jump to start and end
        await pilot.press("home", "right", "j", "j")
        await pilot.pause()
        assert screen.replay.cursor == min(3, total)
        assert screen.replay.state == match.states[screen.replay.cursor]
        await pilot.press("k")
        await pilot.pause()
        assert screen.replay.cursor == min(3, total) - 1
        await pilot.press("end")
        await pilot.pause()
        assert screen.replay.cursor == total
        # autoplay (paced fast here) runs on from the start and stops on a key
        await pilot.press("home", "space")
        await until(pilot, lambda: screen.replay.cursor >= min(4, total))
        # from the next step on autoplay waits long (so a slow machine cannot reach the end,
        # where space would start it again), then space stops it
        monkeypatch.setattr("cellwars_tui.replay.model.TURN_DELAY", 1000.0)
        monkeypatch.setattr("cellwars_tui.replay.model.CHANCE_DELAY", 1000.0)
        await pilot.pause(0.05)
        assert screen.playing or screen.replay.at_end
        if screen.playing:
            await pilot.press("space")
        assert not screen.playing and screen.replay.cursor >= min(4, total)
        assert screen.replay.state == match.states[screen.replay.cursor]
        # jump to step N by its number
        half = total // 2
        await pilot.press("g")
        await until(pilot, lambda: isinstance(app.screen, AskText))
        await pilot.press(*str(half), "enter")  # typed over the step shown
        await until(pilot, lambda: app.screen is screen)
        assert screen.replay.cursor == half
        assert screen.table.state() == match.states[half]
        await pilot.press("V")  # reveal everything (a analyses)
        assert screen.table.viewer() is None
        await pilot.press("v")
        assert screen.table.viewer() == 0
        await pilot.pause()
        # the event log is in step with the position
        assert all(step <= half for step, _, _ in screen.table.events())
        # play on from here, with new seats, as a new game that names its origin
        await pilot.press("p")
        await until(pilot, lambda: isinstance(app.screen, SeatsDialog))
        assert isinstance(app.screen, SeatsDialog)
        await pilot.click("#seats-play")
        await until(pilot, lambda: bool(app.started))
        new = app.started[-1]
        playing = [s for s in app.screen_stack if isinstance(s, GameScreen) and not s.read_only]
        assert playing and playing[-1].table.match is new  # (a hot-seat cover may be on top)
        assert new.origin == f"{path}#{half}"
        assert new.states[half] == match.states[half]
        assert [s.action for s in new.history[:half]] == [s.action for s in match.steps[:half]]
        assert flush(60)  # the save thread wrote it (60 s: a guard, not a pace)
        assert load_match(new.path).origin == f"{path}#{half}"
    assert not failures, "\n".join(failures)
