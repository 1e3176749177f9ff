"""Pilot tests of the Replays page: saved games newest first, search, import, origins, and the
app's replay entry points."""

from __future__ import annotations

import datetime as _dt
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
from tests.ui.helpers import until
from tests.ui.test_replay_screen import SIZE


def _save_named(game_match, age: float):
    """Saved as a game begun ``age`` seconds ago (and last saved then)."""
    path = new_game_path(game_match.game.id)
    stamp = time.time() - age
    game_match.started = _dt.datetime.fromtimestamp(stamp, _dt.timezone.utc).isoformat(
        timespec="seconds")
    save_match(game_match, path)
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
        assert str(row[0]) == "Toy race" and "Zed" in str(row[2]) and str(row[3]) == "unfinished"
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


async def test_the_app_opens_a_replay_file_and_q_leaves_to_the_shell(tmp_path):
    """Issue 19: ``cellwars replay FILE`` then q landed in the launcher, not in the shell."""
    from cellwars_tui.replay import Replay
    from cellwars_tui.ui.app import CellwarsApp

    match, path = save_toy(tmp_path, moves=30)
    for source in (path, Replay.open(path)):  # (the command line opens it first)
        app = CellwarsApp(replay=source)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, ReplayScreen) and app.screen.replay.path == path
            await pilot.press("q")
            await pilot.pause()
            assert app.return_code == 0, "q must quit the app, not show the launcher"


async def test_the_launcher_opens_the_replays_page_and_q_comes_back(tmp_path):
    from cellwars_tui.ui.app import CellwarsApp
    from cellwars_tui.ui.launcher import LauncherScreen

    app = CellwarsApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("p")  # the launcher's Replays page
        await pilot.pause()
        assert isinstance(app.screen, ReplayListScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, LauncherScreen) and app.return_code is None


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
        assert table.get_row_at(0)[5].plain == "toy step 10"
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
        assert screen.query_one(DataTable).get_row_at(0)[3].plain == "damaged"
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


async def test_search_then_down_and_enter_opens_the_match(tmp_path):
    """Issue 19: after / and a match, Down + Enter did nothing (Down stayed in the search box)."""
    from cellwars_tui.core import Match, Seat
    from tests.toy_game import TOY, Hold

    _save_named(toy_match(1, 30), age=3600)
    zed = Match(TOY, TOY.options_type(players=2), [Seat(name="Zed"), Seat(name="Yan")], 2)
    zed.play(zed.to_act()[0], Hold())
    wanted = _save_named(zed, age=7200)  # the older one: not the first row before the search

    class ListHost(App):
        def on_mount(self) -> None:
            self.push_screen(ReplayListScreen())

    app = ListHost()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        await pilot.press("slash", *"zed")
        await pilot.pause()
        assert [r.path for r in screen.shown] == [wanted]
        await pilot.press("down", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen) and app.screen.replay.path == wanted


async def test_keys_typed_together_after_the_slash_open_the_highlighted_match(tmp_path):
    """Issue 29: "/", Down and Enter typed together opened the second row, not the first one
    highlighted (the search box took the focus after the keys already typed, so Down moved the
    list's cursor); "/zed", Down, Enter opened the first game of the whole list (the search's
    matches came after the keys)."""
    from textual import events

    from cellwars_tui.core import Match, Seat
    from tests.toy_game import TOY, Hold

    _save_named(toy_match(1, 30), age=60)
    _save_named(toy_match(2, 30), age=120)
    zed = Match(TOY, TOY.options_type(players=2), [Seat(name="Zed"), Seat(name="Yan")], 2)
    zed.play(zed.to_act()[0], Hold())
    wanted = _save_named(zed, age=7200)

    class ListHost(App):
        def on_mount(self) -> None:
            self.push_screen(ReplayListScreen())

    app = ListHost()
    async with app.run_test(size=(80, 24)) as pilot:
        for keys, opens in (("/", 0), ("/zed", wanted)):
            await until(pilot, lambda: isinstance(app.screen, ReplayListScreen), "the list")
            screen = app.screen
            await until(pilot, lambda: screen.query_one(DataTable).row_count == 3, "the rows")
            if opens == 0:
                opens = screen.shown[0].path
            for key in [*keys, "down", "enter"]:  # all at once, as a terminal sends a burst
                name = "slash" if key == "/" else key
                app.post_message(events.Key(name, key if len(key) == 1 else None))
            await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
            assert app.screen.replay.path == opens
            await pilot.press("q")
            await until(pilot, lambda: isinstance(app.screen, ReplayListScreen), "the list")
            screen.query_one("#rl-search", Input).value = ""  # the whole list again
            screen.set_focus(screen.query_one(DataTable))


