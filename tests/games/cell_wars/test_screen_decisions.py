"""Pilot tests of the Cell Wars screen's decisions in arranged positions: building a wall (two
tiles picked), the attack order, relapse or stay, and a card's text before it is played. Each
decision is taken once by keys (the cursor's arrows and Enter, the choice's number) and once by
mouse (clicks on the tile and on the choice)."""

from __future__ import annotations

from contextlib import asynccontextmanager

import pytest
from rich.text import Text

from cellwars_tui.core.match import Match, Seat
from cellwars_tui.games.cell_wars import board as B
from cellwars_tui.games.cell_wars import rules as R
from cellwars_tui.games.cell_wars.hex_board import HexBoard
from cellwars_tui.games.cell_wars.screen import CellWarsScreen
from cellwars_tui.ui.widgets.choice_bar import ChoiceBar
from cellwars_tui.ui.widgets.keys_panel import KeysPanel
from cellwars_tui.ui.app import CellwarsApp

from .helpers import PLACED, Ca, Cb, Ia, T, give, panel, put, standard, tiles, turn
from .test_screen import _arrow_path

BY = pytest.mark.parametrize("by", ["keys", "mouse"])


@pytest.fixture(autouse=True)
def _no_dice_animation():
    old = CellWarsScreen.dice_seconds
    CellWarsScreen.dice_seconds = 0
    yield
    CellWarsScreen.dice_seconds = old


def _arranged(state: R.CWState, human: int) -> Match:
    """A two-player match starting from ``state``: ``human`` is a person, the other a bot."""
    seats = [Seat(name="Ann"), Seat(name="Bob")]
    seats[1 - human] = Seat(name="Bot", kind="bot", bot="random")
    m = Match(R.GAME, R.CellWarsOptions(layout=PLACED, players=2), seats, 9)
    R.GAME.check_invariants(state)
    m.states[0] = state
    return m


@asynccontextmanager
async def opened(state: R.CWState, human: int, size: tuple[int, int]):
    """The table of an arranged two-player match at ``size``, settled: (pilot, app, screen)."""
    app = CellwarsApp(match=_arranged(state, human))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        yield pilot, app, app.screen


def _text(screen, selector: str) -> str:
    rendered = screen.query_one(selector).render()
    return rendered.plain if isinstance(rendered, Text) else str(rendered)


async def _click_tile(pilot, screen, name: str) -> None:
    board = screen.query_one(HexBoard)
    await pilot.click("#cw-board", offset=board.tile_offset(T[name]))
    await pilot.pause()


async def _tile(pilot, screen, name: str, by: str) -> None:
    """Act on tile ``name``: a click, or the arrow keys to it and Enter."""
    if by == "mouse":
        await _click_tile(pilot, screen, name)
        return
    keys = _arrow_path(screen.cursor, T[name])
    if keys:
        await pilot.press(*keys)
    assert screen.cursor == T[name]
    await pilot.press("enter")
    await pilot.pause()


async def _choose(pilot, screen, label: str, by: str) -> None:
    """Take the choice whose label starts with ``label``: a click on it, or its key."""
    index = next(i for i, c in enumerate(screen.choices) if c.label.startswith(label))
    if by == "mouse":
        await pilot.pause()  # the bar is laid out for the choices now offered
        bar = screen.query_one(ChoiceBar)
        await pilot.click("#cw-choices", offset=bar.offset_of(index))
    else:
        await pilot.press(screen.choices[index].key)
    await pilot.pause()


@BY
async def test_a_cancer_cell_builds_a_wall_by_picking_two_tiles(by):
    s = turn(panel(standard(), Ca, walls=1), Ca, step=R.SPECIAL)
    async with opened(s, human=1, size=(100, 30)) as (pilot, app, screen):
        labels = {c.label: c.key for c in screen.choices}
        assert "solidify G4 (1/3)" in labels and "build wall (1)" in labels
        assert labels["roll to move"] == "0" and labels["end round, no move"] != "0"
        await _choose(pilot, screen, "build wall (1)", by)
        assert "first of two" in screen.prompt and len(screen.tile_actions) == B.N_TILES
        await _tile(pilot, screen, "E4", by)
        assert set(screen.tile_actions) == set(B.NEIGHBOURS[T["E4"]])
        assert screen.marks().picked == T["E4"]
        await _tile(pilot, screen, "E5", by)
        state = screen.table.state()
        assert B.edge_between(T["E4"], T["E5"]) in state.walls
        assert state.panels[Ca].walls == 0
        drawn = "\n".join("".join(seg.text for seg in screen.query_one(HexBoard).render_line(y))
                          for y in range(screen.query_one(HexBoard).size.height))
        assert "#" in drawn


async def test_escape_leaves_the_wall_picking_not_the_game():
    s = turn(panel(standard(), Ca, walls=2), Ca, step=R.SPECIAL)
    async with opened(s, human=1, size=(100, 30)) as (pilot, app, screen):
        key = next(c.key for c in screen.choices if c.label.startswith("build wall"))
        await pilot.press(key)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen and not screen.picking.building
        assert any(c.label == "roll to move" for c in screen.choices)


