"""Pilot tests of the Cell Wars table screen: whole games by keys and by mouse against a random
bot, the drawn board at 80x24 and 160x50 in every theme, guided setup, cards, undo at a die roll,
hand privacy in hot-seat play and the read-only (replay) mode."""

from __future__ import annotations

import random
import time
from collections import deque
from pathlib import Path

import msgspec
import pytest
from rich.text import Text
from textual import events

from cellwars_tui.core.match import Match, Seat
from cellwars_tui.games.cell_wars import board as B
from cellwars_tui.games.cell_wars import rules as R
from cellwars_tui.games.cell_wars.cards import card_id
from cellwars_tui.games.cell_wars.decisions import move_cursor
from cellwars_tui.games.cell_wars.hex_board import SCALES, HexBoard, hex_layout, pick_scale
from cellwars_tui.games.cell_wars.screen import CellWarsScreen
from cellwars_tui.ui.widgets.choice_bar import ChoiceBar
from cellwars_tui.ui.app import CellwarsApp
from cellwars_tui.ui.dialogs import HandOff
from cellwars_tui.ui.screens import screen_class
from cellwars_tui.table.local import LocalTable

from .helpers import CANCER_TILES, PIECES, PLACED, SIGNS, T

THEMES = sorted(p.stem for p in (Path(__file__).parents[3] / "themes").glob("*.toml"))


@pytest.fixture(autouse=True)
def _no_dice_animation():
    old = CellWarsScreen.dice_seconds
    CellWarsScreen.dice_seconds = 0
    yield
    CellWarsScreen.dice_seconds = old


def _match(humans=1, seed=3, players=2) -> Match:
    seats = [Seat(name="Ann")]
    for i in range(1, players):
        if i < humans:
            seats.append(Seat(name=f"Human {i + 1}"))
        else:
            seats.append(Seat(name=f"Bot {i + 1}", kind="bot", bot="random"))
    return Match(R.GAME, R.CellWarsOptions(layout=PLACED, players=players), seats, seed)


def _board_text(screen) -> list[str]:
    board = screen.query_one(HexBoard)
    return ["".join(seg.text for seg in board.render_line(y))
            for y in range(board.size.height)]


def _text(screen, selector: str) -> str:
    rendered = screen.query_one(selector).render()
    return rendered.plain if isinstance(rendered, Text) else str(rendered)


async def _settle(pilot, timeout: float = 120.0) -> None:
    """Wait until a human may act, or the game is over (the table's bots think in threads; the
    timeout only guards against a hang)."""
    app = pilot.app
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        screen = app.screen
        if not isinstance(screen, (HandOff, CellWarsScreen)) or not screen.is_mounted:
            await pilot.pause()
            continue
        if isinstance(screen, HandOff):
            return
        table = screen.table
        if table.is_over() or (screen.legal and table.bot_to_move() is None
                               and not screen.rolling):
            return
        await pilot.pause(0.01 if table.bot_to_move() is not None else None)
    raise AssertionError("the game never came back to the human")


# -- input as a terminal sends it, and waiting for its effect ------------------------------------
# The whole-game tests take a few hundred decisions. Pilot.press and Pilot.click wait for the
# process to look idle (at least 20 ms of sleep, two or four times an input); these helpers post
# the same events a terminal driver posts (keys, mouse down and up: the app makes the click) and
# then let the app handle its queued messages until the expected effect is there.
async def _until(pilot, done, limit: int = 2000) -> bool:
    """Let the app work (each round handles every message queued so far and lays the screen
    out) until ``done()``; False if it never is."""
    for _ in range(limit):
        if done():
            return True
        await pilot.pause(0)
    return done()


def _type(pilot, *keys: str) -> None:
    """Post ``keys`` to the app as the terminal driver does, in order."""
    app = pilot.app
    for key in keys:
        char = key if len(key) == 1 else ("\r" if key == "enter" else None)
        event = events.Key(key, char)
        event.set_sender(app)
        app.post_message(event)


