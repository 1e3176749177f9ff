"""Issue 19, Cell Wars for a newcomer: every glyph of the board explained one key away (k) and
on the rules page, and your own attack's result kept in view at 80x24 when the log moves on."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rich.text import Text

from cellwars_tui.games.cell_wars import rules as R
from cellwars_tui.games.cell_wars.labels import (PIECE_MARKS, SPOT_GLYPHS, TISSUE_GLYPHS,
                                                 WALL_GLYPH)
from cellwars_tui.games.cell_wars.screen import CellWarsScreen
from cellwars_tui.ui.app import CellwarsApp
from cellwars_tui.ui.widgets.keys_panel import KeysPanel

from .helpers import Ca, Ia, panel, put, standard, turn
from .test_screen_decisions import _arranged

RULES = Path(R.__file__).with_name("rules.md")
GLYPHS = {*TISSUE_GLYPHS, *SPOT_GLYPHS, "c", WALL_GLYPH, *PIECE_MARKS}


@pytest.fixture(autouse=True)
def _no_dice_animation():
    old = CellWarsScreen.dice_seconds
    CellWarsScreen.dice_seconds = 0
    yield
    CellWarsScreen.dice_seconds = old


def _plain(widget) -> str:
    rendered = widget.render()
    return rendered.plain if isinstance(rendered, Text) else str(rendered)


async def test_k_shows_the_keys_and_every_glyph_of_the_board_whole_at_80x24():
    app = CellwarsApp(match=_arranged(standard(), human=0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("k")
        await pilot.pause()
        keys = app.screen
        assert isinstance(keys, KeysPanel)
        text = _plain(keys.query_one("#keys-text"))
        for glyph in GLYPHS:  # each glyph the board draws stands in the legend
            assert re.search(rf"(^|\s){re.escape(glyph)}(\s|$)", text, re.M), glyph
        # nothing of it is cut: the whole panel (its hint, last) is inside the window
        hint = keys.query_one("#keys-hint")
        assert hint.region.bottom <= 24 and hint.region.height == 1
        box = keys.query_one("#keys-text")
        assert box.region.height == len(keys.text.splitlines())
        assert all(len(line) <= box.region.width for line in keys.text.splitlines())


def test_the_rules_page_explains_the_screen_with_every_glyph_and_the_themes_colour_names():
    page = RULES.read_text(encoding="utf-8")
    assert "## On the screen" in page
    screen = page.split("## On the screen", 1)[1].split("\n## ", 1)[0]
    for glyph in GLYPHS:
        assert f"`{glyph}`" in screen, glyph
    for name in ("tissue-normal", "tissue-cancer", "tissue-solid", "target", "highlight",
                 "immune", "danger"):
        assert f"`{name}`" in screen, name
    for key in ("`k`", "`0`", "`n`", "Enter", "`w`", "`x`"):
        assert key in screen, key
    # the tiles are told by the colours the themes draw (never "blue and red" tiles)
    assert "*normal* (blue)" not in page and "*cancer* (red)" not in page


def _hue_word(hex_colour: str) -> str:
    """A colour's everyday name, roughly: what a player would call it."""
    import colorsys

    r, g, b = (int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    h, lightness, saturation = colorsys.rgb_to_hls(r, g, b)
    h *= 360
    if saturation < 0.15:
        return "grey"
    if h >= 345 or h < 15:
        return "pink" if lightness > 0.7 else "red"
    for top, word in ((45, "orange"), (70, "yellow"), (170, "green"), (260, "blue"),
                      (300, "purple")):
        if h < top:
            return word
    return "purple" if lightness < 0.5 else "pink"


@pytest.mark.parametrize("variable", ["tissue-normal", "tissue-cancer", "tissue-solid",
                                      "target", "highlight", "immune", "danger"])
def test_the_colours_the_rules_page_names_are_those_every_theme_draws(variable):
    """Issue 19: the page said blue and red tiles where the themes draw pink and purple."""
    import tomllib

    themes = sorted(Path(R.__file__).parents[2].joinpath("themes").glob("*.toml"))
    assert len(themes) == 3
    screen = RULES.read_text(encoding="utf-8").split("## On the screen", 1)[1]
    row = next(line for line in screen.splitlines()
               if line.startswith("|") and f"`{variable}`" in line)
    for path in themes:
        colour = tomllib.loads(path.read_text(encoding="utf-8"))["variables"][variable]
        assert _hue_word(colour) in row, (path.stem, variable, colour, row)


async def test_your_attack_result_stays_in_view_at_80x24_after_the_log_moves_on():
    s = put(standard(), Ia="G4")
    s = panel(s, Ia, last_dir=-1)
    s = turn(s, Ia, step=R.ATTACK, rolled=True)
    app = CellwarsApp(match=_arranged(s, human=0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        key = next(c.key for c in screen.choices if c.label.startswith("attack Ca"))
        await pilot.press(key)
        await pilot.pause()
        match = screen.table.match
        step = next(i for i in range(len(match.history)) if any(
            isinstance(e, R.AttackResult) for e in match.events[i]))
        result = next(e for e in match.events[step] if isinstance(e, R.AttackResult))
        side = _plain(screen.query_one("#gs-seats"))
        assert f"attack Ia→Ca roll {result.roll}:" in side
        # the bots play on; the log fills with their round, the result stays at the side
        while screen.table.state().panel == Ia and screen.legal:
            await pilot.press("0")
            await pilot.pause()
        for _ in range(40):
            await pilot.pause()
        assert f"attack Ia→Ca roll {result.roll}:" in _plain(screen.query_one("#gs-seats"))