@BY
async def test_the_attacker_chooses_the_order_of_its_attacks(by):
    s = put(standard(), Ia="G4", Cb="G4")
    s = panel(s, Ia, last_dir=-1)
    s = turn(s, Ia, step=R.ATTACK, rolled=True)
    async with opened(s, human=0, size=(100, 30)) as (pilot, app, screen):
        labels = [c.label for c in screen.choices]
        assert labels[0].startswith("attack Ca") and labels[1].startswith("attack Cb")
        assert set(screen.tile_actions) == {T["G4"]}
        await _choose(pilot, screen, "attack Cb", by)  # Cancer beta first
        assert [c.label for c in screen.choices][0].startswith("attack Ca")
        if by == "keys":
            await pilot.press("1")
            await pilot.pause()
        else:  # the tile of the one target left
            await _tile(pilot, screen, "G4", by)
        attacks = [st.action.panel for st in screen.table.match.history
                   if isinstance(st.action, R.Attack)]
        assert attacks == [Cb, Ca]


@BY
async def test_a_dead_cancer_cell_relapses_on_a_solidified_tile(by):
    s = tiles(put(standard(), Ca="dead"), solid=("H4",))
    s = panel(s, Ca, biomass=0)
    s = turn(s, Ca, step=R.RELAPSE)
    async with opened(s, human=1, size=(100, 30)) as (pilot, app, screen):
        assert set(screen.tile_actions) == {T["H4"]}
        assert [(c.key, c.label) for c in screen.choices] == [("0", "stay")]
        assert "relapse" in screen.prompt
        await _tile(pilot, screen, "H3", by)  # not a solidified tile: nothing happens
        assert screen.table.state().panels[Ca].tile == R.DEAD
        await _tile(pilot, screen, "H4", by)
        state = screen.table.state()
        assert state.panels[Ca].tile == T["H4"] and state.tiles[T["H4"]] == R.CANCER_T


@BY
async def test_a_card_shows_its_text_and_targets_before_it_is_played(by):
    s = give(standard(), Ia, "maltose", "teleporting")
    s = turn(panel(s, Ia, biomass=1), Ia, step=R.CARDS_STEP)
    async with opened(s, human=0, size=(100, 30)) as (pilot, app, screen):
        labels = [c.label for c in screen.choices]
        assert labels[:2] == ["Maltose", "Teleporting"] and screen.choices[-1].key == "0"
        await _choose(pilot, screen, "Teleporting", by)
        # the status line says what to do, the side panel holds the card's whole text
        assert "which special spot to jump to?" in _text(screen, "#gs-status")
        assert "Jump onto any tile" in _text(screen, "#gs-seats")
        assert set(screen.tile_actions) == set(s.signs)
        assert {c.do.tile for c in screen.choices if c.key != "0"} == set(s.signs)
        if by == "keys":
            await pilot.press("escape")  # back to the hand, not out of the game
        else:
            await _choose(pilot, screen, "back", by)
        await pilot.pause()
        assert app.screen is screen and screen.picking.card is None
        await _choose(pilot, screen, "Teleporting", by)
        await _tile(pilot, screen, "E5", by)  # the generator
        assert screen.table.state().panels[Ia].tile == T["E5"]
        await _choose(pilot, screen, "Maltose", by)
        # the whole text in the side panel, never cut on the status line (issue 29)
        assert "regain 3 Biomass" in _text(screen, "#gs-seats")
        assert screen.prompt == "Maltose: 1 plays it, 0 puts it back (its text: side panel)"
        await _choose(pilot, screen, "play Maltose", by)
        assert screen.table.state().panels[Ia].biomass == 4


async def test_the_log_names_the_tile_of_a_special_action():
    s = turn(standard(), Ca, step=R.SPECIAL)
    async with opened(s, human=1, size=(160, 50)) as (pilot, app, screen):
        key = next(c.key for c in screen.choices if c.label.startswith("solidify"))
        await pilot.press(key)
        await pilot.pause()
        assert "Cancer alpha solidifies G4 (1/3)" in _text(screen, "#gs-log")


async def test_the_log_says_the_special_action_before_what_it_did_to_the_tile():
    s = turn(put(standard(), Ca="F4"), Ca, step=R.SPECIAL)
    async with opened(s, human=1, size=(160, 50)) as (pilot, app, screen):
        await _choose(pilot, screen, "degrade F4", "keys")
        lines = [sentence for _, _, sentence in screen.log_entries(40)]
        cause = lines.index("Cancer alpha degrades F4")
        assert lines[cause + 1].startswith("F4 becomes cancer tissue"), lines[cause:]


async def test_k_lists_the_keys():
    app = CellwarsApp(match=_arranged(standard(), human=0))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("k")
        await pilot.pause()
        panel = app.screen
        assert isinstance(panel, KeysPanel)  # a panel, not a toast over the prompt
        assert "Enter" in str(panel.query_one("#keys-text").render())


async def test_zero_after_a_step_that_passed_by_itself_moves_the_cell_and_the_screen_says_so():
    """Issue 19: after the play-cards step passed by itself, the next 0 ended the round without
    moving. Now the status line says the step passed and what 0 does, and 0 rolls to move."""
    s = turn(standard(), Ia, step=R.DRAW)
    assert not s.panels[Ia].hand  # nothing to play: the play-cards step passes by itself
    async with opened(s, human=0, size=(80, 24)) as (pilot, app, screen):
        await pilot.press("0")  # no more draws
        await pilot.pause()
        assert screen.table.state().step == R.SPECIAL
        assert _text(screen, "#gs-status") == \
            "No card in hand. Now special action; 0 rolls to move."
        await pilot.press("0")
        await pilot.pause()
        state = screen.table.state()
        assert (state.panel, state.step) == (Ia, R.MOVE) and state.rolled
