"""Pilot tests of the Replays page: saved games newest first, search, import, origins, and the
app's replay entry points."""

from __future__ import annotations

import os
import time

from textual.app import App
from textual.widgets import DataTable, Input

from cellwars_tui.core import all_games
from cellwars_tui.record import save_match
from cellwars_tui.record.store import new_game_path
from cellwars_tui.replay import Replay
from cellwars_tui.ui.replay import ReplayListScreen, ReplayScreen
from tests.replay.helpers import save_toy, toy_match
from tests.test_conformance import play_random
from tests.ui.test_replay_screen import SIZE


def _save_named(game_match, age: float):
    path = new_game_path(game_match.game.id)
    save_match(game_match, path)
    stamp = time.time() - age
    os.utime(path, (stamp, stamp))
    return path


async def test_the_replays_page_lists_newest_first_and_searches_by_game_and_player():
    from cellwars_tui.core import Match, Seat
    from tests.toy_game import TOY, Hold

    old = _save_named(toy_match(1, 30), age=3600)
    newer = Match(TOY, TOY.options_type(players=2), [Seat(name="Zed"), Seat(name="Yan")], 2)
    newer.play(newer.to_act()[0], Hold())
    new = _save_named(newer, age=10)
    cw = next(g for g in all_games() if g.id == "cell-wars")
    cw_path = _save_named(play_random(cw, 2, 3, checks=False), age=100)

    class ListHost(App):
        def on_mount(self) -> None:
            self.push_screen(ReplayListScreen())

    app = ListHost()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        table = screen.query_one(DataTable)
        assert [r.path for r in screen.shown] == [new, cw_path, old]
        assert table.row_count == 3
        row = table.get_row_at(0)
        assert row[0] == "Toy race" and "Zed" in row[2] and row[3] == "unfinished"
        await pilot.press("slash", *"zed")
        await pilot.pause()
        assert [r.path for r in screen.shown] == [new]
        screen.query_one(Input).value = "cell wars"
        await pilot.pause()
        assert [r.path for r in screen.shown] == [cw_path]
        screen.query_one(Input).value = ""
        await pilot.pause()
        table.focus()
        table.move_cursor(row=2)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen) and app.screen.replay.path == old
        await pilot.press("q")
        await pilot.pause()
        assert app.screen is screen


async def test_the_app_opens_a_replay_file_and_the_launcher_opens_the_replays_page(tmp_path):
    from cellwars_tui.ui.app import CellwarsApp

    match, path = save_toy(tmp_path, moves=30)
    app = CellwarsApp(replay=path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen) and app.screen.replay.path == path
        await pilot.press("q")
        await pilot.pause()
        await pilot.press("p")  # the launcher's Replays page
        await pilot.pause()
        assert isinstance(app.screen, ReplayListScreen)


async def test_a_move_list_is_imported_by_its_bare_name_from_the_exports_folder(tmp_path):
    from cellwars_tui.ui.replay import exports_dir

    match, path = save_toy(tmp_path, moves=25)
    (exports_dir() / "mine.txt").write_text(Replay.open(path).export_text())

    class ListHost(App):
        def on_mount(self) -> None:
            self.push_screen(ReplayListScreen())

    app = ListHost()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("i")
        await pilot.pause()
        field = app.screen.query_one(Input)
        assert field.value == str(exports_dir()) + "/"
        await pilot.press(*"mine.txt")  # typed at the end of the folder, not over it
        assert field.value == str(exports_dir() / "mine.txt")
        field.value = "mine.txt"  # a bare name is looked up in the exports folder
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen) and app.screen.replay.state == match.state


async def test_a_game_played_on_from_a_replay_says_where_it_came_from(tmp_path):
    replay = Replay.open(save_toy(tmp_path, moves=30)[1])
    branch = replay.play_from_here(n=10, seed=1)
    path = new_game_path(branch.game.id)
    save_match(branch, path)

    class ListHost(App):
        def on_mount(self) -> None:
            self.push_screen(ReplayListScreen())

    app = ListHost()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = app.screen.query_one(DataTable)
        assert table.get_row_at(0)[5] == "toy step 10"
        await pilot.press("enter")
        await pilot.pause()
        assert "Played on from toy step 10" in str(app.screen.query_one("#rb-note").content)


async def test_a_damaged_save_is_listed_and_opens_as_far_as_it_is_valid():
    match = toy_match(2, 40)
    cut = _save_named(match, age=5)
    cut.write_bytes(cut.read_bytes()[:-150])
    junk = new_game_path("toy-race")
    junk.write_bytes(b"{not json")

    class ListHost(App):
        def on_mount(self) -> None:
            self.push_screen(ReplayListScreen())

    app = ListHost()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert [r.path for r in screen.shown] == [cut]
        assert screen.query_one(DataTable).get_row_at(0)[3] == "damaged"
        assert "1 file(s) could not be read" in str(screen.query_one("#rl-problems").content)
        await pilot.press("enter")
        await pilot.pause()
        viewer = app.screen
        assert isinstance(viewer, ReplayScreen) and viewer.replay.problem.endswith("cut short")
        assert viewer.replay.state == match.states[len(viewer.replay)]


async def test_importing_a_fifo_or_a_huge_file_is_refused_with_one_line(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    huge = tmp_path / "huge.txt"
    with open(huge, "wb") as fh:
        fh.truncate(64 * 1024 * 1024)  # sparse

    class ListHost(App):
        def on_mount(self) -> None:
            self.push_screen(ReplayListScreen())

    app = ListHost()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for target, why in ((fifo, "not a regular file"), (huge, "too big")):
            await pilot.press("i")
            await pilot.pause()
            app.screen.query_one(Input).value = str(target)
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, ReplayListScreen)  # still responsive, nothing opened
            messages = [n.message for n in app._notifications]
            assert messages[-1] == f"{target}: {why}" or messages[-1].startswith(f"{target}: {why}")
