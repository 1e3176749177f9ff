"""Issue 19, Infection for a newcomer: a ready moment before each round and on resume, the clock
standing still whenever another screen covers the table, a cleared column never offered, a
legend one key away, and at 80x24 whole log lines, names and status; a team win reads so."""

from __future__ import annotations

import msgspec
import pytest
from rich.text import Text

from cellwars_tui.core.match import Match, Seat
from cellwars_tui.games.infection import rules as R
from cellwars_tui.games.infection.screen import FPS, InfectionScreen
from cellwars_tui.games.infection.texts import KEYS_AND_LEGEND
from cellwars_tui.record.store import autosave
from cellwars_tui.timer import FakeClock
from cellwars_tui.ui.app import CellwarsApp
from cellwars_tui.ui.widgets.keys_panel import KeysPanel

from .helpers import searching


@pytest.fixture
def clock():
    fake = FakeClock()
    InfectionScreen.clock, InfectionScreen.fps = fake, 2
    InfectionScreen.wait_until_ready = True
    yield fake
    InfectionScreen.clock, InfectionScreen.fps = None, FPS


def _match(players=1, bots=(), names=None, **options) -> Match:
    names = names or ["Me"] + [f"P{i + 1}" for i in range(1, players)]
    seats = [Seat(name=names[i], kind="bot", bot="mcts") if i in bots else Seat(name=names[i])
             for i in range(players)]
    return Match(R.GAME, R.InfectionOptions(players=players, **options), seats, 1)


def _text(screen, selector: str) -> str:
    rendered = screen.query_one(selector).render()
    return rendered.plain if isinstance(rendered, Text) else str(rendered)


async def _until(pilot, condition, rounds: int = 200) -> bool:
    for _ in range(rounds):
        if condition():
            return True
        await pilot.pause()
    return condition()


def _left(screen) -> float:
    return screen.round_clock.remaining()


async def test_each_round_and_a_resumed_game_wait_until_the_player_is_ready(clock):
    """Issue 19: the clock started while the app came up, round 2 began the instant round 1
    ended, and a resumed game ran at once."""
    app = CellwarsApp(match=_match(round_seconds=60))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert screen.waiting_ready and "ready?" in _text(screen, "#gs-status")
        await clock.advance(20)
        await pilot.pause()
        assert _left(screen) == 60.0  # nothing ran while waiting
        await pilot.press("space")  # ready: not a roll
        await pilot.pause()
        assert not screen.waiting_ready and screen.table.view(None).seats[0].white < 0
        await clock.advance(10)
        await pilot.pause()
        assert 49 <= _left(screen) <= 51
        await clock.advance(51)  # round 1 runs out
        await pilot.pause()
        assert screen.table.view(None).round == 2 and screen.waiting_ready
        await clock.advance(30)
        await pilot.pause()
        assert _left(screen) >= 59.0  # round 2 waits for its player too
        await pilot.press("space")
        await clock.advance(5)
        await pilot.pause()
        assert 54 <= _left(screen) <= 56
        match = screen.table.match
        autosave(match)
        await pilot.press("q")
        await pilot.pause()
    app = CellwarsApp(resume=match.path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, InfectionScreen) and screen.waiting_ready
        before = _left(screen)
        await clock.advance(20)
        await pilot.pause()
        assert _left(screen) == before  # a resumed game waits too
        await pilot.press("space")
        await clock.advance(2)
        await pilot.pause()
        assert _left(screen) < before


async def test_the_clock_stands_still_while_another_screen_covers_the_table(clock):
    app = CellwarsApp(match=_match(round_seconds=60))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        await pilot.press("space")
        await clock.advance(5)
        await pilot.pause()
        for key in ("f1", "i"):  # the rules page, the keys panel
            left = _left(screen)
            await pilot.press(key)
            assert await _until(pilot, lambda: app.screen is not screen), key
            await clock.advance(20)
            await pilot.pause()
            assert _left(screen) == left, key
            await pilot.press("escape")
            assert await _until(pilot, lambda: app.screen is screen), key
            await clock.advance(2)
            await pilot.pause()
            assert _left(screen) < left, key


