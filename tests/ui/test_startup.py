"""Start-up work order: what waits for the first painted frame, and footer rebuilds."""

from __future__ import annotations

from cellwars_tui.core.registry import get_game
from cellwars_tui.ui.app import CellwarsApp
from cellwars_tui.ui.footer import Footer
from cellwars_tui.ui.launcher import LauncherScreen
from tests.toy_game import TOY


async def test_call_after_frame_runs_after_a_painted_frame():
    app = CellwarsApp(games=[TOY])
    ran: list[int] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.call_after_frame(lambda: ran.append(1))
        assert ran == []
        app.screen.refresh()
        await pilot.pause()
        await pilot.pause()
        assert ran == [1]


async def test_the_launcher_reads_saved_games_once_after_its_first_frame(monkeypatch):
    calls: list[str] = []
    real = LauncherScreen.refresh_saved

    def counted(self):
        calls.append("saved")
        return real(self)

    monkeypatch.setattr(LauncherScreen, "refresh_saved", counted)
    app = CellwarsApp(games=[TOY])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        assert calls == ["saved"]
        assert "(0)" in str(app.screen.query_one("#launcher-list").get_option("resume").prompt)
        await pilot.press("question_mark")  # a screen over it and back: read again
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        await pilot.pause()
        assert calls == ["saved", "saved"]


async def test_the_footer_is_not_rebuilt_when_its_keys_are_unchanged(monkeypatch):
    builds: list[int] = []
    real = Footer.compose

    def counted(self):
        builds.append(1)
        return real(self)

    monkeypatch.setattr(Footer, "compose", counted)
    app = CellwarsApp(games=[TOY, get_game("cell-management")])
    async with app.run_test(size=(100, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        footer = screen.query_one(Footer)
        settled = len(builds)
        screen.refresh_bindings()  # same keys: nothing rebuilt
        await pilot.pause()
        await pilot.pause()
        assert len(builds) == settled
        keys = {k.description for k in footer.query("FooterKey")}
        assert "New game" in keys
        assert "Daily" not in keys
        await pilot.press("down")  # Cell Management: its puzzle keys are on its page, not here
        await pilot.pause()
        await pilot.pause()
        assert len(builds) == settled
        assert "d daily" in str(screen.query_one("#detail-text").render())
        await pilot.press("d")  # and they work
        await pilot.pause()
        assert app.screen.table.match.options.puzzle == "daily"


async def test_the_launcher_start_parses_the_stylesheets_again_at_most_once(monkeypatch):
    """The launcher is the default screen with default CSS (no mode, no CSS file): installing it
    adds no source that makes Textual parse every stylesheet again (the theme may, once)."""
    from textual.css.stylesheet import Stylesheet

    calls: list[int] = []
    real = Stylesheet.reparse

    def counted(self):
        calls.append(1)
        return real(self)

    monkeypatch.setattr(Stylesheet, "reparse", counted)
    app = CellwarsApp(games=[TOY])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, LauncherScreen)
        assert len(calls) <= 1
        assert app.screen.query_one("#launcher-list").styles.border_top[0] == "round"
