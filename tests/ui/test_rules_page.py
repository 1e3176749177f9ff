"""The rules page shows the game's own rules.md (or a stub from its blurb) and closes by key."""

from __future__ import annotations

from textual.app import App

from cellwars_tui.core.registry import get_game
from cellwars_tui.ui.dialogs import RulesScreen, rules_path, rules_text
from tests.toy_game import TOY


def test_every_registered_game_with_a_rules_page_finds_it():
    game = get_game("virus-fight")
    path = rules_path(game)
    assert path is not None and path.name == "rules.md"
    assert rules_text(game) == path.read_text(encoding="utf-8")
    assert "No rules page yet" in rules_text(TOY)


async def test_the_rules_page_renders_rules_md_and_scrolls_and_closes():
    game = get_game("virus-fight")
    app = App()
    async with app.run_test(size=(100, 30)) as pilot:
        await app.push_screen(RulesScreen(game))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RulesScreen)
        lines = screen.query_one("#rules-text").render_lines(
            screen.query_one("#rules-text").region.reset_offset)
        text = "\n".join(line.text for line in lines)
        assert "Virus Fight" in text
        scroll = screen.query_one("#rules-scroll")
        assert scroll.max_scroll_y > 0
        await pilot.press("j", "j", "down")
        await pilot.pause()
        assert scroll.scroll_y == 3
        await pilot.press("f1")
        await pilot.pause()
        assert not isinstance(app.screen, RulesScreen)
