"""Cellulis Bellum for a newcomer: every glyph the board draws is in the legend one key away (i)
and on the rules page's "On the screen", in the colours the themes really draw, and the points a
lesson step is about are lit on the board."""

from __future__ import annotations

import colorsys
import re
import tomllib
from pathlib import Path

import msgspec
import pytest
from rich.text import Text

from cellwars_tui.core.match import Match, Seat
from cellwars_tui.games.cellulis_bellum import legend as L
from cellwars_tui.games.cellulis_bellum import rules as R
from cellwars_tui.games.cellulis_bellum.screen import COMPACT, HUGE, MEDIUM, char_xy
from cellwars_tui.record import load_match
from cellwars_tui.ui.app import CellwarsApp
from cellwars_tui.ui.widgets.keys_panel import KeysPanel
from tests.ui.helpers import settle

from .helpers import P, pos

RULES = Path(R.__file__).with_name("rules.md")
RECORDS = Path(__file__).with_name("records")
THEMES = sorted(Path(R.__file__).parents[2].joinpath("themes").glob("*.toml"))
# every state the board can be drawn in: pieces of both players, a dead nucleus, a virus each
# (Yellow's rhombus of eight around d3 and rhombus of four b3-b4; a virus for Violet only, so
# that Yellow may generate one)
BUSY = pos("y a1 b1 ab12 c3 cd23 cd34 d4 de34 e3 de23 b3 b4 ab34 bc34", "v f5 g5 fg45", "2 g1",
           "Y d2", "V d5")
VIRUSES = pos("y a1", "1 a6", "2 g1")


def _app(start) -> CellwarsApp:
    match = Match(R.GAME, R.CellulisBellumOptions(), [Seat(name="Ann"), Seat(name="Bob")], 1)
    match.states[0] = start
    return CellwarsApp(match=match)


def _plain(widget) -> str:
    rendered = widget.render()
    return rendered.plain if isinstance(rendered, Text) else str(rendered)


def _drawn(board: Text) -> set[str]:
    """The glyphs of a board drawing (rank numbers and file letters left out)."""
    lines = board.plain.splitlines()[:-1]  # (the last line: the file letters)
    return {ch for line in lines for ch in line[3:] if not ch.isspace()}


async def test_the_board_draws_only_glyphs_the_legend_names():
    """Every mode (nothing lit, a selection, spawn points, the virus's rays, a rhombus, the
    virus's points), at the compact, medium and huge scales, and the 42-point board."""
    seen: set[str] = set()
    for start in (BUSY, VIRUSES, msgspec.structs.replace(BUSY, dead=(False, True))):
        app = _app(start)
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            screen = app.screen
            for mode in (None, "spawn", "aim", "apo", "gen"):
                screen.mode = mode
                if mode == "apo":
                    screen.action_apoptosis()
                if mode is None:
                    screen.selected = P("c3")
                for scale in (COMPACT, MEDIUM, HUGE):
                    seen |= _drawn(screen.draw_board(scale))
                screen.selected = None
    record = load_match(RECORDS / "pruned-virus-kill.cellwars.json")
    app = CellwarsApp(match=record)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        seen |= _drawn(app.screen.draw_board(MEDIUM))
    assert seen <= set(L.BOARD_GLYPHS), seen - set(L.BOARD_GLYPHS)
    # and the test saw them all: the legend names nothing the board never draws
    assert seen == set(L.BOARD_GLYPHS), set(L.BOARD_GLYPHS) - seen


async def test_i_shows_the_keys_and_every_glyph_of_the_board_whole_at_80x24():
    app = _app(BUSY)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        board = app.screen
        await pilot.press("i")
        await pilot.pause()
        keys = app.screen
        assert isinstance(keys, KeysPanel)
        text = _plain(keys.query_one("#keys-text"))
        for glyph in L.BOARD_GLYPHS:
            assert re.search(rf"(^|\s|\(){re.escape(glyph)}(\s|$|[),:;])", text, re.M), glyph
        for key in ("Home", "PgUp", "End", "PgDn", "Enter"):
            assert key in text
        hint = keys.query_one("#keys-hint")
        assert hint.region.bottom <= 24 and hint.region.height == 1
        box = keys.query_one("#keys-text")
        assert box.region.height == len(keys.text.splitlines())
        assert all(len(line) <= box.region.width for line in keys.text.splitlines())
        cursor = board.cursor
        await pilot.press("right")  # any key closes the panel, and does nothing else
        await pilot.pause()
        assert app.screen is board and board.cursor == cursor


