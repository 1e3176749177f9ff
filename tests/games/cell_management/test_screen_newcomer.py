"""Issue 19, Cell Management for a newcomer: a hint never outlives its round, the footer shows
the keys that apply now and fits 80 columns, the daily puzzle has one key everywhere, and the
ship grows with the window."""

from __future__ import annotations

import pytest
from rich.text import Text

from cellwars_tui.core.match import Match, Seat
from cellwars_tui.games.cell_management import rules as R
from cellwars_tui.games.cell_management import solver as S
from cellwars_tui.games.cell_management.screen import CellManagementScreen
from cellwars_tui.ui.app import CellwarsApp
from tests.ui.helpers import until, until_footer_whole

PUZZLE = "#482517"  # the puzzle: round 3's hint (cell 4) is not round 1's (cell 2)


@pytest.fixture(autouse=True)
def _instant_walk():
    old = CellManagementScreen.speed
    CellManagementScreen.speed = 0
    yield
    CellManagementScreen.speed = old


def _app(code: str = PUZZLE) -> CellwarsApp:
    return CellwarsApp(match=Match(R.GAME, R.CMOptions(code=code), [Seat(name="Me")], 1))


def _text(screen, selector: str) -> str:
    rendered = screen.query_one(selector).render()
    return rendered.plain if isinstance(rendered, Text) else str(rendered)


async def _follow_hint(pilot, screen) -> str:
    """Ask for a hint and do what it says; returns the hint as the status line showed it."""
    await pilot.press("h")
    await pilot.pause()
    said = _text(screen, "#gs-status")
    assert said.startswith("Hint:"), said
    action = S.hint(screen.table.view(None))
    state = screen.table.view(None)
    if isinstance(action, R.Start):
        await pilot.press(str(state.position_of_cell(action.cell) + 1))
    elif isinstance(action, R.Return):
        await pilot.press("b", str(state.position_of_hideout(action.species) + 1))
    else:
        await pilot.press("0")
    await pilot.pause()
    return said


async def test_a_hint_is_gone_once_the_player_acts_and_never_shows_in_the_next_round():
    """Issue 19: puzzle #482517 showed round 1's hint ("cell 2") in round 3 (hint: cell 4)."""
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        hints = []
        for _ in range(3):
            hints.append(await _follow_hint(pilot, screen))
            status = _text(screen, "#gs-status")
            assert not status.startswith("Hint:"), (len(hints), status)
        round_now = screen.table.view(None).round
        assert round_now >= 3
        assert not _text(screen, "#gs-status").startswith("Hint:")


RETURNING = "#984"  # its fastest solution sends a captive back once


async def _to_the_round_before_a_return(pilot, screen) -> R.Start:
    """Play the solution up to the round after which a captive is sent back; returns that
    round's start (not played)."""
    plan = S.solution_actions(screen.table.view(None))
    i = next(i for i, a in enumerate(plan) if isinstance(a, R.Return)) - 1
    for action in plan[:i]:
        screen.play(action)
        await pilot.pause()
    assert isinstance(plan[i], R.Start)
    return plan[i]


