"""Cellulis Bellum's ending explains itself, and the territories can be read on the board.

The position (issue 29): Yellow has a solid block of cells in the corner a1-b2 and its nucleus on
e1, out in the open with Violet's; Violet has walled off the top of the board along rank 4 and its
virus on c6 has Violet's own nucleus (d6) on its ray. Violet fires through its own nucleus and
wins on territory, 48 to 0: the end must say so, and say why Yellow's block counts nothing.
"""

from __future__ import annotations

import msgspec
import pytest
from rich.text import Text

from cellwars_tui.core.match import Match, Seat
from cellwars_tui.games.cellulis_bellum import rules as R
from cellwars_tui.games.cellulis_bellum.notation import ending_text, territory_note
from cellwars_tui.games.cellulis_bellum.position import territory_view
from cellwars_tui.games.cellulis_bellum.screen import COMPACT, MEDIUM, BoardView, _blend
from cellwars_tui.ui.app import CellwarsApp
from cellwars_tui.ui.widgets.keys_panel import KeysPanel
from tests.ui.helpers import until

from .helpers import P, play, pos

BLOCK = "y a1 b1 a2 b2 ab12 ab23 bc12"
WALL = "v a4 b4 c4 d4 e4 f4 g4 ab34 bc34 cd34 de34 ef34 fg34"
START = pos(BLOCK, "Y e1", WALL, "V d6", "2 c6", seat=1)
NAMES = ["Yellow", "Violet"]
ENDING = "Violet's nucleus died to its own virus; territory decides: Violet 48, Yellow 0"
YELLOW_WHY = ("Yellow 0: no Yellow wall parts the two nuclei (a territory holds one); 6 triangles "
              "closed with no nucleus never count.")


def _app(start, violet: Seat = Seat(name="Violet")) -> CellwarsApp:
    match = Match(R.GAME, R.CellulisBellumOptions(), [Seat(name="Yellow"), violet], 1)
    match.states[0] = start
    return CellwarsApp(match=match)


def _plain(screen, selector: str) -> str:
    rendered = screen.query_one(selector).render()
    return rendered.plain if isinstance(rendered, Text) else str(rendered)


# -- the words, headless -----------------------------------------------------------------------
def test_the_ending_says_what_happened_and_what_territory_decided():
    over, _ = play(START, "shoot e")
    assert ending_text(over, NAMES) == ENDING
    yellow, violet = territory_view(over.board, 0), territory_view(over.board, 1)
    assert territory_note(yellow, NAMES) == YELLOW_WHY
    assert yellow.shared and len(yellow.pockets) == 6 and not yellow.counted
    assert territory_note(violet, NAMES) == (
        "Violet 48: the ground Violet's walls close around its nucleus; 6 triangles closed "
        "with no nucleus never count.")


@pytest.mark.parametrize("start, shot, text", [
    (pos("Y b1", "V d5", "1 d3"), "shoot n",
     "Yellow's virus destroyed Violet's nucleus; territory decides: a draw, 0 each"),
    (pos("Y d1", "V d5", "1 d3"), "shoot s",
     "Yellow's nucleus died to its own virus; territory decides: a draw, 0 each"),
    (pos("Y d1", "V d6", "1 d3", "y a2 b2 c2 d2 e2 f2 g2 ab12 bc12 cd12 de12 ef12 fg12"), "shoot n",
     "Yellow's virus destroyed Violet's nucleus; territory decides: Yellow 18, Violet 0"),
])
def test_each_way_a_game_ends_is_worded_as_it_happened(start, shot, text):
    over, _ = play(start, shot)
    assert ending_text(over, NAMES) == text


def test_both_nuclei_in_one_shot_and_the_turn_limit_are_worded_too():
    over, _ = play(pos("Y d2", "V d5", "1 d3"), "shoot n")
    both = msgspec.structs.replace(over, dead=(True, True))
    assert ending_text(both, NAMES).startswith("Yellow's virus destroyed both nuclei;")
    limit, _ = play(pos("Y d2", "V d5", turn=199), "nucleus d3")
    assert ending_text(limit, NAMES) == (
        "The 200-turn limit was reached; territory decides: a draw, 0 each")


