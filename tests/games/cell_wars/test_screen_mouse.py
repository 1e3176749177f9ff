"""A whole Cell Wars game through the table screen by mouse alone: clicks on tiles and on the
numbered choices, the immune seat (a person) against a random bot leading the cancer camp."""

from __future__ import annotations

import pytest

from cellwars_tui.games.cell_wars import rules as R
from cellwars_tui.ui.app import CellwarsApp

from .test_screen import _match, _no_dice_animation, _play_to_the_end  # noqa: F401


@pytest.mark.slow
async def test_a_whole_two_player_game_by_mouse():
    app = CellwarsApp(match=_match(seed=12))
    async with app.run_test(size=(80, 24)) as pilot:
        app.screen.table.autosave_enabled = False  # (saving is tested on its own: fsync is slow)
        decisions, _ = await _play_to_the_end(pilot, mouse=True, seed=2)
        table = app.screen.table
        assert table.is_over() and decisions > 30
        assert table.state().phase == R.OVER
        humans = [st.action for st in table.match.steps if st.seat == 0]
        assert sum(isinstance(a, R.Sign) for a in humans) == 8
        assert any(isinstance(a, R.Step) for a in humans)
