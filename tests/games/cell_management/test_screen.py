"""Pilot tests of the Cell Management screen: solving a puzzle by keys and by mouse, the walk
animation, undo, hint, solution and the stats written when a puzzle is solved."""

from __future__ import annotations

import pytest
from rich.text import Text

from cellwars_tui.core.match import Match, Seat
from cellwars_tui.games.cell_management import rules as R
from cellwars_tui.games.cell_management import solver as S
from cellwars_tui.games.cell_management import stats as ST
from cellwars_tui.games.cell_management.dialogs import SolutionScreen
from cellwars_tui.games.cell_management.screen import CellManagementScreen
from cellwars_tui.ui.app import CellwarsApp
from cellwars_tui.ui.screens import screen_class

PUZZLE = "#984"  # six rounds, and its solution sends a captive back once


@pytest.fixture(autouse=True)
def _instant_walk():
    old = CellManagementScreen.speed
    CellManagementScreen.speed = 0
    yield
    CellManagementScreen.speed = old


@pytest.fixture
def walk_by_hand(monkeypatch):
    """The walk at its slowest speed, stepped by the test (``screen._tick()``): that speed's
    timer is an hour long, so a loaded machine never fires a step between two of the test's."""
    import cellwars_tui.games.cell_management.screen as cm_screen

    monkeypatch.setattr(cm_screen, "SPEEDS", cm_screen.SPEEDS[:-1] + (3600.0,))
    CellManagementScreen.speed = len(cm_screen.SPEEDS) - 1


def _app(code: str = PUZZLE) -> CellwarsApp:
    match = Match(R.GAME, R.CMOptions(code=code), [Seat(name="Me")], 1)
    return CellwarsApp(match=match)


def _text(screen, selector: str) -> str:
    rendered = screen.query_one(selector).render()
    return rendered.plain if isinstance(rendered, Text) else str(rendered)


def _plan():
    setup = R.setup_from_code(PUZZLE)
    return S.solution_actions(R.initial_position(setup))


def test_the_game_has_its_own_screen():
    assert screen_class(R.GAME) is CellManagementScreen


async def test_solve_a_puzzle_by_keys_then_undo_and_check_the_win():
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, CellManagementScreen)
        for action in _plan():
            state = screen.table.view(None)
            if isinstance(action, R.Start):
                await pilot.press(str(state.position_of_cell(action.cell) + 1))
            elif isinstance(action, R.Done):
                await pilot.press("0")
            else:
                await pilot.press("b", str(state.position_of_hideout(action.species) + 1))
            await pilot.pause()
        table = screen.table
        assert table.is_over() and table.outcome().winners == (0,)
        assert screen.query_one("#gs-banner").has_class("over")
        assert "Solved in 6 rounds: the optimum!" in _text(screen, "#cm-narration")
        assert "solved 1/1" in _text(screen, "#cm-info")
        stats = ST.load_stats()
        assert (stats.solved, stats.optimal) == (1, 1)
        # undo goes back to the last decision; winning again does not count twice
        await pilot.press("u")
        await pilot.pause()
        assert not table.is_over()
        await pilot.press("r")
        await pilot.pause()
        assert table.is_over() and ST.load_stats().solved == 1


async def test_solve_a_puzzle_by_mouse():
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        for action in _plan():
            state = screen.table.view(None)
            if isinstance(action, R.Start):
                await pilot.click(f"#cm-cell-{state.position_of_cell(action.cell) + 1}")
            elif isinstance(action, R.Return):
                # the freed captive in the escape area: slot x sits 2x columns from the left
                await pilot.click("#cm-centre", offset=(1 + 2 * action.species, 2))
            else:
                continue  # clicking the next cell sends nobody back by itself
            await pilot.pause()
        assert screen.table.is_over() and screen.table.outcome().winners == (0,)
        assert screen.table.view(None).round == 6


async def test_hint_names_the_best_first_cell_and_solution_lists_the_rounds():
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        await pilot.press("h")
        await pilot.pause()
        first = _plan()[0]
        state = screen.table.view(None)
        key = state.position_of_cell(first.cell) + 1
        assert f"cell {key} (species {R.SYMBOLS[first.cell]}, key {key})" in \
            _text(screen, "#gs-status")
        assert screen.query_one(f"#cm-cell-{key}").has_class("hint")
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, SolutionScreen)
        assert sum(line.startswith("Round") for line in app.screen.lines) == 6
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen


