"""Snapshot tests of the Cellulis Bellum table (pytest-textual-snapshot): a position in the middle
of a game with every kind of thing the board draws (cells of both colours on corners and centres,
colonies linked in their owner's colour, both nuclei, both viruses, Yellow's wall closing a
territory, the territory overlay, a selected cell with its burst targets lit and the cursor on a
centre), at 80x24 (the compact board) and 160x50 (the large one), in each shipped theme.

The pictures live in ``__snapshots__/test_screen_snapshots/``. After a deliberate change of the
look, look at the new pictures (``pytest --snapshot-update`` writes them, the HTML report shows
the difference) before committing them."""

from __future__ import annotations

from pathlib import Path

import pytest

from cellwars_tui.core.match import Match, Seat
from cellwars_tui.games.cellulis_bellum import geometry as G
from cellwars_tui.games.cellulis_bellum import rules as R
from cellwars_tui.games.cellulis_bellum.screen import LEFT, SIDE_GAP, BoardView
from cellwars_tui.ui.app import CellwarsApp
from tests.ui.helpers import until

from .helpers import P, pos

THEMES = sorted(p.stem for p in (Path(__file__).parents[3] / "themes").glob("*.toml"))


def snapshot_match() -> Match:
    """Yellow (a person) to play against a Violet bot: Yellow's wall b4-bc34-c3-cd34-d4-de34-e3
    closes the lower left with the edge, Violet holds a colony round its nucleus, a Violet cell
    sits inside Yellow's area, each side has a virus."""
    m = Match(R.GAME, R.CellulisBellumOptions(),
              [Seat(name="Ann"), Seat(name="Bot", kind="bot", bot="mcts", think=0.1)], 5)
    s = pos("y a4 b4 bc34 c3 cd34 d4 de34 e3 ef23 f2 fg12 g1 b2 c2",
            "v d5 cd56 de56 e5 c5 f4", "v b1",
            "Y b3", "V d6", "1 a5", "2 g5", turn=14)
    R.GAME.check_invariants(s)
    m.states[m.cursor] = s
    return m


async def _select_a_cell(pilot) -> None:
    screen = pilot.app.screen
    view = screen.query_one(BoardView)
    await until(pilot, lambda: view.size.width == G.SQUARES_W * view.pick_scale()[0] + 1 + LEFT
                + SIDE_GAP, "the side column fitted beside the board")
    screen.cursor = P("c2")
    await pilot.press("enter")  # selects the cell on c2: its burst targets light up
    screen.cursor = P("bc23")
    await pilot.press("t")  # and the territories
    await pilot.pause()


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("size", [(80, 24), (160, 50)], ids=["80x24", "160x50"])
def test_the_table_looks_as_approved(snap_compare, theme, size):
    app = CellwarsApp(match=snapshot_match(), theme=theme)
    assert snap_compare(app, terminal_size=size, run_before=_select_a_cell)
