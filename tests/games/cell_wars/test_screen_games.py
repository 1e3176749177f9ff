"""A whole Cell Wars game through the table screen by keys: the immune seat (a person) against a
random bot leading the cancer camp, from the first special spot to the result (kept apart from
test_screen.py, and the game by mouse in test_screen_mouse.py, so each file stays quick)."""

from __future__ import annotations

import pytest

from cellwars_tui.games.cell_wars import rules as R
from cellwars_tui.ui.app import CellwarsApp

from .test_screen import _match, _no_dice_animation, _play_to_the_end  # noqa: F401


@pytest.mark.slow
async def test_a_whole_two_player_game_by_keys():
    app = CellwarsApp(match=_match(seed=11))
    async with app.run_test(size=(80, 24)) as pilot:
        app.screen.table.autosave_enabled = False  # (saving is tested on its own: fsync is slow)
        decisions, steps = await _play_to_the_end(pilot, mouse=False, seed=1)
        screen = app.screen
        table = screen.table
        assert table.is_over() and table.outcome() is not None
        assert decisions > 30
        state = table.state()
        assert state.phase == R.OVER and state.result
        assert screen.query_one("#gs-banner").has_class("over")
        status = str(screen.query_one("#gs-status").render())
        assert status.startswith(("Game over: You win", "Game over: You lose", "Game over: Tie"))
        # the immune camp (seat 1) set the special spots up and played its rounds by keys
        humans = [st.action for st in table.match.steps if st.seat == 0]
        assert 0 < len(humans) <= decisions
        assert sum(isinstance(a, R.Sign) for a in humans) == 8
        assert sum(isinstance(a, R.Place) for a in humans) == 3
        assert any(isinstance(a, (R.Step, R.Roll)) for a in humans)