def _mouse_click(pilot, widget, offset: tuple[int, int]) -> None:
    """Post a mouse button press and release at ``offset`` in ``widget``, as the terminal driver
    does (the app turns them into a Click on the widget under the pointer)."""
    app = pilot.app
    x, y = widget.region.x + offset[0], widget.region.y + offset[1]
    for kind in (events.MouseDown, events.MouseUp):
        event = kind(None, x, y, 0, 0, 1, False, False, False, screen_x=x, screen_y=y)
        event.set_sender(app)
        app.post_message(event)


def _laid_out(screen) -> bool:
    """The choice bar has the height its choices need and the board was drawn for its size (so
    the offsets a click aims at are the ones the screen will read)."""
    bar = screen.query_one(ChoiceBar)
    board = screen.query_one(HexBoard)
    lines = len(bar._layout(bar.content_region.width)[0]) if bar.choices else 1
    return (not bar.display or bar.size.height == lines) and \
        board._built_for == tuple(board.size) and board._strips is not None


def _arrow_path(start: int, goal: int) -> list[str]:
    """The arrow keys that take the cursor from ``start`` to ``goal``."""
    seen = {start: []}
    todo = deque([start])
    while todo:
        t = todo.popleft()
        if t == goal:
            return seen[t]
        for key in ("left", "right", "up", "down"):
            n = move_cursor(t, key)
            if n not in seen:
                seen[n] = seen[t] + [key]
                todo.append(n)
    raise AssertionError(f"no arrow path {start} -> {goal}")


async def _decide(pilot, screen, rng: random.Random, mouse: bool) -> str:
    """Take one decision through the screen (a random one of the offered tiles and choices) and
    wait until it took effect: a step played, or the decision asked next (a card's target, the
    wall's second tile, back to the hand)."""
    options = [("tile", t) for t in sorted(screen.tile_actions)]
    options += [("choice", i) for i in range(len(screen.choices))]
    assert options, f"nothing offered at {screen.prompt!r}"
    # favour going on (so the game moves), but take every kind of decision now and then
    ends = [o for o in options if o[0] == "choice" and screen.choices[o[1]].key == "0"]
    if ends and rng.random() < 0.4:
        kind, what = ends[0]
    else:
        kind, what = rng.choice(options)
    if kind == "tile" and not mouse and rng.random() < 0.8:  # mostly a tile near the cursor
        tiles = sorted(screen.tile_actions, key=lambda t: len(_arrow_path(screen.cursor, t)))
        what = tiles[0]
    table = screen.table
    before = (table.step(), screen.prompt)
    at = table.match.cursor

    def took_effect() -> bool:
        return (table.step(), screen.prompt) != before

    if mouse:  # the layout settles (the choice bar may have grown) before aiming
        assert await _until(pilot, lambda: _laid_out(screen)), "the screen was never laid out"
    if kind == "tile":
        expected = screen.tile_actions[what][0]
        if mouse:
            board = screen.query_one(HexBoard)
            _mouse_click(pilot, board, board.tile_offset(what))
        else:  # the arrows to the tile, then Enter
            _type(pilot, *_arrow_path(screen.cursor, what), "enter")
        done = f"tile {B.NAMES[what]}"
        assert await _until(pilot, took_effect), f"{done} at {before[1]!r} did nothing"
        if table.match.cursor > at:  # what was played is that tile's (else: a wall's 1st tile)
            assert table.match.steps[at].action == expected, done
        else:
            assert screen.picking.build_from == what, done
        return done
    choice = screen.choices[what]
    if mouse:
        bar = screen.query_one(ChoiceBar)
        _mouse_click(pilot, bar, bar.offset_of(what))
    else:
        _type(pilot, choice.key)
    done = f"choice {choice.label}"
    assert await _until(pilot, took_effect), f"{done} at {before[1]!r} did nothing"
    return done


async def _play_to_the_end(pilot, mouse: bool, seed: int) -> tuple[int, int]:
    app = pilot.app
    screen = app.screen
    assert isinstance(screen, CellWarsScreen)
    rng = random.Random(seed)
    decisions = 0
    for _ in range(3000):
        await _settle(pilot)
        if screen.table.is_over():
            break
        await _decide(pilot, screen, rng, mouse)
        decisions += 1
    else:
        raise AssertionError("the game did not end")
    return decisions, screen.table.step()


async def test_the_game_has_its_own_screen():
    assert screen_class(R.GAME) is CellWarsScreen


