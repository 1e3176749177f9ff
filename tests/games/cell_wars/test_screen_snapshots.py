"""Snapshot tests of the Cell Wars table (pytest-textual-snapshot): a 6-player position with every
kind of thing the board draws (the three tissues, two walls, an active and three inactive CARD
signs, the generator, the wall factory, both vessels, six pieces, the range of the selected immune
cell and the tiles it may step to), at 80x24 and 160x50 in each shipped theme.

The pictures live in ``__snapshots__/test_screen_snapshots/``. After a deliberate change of the
look, look at the new pictures (``pytest --snapshot-update`` writes them, the HTML report shows
the difference) before committing them."""

from __future__ import annotations

from pathlib import Path

import pytest

from cellwars_tui.core.match import Match
from cellwars_tui.games.cell_wars import board as B
from cellwars_tui.games.cell_wars import rules as R
from cellwars_tui.games.cell_wars.cards import card_id
from cellwars_tui.ui.app import CellwarsApp

from .helpers import CANCER_TILES, PIECES, SIGNS, Ca, Ia, T, give, panel, replace, tiles, turn
from .test_screen import _match

THEMES = sorted(p.stem for p in (Path(__file__).parents[3] / "themes").glob("*.toml"))


def snapshot_match() -> Match:
    """Six players (a person leading Immune alpha, five bots) after the standard setup, arranged
    to Immune alpha's movement in round 4: a solidified tile, walls E4|E5 and C2|D2, the first
    CARD sign active, Cytokine (range +1) on Immune alpha's panel, a card in its hand and a
    hidden one in Cancer alpha's."""
    m = _match(players=6, seed=5)
    for text in [f"sign {t}" for t in SIGNS] + [f"tissue {t}" for t in CANCER_TILES] + \
            [f"place {t}" for t in PIECES]:
        m.play(m.to_act()[0], R.GAME.action_from_str(text))
    s = tiles(m.state, solid=("H4",))
    s = give(s, Ia, "maltose", "cytokine")
    s = give(s, Ca, "metastasis")
    s = panel(s, Ia, hand=(card_id("maltose"),), active=((card_id("cytokine"), 0),))
    walls = sorted((B.edge_between(T["E4"], T["E5"]), B.edge_between(T["C2"], T["D2"])))
    s = replace(s, walls=tuple(walls), card_signs=(True, False, False, False), round=4)
    s = turn(s, Ia, step=R.MOVE, rolled=True, moves=2)
    R.GAME.check_invariants(s)
    m.states[m.cursor] = s
    return m


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("size", [(80, 24), (160, 50)], ids=["80x24", "160x50"])
def test_the_table_looks_as_approved(snap_compare, theme, size):
    assert snap_compare(CellwarsApp(match=snapshot_match(), theme=theme), terminal_size=size)
