"""Pilot tests of the launcher, the New-game dialog, resume and the command line's play path."""

from __future__ import annotations

import pytest

from cellwars_tui.cli import main
from cellwars_tui.core.errors import CellwarsError
from cellwars_tui.locations import games_dir
from cellwars_tui.ui.app import CellwarsApp
from cellwars_tui.ui.dialogs import RulesScreen
from cellwars_tui.ui.generic_screen import GenericScreen
from cellwars_tui.ui.launcher import LauncherScreen
from cellwars_tui.ui.resume import ResumeScreen
from cellwars_tui.ui.setup import NewGameScreen
from tests.toy_game import TOY
from tests.ui.helpers import run_from_palette, settle, until, until_async
from tests.ui.toy_options import TOY_OPTIONS


def make_app(**kw) -> CellwarsApp:
    return CellwarsApp(games=[TOY, TOY_OPTIONS], **kw)


async def test_launcher_lists_games_and_opens_new_game_and_rules_by_keys():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        launcher = app.screen
        assert isinstance(launcher, LauncherScreen)
        assert launcher.current_game() is TOY
        await pilot.press("down")
        assert launcher.current_game() is TOY_OPTIONS
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen) and app.screen.game is TOY_OPTIONS
        await pilot.press("escape")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen) and app.screen.game is TOY_OPTIONS
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is launcher
        await pilot.press("down")  # the separator is skipped: Resume
        assert launcher.current() == "resume"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ResumeScreen)


async def test_launcher_by_mouse_new_game_button_and_rules_button():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.click("#btn-rules")
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen) and app.screen.game is TOY
        await pilot.press("escape")
        await pilot.pause()
        await pilot.click("#btn-new")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        await pilot.click("#setup-start")
        await settle(pilot)
        assert isinstance(app.screen, GenericScreen)
        assert app.screen.game is TOY
        await pilot.click("#generic-moves", offset=(4, 1))  # the first move
        await settle(pilot)
        assert app.screen.table.match.cursor > 1


async def test_new_game_dialog_refuses_absurd_options_with_a_message():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("down", "n")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, NewGameScreen)
        # every option kind has its widget
        assert type(dialog.query_one("#opt-goal")).__name__ == "Input"
        assert type(dialog.query_one("#opt-fast")).__name__ == "Select"  # no / yes, in words
        assert type(dialog.query_one("#opt-die")).__name__ == "Select"
        dialog.query_one("#opt-goal").value = "1000"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is dialog
        assert "goal must be between 5 and 100" in str(dialog.query_one("#setup-error").render())
        dialog.query_one("#opt-goal").value = "30"
        dialog.query_one("#opt-fast").value = True
        dialog.query_one("#opt-die").value = "d8"
        dialog.query_one("#setup-seed").value = "42"
        dialog.query_one("#seat-name-0").value = "Zoe"
        dialog.query_one("#seat-kind-1").value = "random"
        await pilot.press("ctrl+s")
        await settle(pilot)
        table = app.screen.table
        match = table.match
        assert match.options.goal == 30 and match.options.fast and match.options.die == "d8"
        assert match.seed == 42
        assert match.seats[0].name == "Zoe" and not match.seats[0].is_bot
        assert match.seats[1].bot == "random"


async def test_quit_then_resume_from_the_launcher():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        app.screen.query_one("#seat-kind-1").value = "random"
        app.screen.query_one("#setup-seed").value = "3"  # a seed where the race is not over yet
        await pilot.press("ctrl+s")
        await settle(pilot)
        for _ in range(2):
            await pilot.press("down", "enter")  # hold
            await settle(pilot)
        assert not app.screen.table.is_over()
        cursor = app.screen.table.match.cursor
        await pilot.press("q")
        await pilot.pause()
        launcher = app.screen
        assert isinstance(launcher, LauncherScreen)
        assert launcher.unfinished_count == 1
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, ResumeScreen)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, GenericScreen)
        assert app.screen.table.match.cursor == cursor
        await pilot.press("q")
        await pilot.pause()
        assert app.screen is launcher  # the resume list is not left behind


async def test_a_corrupt_saved_file_is_a_problem_line_not_a_crash():
    (games_dir() / "broken.cellwars.json").write_bytes(b'{"format_version": 1, "header": ')
    (games_dir() / "future.cellwars.json").write_bytes(b'{"format_version": 99}')
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        launcher = app.screen
        assert launcher.problem_count == 2
        await pilot.press("c")
        await pilot.pause()
        text = str(app.screen.query_one("#resume-problems").render())
        assert "broken.cellwars.json" in text and "future.cellwars.json" in text
        assert "newer" in text
        assert len(text.splitlines()) == 2


