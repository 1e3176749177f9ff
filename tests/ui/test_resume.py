"""Autosave after every action, resume after a quit or a crash, undo/redo all the way, bad files."""

from __future__ import annotations

from cellwars_tui.core.match import Match
from cellwars_tui.locations import games_dir
from cellwars_tui.record.format import read_record_file
from cellwars_tui.record.writer import flush
from cellwars_tui.record.store import list_saved
from cellwars_tui.ui.app import CellwarsApp
from cellwars_tui.ui.generic_screen import GenericScreen
from cellwars_tui.ui.launcher import LauncherScreen
from cellwars_tui.ui.resume import ResumeScreen
from tests.toy_game import TOY
from tests.ui.helpers import settle, toy_match


async def _hold(pilot, times: int) -> None:
    for _ in range(times):
        await pilot.press("down", "enter")  # hold: the bot gets a turn
        await settle(pilot)


async def test_every_action_is_saved_so_a_crash_loses_nothing_and_resume_continues():
    app = CellwarsApp(match=toy_match(seed=5), games=[TOY])
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        table = app.screen.table
        path = table.match.path
        for _ in range(3):
            await pilot.press("enter")  # roll
            await settle(pilot)
            # on disk after every action, bots' and chance's included (once written)
            assert flush(60)  # the save thread wrote it (60 s: a guard, not a pace)
            assert len(read_record_file(path).steps) == table.match.cursor
        await _hold(pilot, 1)
        assert flush(60)  # the save thread wrote it (60 s: a guard, not a pace)
        assert len(read_record_file(path).steps) == table.match.cursor
        cursor, state = table.match.cursor, table.match.state
    # the app ended without going back to the launcher (as a crash would): the file is complete
    app = CellwarsApp(games=[TOY])
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.pause()
        launcher = app.screen
        assert isinstance(launcher, LauncherScreen) and launcher.unfinished_count == 1
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, ResumeScreen)
        await pilot.press("enter")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, GenericScreen)
        assert screen.table.match.cursor == cursor
        assert screen.table.match.state == state
        assert screen.table.match.path == path  # the same file goes on being saved
        await pilot.press("enter")
        await settle(pilot)
        assert flush(60)  # the save thread wrote it (60 s: a guard, not a pace)
        assert len(read_record_file(path).steps) == screen.table.match.cursor > cursor
        assert len(list_saved()[0]) == 1


async def test_undo_all_the_way_back_and_redo_all_the_way_forward():
    app = CellwarsApp(match=toy_match(seed=8), games=[TOY])
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        table = app.screen.table
        match = table.match
        await pilot.press("enter")
        await settle(pilot)
        await _hold(pilot, 3)
        end_cursor, end_state = match.cursor, match.state
        undos = 0
        while table.can_undo():
            await pilot.press("u")
            await settle(pilot)
            undos += 1
            assert table.humans_to_act() == (0,), "every undo lands on the human's decision"
            assert undos < 100
        assert undos >= 3
        first_human = min(i for i, s in enumerate(match.steps) if s.seat == 0)
        assert match.cursor == first_human
        await pilot.press("u")
        await settle(pilot)
        assert "Nothing to undo" in str(app.screen.query_one("#gs-status").render())
        while table.can_redo():
            await pilot.press("r")
            await settle(pilot)
        assert match.cursor == end_cursor and match.state == end_state


