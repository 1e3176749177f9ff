"""Pilot tests of the Cell Wars table around the board: the guided setup greys what each step
forbids, undo stops at a die roll or a card draw (and goes back to just after it), a saved table
resumes where it was left, ``?`` opens the rules page with every card and the clarifications, and
a thinking bot never freezes the screen."""

from __future__ import annotations

import threading

import pytest
from rich.text import Text
from textual.geometry import Region

from cellwars_tui.ai import bots, levels
from cellwars_tui.core import CHANCE
from cellwars_tui.core.match import Match, Seat
from cellwars_tui.games.cell_wars import board as B
from cellwars_tui.games.cell_wars import clarifications as C
from cellwars_tui.games.cell_wars import rules as R
from cellwars_tui.games.cell_wars.cards import CARDS
from cellwars_tui.games.cell_wars.hex_board import HexBoard
from cellwars_tui.games.cell_wars.screen import CellWarsScreen
from cellwars_tui.ui.widgets.keys_panel import KeysPanel
from cellwars_tui.record.format import read_record_file
from cellwars_tui.record.writer import flush
from cellwars_tui.ui.app import CellwarsApp
from cellwars_tui.ui.dialogs import RulesScreen
from cellwars_tui.ui.resume import ResumeScreen

from .helpers import PLACED, SIGNS, act
from .test_screen import (_arrow_path, _ending_key, _no_dice_animation, _settle,  # noqa: F401
                          _standard_match)


def _text(screen, selector: str) -> str:
    rendered = screen.query_one(selector).render()
    return rendered.plain if isinstance(rendered, Text) else str(rendered)


def _background(board: HexBoard, tile: int):
    """The background colour drawn just left of the middle of ``tile``."""
    x, y = board.tile_offset(tile)
    pos = 0
    for seg in board.render_line(y):
        if pos + len(seg.text) > x - 1:
            return seg.style.bgcolor
        pos += len(seg.text)
    raise AssertionError(tile)


async def _key_to(pilot, screen, tile: int) -> None:
    """The arrow keys to ``tile``, then Enter."""
    keys = _arrow_path(screen.cursor, tile)
    if keys:
        await pilot.press(*keys)
    await pilot.press("enter")
    await _settle(pilot)


# -- guided setup ---------------------------------------------------------------------------------
async def test_each_setup_step_greys_the_tiles_it_does_not_allow():
    """The cancer camp's player (seat 2) places the cancer tissue and then Cancer alpha: each
    time every tile but the allowed ones is greyed, on the board as well as in the marks."""
    state = act(R.GAME.initial_state(R.CellWarsOptions(layout=PLACED, players=2)),
                *(f"sign {t}" for t in SIGNS))
    seats = [Seat(name="Bot", kind="bot", bot="random"), Seat(name="Bea")]
    m = Match(R.GAME, R.CellWarsOptions(layout=PLACED, players=2), seats, 9)
    m.states[0] = state
    app = CellwarsApp(match=m)
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(pilot)
        screen = app.screen
        board = screen.query_one(HexBoard)
        assert "Setup 2/3: cancer tissue (0/7)" in _text(screen, "#gs-seats")
        assert "Pick cancer tissue 1 of 7" in screen.prompt
        for n in range(7):
            allowed = set(screen.tile_actions)
            marks = screen.marks()
            assert marks.greyed == frozenset(range(B.N_TILES)) - allowed
            assert len(marks.greyed) == n  # (cancer tissue may go on any normal tile)
            for grey in marks.greyed:  # drawn without its tissue colour
                assert _background(board, grey) != _background(board, sorted(allowed)[0])
            tile = next(t for t in sorted(allowed, key=lambda t: len(_arrow_path(
                screen.cursor, t))))
            await _key_to(pilot, screen, tile)
            assert screen.table.state().tiles[tile] == R.CANCER_T, n
        # the bot places Immune alpha, then Cancer alpha is the person's: on cancer tissue only
        assert "Setup 3/3: pieces (1/6)" in _text(screen, "#gs-seats")
        assert "Place Cancer alpha" in screen.prompt
        state = screen.table.state()
        allowed = set(screen.tile_actions)
        assert allowed and all(state.tiles[t] == R.CANCER_T for t in allowed)
        assert screen.marks().greyed == frozenset(range(B.N_TILES)) - allowed
        await _key_to(pilot, screen, sorted(allowed)[0])
        assert screen.table.state().panels[1].tile == sorted(allowed)[0]


# -- undo at chance -------------------------------------------------------------------------------
def _rolled_match(face: int) -> Match:
    """The standard match with Immune alpha (the person) having rolled ``face`` to move."""
    m = _standard_match()
    while m.state.step != R.SPECIAL:
        m.play(0, R.End())
    m.auto_chance = False
    m.play(0, R.Roll())
    m.play(CHANCE, R.Die(face))
    m.auto_chance = True
    return m


