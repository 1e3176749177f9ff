"""Pilot tests of the Cellulis Bellum screen: a whole game played by keys, mouse play, lit
targets, the territory overlay, and a game against the random bot."""

from __future__ import annotations

import random

import pytest
from rich.text import Text

from cellwars_tui.core.match import Match, Seat
from cellwars_tui.games.cellulis_bellum import geometry as G
from cellwars_tui.games.cellulis_bellum import rules as R
from cellwars_tui.games.cellulis_bellum.screen import BoardView, CellulisBellumScreen
from cellwars_tui.ui.app import CellwarsApp
from cellwars_tui.ui.screens import screen_class
from tests.ui.helpers import settle

SIZE = (100, 32)


def _app(turn_limit: int = 10, bot: str | None = None) -> CellwarsApp:
    seats = [Seat(name="Ann"), Seat(name="Bob") if bot is None else
             Seat(name="Bot", kind="bot", bot=bot, think=0.05)]
    match = Match(R.GAME, R.CellulisBellumOptions(turn_limit=turn_limit), seats, 1)
    return CellwarsApp(match=match)


def _text(screen, selector: str) -> str:
    widget = screen.query_one(selector)
    rendered = widget.render()
    return rendered.plain if isinstance(rendered, Text) else str(rendered)


async def _go(pilot, screen, p: int) -> None:
    """Walk the cursor to ``p`` with the arrow keys."""
    f, r = G.coords(p)
    cf, cr = G.coords(screen.cursor)
    keys = (["right"] * (f - cf) + ["left"] * (cf - f) + ["up"] * (r - cr)
            + ["down"] * (cr - r))
    if keys:
        await pilot.press(*keys)
    assert screen.cursor == p


def _near(screen, points, rng):
    """One of the points closest to the cursor (fewer key presses)."""
    cf, cr = G.coords(screen.cursor)
    ranked = sorted(points, key=lambda p: abs(G.coords(p)[0] - cf) + abs(G.coords(p)[1] - cr))
    return rng.choice(ranked[:3])


async def _play_turn_by_keys(pilot, screen, rng: random.Random) -> None:
    table = screen.table
    state = table.state()
    legal = table.legal(state.seat)
    spawns = [a for a in legal if isinstance(a, R.Spawn)]
    bursts = [a for a in legal if isinstance(a, R.Burst)]
    moves = [a for a in legal if isinstance(a, R.NucleusMove)]
    choice = rng.random()
    if bursts and choice < 0.3:
        src = _near(screen, {b.src for b in bursts}, rng)
        a = rng.choice([b for b in bursts if b.src == src])
        await _go(pilot, screen, a.src)
        await pilot.press("enter")
        assert screen.selected == a.src and a.dst in screen.targets()
        await _go(pilot, screen, a.dst)
        await pilot.press("enter")
        await pilot.pause()
        if table.state().step == R.BURST:
            await pilot.press("d")
    elif moves and choice < 0.4:
        a = rng.choice(moves)
        await _go(pilot, screen, table.state().board.index(R.NUCLEI[state.seat]))
        await pilot.press("enter")
        await _go(pilot, screen, a.to)
        await pilot.press("enter")
    elif spawns:
        for _ in range(3):
            s = table.state()
            pts = [a.to for a in table.legal(s.seat) if isinstance(a, R.Spawn)]
            if not pts or (s.step == R.SPAWN and s.seat != state.seat):
                break
            await _go(pilot, screen, _near(screen, pts, rng))
            await pilot.press("enter")
            await pilot.pause()
            if table.state().seat != state.seat:
                break
        if table.state().step == R.SPAWN:
            await pilot.press("d")
    else:
        await pilot.press("m")  # the moves list: Enter picks the first legal action
        await pilot.pause()
        await pilot.press("enter")
    await pilot.pause()


def test_the_game_has_its_own_screen():
    assert screen_class(R.GAME) is CellulisBellumScreen


