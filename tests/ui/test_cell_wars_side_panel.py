"""The Cell Wars side panel with six players: at 80x24 every seat line fits whole (a compact
table), a wide window spells every figure out on one line a seat, and a resize lays it out again;
the round track marks the reload rounds and the legend says what the marks mean."""

from __future__ import annotations

import pytest
from rich.console import Console

from cellwars_tui.core.match import Match, Seat
from cellwars_tui.games.cell_wars import clarifications as C
from cellwars_tui.games.cell_wars import rules as R
from cellwars_tui.games.cell_wars.screen import CellWarsScreen
from cellwars_tui.ui.app import CellwarsApp
from tests.games.cell_wars.helpers import Cb, Ia, give, panel, standard


@pytest.fixture(autouse=True)
def _no_dice_animation(monkeypatch):
    monkeypatch.setattr(CellWarsScreen, "dice_seconds", 0)


def _six_player_match() -> Match:
    """Round 1 with six seats: Immune alpha holds three cards (long names), Cancer beta has a
    two-digit limit, walls and a solidify claim (the longest seat line)."""
    s = give(standard(players=6), Ia, "adjuvant", "complement-activation", "synnotch")
    s = panel(s, Cb, limit=12, walls=2, solid=1)
    R.GAME.check_invariants(s)
    seats = [Seat(name="Ann")] + [Seat(name=f"Bot {i}", kind="bot", bot="random")
                                  for i in range(2, 7)]
    m = Match(R.GAME, R.CellWarsOptions(players=6), seats, 9)
    m.states[0] = s
    return m


def _side_lines(app) -> list[str]:
    """The side panel's seat area as the player sees it (the composited screen)."""
    console = Console(width=app.size.width, record=True, file=open("/dev/null", "w"),
                      color_system=None, legacy_windows=False)
    console.print(app.screen._compositor.render_update(full=True))
    lines = console.export_text().splitlines()
    region = app.screen.query_one("#gs-seats").content_region
    return [line[region.x:region.x + region.width].rstrip()
            for line in lines[region.y:region.y + region.height]]


def _seat_line(lines: list[str], p: int) -> str:
    owner = C.PANEL_OWNERS[6][p]
    return next(line for line in lines if f" {C.PANEL_NAMES[p]} P{owner + 1} " in line)


def _assert_every_seat_shown_whole(app) -> list[str]:
    lines = _side_lines(app)
    assert not any("…" in line for line in lines), "\n".join(lines)
    s = app.screen.view_state
    for p, pn in enumerate(s.panels):
        assert f"{pn.biomass}/{R.effective_limit(pn)}" in _seat_line(lines, p), (p, lines)
    return lines


async def test_at_80x24_with_six_players_no_side_panel_line_is_cut():
    app = CellwarsApp(match=_six_player_match())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        lines = _assert_every_seat_shown_whole(app)
        text = " ".join(" ".join(lines).split())
        assert "Bio Att Rng Cards" in text  # the compact table's header
        assert "hand: Complement activation, Adjuvant, SynNotch" in text
        assert "walls 2 · solid 1/3" in text


async def test_a_wide_window_spells_each_seat_out_on_one_line():
    app = CellwarsApp(match=_six_player_match())
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        await pilot.pause()
        lines = _assert_every_seat_shown_whole(app)
        assert "Bio 5/12 Att 0 Rng 0 Cards 0 G5 walls 2 solid 1/3" in _seat_line(lines, Cb)
        assert "Bio 4/4 Att 1 Rng 0 Cards 3 C2" in _seat_line(lines, Ia)


async def test_resizing_the_window_lays_the_seat_lines_out_again():
    app = CellwarsApp(match=_six_player_match())
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        assert "Cards" not in _seat_line(_assert_every_seat_shown_whole(app), Ia)
        await pilot.resize_terminal(160, 50)
        await pilot.pause()
        await pilot.pause()
        assert "Cards 3" in _seat_line(_assert_every_seat_shown_whole(app), Ia)


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
async def test_the_round_track_marks_the_reload_rounds_and_the_legend_says_so(size):
    app = CellwarsApp(match=_six_player_match())
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.pause()
        lines = _assert_every_seat_shown_whole(app)
        track = lines[0].split()[-1]
        assert lines[0].startswith("Round  1/16") and len(track) == C.ROUNDS
        assert [r for r, ch in enumerate(track, 1) if ch == "*"] == list(C.RELOAD_ROUNDS)
        assert track[0] == "o"  # round 1, the current one
        legend = next(line for line in lines if "immune" in line)
        assert "cancer" in legend and ("*reload" in legend or "* CARD signs reload" in legend)
