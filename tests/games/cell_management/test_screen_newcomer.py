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