# -- the drawn board ----------------------------------------------------------------------------
def _standard_match(humans=1) -> Match:
    m = _match(humans=humans, seed=5)
    for text in [f"sign {t}" for t in SIGNS] + [f"tissue {t}" for t in CANCER_TILES] + \
            [f"place {t}" for t in PIECES]:
        seat = m.to_act()[0]
        m.play(seat, R.GAME.action_from_str(text))
    return m


BOARD_80x24 = """\
            /c\\ /·\\ /·\\ /·\\ /c\\
           |A1 |A2 |A3 |A4 |A5 |
          /·\\·/·\\·/·\\·/·\\·/·\\·/·\\
         |B1 |B2 |B3 |B4 |B5 |B6 |
        /·\\·/·\\·/·\\·/·\\·/·\\·/~\\·/·\\
       |C1 | A |C3 | B |C5 |C6 |C7 |
      /·\\·/·\\·/·\\·/·\\·/·\\·/·\\·/·\\·/·\\
     |D1 |D2 |D3 |D4 |D5 |D6 |D7 |D8 |
    /F\\·/·\\·/·\\·/·\\·/+\\·/·\\·/·\\·/·\\·/·\\
   |E1 |E2 |E3 |E4 |E5 |E6 | G |E8 |E9 |
    \\·/·\\·/·\\·/·\\·/·\\·/·\\·/x\\·/x\\·/·\\·/
     |F1 |F2 |F3 |F4 |F5 |F6 |F7 |F8 |
      \\·/·\\·/~\\·/·\\·/x\\·/x\\x/x\\x/·\\·/
       |G1 |G2 |G3 | a | b | g |G7 |
        \\·/·\\·/·\\·/x\\x/x\\x/·\\x/·\\·/
         |H1 |H2 |H3 |H4 |H5 |H6 |
          \\·/c\\·/·\\x/·\\x/·\\·/c\\·/
           |I1 |I2 |I3 |I4 |I5 |
            \\·/ \\·/ \\·/ \\·/ \\·/"""


async def test_the_board_at_80x24_reads_as_hexagons_with_every_piece_and_spot():
    app = CellwarsApp(match=_standard_match())
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(pilot)
        screen = app.screen
        lines = [line.rstrip() for line in _board_text(screen)]
        drawn = [line for line in lines if line.strip()]
        assert len(drawn) == 19 and max(len(x) for x in lines) <= 44
        # the cursor sits on the acting cell (Immune alpha on C2) as [..]
        assert "[A " in drawn[5] or "[C2" in drawn[5] or "[" in drawn[5]
        plain = "\n".join(line.replace("[", "|").replace("]", "|") for line in drawn)
        expected = "\n".join(x.rstrip() for x in BOARD_80x24.splitlines())
        shift = min(len(x) - len(x.lstrip()) for x in drawn)
        shift_e = min(len(x) - len(x.lstrip()) for x in expected.splitlines())
        assert [x[shift:] for x in plain.splitlines()] == \
            [x[shift_e:] for x in expected.splitlines()]


