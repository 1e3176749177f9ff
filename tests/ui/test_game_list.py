"""The launcher's cached game list: used while valid, refreshed by the real import, never trusted stale."""

from __future__ import annotations

from cellwars_tui.core.registry import all_games
from cellwars_tui.ui import game_list
from cellwars_tui.ui.app import CellwarsApp
from cellwars_tui.ui.dialogs import RulesScreen
from cellwars_tui.ui.game_list import GameInfo, cache_file, cached_games, save_cache
from cellwars_tui.ui.launcher import LauncherScreen
from cellwars_tui.ui.setup import NewGameScreen


def test_the_cache_round_trips_and_is_dropped_when_a_game_file_changes(monkeypatch):
    games = [g for g in all_games() if not g.id.startswith("toy")]
    assert cached_games() is None
    save_cache(games)
    cached = cached_games()
    assert cached == [GameInfo.of(g) for g in games]
    monkeypatch.setattr(game_list, "cache_key", lambda: "something else")
    assert cached_games() is None


def test_a_corrupt_cache_is_ignored():
    cache_file().write_bytes(b"{not json")
    assert cached_games() is None
    cache_file().write_bytes(b'{"version": 1, "key": 3, "games": "x"}')
    assert cached_games() is None


async def test_the_launcher_builds_the_cache_then_starts_from_it_and_loads_the_real_games():
    app = CellwarsApp()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        launcher = app.screen
        assert isinstance(launcher, LauncherScreen) and not launcher.from_cache
    assert cache_file().is_file()
    expected = [GameInfo.of(g) for g in launcher.games]
    app = CellwarsApp()
    async with app.run_test(size=(100, 30)) as pilot:
        launcher = app.screen
        assert isinstance(launcher, LauncherScreen)
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert not launcher.from_cache
        assert [GameInfo.of(g) for g in launcher.games] == expected
        assert not any(isinstance(g, GameInfo) for g in launcher.games)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen) and app.screen.game.id == expected[0].id
        await pilot.press("escape", "n")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen) and app.screen.game.id == expected[0].id


async def test_a_cached_entry_opens_the_real_game_even_before_the_import_finished():
    save_cache([g for g in all_games() if not g.id.startswith("toy")])
    app = CellwarsApp()
    async with app.run_test(size=(100, 30)) as pilot:
        launcher = app.screen
        assert launcher.from_cache or not any(isinstance(g, GameInfo) for g in launcher.games)
        entry = launcher.games[0]
        launcher.action_new_game(entry if isinstance(entry, GameInfo) else GameInfo.of(entry))
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        assert app.screen.game.id == entry.id and not isinstance(app.screen.game, GameInfo)
