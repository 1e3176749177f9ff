"""What the New-game dialog tells a newcomer, whole at 80x24: an empty free-text option says what
empty means and what else to type (Infection's "Paces" was a blank field with nothing to go on),
each Cell Wars seat its camp and its cells (by the rules chosen), a solitaire that it has no bot levels."""

from __future__ import annotations

from contextlib import asynccontextmanager

import pytest
from textual.widgets import Input, Label, Select, Static

from cellwars_tui.core.registry import all_games, get_game
from cellwars_tui.ui.app import CellwarsApp
from cellwars_tui.ui.request import option_fields, option_hint
from cellwars_tui.ui.setup import NewGameScreen
from tests.ui.helpers import settle


def test_every_free_text_option_of_every_game_declares_what_its_field_means():
    text_options = [(game, f.name) for game in all_games() for f in option_fields(game)
                    if f.type is str]
    assert {(g.id, name) for g, name in text_options} >= {("infection", "paces"),
                                                           ("cell-management", "code")}
    for game, name in text_options:
        assert option_hint(game, name), (game.id, name)


def test_an_option_without_a_declared_note_has_no_hint_and_keeps_its_plain_type():
    game = get_game("infection")
    types = {f.name: f.type for f in option_fields(game)}
    assert types["paces"] is str and types["round_seconds"] is int
    assert option_hint(game, "round_seconds") == "" and option_hint(game, "no-such") == ""


@asynccontextmanager
async def _dialog(game_id: str):
    """The New-game dialog of ``game_id`` at 80x24, settled: (pilot, dialog)."""
    app = CellwarsApp(games=[])
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = NewGameScreen(get_game(game_id))
        app.push_screen(dialog)
        await settle(pilot)
        yield pilot, dialog


def _text(widget) -> str:
    return str(widget.render())


@pytest.mark.parametrize(("game_id", "name"), [("infection", "paces"),
                                               ("cell-management", "code")])
async def test_the_empty_field_shows_its_hint_whole_at_80x24(game_id, name):
    async with _dialog(game_id) as (pilot, dialog):
        field = dialog.query_one(f"#opt-{name}", Input)
        hint = option_hint(get_game(game_id), name)
        assert field.value == "" and field.placeholder == hint
        field.scroll_visible()
        await settle(pilot)
        assert field.content_region.width >= len(hint)  # shown whole, not cut


def _titles(dialog: NewGameScreen) -> list[str]:
    return [_text(row.query_one(".setup-label", Label)) for row in dialog.query(".setup-seat")
            if row.display]


async def test_each_seat_says_which_camp_it_leads_for_the_players_chosen():
    async with _dialog("cell-wars") as (pilot, dialog):
        assert _titles(dialog) == ["Seat 1 · Immune", "Seat 2 · Cancer"]
        dialog.query_one("#setup-players", Select).value = 4
        await settle(pilot)
        assert _titles(dialog) == ["Seat 1 · Immune", "Seat 2 · Cancer", "Seat 3 · Cancer",
                                   "Seat 4 · Immune"]
    async with _dialog("virus-fight") as (pilot, dialog):  # every seat alone: no camp to name
        assert _titles(dialog) == ["Seat 1", "Seat 2"]


async def test_a_solitaire_says_it_has_no_bot_levels_whole_at_80x24():
    async with _dialog("cell-management") as (pilot, dialog):
        note = dialog.query_one("#solitaire-row .setup-note", Static)
        assert "no bot levels" in _text(note)
        row = dialog.query_one("#solitaire-row")
        assert note.region.right <= row.region.right  # inside its row: the wider labels cut it


async def test_cell_wars_says_which_cells_each_seat_leads_for_the_players_chosen():
    async with _dialog("cell-wars") as (pilot, dialog):
        row = dialog.query_one("#seating-row")
        line = dialog.query_one("#setup-seating", Static)
        assert row.display and _text(dialog.query_one("#setup-seating-label", Label)) == \
            "Cells led"
        assert _text(line) == "1: Ia Ib Ig · 2: Ca Cb Cg"
        for players, text in ((4, "1: Ia Ig · 2: Ca · 3: Cb Cg · 4: Ib"),  # the fifth edition's
                              (6, "1: Ia · 2: Ca · 3: Cb · 4: Ib · 5: Ig · 6: Cg")):
            dialog.query_one("#setup-players", Select).value = players
            await settle(pilot)
            assert _text(line) == text
            line.scroll_visible()
            await settle(pilot)
            assert line.region.right <= row.region.right  # whole at 80x24
        dialog.query_one("#setup-players", Select).value = 4
        dialog.query_one("#opt-rules", Select).value = "as printed"  # the second edition's split
        await settle(pilot)
        assert _text(line) == "1: Ia Ig · 2: Ca Cg · 3: Cb · 4: Ib"
    async with _dialog("virus-fight") as (pilot, dialog):  # a seat is its own piece: no line
        assert not dialog.query_one("#seating-row").display