async def test_command_palette_lists_the_screens_actions():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "New game: Toy race" in titles and "Rules: Toy options" in titles
        assert "Resume a saved game" in titles and "Theme: cellwars-light" in titles
        await run_from_palette(pilot, "New game: Toy options")
        await until(pilot, lambda: isinstance(app.screen, NewGameScreen), "the new-game dialog")
        assert app.screen.game is TOY_OPTIONS


def test_cellwars_play_refuses_absurd_options_in_one_line(capsys):
    assert main(["play", "toy-options", "-o", "goal=1000"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "cellwars: goal must be between 5 and 100, not 1000"
    assert main(["play", "toy-options", "-o", "colour=red"]) == 2
    assert "has no option 'colour'" in capsys.readouterr().err
    assert main(["play", "toy-race", "--seat", "5=bot"]) == 2
    assert "seat 5 does not exist" in capsys.readouterr().err


def test_new_game_request_defaults_and_seat_kinds():
    from cellwars_tui.ui.setup import new_game_request

    req = new_game_request("toy-options", seats=[(1, "random")], seed=9,
                           options={"fast": "yes", "die": "d8"})
    assert req.seed == 9 and req.options.fast and req.options.die == "d8"
    assert [s.kind for s in req.seats] == ["human", "bot"] and req.seats[1].bot == "random"
    req = new_game_request("toy-race", seats={0: "bot"}, think=0.3)
    assert all(s.is_bot and s.bot == "normal" and s.think == 0.3 for s in req.seats)
    req = new_game_request("toy-race", seats={0: "mcts", 1: "EASY"})
    assert [s.bot for s in req.seats] == ["hard", "easy"] and req.seats[0].think == 10.0
    with pytest.raises(CellwarsError, match="seat 2: unknown bot level 'expert'"):
        new_game_request("toy-race", seats={1: "expert"})


def _inside(region, size) -> bool:
    return (region.width > 0 and region.height > 0 and region.x >= 0 and region.y >= 0
            and region.right <= size.width and region.bottom <= size.height)


async def test_new_game_dialog_keeps_start_visible_at_80x24_with_6_and_4_seats():
    from textual.widgets import Select

    from cellwars_tui.core.registry import get_game
    from cellwars_tui.ui.game_screen import GameScreen

    for game_id, seats in (("virus-fight", 4), ("cell-wars", 6)):
        game = get_game(game_id)
        app = CellwarsApp(games=[game])
        async with app.run_test(size=(80, 24)) as pilot:
            # (a key typed while the launcher is still mounting is lost: press until it opens)
            async def dialog_opened() -> bool:
                if isinstance(app.screen, LauncherScreen):
                    await pilot.press("n")
                return isinstance(app.screen, NewGameScreen)

            await until_async(pilot, dialog_opened, "the new-game dialog")
            dialog = app.screen
            dialog.query_one("#setup-players", Select).value = seats
            for i in range(1, seats):
                dialog.query_one(f"#seat-kind-{i}", Select).value = "random"
            last_row = dialog.query_one(f"#seat-row-{seats - 1}")
            await until(pilot, lambda: last_row.display and last_row.region.height == 1)
            await pilot.pause()
            size = dialog.size
            start, cancel = dialog.query_one("#setup-start"), dialog.query_one("#setup-cancel")
            form = dialog.query_one("#setup-form")
            box = dialog.query_one("#setup-box").region
            for button in (start, cancel):
                assert _inside(button.region, size), (game_id, button.region)
                assert button.region.bottom < box.bottom  # not under the box's frame
            # the form scrolls inside the box instead of pushing the buttons out
            assert form.region.bottom <= dialog.query_one("#setup-hint").region.y
            if seats == 6:
                assert form.max_scroll_y > 0
            seed = dialog.query_one("#setup-seed")
            seed.focus()  # the last field scrolls into view
            await until(pilot, lambda: form.region.contains_region(seed.region))
            # an error line does not push the buttons out either
            dialog.query_one("#setup-seed").value = "x"
            await pilot.press("ctrl+s")
            await until(pilot, lambda: "Seed" in str(dialog.query_one("#setup-error").render()))
            await pilot.pause()
            assert _inside(start.region, size) and start.region.bottom < box.bottom
            dialog.query_one("#setup-seed").value = "5"
            assert await pilot.click("#setup-start")
            await until(pilot, lambda: isinstance(app.screen, GameScreen))
            assert app.screen.table.game is game
            assert len(app.screen.table.match.seats) == seats


async def test_the_launcher_makes_only_the_buttons_its_entries_show_when_first_shown():
    from cellwars_tui.core.registry import get_game

    app = CellwarsApp(games=[TOY, get_game("cell-management")])
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        launcher = app.screen
        assert {b.id for b in launcher.query("Button")} == {"btn-new", "btn-rules"}
        await pilot.press("down")  # a puzzle game: its buttons are made now
        await pilot.pause()
        ids = [b.id for b in launcher.query("#detail-buttons Button")]
        assert ids == ["btn-new", "btn-rules", "btn-learn", "btn-daily", "btn-number"]
        await pilot.press("down", "down")  # Resume: Open, after the others in the grid
        await pilot.pause()
        ids = [b.id for b in launcher.query("#detail-buttons Button")]
        assert ids[-1] == "btn-open"
        assert {b.id for b in launcher.query("Button") if b.display} == {"btn-open"}


async def test_without_saved_games_the_resume_entry_is_not_redrawn_after_the_first_frame(
        monkeypatch):
    from textual.widgets import OptionList

    replaced: list[int] = []
    real = OptionList.replace_option_prompt_at_index

    def counted(self, index, prompt):
        replaced.append(index)
        return real(self, index, prompt)

    monkeypatch.setattr(OptionList, "replace_option_prompt_at_index", counted)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        prompt = app.screen.query_one("#launcher-list", OptionList).get_option("resume").prompt
        assert str(prompt) == "Resume a saved game (0)"  # counted: there is no file to read
        assert replaced == []


async def test_the_game_list_keeps_its_rendered_options_over_a_resize_of_the_same_width(
        monkeypatch):
    from textual.widgets import OptionList

    from cellwars_tui.ui.launcher import GameList

    cleared: list[int] = []
    real = OptionList._clear_caches

    def counted(self):
        cleared.append(self.scrollable_content_region.width)
        return real(self)

    monkeypatch.setattr(OptionList, "_clear_caches", counted)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        games = app.screen.query_one("#launcher-list", GameList)
        assert cleared == []  # the first layout's resize: same width, nothing thrown away
        await pilot.resize_terminal(80, 30)  # taller, as wide
        await pilot.pause()
        assert cleared == []
        before = games.scrollable_content_region.width
        await pilot.resize_terminal(100, 30)  # wider: rendered again at the new width
        await pilot.pause()
        await pilot.pause()
        assert cleared and games.scrollable_content_region.width > before
        line = games.render_line(0)
        assert "Toy" in line.text and line.cell_length == games.scrollable_content_region.width


async def test_the_launcher_is_styled_once_before_its_first_frame(monkeypatch):
    from textual.css.stylesheet import Stylesheet

    styled: list[int] = []
    real = Stylesheet.update_nodes

    def counted(self, nodes, animate=False):
        nodes = list(nodes)
        styled.append(len(nodes))
        return real(self, nodes, animate)

    monkeypatch.setattr(Stylesheet, "update_nodes", counted)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        launcher = app.screen
        whole = len(list(launcher.walk_children(with_self=True)))
        assert styled and all(n < whole for n in styled)  # no restyle of the whole screen


async def test_the_detail_page_is_laid_out_for_its_buttons_before_they_come():
    from textual.widgets import Static

    from cellwars_tui.core.registry import get_game

    app = CellwarsApp(games=[TOY, get_game("cell-management")])
    async with app.run_test(size=(100, 30)) as pilot:
        launcher = app.screen
        await pilot.pause()
        text = launcher.query_one("#detail-text", Static)
        grid = launcher.query_one("#detail-buttons")
        assert grid.styles.height.value == 3  # New game, Rules: one row
        before = text.region
        await pilot.pause()
        await pilot.pause()
        assert launcher.query("#btn-new") and text.region == before  # the buttons moved nothing
        await pilot.press("down")  # five buttons (Learn too: it has a lesson): three rows
        await pilot.pause()
        assert grid.styles.height.value == 9 and grid.region.height == 9
        await pilot.press("down")  # Resume: Open
        await pilot.pause()
        assert grid.styles.height.value == 3 and grid.region.height == 3


async def test_new_game_dialog_offers_levels_defaults_to_normal_and_asks_no_think_time():
    from textual.widgets import Select

    from cellwars_tui.core.registry import get_game
    from cellwars_tui.ui.setup import KIND_CHOICES

    for game_id in ("virus-fight", "infection", "cell-management"):
        app = CellwarsApp(games=[])
        async with app.run_test(size=(100, 30)) as pilot:
            dialog = NewGameScreen(get_game(game_id))
            app.push_screen(dialog)
            await settle(pilot)
            await pilot.pause()
            assert not dialog.query("#setup-think"), game_id  # a level is its own budget
            if game_id == "cell-management":  # a solitaire: no seats, no levels, and it says so
                assert not dialog.query(".seat-kind")
                assert "no bot levels" in str(dialog.query_one("#solitaire-row .setup-note")
                                              .render())
                continue
            kind = dialog.query_one("#seat-kind-1", Select)
            assert kind.value == "normal", game_id
            assert [label for label, _ in KIND_CHOICES] == \
                ["Person", "Random", "Easy", "Normal", "Hard"]
            kind.value = "easy"
            request = dialog.request()
            assert request.seats[1].bot == "easy" and not request.seats[0].is_bot