def _board_state(m: Match) -> R.CWState:
    """A livelier position: walls, a solidified tile, an active CARD sign, a card on a panel."""
    s = m.state
    tiles = list(s.tiles)
    tiles[T["H4"]] = R.SOLID_T
    panels = list(s.panels)
    panels[0] = msgspec.structs.replace(panels[0], active=((card_id("cytokine"), 2),))
    return msgspec.structs.replace(
        s, tiles=tuple(tiles), panels=tuple(panels),
        walls=(B.edge_between(T["E4"], T["E5"]), B.edge_between(T["C2"], T["D2"])),
        card_signs=(True, False, False, False))


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
async def test_board_in_every_theme_and_size(theme, size):
    m = _standard_match()
    app = CellwarsApp(match=m, theme=theme)
    async with app.run_test(size=size) as pilot:
        await _settle(pilot)
        screen = app.screen
        state = _board_state(m)
        screen.show(state, 0, screen.legal)
        screen._paint_side()
        await pilot.pause()
        board = screen.query_one(HexBoard)
        lay = board.layout_
        if size == (80, 24):
            assert (lay.s, lay.v) == (1, 1)
        else:
            assert (lay.width, lay.height) == (73, 39)  # the board grows with the window
            assert screen.query_one("#gs-side").size.width > 36  # the side panel grows too
        lines = _board_text(screen)
        text = "\n".join(lines)
        for name in B.NAMES:
            if not any(state.panels[p].tile == T[name] for p in range(6)) or lay.v >= 2:
                assert name in text, name
        assert text.count("#") >= 2 * lay.v  # two walls
        assert "X" in text and "x" in text and "·" in text  # tissue glyphs
        # nothing a plain terminal font could lack: ASCII and the middle dot (Latin-1) only
        assert set(text) <= {chr(c) for c in range(32, 127)} | {"·", "\n"}
        assert "C" in text and "c" in text and "+" in text and "F" in text and "~" in text
        for mark in "AaBbGg":
            assert mark in text
        # tissue by colour as well: normal, cancer and solidified tiles differ in background
        def bg_at(tile: int) -> str:
            x, y = board.tile_offset(tile)
            x -= 1
            strip = board.render_line(y)
            pos = 0
            for seg in strip:
                if pos + len(seg.text) > x:
                    return str(seg.style.bgcolor)
                pos += len(seg.text)
            raise AssertionError
        normal, cancer, solid = bg_at(T["A2"]), bg_at(T["G4"]), bg_at(T["H4"])
        assert len({normal, cancer, solid}) == 3
        side = _text(screen, "#gs-seats")
        assert "Round  1/16" in side and "Cancer tiles" in side and "Cytokine (2)" in side
        assert "step" in side


def test_scales_grow_with_the_window():
    sizes = [(hex_layout(*sv).width, hex_layout(*sv).height) for sv in SCALES]
    assert sizes[0] == (37, 19)
    assert all(a[0] * a[1] < b[0] * b[1] for a, b in zip(sizes, sizes[1:]))
    assert (pick_scale(44, 19).s, pick_scale(44, 19).v) == (1, 1)
    assert pick_scale(120, 45).width == 73
    # every tile's inside is reachable by a click, outlines are not
    lay = hex_layout(2, 2)
    for t in range(B.N_TILES):
        x, y = lay.centre[t]
        assert lay.grid[y][x] == t


# -- setup, decisions, undo ---------------------------------------------------------------------
async def test_setup_greys_out_illegal_spots_and_places_by_click():
    app = CellwarsApp(match=_match(seed=4))
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(pilot)
        screen = app.screen
        assert "CARD sign 1 of 4" in screen.prompt
        board = screen.query_one(HexBoard)
        await pilot.click("#cw-board", offset=board.tile_offset(T["E5"]))
        await _settle(pilot)
        assert screen.table.state().signs == (T["E5"],)
        marks = screen.marks()
        assert T["E5"] in marks.greyed and T["E5"] not in marks.targets
        assert len(screen.tile_actions) == 60 and len(marks.greyed) == 1
        assert "CARD sign 2 of 4" in screen.prompt
        # a click on a taken spot does nothing but describe it
        await pilot.click("#cw-board", offset=board.tile_offset(T["E5"]))
        await pilot.pause()
        assert screen.table.state().signs == (T["E5"],)
        assert "E5" in _text(screen, "#gs-status")
        # no die or draw since: undo and redo work
        await pilot.press("u")
        await _settle(pilot)
        assert screen.table.state().signs == ()
        await pilot.press("r")
        await _settle(pilot)
        assert screen.table.state().signs == (T["E5"],)




def _ending_key(screen) -> str:
    """The key that takes the round on toward its end without moving: 0, but in the special-
    action step its "end round, no move" choice (there 0 rolls to move)."""
    return next((c.key for c in screen.choices if c.label == "end round, no move"), "0")


async def _to_special(pilot, screen) -> None:
    for _ in range(4):
        if screen.table.state().step == R.SPECIAL:
            return
        await pilot.press("0")
        await _settle(pilot)
    assert screen.table.state().step == R.SPECIAL