async def test_the_footer_shows_the_keys_of_the_moment_whole_at_80_columns():
    """Issue 19: at 80 columns the footer was cut ("space Skip w") and the game-over footer
    still offered Send back, Skip, Hint and Solution."""
    app = _app(RETURNING)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        start = await until_footer_whole(pilot)
        assert {"hint", "new_puzzle", "undo"} <= set(start)
        assert not {"send_back", "done", "skip"} & set(start)
        action = await _to_the_round_before_a_return(pilot, screen)
        CellManagementScreen.speed = 5  # a slow walk: its keys while it runs
        state = screen.table.view(None)
        await pilot.press(str(state.position_of_cell(action.cell) + 1))
        await pilot.pause()
        assert screen.animating
        walking = await until_footer_whole(pilot)
        assert "skip" in walking and "hint" not in walking
        await pilot.press("space")
        await pilot.pause()
        assert not screen.animating and screen.table.view(None).phase == R.RETURN
        back = await until_footer_whole(pilot)
        assert {"send_back", "done", "hint"} <= set(back) and "skip" not in back
        await pilot.press("s")  # out of the footer here, but the key still works
        await pilot.pause()
        from cellwars_tui.games.cell_management.dialogs import SolutionScreen

        assert isinstance(app.screen, SolutionScreen)
        await pilot.press("escape")
        await pilot.pause()
        screen.play(R.GiveUp())
        await pilot.pause()
        assert screen.table.is_over()
        over = await until_footer_whole(pilot)
        assert set(over) <= {"undo", "redo", "rules", "back", "new_puzzle"}, over
        assert {"new_puzzle", "undo", "back"} <= set(over)


async def test_what_to_do_is_on_the_status_line_whole_at_80_columns():
    """Issue 19: after a walk the two narration lines held what happened and what to do, and
    the prompt was cut at 80 columns; the status line said only "your move (4 legal)"."""
    app = _app(RETURNING)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        status = screen.query_one("#gs-status")
        assert _text(screen, "#gs-status").startswith("Round 1: pick the cell")
        action = await _to_the_round_before_a_return(pilot, screen)
        state = screen.table.view(None)
        await pilot.press(str(state.position_of_cell(action.cell) + 1))
        await pilot.pause()
        assert screen.table.view(None).phase == R.RETURN
        prompt = _text(screen, "#gs-status")
        assert prompt.startswith("Send an escaped captive back? b then")
        assert len(prompt) <= status.content_region.width
        narration = screen.query_one("#cm-narration")
        lines = narration.render_lines(narration.region.reset_offset)
        told = " ".join("".join(seg.text for seg in line).strip() for line in lines).split()
        assert "Free" in told and told == _text(screen, "#cm-narration").split()  # all shown


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (160, 50)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_ship_grows_with_the_window_in_proportion(size):
    """Issue 19: at 160x50 the ship stayed 18 rows high and its ring boxes stretched
    lopsided (a quarter of the board wide, three rows high)."""
    app = _app()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        ship = screen.query_one("#cm-ship")
        board = screen.query_one("#gs-board")
        cell = screen.query_one("#cm-cell-1")
        assert board.region.contains_region(ship.region)
        assert cell.region.width <= 4 * cell.region.height + 6  # no long flat boxes
        if size == (80, 24):
            assert ship.region.height == 18
        else:
            assert ship.region.height >= 30 and cell.region.height >= 5
            spare = board.region.width - ship.region.width
            assert abs((ship.region.x - board.region.x) - spare // 2) <= 2  # centred
        for selector in ("#cm-narration", "#cm-info"):  # below the ship, inside the window
            line = screen.query_one(selector).region
            assert line.y >= ship.region.bottom and line.bottom <= size[1] - 2


async def test_at_80x24_the_result_line_says_solved_with_help():
    """Issue 29: at 80x24 the game-over banner covers the narration, where the verdict was; the
    banner's own line said only "You win (escaped in 6 rounds)"."""
    app = _app("#984")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        await pilot.pause()
        screen.mark_assisted()  # (as the solution key, a hint or the lesson do)
        setup = R.setup_from_code("#984")
        for action in S.solution_actions(R.initial_position(setup)):
            screen.play(action)
            await pilot.pause()
        await until(pilot, lambda: screen.query_one("#gs-banner").has_class("over"), "over")
        await pilot.pause()
        verdict = "Solved with help in 6 rounds; the optimum is 6 (not counted as solved)."
        result = screen.query_one("#gs-result")
        assert _text(screen, "#gs-result") == verdict == screen.log_events(1)[-1][2]
        assert len(verdict) <= 2 * result.content_region.width and result.region.bottom <= 24