# -- on the screen at 80x24 --------------------------------------------------------------------
async def test_at_80x24_the_end_is_told_whole_and_why_a_block_of_cells_counts_nothing():
    app = _app(START)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        await pilot.pause()
        await pilot.press("f")
        screen.cursor = P("e6")  # on the ray east of the virus, past Violet's own nucleus
        await pilot.press("enter")
        await until(pilot, lambda: screen.table.is_over(), "the shot")
        await until(pilot, lambda: screen.query_one("#gs-banner").has_class("over"), "banner")
        await pilot.pause()
        result = screen.query_one("#gs-result")
        assert _plain(screen, "#gs-result") == f"Violet wins · {ENDING}"
        assert result.region.height == 2 and len(f"Violet wins · {ENDING}") <= 2 * (
            result.region.width)
        log = [sentence for _, _, sentence in screen.log_events(5)]
        assert log[-3:] == [f"Violet wins · {ENDING}", YELLOW_WHY, territory_note(
            territory_view(screen.state.board, 1), NAMES)]
        info = screen.query_one("#cb-info")
        view = screen.query_one(BoardView)
        for shown in ("both", 0, 1):  # t: each side alone, then both again
            if shown != "both":
                await pilot.press("t")
                await pilot.pause()
            assert screen.shown_territory() == shown
            text = screen.info_text().plain
            assert "Yellow ⊗" not in text and "Violet ⊠ territory 48" in text
            assert (YELLOW_WHY in text) == (shown == 0)
            lines = len(Text(text).wrap(app.console, info.content_region.width))
            assert lines <= info.content_region.height, (shown, text)  # nothing cut
            assert view.pick_scale() == COMPACT and view.size.height >= 12
        await pilot.press("t")
        assert screen.shown_territory() == "both"


async def test_the_loser_reads_you_lose_and_the_same_story():
    over, _ = play(START, "shoot e")
    app = _app(over, Seat(name="Violet", kind="bot", bot="normal"))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.screen.query_one("#gs-banner").has_class("over"), "over")
        assert app.screen.result_text() == f"You lose · {ENDING}"


async def test_t_shows_both_territories_then_each_side_alone_with_what_does_not_count():
    app = _app(msgspec.structs.replace(START, seat=0))
    async with app.run_test(size=(100, 32)) as pilot:
        screen = app.screen
        await pilot.pause()
        theme = screen.colour
        bg = theme("board")
        tint = {"violet": _blend(bg, screen.seat_colour(1), 0.35),
                "grey": _blend(bg, theme("muted"), 0.35), "red": _blend(bg, theme("danger"), 0.3)}
        w, h = MEDIUM

        def ground(square: str, side: str) -> str:
            """The background under a blank character of square ``square``'s ``side``
            triangle ("n" or "s")."""
            f, r = "abcdef".index(square[0]), int(square[1]) - 1
            row = (5 - 1 - r) * h + (1 if side == "n" else h - 1)
            line = screen.draw_board(MEDIUM).split("\n")[row]
            style = line.get_style_at_offset(app.console, 3 + f * w + w // 2)
            return style.bgcolor.name if style.bgcolor else ""

        assert ground("a5", "n") == "" and "territory 48" in screen.info_text().plain
        await pilot.press("t")  # both: Violet's top of the board
        assert ground("a5", "n") == tint["violet"] and ground("a1", "s") == ""
        await pilot.press("t")  # Yellow's alone: its block's inside grey, its open ground red
        assert screen.shown_territory() == 0 and YELLOW_WHY in screen.info_text().plain
        assert ground("a1", "s") == tint["grey"] and ground("d1", "s") == tint["red"]
        assert ground("a5", "n") == tint["red"]  # (the same open ground holds Violet's nucleus)
        await pilot.press("t")  # Violet's alone: the pockets under its wall grey
        assert screen.shown_territory() == 1 and "Violet 48:" in screen.info_text().plain
        assert ground("a3", "n") == tint["grey"] and ground("a5", "n") == tint["violet"]
        assert ground("a1", "s") == ""
        await pilot.press("t")
        assert screen.shown_territory() is None and ground("a5", "n") == ""


async def test_a_virus_on_the_board_points_at_the_legend_until_it_is_opened():
    app = _app(msgspec.structs.replace(START, seat=0))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        await pilot.pause()
        assert "New: ✚ a virus · i: legend" in _plain(screen, "#cb-info")
        await pilot.press("i")
        await until(pilot, lambda: isinstance(app.screen, KeysPanel), "the legend")
        await pilot.press("x")
        await until(pilot, lambda: app.screen is screen, "back")
        assert "New:" not in _plain(screen, "#cb-info")
