"""The Cell Wars table at the sizes people use: a resize lays the board out again at once, the
log wraps its sentences (newest last), the keys panel fits and any key closes it, and the screen
asks for the size it needs (smaller shows the "terminal too small" notice)."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text
from textual.style import Style

from cellwars_tui.games.cell_wars import board as B
from cellwars_tui.games.cell_wars.hex_board import HexBoard, board_top, hex_layout
from cellwars_tui.games.cell_wars.screen import CellWarsScreen
from cellwars_tui.ui.widgets.keys_panel import KeysPanel
from cellwars_tui.ui.widgets.text_lines import TextLines
from cellwars_tui.ui.app import CellwarsApp
from cellwars_tui.ui.size_guard import TooSmall
from tests.ui.helpers import assert_too_small_below_80x24

from .test_screen import _no_dice_animation, _settle, _standard_match  # noqa: F401


def shown(app) -> list[str]:
    """The terminal as the player sees it (the composited screen, not a fresh render)."""
    console = Console(width=app.size.width, record=True, file=open("/dev/null", "w"),
                      color_system=None, legacy_windows=False)
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text().splitlines()


def assert_board_fits(screen, cut: int = 0) -> None:
    """The whole honeycomb is in view (but for ``cut`` lines of bottom outline) with every tile
    name and piece."""
    board = screen.query_one(HexBoard)
    lay = board.layout_
    width, height = board.size
    assert board.offset_x >= 0 and board.offset_x + lay.width <= width
    assert board.offset_y >= 0 and board.offset_y + lay.height <= height + cut
    region = board.content_region
    lines = shown(screen.app)[region.y:region.y + region.height]
    text = "\n".join(line[region.x:region.x + region.width] for line in lines)
    state = screen.view_state
    for t, name in enumerate(B.NAMES):
        if not any(p.tile == t for p in state.panels):
            assert name in text, name
    for mark in "AaBbGg":  # every cell piece is in view
        assert mark in text, mark


async def test_shrinking_the_window_lays_the_board_out_again_at_once():
    app = CellwarsApp(match=_standard_match())
    async with app.run_test(size=(100, 30)) as pilot:
        await _settle(pilot)
        screen = app.screen
        board = screen.query_one(HexBoard)
        big = board.size
        old_strips = list(board.render_line(y) for y in range(big.height))
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        assert tuple(board.size) != tuple(big)
        assert_board_fits(screen)  # no cursor move needed
        # strips painted for the old size (a repaint racing the resize) are never shown
        board._strips, board._built_for = old_strips, tuple(big)
        assert board.render_line(0).cell_length == board.size.width
        assert len(board._strips) == board.size.height
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        await pilot.pause()
        assert_board_fits(screen)


def test_a_board_taller_than_its_room_keeps_the_cursor_in_view():
    lay = hex_layout(1, 1)
    assert board_top(lay, 25, 0) == 3  # centred when it fits
    a1, i5 = B.BY_NAME["A1"], B.BY_NAME["I5"]
    assert board_top(lay, 18, a1) == 0  # only the bottom outline is cut
    assert board_top(lay, 18, i5) == 0  # row I still shows its names and pieces
    top = board_top(lay, 16, i5)  # a very tall choice bar: the board moves up for the cursor
    assert top < 0 and lay.centre[i5][1] + top < 16
    assert board_top(lay, 16, a1) == 0


async def test_log_lines_wrap_instead_of_being_cut_and_the_newest_is_last():
    app = CellwarsApp(match=_standard_match())
    async with app.run_test(size=(100, 30)) as pilot:
        await _settle(pilot)
        screen = app.screen
        await pilot.pause()
        log = screen.query_one("#gs-log")
        text = str(log.render())
        assert "…" not in text
        newest = screen.log_entries(1)[-1]
        last_lines = text.rstrip().splitlines()
        assert str(newest[0]) in last_lines[-1] or newest[2].split()[-1] in last_lines[-1]
        # a sentence longer than the panel is shown whole over two lines
        long = [e for e in screen.log_entries(40) if len(e[2]) + 4 > log.content_region.width]
        assert long, "the standard setup has a long log sentence"
        flat = " ".join(line.strip() for line in text.splitlines())
        words = long[-1][2].split()
        assert " ".join(words[-3:]) in flat


def test_panel_lines_wrap_between_words_under_the_sentence_or_end_in_an_ellipsis():
    console = Console(width=80, file=open("/dev/null", "w"))
    text = Text(" 12 ")
    text.append("Cancer beta degrades E4 and the tissue turns", style="red")
    text.append("\nshort\n")
    wrapped = TextLines(text, console, wrap=True, indent=4)
    lines = ["".join(seg.text for seg in strip)
             for strip in wrapped.render_strips(20, None, Style(), None)]
    assert lines == [" 12 Cancer beta", "    degrades E4 and", "    the tissue turns",
                     "short"]
    assert wrapped.get_height(None, 20) == 4 and str(wrapped) == text.plain
    cut = TextLines(text, console)
    lines = ["".join(seg.text for seg in strip)
             for strip in cut.render_strips(20, None, Style(), None)]
    assert lines == [" 12 Cancer beta deg…", "short"]


async def test_the_keys_panel_fits_at_80x24_and_any_key_closes_it_without_playing():
    app = CellwarsApp(match=_standard_match())
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(pilot)
        screen = app.screen
        steps = screen.table.step()
        await pilot.press("k")
        await pilot.pause()
        panel = app.screen
        assert isinstance(panel, KeysPanel)
        box = panel.query_one("#keys-text")
        assert box.region.x >= 0 and box.region.right <= 80 and box.region.bottom <= 24
        seen = "\n".join(shown(app))
        for line in CellWarsScreen.KEYS_HELP.splitlines():
            assert line in seen, line  # whole lines, none cut on the right
        assert "Any key closes" in seen
        await pilot.press("1")  # would pick choice 1 on the table: here it only closes
        await pilot.pause()
        assert app.screen is screen
        assert screen.table.step() == steps
        await pilot.press("k")
        await pilot.pause()
        await pilot.click("#keys-text")
        await pilot.pause()
        assert app.screen is screen


async def test_the_table_needs_80x24_and_a_smaller_window_shows_the_notice():
    assert CellWarsScreen.MIN_SIZE == (80, 24)
    app = CellwarsApp(match=_standard_match())
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(pilot)
        screen = app.screen
        await pilot.pause()
        assert not screen.query(TooSmall)
        assert_board_fits(screen)
        seats = str(screen.query_one("#gs-seats").render())
        for name in ("Ia", "Ca", "Cb", "Ib", "Ig", "Cg"):
            assert name in seats
        await assert_too_small_below_80x24(pilot, screen)
        assert_board_fits(screen)


async def test_at_80x24_the_prompts_fit_and_a_picked_cards_text_shows_whole():
    from cellwars_tui.games.cell_wars import rules as R
    from cellwars_tui.games.cell_wars.cards import CARDS, card_id

    from .helpers import Ia, give, standard, turn
    from .test_screen_decisions import _arranged

    s = give(standard(), Ia, "adjuvant", "complement-activation", "synnotch")
    for step in (R.DRAW, R.SPECIAL, R.CARDS_STEP):
        app = CellwarsApp(match=_arranged(turn(s, Ia, step=step), human=0))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert screen.legal, step
            status = screen.query_one("#gs-status")
            assert len(screen.prompt) <= status.content_region.width, screen.prompt
            if step != R.CARDS_STEP:
                continue
            first = screen.choices[0]
            assert first.key == "1" and first.hint
            await pilot.press("1")
            await pilot.pause()
            assert screen.picking.card is not None
            text = CARDS[card_id(screen.picking.card)].text
            assert len(text) > 78  # too long for the status line
            side = " ".join(str(screen.query_one("#gs-seats").render()).split())
            assert text in side
            assert "Cancer gamma" in side or "Cg" in side  # the seats still show


async def test_at_80x24_the_whole_board_stays_in_view_under_the_game_over_banner():
    import msgspec

    from cellwars_tui.games.cell_wars import rules as R
    from cellwars_tui.ui.widgets.choice_bar import ChoiceBar

    from .helpers import standard
    from .test_screen_decisions import _arranged

    s = msgspec.structs.replace(standard(), phase=R.OVER, winner=2, result="tie")
    app = CellwarsApp(match=_arranged(s, human=0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        screen = app.screen
        assert screen.table.is_over()
        assert screen.query_one("#gs-banner").has_class("over")
        assert not screen.query_one(ChoiceBar).display
        screen.cursor = B.BY_NAME["A1"]  # the board does not need to move for the cursor
        screen._paint_board()
        await pilot.pause()
        # the banner leaves 18 lines: only the bottom outline of row I (texture only) is cut
        assert_board_fits(screen, cut=1)