@pytest.mark.slow  # a whole game through the UI (tests/ui/test_table_games.py plays one headless)
async def test_play_a_whole_game_by_keys_and_see_the_territories_at_the_end():
    app = _app(turn_limit=6)  # a short game (the turn limit is an option), played to its end
    rng = random.Random(4)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, CellulisBellumScreen)
        board = _text(screen, "#cb-board")
        assert all(ch in board for ch in "╳─│◉▣")
        table = screen.table
        for _ in range(60):
            if table.is_over():
                break
            before = table.state().turn
            await _play_turn_by_keys(pilot, screen, rng)
            assert table.state().turn == before + 1, "a turn played by keys must end the turn"
        assert table.is_over()
        kinds = {type(step.action).__name__ for step in table.match.history}
        assert {"Spawn", "Burst", "NucleusMove"} <= kinds, kinds
        assert screen.query_one("#gs-banner").has_class("over")
        info = _text(screen, "#cb-info")
        t0, t1 = (R.territory(table.state().board, q) for q in (0, 1))
        assert f"territory {t0}" in info and f"territory {t1}" in info
        assert "territory" in table.outcome_text() or table.outcome() is not None
        # undo goes back into the game
        await pilot.press("u")
        await pilot.pause()
        assert not table.is_over()


async def test_mouse_play_lit_targets_territory_overlay_and_compact_board():
    app = _app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        view = screen.query_one(BoardView)
        table = screen.table

        def offset(name: str) -> tuple[int, int]:
            w, h = view.scale
            f, r = G.coords(G.parse_point(name))
            return (view.origin[0] + f * w, (G.HEIGHT - 1 - r) * h)

        assert view.point_at(*offset("d3")) == G.parse_point("d3")
        await pilot.click("#cb-board", offset=offset("d3"))
        await pilot.pause()
        s = table.state()
        # one colony (the nucleus), one cell: the spawn ended by itself
        assert s.board[G.parse_point("d3")] == R.CELLS[0] and s.seat == 1
        # Violet: click its nucleus, its eight-neighbour moves light up, click one
        await pilot.click("#cb-board", offset=offset("d5"))
        await pilot.pause()
        assert screen.selected == G.parse_point("d5")
        lit = set(screen.targets())
        assert lit == {q for q in G.NEIGHBOURS[G.parse_point("d5")]}
        assert "◇" in _text(screen, "#cb-board")
        await pilot.click("#cb-board", offset=offset("e6"))
        await pilot.pause()
        assert table.state().board[G.parse_point("e6")] == R.NUCLEI[1]
        assert table.state().seat == 0
        # the territory overlay on demand, with the counts
        assert "territory" not in _text(screen, "#cb-info")
        await pilot.press("t")
        await pilot.pause()
        assert "territory 0" in _text(screen, "#cb-info")
        assert "Territory:" in _text(screen, "#gs-status")
        await pilot.press("t")
        await pilot.pause()
        assert "territory" not in _text(screen, "#cb-info")
        # an 80x24 terminal gets the medium board, its diagonals still drawn as lines
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        board = _text(screen, "#cb-board")
        assert view.scale == (6, 3) and "╲ ╱" in board and "╱ ╲" in board
        assert view.point_at(*offset("d3")) == G.parse_point("d3")


async def test_against_the_random_bot():
    app = _app(turn_limit=4, bot="random")
    rng = random.Random(2)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        table = screen.table
        for _ in range(20):
            await settle(pilot)
            if table.is_over():
                break
            assert table.humans_to_act() == (0,)
            await _play_turn_by_keys(pilot, screen, rng)
        await settle(pilot)
        assert table.is_over()
        assert any(step.seat == 1 for step in table.match.history)


async def test_generate_the_virus_and_fire_it_by_keys():
    app = _app()
    ring = """
......V
...y...
..y.y..
.y...y.
..y.y..
...y.Y.
"""
    app._start_match.states[0] = R.state_from_diagram(ring)  # a made-up start position
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        table = screen.table
        d3, e4 = G.parse_point("d3"), G.parse_point("e4")
        screen.cursor = G.parse_point("f1")
        await _go(pilot, screen, d3)
        await pilot.press("g")
        await pilot.pause()
        assert table.state().board[d3] == R.VIRUSES[0] and table.state().seat == 0
        await pilot.press("f")
        await pilot.pause()
        lit = screen.targets()
        assert set(lit) == {q for ray in G.RAYS[d3] for q in ray}
        assert "✶" in _text(screen, "#cb-board")
        await _go(pilot, screen, e4)
        await pilot.press("enter")
        await pilot.pause()
        s = table.state()
        assert s.dead == (False, True) and table.is_over()
        assert screen.query_one("#gs-banner").has_class("over")
        assert "territory" in _text(screen, "#cb-info")