async def test_the_walk_is_animated_step_by_step_and_skippable(walk_by_hand):
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        await pilot.press("1")
        await pilot.pause()
        assert screen.animating
        first = _text(screen, "#cm-narration")
        assert first.startswith("Round 1: cell 1 (species ")
        screen._tick()
        await pilot.pause()
        assert _text(screen, "#cm-narration").startswith("Cell ")
        assert screen.query_one("#cm-cell-1").has_class("guard")
        await pilot.press("space")
        await pilot.pause()
        assert not screen.animating
        assert "The guards leave after round 1." in _text(screen, "#cm-narration")
        await pilot.press("minus")  # faster
        assert CellManagementScreen.speed == 4


async def test_return_to_prison_by_keys_needs_a_freed_captives_hideout():
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        plan = _plan()
        i = next(k for k, a in enumerate(plan) if isinstance(a, R.Return))
        for action in plan[:i]:
            screen.play(action)
        await pilot.pause()
        state = screen.table.view(None)
        assert state.phase == R.RETURN
        wrong = next(p for p in range(6) if state.hideouts[p] not in state.returnable())
        await pilot.press("b", str(wrong + 1))
        await pilot.pause()
        assert screen.table.view(None).phase == R.RETURN
        assert "not the hideout" in _text(screen, "#gs-status")
        back = state.returnable()[0]
        await pilot.press("b")
        await pilot.pause()
        assert "Send back which?" in _text(screen, "#gs-status")
        await pilot.press(str(state.position_of_hideout(back) + 1))
        await pilot.pause()
        after = screen.table.view(None)
        assert after.phase == R.START and after.in_hideout[back] and not after.in_center[back]
        assert _text(screen, "#gs-status") == R.describe(R.Returned(back))


async def test_the_walk_speed_the_player_sets_is_kept_for_next_time():
    from cellwars_tui.games.cell_management.screen import SPEED_SETTING
    from cellwars_tui.ui.themes import load_settings

    CellManagementScreen.speed = 2
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("plus")
        await pilot.pause()
        assert "0.6 s per step" in _text(app.screen, "#gs-status")
    assert load_settings()[SPEED_SETTING] == 3
    CellManagementScreen.speed = 0  # as if the app started afresh
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert CellManagementScreen.speed == 3
        assert "walk 0.6s" in _text(app.screen, "#cm-info")


async def test_the_status_line_and_the_prompt_name_the_same_round():
    app = _app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert _text(screen, "#cm-info").startswith("Round 1 ·")
        assert _text(screen, "#cm-narration").startswith("Round 1: pick")
        plan = _plan()
        screen.play(plan[0])
        await pilot.pause()
        state = screen.table.view(None)
        if state.phase == R.START:
            assert _text(screen, "#cm-info").startswith("Round 2 ·")
            assert _text(screen, "#gs-status").startswith("Round 2: pick")
        else:  # a captive may go back: still the round just walked
            assert _text(screen, "#cm-info").startswith("Round 1 ·")
        await pilot.press("u")
        await pilot.pause()
        assert _text(screen, "#cm-info").startswith("Round 1 ·")
        assert _text(screen, "#cm-narration").startswith("Round 1: pick")


async def test_key_1_and_the_log_use_the_same_cell_numbers():
    app = _app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        state = screen.table.view(None)
        symbol = R.SYMBOLS[state.cells[0]]
        assert screen.query_one("#cm-cell-1").border_title == f"1:{symbol}"
        await pilot.press("1")
        await pilot.pause()
        log = _text(screen, "#gs-log")
        assert f"Round 1: cell 1 (species {symbol}) makes a noise" in log
        second = R.SYMBOLS[state.cells[1]]
        assert f"Cell 2 (species {second}):" in log


