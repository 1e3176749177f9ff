"""A terminal below the minimum size shows a clear notice, not a broken layout, and keys wait."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Label

from cellwars_tui.ui.app import CellwarsApp
from cellwars_tui.ui.generic_screen import GenericScreen
from cellwars_tui.ui.host import CommandScreen
from cellwars_tui.ui.launcher import LauncherScreen
from cellwars_tui.ui.size_guard import DEFAULT_MIN_SIZE, SizeGuard, TooSmall
from tests.toy_game import TOY
from tests.ui.helpers import settle, toy_match


def notice_text(screen) -> str:
    notices = list(screen.query(TooSmall))
    assert len(notices) == 1
    return str(notices[0].render())


async def test_launcher_in_a_tiny_terminal_says_so_and_recovers_when_enlarged():
    app = CellwarsApp(games=[TOY])
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        launcher = app.screen
        assert isinstance(launcher, LauncherScreen)
        text = notice_text(launcher)
        assert "Terminal too small" in text
        assert "40 × 12" in text and f"{DEFAULT_MIN_SIZE[0]} × {DEFAULT_MIN_SIZE[1]}" in text
        await pilot.press("n")  # keys wait until the table can be seen
        await pilot.pause()
        assert app.screen is launcher
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        await pilot.pause()
        assert not launcher.query(TooSmall)
        await pilot.press("n")
        await pilot.pause()
        assert type(app.screen).__name__ == "NewGameScreen"


async def test_shrinking_during_a_game_covers_the_game_and_growing_uncovers_it():
    app = CellwarsApp(match=toy_match(seed=4))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, GenericScreen)
        assert not screen.query(TooSmall)
        steps = screen.table.step()
        await pilot.resize_terminal(50, 10)
        await pilot.pause()
        await pilot.pause()
        assert "50 × 10" in notice_text(screen)
        await pilot.press("enter")  # no blind move
        await settle(pilot)
        assert screen.table.step() == steps
        await pilot.resize_terminal(60, 10)
        await pilot.pause()
        await pilot.pause()
        assert "60 × 10" in notice_text(screen)  # the size it names follows the window
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        await pilot.pause()
        assert not screen.query(TooSmall)
        await pilot.press("enter")
        await settle(pilot)
        assert screen.table.step() > steps


class WideScreen(CommandScreen):
    MIN_SIZE = (90, 25)  # the declared hook (ui.host.CommandScreen.MIN_SIZE)

    def compose(self) -> ComposeResult:
        yield Label("a wide board")


class BareGuarded(SizeGuard, App):
    """Any Textual app (the SSH session's too) gets the guard by mixing it in."""

    def on_mount(self) -> None:
        self.push_screen(WideScreen())


async def test_a_screen_may_ask_for_more_room_than_the_app():
    app = BareGuarded()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, WideScreen)
        assert "needs at least 90 × 25" in notice_text(app.screen)
        await pilot.resize_terminal(90, 25)
        await pilot.pause()
        await pilot.pause()
        assert not app.screen.query(TooSmall)
        app.pop_screen()
        await pilot.resize_terminal(70, 22)  # the default screen needs only the default size
        await pilot.pause()
        await pilot.pause()
        assert not app.screen.query(TooSmall)
