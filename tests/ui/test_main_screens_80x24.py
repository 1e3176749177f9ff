"""Issue 19: every game's main screen at 80x24 in each shipped theme, as approved pictures
(pytest-textual-snapshot; Cell Wars has its own, with every kind of thing its board draws, in
tests/games/cell_wars/test_screen_snapshots.py). Before each picture is taken the test checks
that nothing a player needs is cut: the status line (what to do now) fits, the footer shows
each of its keys whole. After a deliberate change of the look, look at the new pictures
(``pytest --snapshot-update`` writes them) before committing them."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.text import Text

from cellwars_tui.core.match import Match, Seat
from cellwars_tui.ui.app import CellwarsApp

THEMES = sorted(p.stem for p in (Path(__file__).parents[2] / "themes").glob("*.toml"))


def virus_fight() -> Match:
    from cellwars_tui.games.virus_fight import rules as R
    from tests.games.virus_fight.helpers import pos

    seats = [Seat(name="Ann"), Seat(name="Bob", kind="bot", bot="random")]
    match = Match(R.GAME, R.VirusFightOptions(players=2), seats, 5)
    match.states[match.cursor] = pos("....J2/...../...../...../M1..E1.", "a1,e5",
                                     spares=("M2W1W3E2", "*"))
    return match


def cell_management() -> Match:
    from cellwars_tui.games.cell_management import rules as R

    return Match(R.GAME, R.CMOptions(code="#984"), [Seat(name="Me")], 1)


def infection() -> Match:
    from cellwars_tui.games.infection import rules as R

    seats = [Seat(name="Annabelle"), Seat(name="Bartholomew", kind="bot", bot="mcts"),
             Seat(name="Cy", kind="bot", bot="mcts")]
    return Match(R.GAME, R.InfectionOptions(players=3), seats, 5)


GAMES = {"virus-fight": virus_fight, "cell-management": cell_management, "infection": infection}


@pytest.fixture(autouse=True)
def _still_clock():
    """Infection on a fake clock (held at the ready moment), Cell Management without walks."""
    from cellwars_tui.games.cell_management.screen import CellManagementScreen
    from cellwars_tui.games.infection.screen import FPS, InfectionScreen
    from cellwars_tui.timer import FakeClock

    InfectionScreen.clock, InfectionScreen.fps = FakeClock(), 2
    InfectionScreen.wait_until_ready = True
    speed, CellManagementScreen.speed = CellManagementScreen.speed, 0
    yield
    InfectionScreen.clock, InfectionScreen.fps = None, FPS
    CellManagementScreen.speed = speed


def _plain(widget) -> str:
    rendered = widget.render()
    return rendered.plain if isinstance(rendered, Text) else str(rendered)


async def _nothing_cut(pilot) -> None:
    for _ in range(5):
        await pilot.pause()
    screen = pilot.app.screen
    status = screen.query_one("#gs-status")
    text = _plain(status)
    assert text and "…" not in text and len(text) <= status.content_region.width, text
    strips = screen._compositor.render_strips()
    footer = "".join(seg.text for seg in strips[-1])
    for active in screen.active_bindings.values():
        if active.binding.show and active.binding.description:
            assert active.binding.description in footer, (active.binding.description, footer)


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_main_screen_at_80x24_looks_as_approved(snap_compare, game, theme):
    app = CellwarsApp(match=GAMES[game](), theme=theme)
    assert snap_compare(app, terminal_size=(80, 24), run_before=_nothing_cut)