async def test_a_puzzle_solved_after_the_solution_is_shown_counts_as_solved_with_help():
    app = _app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        await pilot.press("s")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        for action in _plan():
            screen.play(action)
            await pilot.pause()
        assert screen.table.is_over() and screen.table.outcome().winners == (0,)
        assert "Solved with help in 6 rounds" in _text(screen, "#cm-narration")
        assert "solved with help" in _text(screen, "#cm-info")
        stats = ST.load_stats()
        assert (stats.played, stats.solved, stats.helped, stats.optimal, stats.streak) == \
            (1, 0, 1, 0, 0)
        assert stats.recent[-1].assisted and "1 solved with help" in stats.summary()


async def test_a_hint_marks_the_puzzle_assisted_even_after_leaving_and_resuming():
    match = Match(R.GAME, R.CMOptions(code=PUZZLE), [Seat(name="Me")], 7)
    app = CellwarsApp(match=match)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert not app.screen.assisted
        await pilot.press("h")
        await pilot.pause()
        assert app.screen.assisted
    app = CellwarsApp(match=match)  # the same game opened again
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert screen.assisted
        for action in _plan():
            screen.play(action)
            await pilot.pause()
        assert "Solved with help" in _text(screen, "#cm-narration")
    assert (ST.load_stats().solved, ST.load_stats().helped) == (0, 1)
    fresh = CellwarsApp(match=Match(R.GAME, R.CMOptions(code=PUZZLE), [Seat(name="Me")], 8))
    async with fresh.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert not fresh.screen.assisted  # another game of the same puzzle starts unaided


async def test_a_resumed_puzzle_says_so_and_a_new_one_does_not():
    match = Match(R.GAME, R.CMOptions(code=PUZZLE), [Seat(name="Me")], 3)
    app = CellwarsApp(match=match)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert "Resumed" not in _text(app.screen, "#gs-status")
    match.play(0, _plan()[0])
    app = CellwarsApp(match=match)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        status = _text(app.screen, "#gs-status")
        assert status == "Resumed your unfinished puzzle · n: new puzzle"
        await pilot.press("1")  # the notice goes with the first move
        await pilot.pause()
        assert "Resumed" not in _text(app.screen, "#gs-status")


async def test_redo_replays_the_walk_step_by_step(walk_by_hand):
    app = _app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        before = screen.table.view(None)
        await pilot.press("1", "space", "u")
        await pilot.pause()
        await pilot.press("r")
        await pilot.pause()
        assert screen.animating  # the second repaint of a redo no longer cuts the walk short
        assert _text(screen, "#cm-narration").startswith("Round 1: cell 1 (species ")
        symbol = R.SYMBOLS[before.cells[0]]
        assert _text(screen, "#cm-cell-1").startswith(f"{symbol} {symbol}")  # not moved yet
        screen._tick()
        await pilot.pause()
        assert _text(screen, "#cm-narration").startswith("Cell 1 ")


async def test_the_status_line_names_the_round_being_walked(walk_by_hand):
    app = _app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        await pilot.press("1")
        await pilot.pause()
        assert screen.animating and _text(screen, "#cm-info").startswith("Round 1 ·")
        await pilot.press("space")
        await pilot.pause()
        state = screen.table.view(None)
        assert _text(screen, "#cm-info").startswith(f"Round {screen.round_number(state)} ·")


async def test_friendly_and_hostile_hideouts_differ_without_colour():
    app = _app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        state = screen.table.view(None)
        for p in range(6):
            box = screen.query_one(f"#cm-hideout-{p + 1}")
            hostile = state.hideouts[p] in state.hostile
            glyph = "♛" if hostile else "☼"
            assert box.border_title == f"{glyph}{R.SYMBOLS[state.hideouts[p]]}"
            assert box.styles.border_top[0] == ("double" if hostile else "round")
            assert box.border_subtitle == str(p + 1)  # the cell it stands beside


async def test_a_four_species_ship_has_four_cells_and_hideouts():
    match = Match(R.GAME, R.CMOptions(species=4, code="4#12"), [Seat(name="Me")], 1)
    app = CellwarsApp(match=match)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert len(screen.query(".cm-cell")) == 4 and len(screen.query(".cm-hideout")) == 4
        assert sum(screen.query_one(f"#cm-hideout-{p}").has_class("hostile")
                   for p in range(1, 5)) == 2
        await pilot.press("5")
        await pilot.pause()
        assert "This ship has 4 cells: keys 1-4." in _text(screen, "#gs-status")
        assert screen.table.view(None).round == 0
        await pilot.press("4")
        await pilot.pause()
        assert screen.table.view(None).round == 1


