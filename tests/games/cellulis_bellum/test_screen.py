"""Pilot tests of the Cellulis Bellum screen: a whole game played by keys, mouse play, every point
reached by keys and by mouse at 80x24 and 160x50, lit targets, the territory overlay, games
against the bots, and a record of the first rules shown on its own 42-point board."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from rich.text import Text

from cellwars_tui.core.match import Match, Seat
from cellwars_tui.games.cellulis_bellum import geometry as G
from cellwars_tui.games.cellulis_bellum import rules as R
from cellwars_tui.games.cellulis_bellum.screen import (
    COMPACT, HUGE, MEDIUM, BoardView, CellulisBellumScreen, char_xy)
from cellwars_tui.record import load_match
from cellwars_tui.ui.app import CellwarsApp
from cellwars_tui.ui.screens import screen_class
from tests.ui.helpers import settle, until

from .helpers import P, pos

SIZE = (100, 32)
DIAGONAL_KEYS = {(1, 1): "pageup", (-1, 1): "home", (1, -1): "pagedown", (-1, -1): "end"}
RECORDS = Path(__file__).with_name("records")


def _app(turn_limit: int = 10, bot: str | None = None, start=None, **options) -> CellwarsApp:
    seats = [Seat(name="Ann"), Seat(name="Bob") if bot is None else
             Seat(name="Bot", kind="bot", bot=bot, think=0.05)]
    match = Match(R.GAME, R.CellulisBellumOptions(turn_limit=turn_limit, **options), seats, 1)
    if start is not None:
        match.states[0] = start  # a made-up start position
    return CellwarsApp(match=match)


def _text(screen, selector: str) -> str:
    widget = screen.query_one(selector)
    rendered = widget.render()
    return rendered.plain if isinstance(rendered, Text) else str(rendered)


def keys_to(start: int, p: int) -> list[str]:
    """The keys that walk the cursor from ``start`` to ``p`` on the 72-point board: one step
    along a diagonal when a corner goes to a centre or back, then the arrows (from corner to
    corner, or centre to centre)."""
    (x, y), (tx, ty) = G.xy(start), G.xy(p)
    keys = []
    if (x - tx) % 2:
        dx, dy = (1 if tx > x else -1), (1 if ty > y else -1)
        keys.append(DIAGONAL_KEYS[(dx, dy)])
        x, y = x + dx, y + dy
    keys += (["right"] * ((tx - x) // 2) + ["left"] * ((x - tx) // 2)
             + ["up"] * ((ty - y) // 2) + ["down"] * ((y - ty) // 2))
    return keys


async def _go(pilot, screen, p: int) -> None:
    """Walk the cursor to ``p`` with the keys."""
    keys = keys_to(screen.cursor, p)
    if keys:
        await pilot.press(*keys)
    assert screen.cursor == p, (G.NAMES[screen.cursor], G.NAMES[p])


def _near(screen, points, rng):
    """One of the points closest to the cursor (fewer key presses)."""
    cx, cy = G.xy(screen.cursor)
    ranked = sorted(points, key=lambda p: abs(G.xy(p)[0] - cx) + abs(G.xy(p)[1] - cy))
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
        assert all(ch in board for ch in "╲╱×─│◉▣")
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
        # a finished game's footer offers no move key (d answered "Nothing to end"), only what
        # still applies: the territory view among them
        shown = {b.binding.action for b in screen.active_bindings.values()
                 if b.binding.show and b.enabled}
        assert not shown & CellulisBellumScreen.MOVE_KEYS and "territory" in shown
        # undo goes back into the game, and its move keys come back
        await pilot.press("u")
        await pilot.pause()
        assert not table.is_over()
        assert "done" in {b.binding.action for b in screen.active_bindings.values() if b.enabled}


# the two sizes whose board scales differ most; the point-to-cell mapping at each is checked fast
# (test_every_points_character_is_where_the_board_finds_that_point), the walk by keys and mouse
# over all 72 points is slow
BOARD_SIZES = pytest.mark.parametrize("size, scale", [((80, 24), COMPACT), ((160, 50), HUGE)],
                                      ids=["80x24", "160x50"])


@pytest.mark.slow
@BOARD_SIZES
async def test_every_point_is_reached_by_keys_and_by_mouse(size, scale):
    """Keys: the cursor visits every point and shows its name. Mouse: a click on a point's
    character picks that point (here: spawns a cell there, which every empty point next to
    a Yellow colony allows), and on an empty point that is not lit it says so."""
    app = _app(turn_limit=200)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        view = screen.query_one(BoardView)
        assert view.scale == scale
        # (press waits until the screen has handled the keys, and the info line is set with the
        # cursor: no pause, so the board redraws at the app's own frame rate, not once a point)
        for p in G.FULL.points:  # in name order: a1 b1 ... g6, then ab12 ... fg56
            await _go(pilot, screen, p)
            assert f"{G.NAMES[p]} ·" in _text(screen, "#cb-info")
        # clicks on each point's own character, through the whole app (some spawn, select or
        # move a piece: the cursor goes there whatever the click does)
        for p in G.FULL.points:
            await pilot.click("#cb-board", offset=view.offset_of(p))
            await pilot.pause()
            assert screen.cursor == p, G.NAMES[p]
        assert view.scale == scale and screen.table.match.history  # the clicks played too


@BOARD_SIZES
async def test_every_points_character_is_where_the_board_finds_that_point(size, scale):
    """Each point's character sits where the board's layout puts it, and the board reads that
    cell back as that point (what a click on it relies on; the walk above clicks every one)."""
    app = _app(turn_limit=200)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        view = app.screen.query_one(BoardView)
        assert view.scale == scale
        for p in G.FULL.points:
            assert view.point_at(*view.offset_of(p)) == p
            x, y = char_xy(p, scale)
            assert view.offset_of(p) == (x + view.origin[0], y)


async def test_mouse_play_lit_targets_territory_overlay_and_compact_board():
    app = _app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        view = screen.query_one(BoardView)
        table = screen.table
        assert view.scale == MEDIUM
        await pilot.click("#cb-board", offset=view.offset_of(P("cd23")))
        await pilot.pause()
        s = table.state()
        # one colony (the nucleus), one cell: the spawn ended by itself
        assert s.board[P("cd23")] == R.CELLS[0] and s.seat == 1
        # Violet: click its nucleus, its eight neighbours light up, click one
        await pilot.click("#cb-board", offset=view.offset_of(P("d5")))
        await pilot.pause()
        assert screen.selected == P("d5")
        assert set(screen.targets()) == set(G.FULL.neighbours[P("d5")])
        assert "◇" in _text(screen, "#cb-board")
        await pilot.click("#cb-board", offset=view.offset_of(P("de56")))
        await pilot.pause()
        assert table.state().board[P("de56")] == R.NUCLEI[1]
        assert table.state().seat == 0
        # the territories counted live; the overlay on demand (test_screen_territory.py)
        assert "territory 0" in _text(screen, "#cb-info")
        await pilot.press("t")
        await pilot.pause()
        assert "Territories:" in _text(screen, "#gs-status")
        assert screen.shown_territory() == "both"
        # an 80x24 terminal gets the compact board: a row of corners, a row of centres
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        board = _text(screen, "#cb-board")
        assert view.scale == COMPACT and "│  ×  │" in board and "·─────·" in board
        assert view.point_at(*view.offset_of(P("d3"))) == P("d3")


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
    ring = pos("y c3 cd23 cd34 d2 d4 de23 de34 e3", "Y b1", "V f5")
    app = _app(start=ring)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        table = screen.table
        d3 = P("d3")
        await _go(pilot, screen, d3)
        await pilot.press("g")
        await pilot.pause()
        assert table.state().board[d3] == R.VIRUSES[0] and table.state().seat == 0
        await pilot.press("f")  # a new virus may act in the turn it is made
        await pilot.pause()
        assert set(screen.targets()) == {q for ray in G.FULL.rays[d3] for q in ray}
        assert "✶" in _text(screen, "#cb-board")
        await _go(pilot, screen, P("e4"))  # on the ray d3-de34-e4-ef45-f5-fg56
        await pilot.press("enter")
        await pilot.pause()
        s = table.state()
        assert s.dead == (False, True) and table.is_over()
        assert screen.query_one("#gs-banner").has_class("over")
        assert "territory" in _text(screen, "#cb-info")
        assert "⊠" in _text(screen, "#cb-board")  # Violet's nucleus, destroyed, in its place


async def test_a_new_virus_that_must_wait_says_so():
    ring = pos("y c3 cd23 cd34 d2 d4 de23 de34 e3", "Y b1", "V f5", waits=True)
    app = _app(start=ring, new_virus="acts next turn")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        await _go(pilot, screen, P("d3"))
        await pilot.press("g", "f")
        await pilot.pause()
        assert screen.table.state().board[P("d3")] == R.VIRUSES[0]
        assert "cannot fire" in _text(screen, "#gs-status") and not screen.targets()


async def test_apoptosis_by_keys_lights_one_rhombus_at_a_time():
    start = pos("y c2 c3 bc23 cd23 d3 d2 de23", "v b2 e3", "Y g1", "V g6")
    rhombi = {"c2-c3": {P(n) for n in ("c2", "c3", "bc23", "cd23")},
              "d2-d3": {P(n) for n in ("d2", "d3", "cd23", "de23")}}
    app = _app(start=start)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        table = screen.table
        await pilot.press("s")
        await pilot.pause()
        assert set(screen.targets()) == {a.to for a in table.legal(0) if isinstance(a, R.Spawn)}
        await pilot.press("x")
        await _go(pilot, screen, P("cd23"))  # in both rhombi
        await pilot.press("a")
        await pilot.pause()
        first = set(screen.targets())
        assert first in rhombi.values() and "1 of 2" in _text(screen, "#gs-status")
        assert _text(screen, "#cb-board").count("◈") == 0  # the rhombus is full: pieces show
        await pilot.press("a")  # the other one
        await pilot.pause()
        second = set(screen.targets())
        assert second in rhombi.values() and second != first
        assert "2 of 2" in _text(screen, "#gs-status")
        await pilot.press("enter")  # the cursor (cd23) is on it: sacrifice it
        await pilot.pause()
        s = table.state()
        assert all(s.board[p] == R.EMPTY for p in second) and s.step == R.START and s.seat == 0
        # the enemy cell next to the sacrificed rhombus is gone, the other one stays
        near = P("e3") if second == rhombi["d2-d3"] else P("b2")
        far = P("b2") if near == P("e3") else P("e3")
        assert s.board[near] == R.EMPTY and s.board[far] == R.CELLS[1]


async def test_undo_and_redo_by_keys():
    app = _app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        table = screen.table
        await _go(pilot, screen, P("de23"))
        await pilot.press("enter")  # Yellow's one colony (the nucleus) gets its cell: turn over
        await pilot.pause()
        after = table.state()
        assert after.board[P("de23")] == R.CELLS[0] and after.seat == 1
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
    app = _app(start=pos("y a1 b1 ab12", "v c1", "Y g1", "V g6"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        board = screen.draw_board(MEDIUM)
        prefix = 3  # the rank number column
        yellow = screen.seat_colour(0).lower()
        line_colour = screen.colour("board-line").lower()

        def between(p: str, q: str) -> tuple[int, int]:
            (x1, y1), (x2, y2) = char_xy(P(p), MEDIUM), char_xy(P(q), MEDIUM)
            return (y1 + y2) // 2, prefix + (x1 + x2) // 2

        # a1-b1 and a1-ab12: Yellow cells of one colony, linked in Yellow; b1-c1 (Yellow,
        # Violet) and c1-d1 (Violet, empty) are plain board lines
        for p, q in (("a1", "b1"), ("a1", "ab12")):
            assert yellow in _style_at(app, board, *between(p, q)).lower(), (p, q)
        for p, q in (("b1", "c1"), ("c1", "d1")):
            style = _style_at(app, board, *between(p, q)).lower()
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
        # a click between points (halfway along a grid side) is no point; Enter on an enemy
        # piece does nothing; the cursor stops at the board's edge
        view = screen.query_one(BoardView)
        assert view.point_at(view.origin[0] + MEDIUM[0] // 2, 0) is None
        await pilot.click("#cb-board", offset=(view.origin[0] + MEDIUM[0] // 2, 0))
        await pilot.pause()
        await _go(pilot, screen, P("d5"))
        await pilot.press("enter")
        await pilot.pause()
        assert "Nothing to do on d5" in _text(screen, "#gs-status")
        await _go(pilot, screen, P("g6"))
        await pilot.press("right", "up", "pageup")
        assert screen.cursor == P("g6")
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
    app = _app(start=pos("y a3 b3 c3 d3 e3 f3 g3", "Y d2", "V d6"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        # blank characters in the north triangles of squares a1 (behind Yellow's wall) and a5
        w, h = MEDIUM
        inside = (G.SQUARES_H - 1) * h + 1, 3 + w // 2
        outside = 1, 3 + w // 2
        board = screen.draw_board(MEDIUM)
        assert "on #" not in _style_at(app, board, *inside)
        await pilot.press("t")
        await pilot.pause()
        assert "territory 48" in _text(screen, "#cb-info")
        board = screen.draw_board(MEDIUM)
        assert "on #" in _style_at(app, board, *inside)
        assert "on #" not in _style_at(app, board, *outside)


async def test_a_record_of_the_first_rules_shows_its_42_point_board():
    """The diagonals of the 42-point board cross between points: the crossing is drawn, but no
    point stands there, and the keys step from corner to corner."""
    match = load_match(RECORDS / "pruned-virus-kill.cellwars.json")
    app = CellwarsApp(match=match)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, CellulisBellumScreen) and len(screen.state.board) == 42
        board = _text(screen, "#cb-board")
        assert "╳" in board and "×" not in board
        view = screen.query_one(BoardView)
        x, y = char_xy(G.centre(G.square(2, 2)), view.scale)  # where c3-d4 crosses d3-c4
        assert board.splitlines()[y][x + view.origin[0]] == "╳"
        assert view.point_at(x + view.origin[0], y) is None
        screen.cursor = P("c3")
        await pilot.press("pageup")
        assert screen.cursor == P("d4")  # a diagonal step is corner to corner here
        assert "⊠" in board or "⊗" in board  # the game ended by a destroyed nucleus


async def test_the_side_column_takes_the_columns_the_board_leaves():
    """The board keeps its largest scale, and the side column (the log, the lesson) grows into
    the columns left beside it: at 160x50 (was ~30 empty columns) and at 80x24, and again after
    a resize."""
    from cellwars_tui.games.cellulis_bellum.screen import LEFT, SIDE_GAP

    def fitted(view, scale) -> bool:
        return (view.pick_scale() == scale
                and view.size.width == G.SQUARES_W * scale[0] + 1 + LEFT + SIDE_GAP)

    app = _app(turn_limit=200)
    async with app.run_test(size=(160, 50)) as pilot:
        screen = app.screen
        view, side = screen.query_one(BoardView), screen.query_one("#gs-side")
        await until(pilot, lambda: fitted(view, HUGE), "the side column widened at 160x50")
        assert side.outer_size.width > 50
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: fitted(view, COMPACT), "the side column fitted at 80x24")
        await pilot.resize_terminal(160, 50)
        await until(pilot, lambda: fitted(view, HUGE), "the side column fitted again")
