"""Pilot tests of the game-screen base through GenericScreen and the toy dice race."""

from __future__ import annotations

from cellwars_tui.record.format import read_record_file
from cellwars_tui.record.writer import flush
from cellwars_tui.ui.app import CellwarsApp
from cellwars_tui.ui.generic_screen import GenericScreen
from cellwars_tui.ui.screens import screen_class
from tests.toy_game import TOY
from tests.ui.helpers import settle, toy_match


async def _play_by_keys(pilot, hold_at: int = 8, max_turns: int = 400) -> None:
    """Roll until the turn's total reaches ``hold_at``, then hold: Enter picks the first move
    (roll), Down then Enter the second (hold)."""
    table = pilot.app.screen.table
    for _ in range(max_turns):
        await settle(pilot)
        if table.is_over():
            return
        assert table.humans_to_act() == (0,)
        if table.state().pending >= hold_at:
            await pilot.press("down", "enter")
        else:
            await pilot.press("enter")
    raise AssertionError("the game did not end")


def test_toy_game_without_screen_module_gets_the_generic_screen():
    assert screen_class(TOY) is GenericScreen


async def test_play_toy_race_to_the_end_against_the_random_bot_by_keys():
    app = CellwarsApp(match=toy_match(seed=3))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, GenericScreen)
        await _play_by_keys(pilot)
        table = screen.table
        assert table.is_over()
        assert screen.query_one("#gs-banner").has_class("over")
        assert "wins" in table.outcome_text()
        # the finished game was autosaved with its result
        assert flush(60)  # the save thread wrote it (60 s: a guard, not a pace)
        saved = read_record_file(table.match.path)
        assert saved.header.result is not None
        assert len(saved.steps) == table.match.cursor


async def test_undo_against_the_bot_returns_to_the_humans_previous_decision_and_redo_restores():
    app = CellwarsApp(match=toy_match(seed=5))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        table = app.screen.table
        match = table.match
        for _ in range(6):  # a few decisions, holds included so the bot gets turns
            await pilot.press("down", "enter")
            await settle(pilot)
        assert any(s.seat == 1 for s in match.history), "the bot should have played"
        before = match.cursor
        last_human = max(i for i, s in enumerate(match.history) if s.seat == 0)
        await pilot.press("u")
        await settle(pilot)
        assert match.cursor == last_human
        assert table.humans_to_act() == (0,)
        await pilot.press("r")
        await settle(pilot)
        assert match.cursor == before
        # undo is saved: the file holds the shorter game
        await pilot.press("u")
        await settle(pilot)
        assert flush(60)  # the save thread wrote it (60 s: a guard, not a pace)
        assert len(read_record_file(match.path).steps) == last_human


async def test_moves_picker_plays_the_chosen_move():
    app = CellwarsApp(match=toy_match(seed=11))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        table = app.screen.table
        steps = table.step()
        await pilot.press("m")
        await pilot.pause()
        assert type(app.screen).__name__ == "MovesPicker"
        await pilot.press(*"hold", "enter")
        await settle(pilot)
        assert table.match.steps[steps].action == TOY.action_from_str("hold")


async def test_back_key_returns_to_the_launcher_and_the_game_is_saved():
    app = CellwarsApp(match=toy_match(seed=2))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        path = app.screen.table.match.path
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("q")
        await pilot.pause()
        assert type(app.screen).__name__ == "LauncherScreen"
        assert len(read_record_file(path).steps) >= 1


async def test_rules_key_opens_a_rules_page_even_without_rules_md():
    app = CellwarsApp(match=toy_match())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("f1")
        await pilot.pause()
        assert type(app.screen).__name__ == "RulesScreen"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GenericScreen)


async def test_hot_seat_covers_the_table_between_two_humans_secret_turns():
    from cellwars_tui.core.api import Options
    from cellwars_tui.core.match import Match, Seat
    from cellwars_tui.ui.dialogs import HandOff
    from tests.ui.toy_secret import SECRET

    match = Match(SECRET, Options(players=2), [Seat(name="Ann"), Seat(name="Bob")], 1)
    app = CellwarsApp(match=match)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HandOff) and app.screen.seat_name == "Ann"
        await pilot.press("enter")
        await pilot.pause()
        game_screen = app.screen
        assert isinstance(game_screen, GenericScreen)
        await pilot.press("down", "down", "enter")  # Ann picks 3
        await pilot.pause()
        assert isinstance(app.screen, HandOff) and app.screen.seat_name == "Bob"
        text = str(game_screen.query_one("#generic-view").render())
        assert "3" not in text, "Ann's pick must not show under Bob's cover"
        await pilot.press("enter")
        await pilot.pause()
        text = str(game_screen.query_one("#generic-view").render())
        assert "[-1,0]" in text
        await pilot.press("enter")  # Bob picks 1
        await pilot.pause()
        assert game_screen.table.is_over()
        assert "[3,1]" in str(game_screen.query_one("#generic-view").render())
        assert "Ann wins" in game_screen.table.outcome_text()


async def test_a_bot_in_a_simultaneous_phase_does_not_block_the_human():
    from cellwars_tui.core.api import Options
    from cellwars_tui.core.match import Match, Seat
    from tests.ui.toy_secret import SECRET

    seats = [Seat(name="Ann"), Seat(name="Bot", kind="bot", bot="random")]
    app = CellwarsApp(match=Match(SECRET, Options(players=2), seats, 1))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        table = app.screen.table
        assert table.humans_to_act() == (0,)  # the bot has picked, Ann has not
        await pilot.press("enter")
        await settle(pilot)
        assert table.is_over()