async def test_at_80_columns_every_header_fits_and_bots_read_search_bot():
    from cellwars_tui.core import Match, Seat
    from tests.toy_game import TOY, Hold

    players = [Seat(name="Bob"), Seat(name="Blue", kind="bot", bot="mcts")]
    markup = Match(TOY, TOY.options_type(players=2), players, 4)
    markup.play(markup.to_act()[0], Hold())
    _save_named(markup, age=5)
    rand = Match(TOY, TOY.options_type(players=2),
                 [Seat(name="Eve"), Seat(name="Red", kind="bot", bot="random")], 5)
    _save_named(rand, age=50)
    replay = Replay.open(_save_named(toy_match(1, 30), age=500))  # a row with a "From"
    save_match(replay.play_from_here(n=10, seed=1), new_game_path("toy-race"))

    class ListHost(App):
        def on_mount(self) -> None:
            self.push_screen(ReplayListScreen())

    app = ListHost()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        table = app.screen.query_one(DataTable)
        titles = [c.label.plain for c in table.columns.values()]
        assert titles == ["Game", "Date", "Seats", "Result", "Length", "From"]
        for column in table.columns.values():
            assert column.width >= len(column.label.plain)
        # no sideways scrolling: every column, "Length" included, is on the screen
        assert table.virtual_size.width <= table.scrollable_content_region.width
        assert table.max_scroll_x == 0
        seats = [table.get_row_at(i)[2].plain for i in range(table.row_count)]
        assert "Bob, Blue (search b…" in seats and "Eve, Red (random bo…" in seats  # cut, marked
        assert not any("mcts" in s or "(bot)" in s for s in seats)
        # the highlighted game's seats and result read whole under the table
        detail = app.screen.query_one("#rl-detail")
        details = []
        for i in range(table.row_count):
            if i:
                await pilot.press("down")
            row = app.screen.shown[i]
            await until(pilot, lambda: table.cursor_row == i and row.seats in str(detail.render()),
                        "the next game's detail")
            details.append(str(detail.render()))
        assert "Toy race · Bob, Blue (search bot) · unfinished" in details
        assert "Toy race · Eve, Red (random bot) · unfinished" in details
        assert detail.region.height >= 1 and detail.region.bottom <= 23  # above the footer
        await pilot.resize_terminal(140, 30)
        await pilot.pause()
        await pilot.pause()
        seats = [table.get_row_at(i)[2].plain for i in range(table.row_count)]
        assert "Bob, Blue (search bot)" in seats and "Eve, Red (random bot)" in seats
        assert table.get_row_at(0)[1].plain.count("-") == 2  # the year comes back when wide
        assert table.max_scroll_x == 0


def test_bot_wording_is_one_function_and_steps_are_pluralised():
    from cellwars_tui.core import Seat
    from cellwars_tui.table.naming import (plural, seat_choice, seat_kind_detail, seat_kind_word,
                                           seat_text, seats_text)

    ann, search, rand = Seat(name="Ann"), Seat(name="B", kind="bot", bot="mcts"), \
        Seat(name="C", kind="bot", bot="random")
    legacy = Seat(name="D", kind="bot")  # a plain "bot" from before levels runs the search bot
    easy = Seat(name="E", kind="bot", bot="easy")
    assert [seat_kind_word(s) for s in (ann, search, rand, legacy, easy)] == \
        ["human", "search bot", "random bot", "search bot", "easy bot"]
    assert seat_text("Ann", ann) == "Ann" and seat_text("B", search) == "B (search bot)"
    assert seat_text("E", easy) == "E (easy bot)"
    assert seat_kind_detail(search) == "search bot 1s" and seat_kind_detail(easy) == "easy bot"
    assert seats_text([ann, rand]) == "Ann, C (random bot)"
    assert [plural(n, "step") for n in (0, 1, 2)] == ["0 steps", "1 step", "2 steps"]
    # playing on from a replay: an old search seat is offered as hard (mcts's new meaning)
    assert [seat_choice(s) for s in (ann, search, rand, legacy, easy)] == \
        ["human", "hard", "random", "hard", "easy"]
    from cellwars_tui.ui.replay import SEAT_CHOICES
    from cellwars_tui.ui.setup import KIND_CHOICES

    # the New-game dialog and the replay's "play on" dialog offer the same words
    assert dict(KIND_CHOICES) == dict(SEAT_CHOICES) == \
        {"Person": "human", "Random": "random", "Easy": "easy", "Normal": "normal",
         "Hard": "hard"}