def _on_the_screen() -> str:
    page = RULES.read_text(encoding="utf-8")
    assert "## On the screen" in page
    return page.split("## On the screen", 1)[1].split("\n## ", 1)[0]


def test_the_rules_page_explains_every_glyph_colour_and_the_two_board_sizes():
    screen = _on_the_screen()
    for glyph in L.BOARD_GLYPHS:
        assert f"`{glyph}`" in screen, glyph
    for name in ("seat-4", "seat-5", "muted", "board-line", "target", "danger", "highlight",
                 "board"):
        assert f"`{name}`" in screen, name
    for words in ("80x24", "160x50", "cursor", "selected", "territory", "lesson", "`i`"):
        assert words in screen, words


def _hue_word(hex_colour: str) -> str:
    """A colour's everyday name, roughly: what a player would call it."""
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


@pytest.mark.parametrize("variable", ["seat-4", "seat-5", "muted", "target", "danger",
                                      "highlight"])
def test_the_colours_the_rules_page_names_are_those_every_theme_draws(variable):
    assert len(THEMES) == 3
    row = next(line for line in _on_the_screen().splitlines()
               if line.startswith("|") and f"`{variable}`:" in line)
    for path in THEMES:
        colour = tomllib.loads(path.read_text(encoding="utf-8"))["variables"][variable]
        assert _hue_word(colour) in row, (path.stem, variable, colour, row)


async def test_the_points_a_lesson_step_is_about_are_lit_and_unlit():
    app = _app(BUSY)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        screen.highlight(("d5", "cd23", "not-a-point"))
        assert screen.lit_points() == {P("d5"), P("cd23")}
        board = screen.draw_board(COMPACT)
        lit = screen.colour("highlight").lower()
        for name in ("d5", "cd23"):
            x, y = char_xy(P(name), COMPACT)
            style = str(board.split("\n")[y].get_style_at_offset(app.console, x + 3)).lower()
            assert f"on {lit}" in style, (name, style)
        x, y = char_xy(P("d2"), COMPACT)
        style = str(board.split("\n")[y].get_style_at_offset(app.console, x + 3)).lower()
        assert f"on {lit}" not in style
        screen.highlight(())
        assert not screen.lit_points()


async def test_shift_b_shows_the_biology_of_the_pieces_in_any_game():
    """The lesson's notes (cell, nucleus, virus, apoptosis...) are one key away in every game of
    Cellulis Bellum, not only in the lesson."""
    from cellwars_tui.ui.widgets.lesson_panel import NotesScreen

    app = _app(BUSY)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        board = app.screen
        await pilot.press("B")
        await pilot.pause()
        notes = app.screen
        assert isinstance(notes, NotesScreen)
        assert {"Cell", "Nucleus", "Virus", "Apoptosis"} <= set(notes.notes)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is board


async def test_the_biology_notes_say_how_to_scroll_and_close_at_80x24():
    """At 80x24 the notes are longer than the window: the hint (how to scroll, how to close) and
    the title stay in view from the first line, and End scrolls to the last note instead of
    closing the notes (a player met a panel with a scrollbar and no word on how to scroll it)."""
    from textual.containers import VerticalScroll

    from cellwars_tui.ui.widgets.lesson_panel import NotesScreen

    app = _app(BUSY)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("B")
        await settle(pilot)
        notes = app.screen
        assert isinstance(notes, NotesScreen)
        scroll = notes.query_one(VerticalScroll)
        assert scroll.max_scroll_y > 0, "the notes fit: this test needs a longer text"
        for name in ("#notes-title", "#notes-hint"):
            region = notes.query_one(name).region
            assert region.height and 0 <= region.y and region.bottom <= 24, name
        assert "scroll" in _plain(notes.query_one("#notes-hint"))
        await pilot.press("end")
        await settle(pilot)
        assert app.screen is notes and scroll.scroll_y == scroll.max_scroll_y
        await pilot.press("home")
        await settle(pilot)
        assert app.screen is notes and scroll.scroll_y == 0
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, NotesScreen)
