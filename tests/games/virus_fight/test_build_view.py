"""The secret program editor uses a wide window: at 160x50 the help column (what each
instruction does, who goes first, where the program goes) stands beside the palette; at 80x24
there is no room for it and the editor is as before, whole."""

from __future__ import annotations

from cellwars_tui.games.virus_fight import engine as E
from cellwars_tui.games.virus_fight import rules as R
from cellwars_tui.games.virus_fight.build_view import your_program
from cellwars_tui.ui.app import CellwarsApp

from .screen_helpers import settle, vf_match, widget_text


def _code(name: str) -> int:
    return E.code("MWJE".index(name[0]), int(name[1]))


async def test_at_160x50_the_help_stands_beside_the_palette():
    app = CellwarsApp(match=vf_match(players=4, seed=2))
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        screen = app.screen
        for name in ("W2", "M3"):
            await pilot.click(f"#vf-add-{name}")
        await pilot.press("2")
        await pilot.pause()
        helper = screen.query_one("#vf-build-help")
        palette = screen.query_one("#vf-palette")
        side = screen.query_one("#gs-side")
        assert helper.display and helper.region.width >= 60
        # beside the palette (not below it), and clear of the side panel
        assert helper.region.x >= palette.region.right
        assert helper.region.right <= side.region.x
        assert helper.region.y <= palette.region.y
        assert helper.region.bottom <= screen.query_one("#vf-prompt").region.y
        text = " ".join(widget_text(w) for w in helper.query("Static"))
        assert "beside any ERASE of your block" in text
        assert "a rival's too" in text
        you = widget_text(screen.query_one("#vf-help-you"))
        assert "Yours now: 2 instructions, 5 pips, ▼ on M3 (3 pips)." in you
        assert "a1-e1 (South edge)" in you


async def test_at_80x24_the_editor_has_no_help_column_and_shows_whole():
    app = CellwarsApp(match=vf_match(players=4, seed=2))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert not screen.query_one("#vf-build-help").display
        side = screen.query_one("#gs-side").region
        for selector in ("#vf-program", "#vf-palette", "#vf-build-buttons", "#vf-prompt"):
            region = screen.query_one(selector).region
            assert region.width and region.right <= side.x and region.bottom <= 23, selector


def test_the_help_gives_the_first_player_figures_of_the_seat_writing():
    state = R.GAME.initial_state(R.VirusFightOptions(players=2))
    for name in ("J1", "E2", "W3"):
        state, _ = R.GAME.apply(state, 1, R.Add(_code(name)))
    state, _ = R.GAME.apply(state, 1, R.Mark(0))
    text = your_program(state, 1).plain
    assert "Yours now: 3 instructions, 6 pips, ▼ on J1 (1 pip)." in text
    assert "e5-a5 (North edge)" in text
    # a spectator or a replay: the rule alone, no seat's figures
    assert "Yours now" not in your_program(state, None).plain
    assert "Where it goes" not in your_program(state, None).plain
