"""Cell Wars in the replay viewer: which hands the side panel names in each view, and one repaint
per change (the screen is subscribed to its table once)."""

from __future__ import annotations

import re

from rich.text import Text

from cellwars_tui.games.cell_wars import clarifications as C
from cellwars_tui.games.cell_wars import rules as R
from cellwars_tui.games.cell_wars.cards import CARDS
from cellwars_tui.games.cell_wars.screen import CellWarsScreen
from cellwars_tui.record import save_match
from cellwars_tui.ui.app import CellwarsApp
from cellwars_tui.ui.replay import ReplayScreen
from cellwars_tui.table.local import LocalTable
from tests.test_conformance import play_random
from tests.ui.helpers import repaints_while_playing
from tests.ui.test_replay_screen import SIZE, Host

from .test_screen import _match, _settle


def _side(screen) -> str:
    """The side panel's text, a hand wrapped onto more lines joined back into one."""
    rendered = screen.query_one("#gs-seats").render()
    text = rendered.plain if isinstance(rendered, Text) else str(rendered)
    return re.sub(r",\n +", ", ", text)


def _hand_line(pn) -> str:
    return "hand: " + ", ".join(CARDS[c].name for c in pn.hand)


async def test_replay_names_every_hand_in_reveal_all_and_only_the_seats_own_in_its_view(tmp_path):
    match = play_random(R.GAME, 2, 2, checks=False)
    owners = C.PANEL_OWNERS[2]
    # a position where both seats hold cards, and not in the panel about to act only
    n = next(i for i, s in enumerate(match.states)
             if len({owners[p] for p, pn in enumerate(s.panels) if pn.hand}) == 2)
    path = tmp_path / "cw.cellwars.json"
    save_match(match, path)
    app = Host(path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen) and isinstance(screen, CellWarsScreen)
        screen.seek(n)
        state = match.states[n]
        holding = [p for p, pn in enumerate(state.panels) if pn.hand]
        screen.set_view(None)
        await pilot.pause()
        side = _side(screen)
        for p in holding:  # reveal all: every hand by name
            assert _hand_line(state.panels[p]) in side, (p, side)
        assert "hidden card" not in side
        for seat in (0, 1):
            screen.set_view(seat)
            await pilot.pause()
            side = _side(screen)
            for p in holding:
                if owners[p] == seat:
                    assert _hand_line(state.panels[p]) in side, (seat, p, side)
                else:
                    assert _hand_line(state.panels[p]) not in side
                    k = len(state.panels[p].hand)
                    assert f"hand: {k} hidden card" in side


async def test_one_repaint_per_action_in_play():
    app = CellwarsApp(match=_match(humans=1))
    async with app.run_test(size=(100, 30)) as pilot:
        await _settle(pilot)
        screen = app.screen
        assert isinstance(screen, CellWarsScreen) and screen.legal
        table: LocalTable = screen.table
        assert table._listeners.count(screen._table_changed) == 1
        assert repaints_while_playing(screen, screen.legal[0]) == 1
