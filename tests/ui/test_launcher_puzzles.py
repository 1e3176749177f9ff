"""Pilot tests: a solitaire starts from the launcher through its New-game form (n, then Enter:
Start is focused), with Daily and By-number puzzles in one key; the detail line says how luck
enters each game."""

from __future__ import annotations

import datetime as _dt

import pytest

from cellwars_tui.core.registry import all_games, get_game
from cellwars_tui.ui.app import CellwarsApp
from cellwars_tui.ui.dialogs import TextPrompt
from cellwars_tui.ui.game_list import GameInfo, chance_words, quick_puzzles
from cellwars_tui.ui.launcher import LauncherScreen
from cellwars_tui.ui.setup import NewGameScreen
from tests.toy_game import TOY

CM = "cell-management"


def make_app() -> CellwarsApp:
    return CellwarsApp(games=[TOY, get_game(CM)])


async def _on_cell_management(pilot) -> LauncherScreen:
    await pilot.pause()
    launcher = pilot.app.screen
    assert isinstance(launcher, LauncherScreen)
    await pilot.press("down")
    assert launcher.current_game().id == CM
    return launcher


def _match(app):
    return app.screen.table.match


@pytest.mark.parametrize("key", ["enter", "n"])
async def test_enter_or_n_opens_the_form_and_enter_starts_the_puzzle(key):
    """Issue 19: Down + n started a puzzle with no dialog; now the form always comes first."""
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        launcher = await _on_cell_management(pilot)
        await pilot.press(key)
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen) and app.screen.game.id == CM
        await pilot.press("escape")  # nothing started
        await pilot.pause()
        assert app.screen is launcher and len(app.screen_stack) == 1
        await pilot.press(key)
        await pilot.pause()
        await pilot.press("enter")  # Start has the focus
        await pilot.pause()
        match = _match(app)
        assert match.game.id == CM and match.options.puzzle == "shuffle"
        assert len(match.seats) == 1 and not match.seats[0].is_bot
        assert match.path is not None  # saved at once, so it can be resumed


async def test_daily_key_and_button_start_todays_puzzle():
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        launcher = await _on_cell_management(pilot)
        await pilot.press("d")
        await pilot.pause()
        assert _match(app).options.puzzle == "daily"
        assert _match(app).state.date == _dt.date.today().isoformat()
        app.pop_screen()
        await pilot.pause()
        assert app.screen is launcher
        await pilot.click("#btn-daily")
        await pilot.pause()
        assert _match(app).options.puzzle == "daily"


async def test_puzzle_by_number_asks_then_starts_that_puzzle_of_any_variant():
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        launcher = await _on_cell_management(pilot)
        await pilot.press("number_sign")
        await pilot.pause()
        assert isinstance(app.screen, TextPrompt)
        await pilot.press(*"4#12", "enter")
        await pilot.pause()
        match = _match(app)
        assert match.options.species == 4 and match.state.number == "4#12"
        app.pop_screen()
        await pilot.pause()
        await pilot.click("#btn-number")
        await pilot.pause()
        await pilot.press(*"#77", "enter")
        await pilot.pause()
        assert _match(app).options.species == 6 and _match(app).state.number == "#77"
        app.pop_screen()
        await pilot.pause()
        await pilot.press("number_sign")
        await pilot.pause()
        await pilot.press("escape")  # cancelled: nothing starts
        await pilot.pause()
        assert app.screen is launcher


async def test_a_bad_puzzle_number_is_a_message_not_a_game():
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        launcher = await _on_cell_management(pilot)
        await pilot.press("number_sign")
        await pilot.pause()
        await pilot.press(*"zz", "enter")
        await pilot.pause()
        assert app.screen is launcher
        assert any("bad setup code" in n.message for n in app._notifications)


async def test_a_variant_number_out_of_range_is_told_its_range():
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        launcher = await _on_cell_management(pilot)
        await pilot.press("number_sign")
        await pilot.pause()
        await pilot.press(*"4#900", "enter")
        await pilot.pause()
        assert app.screen is launcher
        messages = [n.message for n in app._notifications]
        assert any("puzzle numbers for 4 species run from 1 to 864" in m for m in messages)
        assert all("\n" not in m for m in messages)


async def test_the_form_offers_the_variants():
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await _on_cell_management(pilot)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen) and app.screen.game.id == CM
        assert app.screen.query("#opt-species") and app.screen.query("#opt-puzzle")


async def test_puzzle_keys_and_buttons_only_for_the_puzzle_game():
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        launcher = app.screen
        shown = {b.id for b in launcher.query("Button") if b.display}
        assert shown == {"btn-new", "btn-rules"}
        keys = {b.binding.key for b in launcher.active_bindings.values()
                if launcher.check_action(b.binding.action, ()) }
        assert "d" not in keys and "number_sign" not in keys
        await pilot.press("d")  # does nothing on a game for two
        await pilot.pause()
        assert app.screen is launcher
        await pilot.press("n")  # a game with seats still opens the form
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        await pilot.press("escape")
        await pilot.press("down")
        await pilot.pause()
        shown = {b.id for b in launcher.query("Button") if b.display}
        assert shown == {"btn-new", "btn-rules", "btn-learn", "btn-daily",
                         "btn-number"}  # (Learn: the puzzle has a lesson)
        assert str(launcher.query_one("#btn-new").label) == "New puzzle"
        assert launcher.check_action("daily", ()) and launcher.check_action("by_number", ())


async def test_the_palette_offers_the_puzzle_starts():
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        titles = [t for t, _h, _c in app.screen.palette_commands()]
        assert "Daily puzzle: Cell Management" in titles
        assert "Puzzle by number: Cell Management" in titles
        assert "Daily puzzle: Toy" not in " ".join(titles)


def test_cached_entries_keep_the_puzzle_kinds_and_luck_words():
    cm = GameInfo.of(get_game(CM))
    assert quick_puzzles(cm) == ("daily", "number") and cm.options
    assert chance_words(cm) == "a shuffled ship"


def test_luck_is_worded_per_game_not_dice_or_cards_for_all():
    words = {g.id: chance_words(g) for g in all_games()}
    assert words["virus-fight"] == "a random tie-break for the first player"
    assert words["cell-wars"] == "dice and cards"
    assert words["cellulis-bellum"] == ""
    assert all(w for g, w in words.items() if get_game(g).has_chance)


async def test_the_detail_line_uses_the_games_luck_words():
    app = CellwarsApp(games=[get_game("virus-fight")])
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        text = str(app.screen.query_one("#detail-text").render())
        assert "random tie-break" in " ".join(text.split())
        assert "dice or cards" not in text