async def test_apoptosis_and_spawn_targets_light_up_by_keys():
    app = _app()
    app._start_match.states[0] = R.state_from_diagram(  # a made-up start position
        "......V\n.......\n.......\n.vyv...\n.y.y...\n.vyv..Y")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        table = screen.table
        await pilot.press("s")
        await pilot.pause()
        assert set(screen.targets()) == {a.to for a in table.legal(0) if isinstance(a, R.Spawn)}
        await pilot.press("x")
        screen.cursor = G.parse_point("a6")
        await pilot.press("a")  # not on a centre: the possible centres light up
        await pilot.pause()
        assert set(screen.targets()) == {G.parse_point("c2")}
        assert "◈" in _text(screen, "#cb-board")
        await _go(pilot, screen, G.parse_point("c2"))
        await pilot.press("enter")
        await pilot.pause()
        s = table.state()
        assert R.CELLS[1] not in s.board and s.step == R.START and s.seat == 0


async def test_undo_and_redo_by_keys():
    app = _app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        table = screen.table
        await _go(pilot, screen, G.parse_point("d3"))
        await pilot.press("enter")  # Yellow's one colony (the nucleus) gets its cell: turn over
        await pilot.pause()
        after = table.state()
        assert after.board[G.parse_point("d3")] == R.CELLS[0] and after.seat == 1
        await pilot.press("u")
        await pilot.pause()
        assert table.state() == R.GAME.initial_state(R.CellulisBellumOptions(turn_limit=10))
        assert "●" not in _text(screen, "#cb-board")
        await pilot.press("r")
        await pilot.pause()
        assert table.state() == after and "●" in _text(screen, "#cb-board")


def _style_at(app, text: Text, row: int, col: int) -> str:
    line = text.split("\n")[row]
    return str(line.get_style_at_offset(app.console, col))


async def test_colonies_are_drawn_as_links_in_their_owner_colour():
    app = _app()
    app._start_match.states[0] = R.state_from_diagram(  # a made-up start position
        "......V\n.......\n.......\n.......\n.......\nyyv...Y")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        board = screen.draw_board((8, 4))
        row = G.HEIGHT - 1  # rank 1, the last line of points
        prefix = 3  # the rank number column
        yellow = screen.seat_colour(0).lower()
        line_colour = screen.colour("board-line").lower()
        # a1-b1: two Yellow cells of one colony, linked in Yellow; b1-c1 (Yellow, Violet) and
        # c1-d1 (Violet, empty) are plain board lines
        assert yellow in _style_at(app, board, row * 4, prefix + 4).lower()
        for col in (prefix + 12, prefix + 20):
            style = _style_at(app, board, row * 4, col).lower()
            assert yellow not in style and line_colour in style


async def test_keys_with_nothing_to_do_say_why_and_change_nothing():
    app = _app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        table = screen.table
        start = table.state()
        said = {"f": "cannot fire", "a": "No apoptosis", "g": "No virus can be generated",
                "d": "Nothing to end", "p": "cannot pass"}
        for key, words in said.items():
            await pilot.press(key)
            await pilot.pause()
            assert words in _text(screen, "#gs-status"), key
        # a click between points is no point; Enter on an enemy piece does nothing
        view = screen.query_one(BoardView)
        await pilot.click("#cb-board", offset=(view.origin[0] + 4, 2))
        await pilot.pause()
        await _go(pilot, screen, G.parse_point("d5"))
        await pilot.press("enter")
        await pilot.pause()
        assert "Nothing to do on d5" in _text(screen, "#gs-status")
        assert table.state() == start and not table.match.history


async def test_against_the_search_bot():
    app = _app(turn_limit=4, bot="mcts")
    rng = random.Random(3)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        table = screen.table
        for _ in range(20):
            await settle(pilot)
            if table.is_over():
                break
            assert table.humans_to_act() == (0,)
            await _play_turn_by_keys(pilot, screen, rng)
        await settle(pilot)
        assert table.is_over()
        assert any(step.seat == 1 for step in table.match.history)


async def test_territory_overlay_tints_the_triangles_of_each_territory():
    app = _app()
    app._start_match.states[0] = R.state_from_diagram(  # a made-up start position
        "...V...\n.......\n.......\nyyyyyyy\n...Y...\n.......")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        # blank characters in the north triangles of squares a1 (behind Yellow's wall) and a5
        inside = (G.SQUARES_H - 1) * 4 + 1, 3 + 4
        outside = 1, 3 + 4
        board = screen.draw_board((8, 4))
        assert "on #" not in _style_at(app, board, *inside)
        await pilot.press("t")
        await pilot.pause()
        assert "territory 48" in _text(screen, "#cb-info")
        board = screen.draw_board((8, 4))
        assert "on #" in _style_at(app, board, *inside)
        assert "on #" not in _style_at(app, board, *outside)