async def test_a_bad_saved_file_is_one_line_and_no_other_save_is_lost():
    good = Match(TOY, toy_match().options, toy_match().seats, 1)
    good.play(*_first_move(good))
    app = CellwarsApp(match=good, games=[TOY])
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        good_path = app.screen.table.match.path
    good_bytes = good_path.read_bytes()
    broken = games_dir() / "toy-race-broken.cellwars.json"
    broken.write_bytes(good_bytes[: len(good_bytes) // 2])  # a truncated file
    app = CellwarsApp(games=[TOY])
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.pause()
        assert app.screen.problem_count == 1
        await pilot.press("c")
        await pilot.pause()
        resume = app.screen
        assert isinstance(resume, ResumeScreen)
        problems = str(resume.query_one("#resume-problems").render()).splitlines()
        assert len(problems) == 1 and "toy-race-broken.cellwars.json" in problems[0]
        assert len(resume.saved) == 1
        # the good file turns bad after the list was read: opening it is a one-line notice
        good_path.write_bytes(b"\x00garbage")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is resume
        messages = [n.message for n in app._notifications]
        assert any(good_path.name in m and "\n" not in m for m in messages)
    # nothing was deleted or overwritten
    assert broken.read_bytes() == good_bytes[: len(good_bytes) // 2]
    assert good_path.read_bytes() == b"\x00garbage"


def _first_move(match: Match):
    match.resolve_chance()
    seat = match.to_act()[0]
    return seat, match.legal_actions(seat)[0]


async def test_delete_twice_removes_only_the_highlighted_saved_game():
    paths = []
    for seed in (1, 2):
        app = CellwarsApp(match=toy_match(seed=seed), games=[TOY])
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            paths.append(app.screen.table.match.path)
    app = CellwarsApp(games=[TOY])
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("c")
        await pilot.pause()
        resume = app.screen
        assert len(resume.saved) == 2
        doomed = resume.highlighted().path
        await pilot.press("delete")
        await pilot.pause()
        assert doomed.exists(), "one press only asks"
        await pilot.press("delete")
        await pilot.pause()
        assert not doomed.exists()
        assert len(resume.saved) == 1
        (kept,) = [p for p in paths if p != doomed]
        assert kept.exists() and resume.saved[0].path == kept
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen.unfinished_count == 1


async def test_the_resume_list_names_bots_like_everywhere_else_and_says_1_step():
    import msgspec

    from cellwars_tui.record import save_match
    from cellwars_tui.record.store import new_game_path
    from cellwars_tui.ui.resume import saved_line

    match = toy_match()  # Ann and a random bot
    match.play(*_first_move(match))
    save_match(match, new_game_path(TOY.id))
    saved = [g for g in list_saved()[0] if not g.finished]
    assert len(saved) == 1 and saved[0].length > 1
    line = saved_line(saved[0]).plain
    assert "Ann, Bot (random bot)" in line and line.endswith(f"  {saved[0].length} steps")
    one = msgspec.structs.replace(saved[0], length=1)
    assert saved_line(one).plain.endswith("  1 step")
    app = CellwarsApp(games=[TOY])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, ResumeScreen)
        prompt = app.screen.query_one("#resume-list").get_option_at_index(0).prompt
        assert "(random bot)" in str(prompt) and "(bot)" not in str(prompt)


async def test_a_saved_virus_fight_resumes_by_mouse_from_the_launcher():
    from cellwars_tui.core.match import Seat
    from cellwars_tui.games.virus_fight import rules as R
    from cellwars_tui.games.virus_fight.screen import VirusFightScreen
    from cellwars_tui.record.store import autosave
    from cellwars_tui.ui.launcher import RESUME

    seats = [Seat(name="Ann"), Seat(name="Bob", kind="bot", bot="random", think=0.05)]
    match = Match(R.GAME, R.VirusFightOptions(players=2), seats, 3)
    match.play(0, R.Add(R.GAME.action_from_str("add M2").piece))
    autosave(match)
    app = CellwarsApp()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.pause()
        options = app.screen.query_one("#launcher-list")
        line = options._index_to_line[options.get_option_index(RESUME)]
        top = options.styles.border_top[0] != ""
        assert await pilot.click("#launcher-list", offset=(4, line - options.scroll_offset.y + top))
        await pilot.pause()
        assert isinstance(app.screen, ResumeScreen)
        assert await pilot.click("#resume-list", offset=(4, 1))
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, VirusFightScreen)
        assert screen.table.match.path == match.path
        assert screen.table.state().programs[0] == (R.GAME.action_from_str("add M2").piece,)


async def test_the_resume_list_dates_games_as_the_replays_page_and_says_how_they_began():
    """Issue 29: Resume dated a game by its file's last save, the Replays page by when it
    began; and neither a lesson's game nor a game played on from a replay said so."""
    import os
    import time

    from cellwars_tui.replay import rows
    from tests.ui.test_replay_list import _save_named

    plain = _save_named(toy_match(seed=1), age=7200)
    os.utime(plain, (time.time(), time.time()))  # played a moment ago, begun two hours ago
    on = toy_match(seed=2)
    on.origin = "/somewhere/toy-race-20261128.cellwars.json#150"
    played_on = _save_named(on, age=60)
    taught = toy_match(seed=3)
    taught.lesson = TOY.id
    lesson = _save_named(taught, age=120)
    dates = {r.path: r.date for r in rows()[0]}
    app = CellwarsApp(games=[TOY])
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("c")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ResumeScreen)
        assert [g.path for g in screen.saved] == [played_on, lesson, plain]  # as Replays lists
        lines = [str(screen.query_one("#resume-list").get_option_at_index(i).prompt)
                 for i in range(3)]
    for line, path in zip(lines, (played_on, lesson, plain)):
        assert f"  {dates[path]}  " in line
    assert lines[0].endswith("from replay step 150")
    assert lines[1].endswith("from the lesson")
    assert "from" not in lines[2]


def test_a_lessons_game_is_saved_as_one():
    from cellwars_tui.core.registry import get_game
    from cellwars_tui.learn.run import checked_lesson
    from cellwars_tui.learn.table import LessonTable
    from cellwars_tui.record.format import load_match, match_to_record, save_match

    game = get_game("cell-management")
    match = LessonTable(game, checked_lesson(game)).match
    assert match.lesson == game.id and match_to_record(match).header.lesson == game.id
    path = games_dir() / "lesson.cellwars.json"
    save_match(match, path)
    assert load_match(path).lesson == game.id
    assert match_to_record(toy_match(seed=1)).header.lesson is None