async def test_undo_goes_back_to_just_after_the_die_and_no_further():
    app = CellwarsApp(match=_rolled_match(5))  # two steps
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(pilot)
        screen = app.screen
        rolled = screen.table.state()
        assert rolled.step == R.MOVE and rolled.moves == 2
        step = next(a for a in screen.legal if isinstance(a, R.Step))
        await pilot.press({0: "d", 1: "e", 2: "w", 3: "a", 4: "z", 5: "x"}[step.dir])
        await _settle(pilot)
        assert screen.table.state().panels[0].tile != rolled.panels[0].tile
        await pilot.press("u")  # the step is taken back: the same die, the same steps left
        await _settle(pilot)
        assert screen.table.state() == rolled
        await pilot.press("u")  # the roll is not: that would roll the die again
        await _settle(pilot)
        assert screen.table.state() == rolled
        assert "die roll or card draw" in _text(screen, "#gs-status")
        await pilot.press("r")
        await _settle(pilot)
        assert screen.table.state().panels[0].tile == B.NEIGHBOUR[rolled.panels[0].tile][step.dir]


async def test_undo_never_takes_back_a_card_draw():
    app = CellwarsApp(match=_standard_match())
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(pilot)
        screen = app.screen
        assert screen.table.state().step == R.DRAW
        await pilot.press(next(c.key for c in screen.choices if c.label.startswith("charge")))
        await _settle(pilot)
        drawn = screen.table.state()
        assert any(isinstance(st.action, R.Draw) for st in screen.table.match.history)
        await pilot.press("u")
        await _settle(pilot)
        assert screen.table.state() == drawn
        assert "die roll or card draw" in _text(screen, "#gs-status")


# -- autosave and resume ----------------------------------------------------------------------------
async def test_a_saved_table_resumes_where_it_was_left_with_its_die_kept():
    app = CellwarsApp(match=_rolled_match(5))  # two steps
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(pilot)
        screen = app.screen
        step = next(a for a in screen.legal if isinstance(a, R.Step))
        await pilot.press({0: "d", 1: "e", 2: "w", 3: "a", 4: "z", 5: "x"}[step.dir])
        await _settle(pilot)
        match = screen.table.match
        path, cursor, state = match.path, match.cursor, match.state
        assert flush(60)  # written by the save thread (60 s: a guard, not a pace)
        assert len(read_record_file(path).steps) == cursor  # saved after every action
    # the app ended without leaving the table (as a crash would); the next start resumes it
    app = CellwarsApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, ResumeScreen)
        await pilot.press("enter")
        await _settle(pilot)
        screen = app.screen
        assert isinstance(screen, CellWarsScreen)
        assert screen.table.match.cursor == cursor and screen.table.state() == state
        assert screen.table.match.path == path
        assert "step 8/10: movement" in _text(screen, "#gs-seats")
        await pilot.press("u")  # the step is taken back, the die is kept
        await pilot.press("u")
        await _settle(pilot)
        assert screen.table.state().step == R.MOVE and screen.table.match.cursor == cursor - 1
        assert "die roll or card draw" in _text(screen, "#gs-status")


# -- the rules page ---------------------------------------------------------------------------------
async def test_question_mark_opens_the_rules_page_with_every_card_and_clarification():
    app = CellwarsApp(match=_standard_match())
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        page = app.screen
        assert isinstance(page, RulesScreen) and page.game is R.GAME
        widget = page.query_one("#rules-text")
        lines = widget.render_lines(Region(0, 0, widget.size.width, widget.size.height))
        text = " ".join(" ".join(line.text.split()) for line in lines)
        for card in CARDS:
            assert card.name in text, card.name
        assert "Clarifications" in text
        for fragment, _ in C.CLARIFICATIONS:
            assert " ".join(fragment.split()) in text, fragment
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, CellWarsScreen)


# -- bots think beside the screen ---------------------------------------------------------------------
@pytest.fixture
def gate(monkeypatch):
    """The random bot waits at a gate before it answers (until the test opens it)."""
    opened = threading.Event()

    class GatedRandom(bots.RandomBot):
        def choose(self, game, view, seat, rng, budget):
            opened.wait(timeout=60)
            return super().choose(game, view, seat, rng, budget)

    monkeypatch.setitem(levels.BOTS, "random", GatedRandom)
    yield opened
    opened.set()


async def test_keys_work_while_a_bot_thinks(gate):
    app = CellwarsApp(match=_standard_match())
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(pilot)
        screen = app.screen
        for _ in range(4):  # Immune alpha ends its round; Cancer alpha (the bot) is next
            if screen.table.state().panel != 0:
                break
            await pilot.press(_ending_key(screen))
            await pilot.pause()
        table = screen.table
        assert table.bot_to_move() == 1 and table.thinking  # (in a thread, not the screen)
        before = table.step()
        start = screen.cursor
        await pilot.press("left")
        await pilot.pause()
        assert screen.cursor == B.NEIGHBOUR[start][3]  # the cursor moved and was drawn there
        board = screen.query_one(HexBoard)
        x, y = board.tile_offset(screen.cursor)
        assert "[" in "".join(seg.text for seg in board.render_line(y))[:x]
        await pilot.press("k")  # and a panel opens and closes
        await pilot.pause()
        assert isinstance(app.screen, KeysPanel)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen and table.step() == before  # the bot is still thinking
        gate.set()
        await _settle(pilot)
        assert table.step() > before