async def test_puzzle_by_number_and_daily_from_the_game_screen():
    import datetime as dt

    from cellwars_tui.games.cell_management.dialogs import PuzzleNumber

    app = _app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("number_sign")
        await pilot.pause()
        assert isinstance(app.screen, PuzzleNumber)
        await pilot.press(*"zz", "enter")
        await pilot.pause()
        status = _text(app.screen, "#gs-status")
        assert "bad setup code" in status and "\n" not in status
        await pilot.press("number_sign")
        await pilot.pause()
        await pilot.press(*"5#12", "enter")
        await pilot.pause()
        state = app.screen.table.view(None)
        assert isinstance(app.screen, CellManagementScreen)
        assert state.species == 5 and state.number == "5#12"
        await pilot.press("d")  # today's puzzle: the launcher's key too
        await pilot.pause()
        state = app.screen.table.view(None)
        assert state.date == dt.date.today().isoformat() and state.species == 5
        await pilot.press("number_sign")
        await pilot.pause()
        await pilot.press(*"#12", "enter")  # a bare number is a six-species puzzle, as shared
        await pilot.pause()
        state = app.screen.table.view(None)
        assert state.species == 6 and state.number == "#12"


async def test_the_ship_shows_both_captives_of_each_cell_and_the_escape_area():
    app = _app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        state = screen.table.view(None)
        for p in range(6):
            symbol = R.SYMBOLS[state.cells[p]]
            assert screen.query_one(f"#cm-cell-{p + 1}").border_title == f"{p + 1}:{symbol}"
            assert _text(screen, f"#cm-cell-{p + 1}") == f"{symbol} {symbol}"
            assert _text(screen, f"#cm-hideout-{p + 1}") == "·"
        assert screen.query_one("#cm-centre").border_title == "escape"
        assert _text(screen, "#cm-centre").split() == ["free", *["·"] * 6, "0", "of", "6"]
        plan = _plan()
        for action in plan[:3]:  # by then a captive is free (the plan sends one back next)
            screen.play(action)
        await pilot.pause()
        state = screen.table.view(None)
        for p in range(6):
            c = state.cells[p]
            shown = [R.SYMBOLS[c]] * state.in_cell[c] + ["·"] * (2 - state.in_cell[c])
            assert _text(screen, f"#cm-cell-{p + 1}") == " ".join(shown)
            h = state.hideouts[p]
            assert _text(screen, f"#cm-hideout-{p + 1}") == (R.SYMBOLS[h] if state.in_hideout[h]
                                                           else "·")
        slots = [R.SYMBOLS[x] if state.in_center[x] else "·" for x in range(6)]
        assert _text(screen, "#cm-centre").split()[1:7] == slots and any(state.in_center)


async def test_a_longer_win_is_shown_against_the_optimum_and_counted():
    setup = R.setup_from_code(PUZZLE)
    start = R.initial_position(setup)
    detour = None
    for cell in setup.cells:  # a first round that costs a round more than the optimum
        after, _ = R.GAME.apply(start, 0, R.Start(cell))
        rest = S.solution_actions(after)
        if rest is not None and 1 + sum(isinstance(a, R.Start) for a in rest) > 6:
            detour = [R.Start(cell), *rest]
            break
    assert detour is not None
    total = sum(isinstance(a, R.Start) for a in detour)
    app = _app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        for action in detour:
            screen.play(action)
            await pilot.pause()
        assert screen.table.outcome().winners == (0,)
        assert _text(screen, "#cm-narration").startswith(
            f"Solved in {total} rounds; the optimum is 6 (+{total - 6}).")
    stats = ST.load_stats()
    assert (stats.solved, stats.optimal, stats.extra_rounds) == (1, 0, total - 6)


async def test_the_palette_shows_the_players_statistics():
    ST.record_result("earlier", code="x", won=True, rounds=8, optimum=7)
    app = _app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        command = next(c for t, _h, c in screen.palette_commands() if t == "Your statistics")
        command()
        await pilot.pause()
        assert _text(screen, "#gs-status") == (
            "Your Cell Management statistics: solved 1/1, streak 1 (best 1), optimal 0/1 "
            "(+1.0 rounds on average).")
