"""The command palette lists every action of the current screen, game screens included."""

from __future__ import annotations

from textual.binding import Binding

from cellwars_tui.ui.app import CellwarsApp
from cellwars_tui.ui.generic_screen import GenericScreen
from cellwars_tui.ui.launcher import LauncherScreen
from cellwars_tui.ui.setup import NewGameScreen
from cellwars_tui.ui.theme_picker import ThemeScreen
from cellwars_tui.table.local import LocalTable
from tests.ui.helpers import run_from_palette, settle, toy_match, until


def titles(app) -> list[str]:
    return [c.title for c in app.get_system_commands(app.screen)]


async def test_a_game_screens_palette_has_every_game_action_once():
    app = CellwarsApp(match=toy_match(seed=1))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, GenericScreen)
        names = titles(app)
        for wanted in ("Undo", "Redo", "Rules", "Moves", "Theme", "New game (same seats)",
                       "New game (choose seats and options)", "Back to launcher", "Quit"):
            assert wanted in names, wanted
        assert len(names) == len(set(names)), "no action is listed twice"


async def test_palette_undo_and_theme_run_from_the_palette():
    app = CellwarsApp(match=toy_match(seed=1))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        table = app.screen.table
        await pilot.press("down", "enter")  # hold: the bot plays
        await settle(pilot)
        assert table.can_undo()
        before = table.step()
        await run_from_palette(pilot, "Undo")
        await until(pilot, lambda: table.step() < before, "the undo")
        await settle(pilot)
        await run_from_palette(pilot, "Theme")
        await until(pilot, lambda: isinstance(app.screen, ThemeScreen), "the theme picker")


async def test_new_game_with_choices_from_a_game_goes_to_the_dialog_over_the_launcher():
    app = CellwarsApp(match=toy_match(seed=1))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        app.screen.action_new_game_dialog()
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        assert app.screen.game.id == "toy-race"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, LauncherScreen)


class HintScreen(GenericScreen):
    """A game screen with a key of its own: the palette offers it without extra code."""

    BINDINGS = [Binding("h", "hint", "Hint")]

    hinted = 0

    def action_hint(self) -> None:
        self.hinted += 1


async def test_a_game_screens_own_bindings_appear_in_the_palette_and_run():
    app = CellwarsApp()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = HintScreen(LocalTable(toy_match(seed=2)))
        app.push_screen(screen)
        await settle(pilot)
        commands = {c.title: c for c in app.get_system_commands(app.screen)}
        assert "Hint" in commands and commands["Hint"].help == "Key: h"
        await run_from_palette(pilot, "Hint")
        await until(pilot, lambda: screen.hinted == 1, "the hint")


async def test_the_launchers_palette_has_its_keys_and_every_game():
    app = CellwarsApp()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        names = titles(app)
        for wanted in ("Resume a saved game", "Replays", "Theme", "Quit"):
            assert wanted in names
        assert any(n.startswith("New game: ") for n in names)
        assert any(n.startswith("Rules: ") for n in names)
        assert len(names) == len(set(names))
