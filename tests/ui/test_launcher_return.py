"""Issue 19: after a resumed game, q brings the launcher back on the game just played (it
stayed where it was, so Down + n started another game than the player meant), n never starts a
game without its form, and the Resume list tells two saved puzzles apart by their numbers."""

from __future__ import annotations

from cellwars_tui.core.match import Match, Seat
from cellwars_tui.core.registry import get_game
from cellwars_tui.games.cell_management import rules as CM
from cellwars_tui.record.store import autosave
from cellwars_tui.ui.app import CellwarsApp
from cellwars_tui.ui.game_screen import GameScreen
from cellwars_tui.ui.launcher import LauncherScreen
from cellwars_tui.ui.resume import ResumeScreen, saved_line
from cellwars_tui.ui.setup import NewGameScreen


def _puzzle(code: str) -> Match:
    match = Match(CM.GAME, CM.CMOptions(code=code), [Seat(name="Me")], 1)
    autosave(match)
    return match


async def _launcher(pilot) -> LauncherScreen:
    for _ in range(50):
        await pilot.pause()
        if isinstance(pilot.app.screen, LauncherScreen) and pilot.app.screen.is_mounted:
            return pilot.app.screen
    raise AssertionError("no launcher")


async def test_q_after_a_resumed_game_comes_back_on_that_game_and_n_asks_first():
    _puzzle("#482517")
    app = CellwarsApp()
    async with app.run_test(size=(80, 24)) as pilot:
        launcher = await _launcher(pilot)
        assert launcher.current_game().meta.id == "virus-fight"  # the first game
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, ResumeScreen)
        await pilot.press("enter")
        await pilot.pause()
        game = app.screen
        assert isinstance(game, GameScreen) and game.game.id == "cell-management"
        await pilot.press("q")
        await pilot.pause()
        assert app.screen is launcher
        assert launcher.current_game().meta.id == "cell-management"
        # the next keys: Down, then n: the next game's form, nothing started unseen
        await pilot.press("down", "n")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        assert app.screen.game.id == launcher.current_game().meta.id != "cell-management"
        await pilot.press("escape", "up", "n")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen) and app.screen.game.id == "cell-management"


def test_two_saved_puzzles_read_apart_in_the_resume_list():
    from cellwars_tui.record.store import list_saved

    a, b = _puzzle("#482517"), _puzzle("#984")
    saved, _ = list_saved()
    lines = {s.path: saved_line(s).plain for s in saved}
    assert "puzzle #482517" in lines[a.path] and "puzzle #984" in lines[b.path]
    assert lines[a.path].split("  ")[0] != lines[b.path].split("  ")[0]
    daily = Match(CM.GAME, CM.CMOptions(puzzle="daily"), [Seat(name="Me")], 1)
    assert CM.GAME.record_title(daily.state).startswith("puzzle #")
    assert ", daily " in CM.GAME.record_title(daily.state)
    assert get_game("virus-fight").record_title(None) == ""  # the default: nothing to add


async def test_q_from_cellwars_learn_comes_back_on_the_lessons_game():
    """``cellwars learn infection``, then q: the launcher is on Infection (it was on the first
    game, Virus Fight, so l would have started another lesson)."""
    app = CellwarsApp(learn="infection")
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(50):
            await pilot.pause()
            if isinstance(app.screen, GameScreen) and app.screen.lesson is not None:
                break
        assert isinstance(app.screen, GameScreen) and app.screen.game.id == "infection"
        await pilot.press("q")
        launcher = await _launcher(pilot)
        assert launcher.current_game().meta.id == "infection"
