"""Issue 29: every screen's key footer at 80x24 shows the keys of the moment whole, and every
other key it means to show is on a page that F2 ("More") turns to.

One app, every screen pushed over the launcher in turn (each game in play, in a lesson and in
replay, the New-game dialog, the rules page, the theme picker, Resume and Replays): cheap in CPU.
The lobby's screens are read in tests/ssh/test_lobby.py, which has a hub running.
"""

from __future__ import annotations

import random

import pytest

from cellwars_tui.core import all_games
from cellwars_tui.core.match import Match, Seat
from cellwars_tui.record import save_match
from cellwars_tui.ui.app import CellwarsApp
from cellwars_tui.ui.dialogs import HandOff, RulesScreen
from cellwars_tui.ui.footer import Footer
from cellwars_tui.ui.footer_layout import FooterItem, ordered, pages
from cellwars_tui.ui.replay import ReplayListScreen, ReplayScreen
from cellwars_tui.ui.resume import ResumeScreen
from cellwars_tui.ui.screens import screen_class
from cellwars_tui.ui.setup import NewGameScreen
from cellwars_tui.ui.theme_picker import ThemeScreen
from tests.ui.helpers import assert_every_footer_key_reachable, footer_pages, settle, until

GAMES = [game for game in all_games() if not game.id.startswith("toy")]  # (the tests' own)


def _played(game, steps: int, seed: int = 3) -> Match:
    """A game ``steps`` random steps in, every seat a person (no bot thinks)."""
    rng = random.Random(seed)
    players = max(2, game.min_players) if game.max_players >= 2 else 1
    match = Match(game, game.options_type(players=players),
                  [Seat(name=f"P{n + 1}") for n in range(players)], seed)
    for _ in range(steps):
        seats = match.to_act()
        if not seats or match.is_over():
            break
        seat = rng.choice(seats)
        match.play(seat, rng.choice(list(match.legal_actions(seat))))
    return match


@pytest.fixture
def _still():
    """Infection on a fake clock held at its ready moment, Cell Management without walks, Cell
    Wars' dice without animation: nothing changes the keys while the test turns the pages."""
    from cellwars_tui.games.cell_management.screen import CellManagementScreen
    from cellwars_tui.games.cell_wars.screen import CellWarsScreen
    from cellwars_tui.games.infection.screen import InfectionScreen
    from cellwars_tui.timer import FakeClock

    InfectionScreen.clock, InfectionScreen.fps = FakeClock(), 2
    InfectionScreen.wait_until_ready = True
    CellManagementScreen.speed = 0
    CellWarsScreen.dice_seconds = 0


async def _every_key_reachable(pilot, name: str, seen: dict[str, int]) -> None:
    seen[name] = await assert_every_footer_key_reachable(pilot)


async def _opened(pilot, push, kind) -> None:
    app = pilot.app
    push()
    await until(pilot, lambda: isinstance(app.screen, kind), kind.__name__)
    await pilot.pause()


async def test_every_screens_footer_fits_80x24_or_pages_with_f2(tmp_path, _still):
    records = {}
    for game in GAMES:
        records[game.id] = tmp_path / f"{game.id}.cellwars.json"
        save_match(_played(game, 40), records[game.id])
    cell_wars = next(g for g in GAMES if g.id == "cell-wars")
    solitaire = next(g for g in GAMES if g.id == "cell-management")  # (its rules are short)
    pages_seen: dict[str, int] = {}
    app = CellwarsApp(games=GAMES)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await _every_key_reachable(pilot, "launcher", pages_seen)
        for name, make, kind in (("theme picker", ThemeScreen, ThemeScreen),
                                 ("new game", lambda: NewGameScreen(cell_wars), NewGameScreen),
                                 ("rules", lambda: RulesScreen(solitaire), RulesScreen)):
            await _opened(pilot, lambda: app.push_screen(make()), kind)
            await _every_key_reachable(pilot, name, pages_seen)
            app.pop_screen()
        for game in GAMES:
            match = _played(game, 12)
            app.start_match(match)
            await settle(pilot)
            while isinstance(app.screen, HandOff):  # (two people at one screen, secrets to keep)
                await pilot.press("enter")
                await settle(pilot)
            assert isinstance(app.screen, screen_class(game))
            await _every_key_reachable(pilot, f"{game.id} in play", pages_seen)
            app.pop_screen()
            await _opened(pilot, lambda: app.push_screen(ReplayScreen(records[game.id])),
                          ReplayScreen)
            await _every_key_reachable(pilot, f"{game.id} replay", pages_seen)
            app.pop_screen()
        lesson = app.start_lesson("cellulis-bellum")
        await until(pilot, lambda: app.screen is lesson and lesson.lesson_reading(), "the lesson")
        await _every_key_reachable(pilot, "lesson", pages_seen)
        assert "Go on" == lesson.query_one(Footer).page_items()[0].description  # first
        app.pop_screen()
        await _opened(pilot, lambda: app.push_screen(ResumeScreen()), ResumeScreen)
        await _every_key_reachable(pilot, "resume", pages_seen)
        app.pop_screen()
        await _opened(pilot, lambda: app.push_screen(ReplayListScreen(tmp_path)),
                      ReplayListScreen)
        await _every_key_reachable(pilot, "replays", pages_seen)
    # the screens that had more keys than one line holds (so F2 was tried on them)
    assert pages_seen["cellulis-bellum in play"] >= 2 and pages_seen["cell-wars replay"] >= 2


async def test_the_one_widget_footer_pages_too():
    """The footer SSH sessions draw as one widget turns its pages with F2 and with a click on
    "More"."""
    app = CellwarsApp(games=GAMES)
    app.one_widget_footer = True
    cellulis = next(g for g in GAMES if g.id == "cellulis-bellum")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        match = _played(cellulis, 0)
        await _opened(pilot, lambda: app.start_match(match), screen_class(cellulis))
        read = await footer_pages(pilot)
        assert len(read) == 2
        footer = app.screen.query_one(Footer)
        more = next(s for s in footer.key_spans() if s.description.startswith("More"))
        await pilot.click(Footer, offset=(more.start + 1, 0))
        await until(pilot, lambda: footer.page_items() == read[1], "the second page")


def _item(description: str, action: str = "", enabled: bool = True) -> FooterItem:
    return FooterItem(description[0].lower(), description[0].lower(), description,
                      action or description.lower(), enabled)


def test_the_keys_of_the_moment_come_first_and_pages_fit_the_width():
    keys = [_item("Undo"), _item("Back"), _item("Spawn"), _item("Blocked", enabled=False),
            _item("Fire virus", "aim"), _item("Rules"), _item("Done")]
    assert [k.description for k in ordered(keys)] == [
        "Spawn", "Fire virus", "Done", "Blocked", "Undo", "Rules", "Back"]
    palette = FooterItem("ctrl+p", "^p", "palette", "command_palette", palette=True)
    assert pages(keys, palette, 200) == (tuple(ordered(keys)) + (palette,),)
    split = pages(keys, palette, 40)
    assert len(split) > 1
    for page in split:
        assert sum(item.width for item in page) <= 40
        assert any(item.more for item in page)
    assert [k for page in split for k in page if not k.more] == [*ordered(keys), palette]