async def test_a_cleared_column_is_never_offered(clock):
    """Issue 19: column I was offered after it was cleared ("Column I has no free card")."""
    InfectionScreen.wait_until_ready = False
    s = searching(players=1, face=2)
    s = msgspec.structs.replace(s, columns=((), *s.columns[1:]))
    match = _match()
    match.states[match.cursor] = s
    app = CellwarsApp(match=match)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        mine = _text(screen, "#inf-mine")
        assert "x: level II" in mine and "z: level I" not in mine
        assert not any(isinstance(a, R.Target) and a.column == 0 for a in screen.legal)


async def test_i_shows_the_keys_and_a_legend_of_every_letter_and_glyph_whole_at_80x24(clock):
    app = CellwarsApp(match=_match())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("i")
        await pilot.pause()
        panel = app.screen
        assert isinstance(panel, KeysPanel)
        for mark in ("G green", "B blue", "Y yellow", "R red", "P purple", "🔬", "▸", "⚪",
                     "blank", "→G", "rat", "×2", "⟳W"):
            assert mark in KEYS_AND_LEGEND, mark
        box = panel.query_one("#keys-text")
        assert box.region.height == len(KEYS_AND_LEGEND.splitlines())
        assert panel.query_one("#keys-hint").region.bottom <= 24


async def test_at_80x24_log_lines_names_and_the_status_line_are_whole(clock):
    """Issue 19: the 20-column log cut nearly every line; seat names were cut too."""
    InfectionScreen.wait_until_ready = False
    names = ["Annabelle", "Bartholomew", "Cy"]
    app = CellwarsApp(match=_match(players=3, bots=(1, 2), names=names))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        await pilot.press("space")
        for _ in range(12):
            await clock.advance(1)
            await pilot.pause()
        log = screen.query_one("#gs-log")
        shown = " ".join("".join(seg.text for seg in log.render_line(y)).strip()
                         for y in range(log.size.height)).split()
        visible = " ".join(shown)
        assert "…" not in visible
        sentences = [" ".join(s.split()) for _, _, s in screen.table.events(last=40)]
        assert any(visible.endswith(s) for s in sentences), visible  # the newest line, whole
        long = [s for s in sentences if len(s) > 22]  # (wider than the 80-column side panel)
        assert any(s in visible for s in long), visible
        seats = _text(screen, "#gs-seats")
        assert all(name in seats for name in names) and "…" not in seats
        rows = _text(screen, "#inf-players")
        assert all(name in rows for name in names)
        status = screen.query_one("#gs-status")
        assert len(_text(screen, "#gs-status")) <= status.content_region.width


def test_a_team_win_reads_team_wins():
    from cellwars_tui.core.registry import get_game

    game = get_game("infection")
    won = game.outcome(msgspec.structs.replace(searching(players=2), result="cleared"))
    text = won.text(["Ann", "Ben"], 0, team=game.meta.cooperative)
    assert text.startswith("Team wins (virus cleared") and "everyone" not in text


async def test_the_proteins_letters_are_spelled_out_on_the_table_at_every_size(clock):
    """Issue 29: at 80x24 the cards' protein letters had no legend on screen. Narrow, the status
    line spells them out (space, rest and pause are in the footer); wider, the foot of the
    columns does."""
    InfectionScreen.wait_until_ready = False
    app = CellwarsApp(match=_match())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        await pilot.press("space")
        await _until(pilot, lambda: screen._legal)
        await pilot.pause()
        status = _text(screen, "#gs-status")
        assert status.startswith("G green B blue Y yellow R red P purple · 123 hold")
        assert len(status) <= screen.query_one("#gs-status").content_region.width
        assert all(screen.query_one(f"#inf-colbox-{c}").border_subtitle is None for c in range(3))
        await pilot.resize_terminal(110, 32)
        await pilot.pause()
        feet = []
        for col in range(3):
            box = screen.query_one(f"#inf-colbox-{col}")
            feet.append(Text.from_markup(box.border_subtitle).plain)
            assert len(feet[-1]) <= box.size.width - 6  # shown whole on the border
        assert feet == ["G green B blue", "Y yellow R red", "P purple"]