async def test_moving_along_highlighted_tiles_and_undo_stops_at_the_die():
    m = _standard_match()
    app = CellwarsApp(match=m)
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(pilot)
        screen = app.screen
        await _to_special(pilot, screen)
        roll = [c for c in screen.choices if c.label == "roll to move"][0]
        await pilot.press(roll.key)
        await _settle(pilot)
        state = screen.table.state()
        assert state.step == R.MOVE
        here = state.panels[0].tile
        reachable = set(screen.tile_actions)
        assert reachable == {B.NEIGHBOUR[here][a.dir] for a in screen.legal
                             if isinstance(a, R.Step)}
        assert reachable <= screen.marks().targets
        # the die is on the screen; undo would roll it again, so it is refused
        assert "die [" in _text(screen, "#gs-seats")
        await pilot.press("u")
        await pilot.pause()
        assert screen.table.state().step == R.MOVE
        assert "die roll" in _text(screen, "#gs-status")
        # a step by its direction key
        step = next(a for a in screen.legal if isinstance(a, R.Step))
        key = {0: "d", 1: "e", 2: "w", 3: "a", 4: "z", 5: "x"}[step.dir]
        await pilot.press(key)
        await pilot.pause()
        assert screen.table.state().panels[0].tile == B.NEIGHBOUR[here][step.dir]


async def test_the_die_animation_runs_and_a_key_skips_it():
    CellWarsScreen.dice_seconds = 5.0  # slow: only a key ends it
    app = CellwarsApp(match=_standard_match())
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(pilot)
        screen = app.screen
        await _to_special(pilot, screen)
        roll = [c for c in screen.choices if c.label == "roll to move"][0]
        await pilot.press(roll.key)
        await pilot.pause()
        assert screen.rolling and "die [" in _text(screen, "#gs-seats")
        await pilot.press("left")
        await pilot.pause()
        assert not screen.rolling
        face = next(st.action.face for st in reversed(screen.table.match.history)
                    if isinstance(st.action, R.Die))
        assert f"die [{face}]" in _text(screen, "#gs-seats")


async def test_the_range_of_the_selected_immune_cell_is_marked():
    m = _standard_match()
    s = m.state
    panels = list(s.panels)
    panels[0] = msgspec.structs.replace(panels[0], active=((card_id("cytokine"), 3),))
    m.states[m.cursor] = msgspec.structs.replace(s, panels=tuple(panels))
    app = CellwarsApp(match=m)
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(pilot)
        screen = app.screen
        assert screen.cursor == T["C2"]
        assert screen.marks().in_range == frozenset(B.within(T["C2"], 1))


# -- hot seat and read-only ---------------------------------------------------------------------
async def test_hot_seat_covers_the_table_and_keeps_hands_private():
    m = _standard_match(humans=2)
    s = m.state
    panels = list(s.panels)
    panels[1] = msgspec.structs.replace(panels[1], hand=(card_id("metastasis"),))
    m.states[m.cursor] = msgspec.structs.replace(s, panels=tuple(panels))
    app = CellwarsApp(match=m)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HandOff)
        await pilot.press("enter")
        await _settle(pilot)
        screen = app.screen
        assert isinstance(screen, CellWarsScreen)
        side = _text(screen, "#gs-seats")
        assert "Metastasis" not in side and "1 hidden card" in side
        # Immune alpha ends its round; Cancer alpha (the other person) is next: cover first
        for _ in range(4):
            if screen.table.state().panel != 0:
                break
            await pilot.press(_ending_key(screen))
            await pilot.pause()
        assert isinstance(app.screen, HandOff)
        assert "Metastasis" not in _text(screen, "#gs-seats")
        await pilot.press("enter")
        await _settle(pilot)
        assert "Metastasis" in _text(screen, "#gs-seats")


async def test_read_only_screen_shows_but_never_plays():
    m = _standard_match()
    table = LocalTable(m, read_only=True)
    app = CellwarsApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = CellWarsScreen(table, read_only=True)
        app.push_screen(screen)
        await pilot.pause()
        before = m.cursor
        board = screen.query_one(HexBoard)
        await pilot.press("0", "enter", "d")
        await pilot.click("#cw-board", offset=board.tile_offset(T["C3"]))
        await pilot.pause()
        assert m.cursor == before
        assert screen.choices == [] and "Replay" in screen.prompt
        assert len([line for line in _board_text(screen) if line.strip()]) == 19
