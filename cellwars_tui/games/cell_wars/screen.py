"""The Cell Wars table: the 61-tile hex body, a panel per cell, the round track and every decision.

The board is drawn by :class:`HexBoard` as a honeycomb of plain ``/ \\ |`` outlines (no box
drawing, so any terminal font works) at the largest of a few scales that fits the window: 37x19
characters at 80x24, 73x39 at 160x50. Each tile shows its tissue by a background colour *and* a
texture glyph (``·`` normal, ``x`` cancer, ``X`` solidified), its special spot (``C`` an active
CARD sign, ``c`` an inactive one, ``+`` the generator, ``F`` the wall factory, ``~`` a Blood
vessel), its name when there is room, and every cell piece as one letter in its seat's colour
(immune cells upper case ``A B G``, cancer cells lower case ``a b g`` for alpha, beta, gamma).
Walls are ``#`` on the side between two tiles.

Decisions: a cursor (arrows) or the mouse picks tiles (Enter or a click acts there): setup spots,
steps along the highlighted reachable tiles, attack targets, relapse tiles, card targets. Other
choices sit in a numbered bar under the board (keys 1-9, 0 for "end"/"stay", or a click); steps
also take the six direction keys ``w e`` (NW NE), ``a d`` (W E), ``z x`` (SW SE).
"""

from __future__ import annotations

import random
import textwrap
from pathlib import Path
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.color import Color
from textual.css.query import NoMatches
from textual.containers import Vertical
from textual.geometry import Region
from textual.screen import ModalScreen
from textual.strip import Strip
from textual.visual import Visual
from textual.widget import Widget
from textual.widgets import Static

from ...core.api import CHANCE, Action
from ...ui.game_screen import LOG_LINES, GameScreen
from . import board as B
from . import clarifications as C
from . import rules as R
from .cards import CARDS, CONTINUOUS, IMMUNE
from .cards import card_id as _card_id

# -- glyphs (plain characters only) ------------------------------------------------------------
TISSUE_GLYPHS = ("·", "x", "X")  # normal, cancer, solidified
TISSUE_WORDS = ("normal", "cancer", "solidified")
PIECE_MARKS = ("A", "a", "b", "B", "G", "g")  # by panel: Ia Ca Cb Ib Ig Cg
SEAT_TAG = 9  # a seat line of the side panel starts "▶A Ia P1 " (acting mark, piece, cell, seat)
WALL_GLYPH = "#"
SPOT_GLYPHS = ("C", "C", "C", "C", "+", "F", "~", "~")  # by SIGN_KINDS index (inactive CARD: c)
SPOT_WORDS = ("CARD sign", "CARD sign", "CARD sign", "CARD sign", "Biomass generator",
              "Wall factory", "Blood vessel", "Blood vessel")
SETUP_SPOT_WORDS = ("CARD sign 1 of 4", "CARD sign 2 of 4", "CARD sign 3 of 4",
                    "CARD sign 4 of 4", "Biomass generator", "Wall factory",
                    "Blood vessel 1 of 2", "Blood vessel 2 of 2")

# The ten steps of an individual round, as numbered in rules.md.
STEP_TITLES = {
    R.START: (0, "start"), R.RELAPSE: (1, "relapse"), R.PREDRAW: (2, "pre-draw"),
    R.WALLS: (3, "collect walls"), R.VESSEL: (4, "blood vessel"), R.FREE: (5, "card drawing"),
    R.DRAW: (5, "card drawing"), R.CARDS_STEP: (6, "play cards"), R.CARDMOVE: (6, "card move"),
    R.SPECIAL: (7, "special action"), R.MOVE: (8, "movement"), R.ATTACK: (9, "attack"),
    R.END: (10, "recovery"),
}

DIRECTION_KEYS = {"d": 0, "e": 1, "w": 2, "a": 3, "z": 4, "x": 5}  # E NE NW W SW SE
KEY_OF_DIRECTION = {d: k for k, d in DIRECTION_KEYS.items()}

# Scales (s, v): slant lines and straight lines of each hexagon, smallest first.
SCALES = ((1, 1), (2, 1), (2, 2), (3, 1), (3, 2), (4, 2))

DICE_FRAMES = 8
CENTRE_TILE = B.BY_NAME["E5"]


# ----------------------------------------------------------------------------------------------
# Geometry of a drawn honeycomb
# ----------------------------------------------------------------------------------------------
@dataclass
class HexLayout:
    """Where every tile's inside and every side of a tile falls on a character grid."""

    s: int
    v: int
    width: int = 0
    height: int = 0
    # grid[y][x]: -1 empty; 0..60 inside of that tile; 1000+e side ``e``; 2000+t border of t
    grid: list[list[int]] = field(default_factory=list)
    glyph: list[list[str]] = field(default_factory=list)  # outline glyph at each side cell
    lines: list[list[tuple[int, int, int]]] = field(default_factory=list)  # tile -> (y, x, w)
    centre: list[tuple[int, int]] = field(default_factory=list)  # tile -> (x, y) inside
    sides: list[list[tuple[int, int]]] = field(default_factory=list)  # tile -> its outline cells
    edge_cells: list[list[tuple[int, int]]] = field(default_factory=list)  # edge -> its cells


@lru_cache(maxsize=None)
def hex_layout(s: int, v: int) -> HexLayout:
    pitch_x, pitch_y = 2 * s + 2, s + v
    width, height = 9 * pitch_x + 1, 9 * pitch_y + s
    lay = HexLayout(s, v, width, height)
    lay.grid = [[-1] * width for _ in range(height)]
    lay.glyph = [[" "] * width for _ in range(height)]
    lay.lines = [[] for _ in range(B.N_TILES)]
    lay.centre = [(0, 0)] * B.N_TILES
    lay.sides = [[] for _ in range(B.N_TILES)]

    def side(t: int, d: int, x: int, y: int, glyph: str) -> None:
        n = B.NEIGHBOUR[t][d]
        code = 1000 + B.edge_between(t, n) if n >= 0 else 2000 + t
        lay.grid[y][x] = code
        lay.glyph[y][x] = glyph
        lay.sides[t].append((x, y))

    for t, (q, r) in enumerate(B.COORDS):
        row = r + B.RADIUS
        index = q - max(-B.RADIUS, -B.RADIUS - r)
        x0 = abs(r) * (s + 1) + index * pitch_x
        y0 = row * pitch_y
        for i in range(s):  # upper slants: NW on the left, NE on the right
            y = y0 + i
            side(t, 2, x0 + s - i, y, "/")
            side(t, 1, x0 + s + 2 + i, y, "\\")
            lay.lines[t].append((y, x0 + s - i + 1, 2 * i + 1))
        for j in range(v):
            y = y0 + s + j
            side(t, 3, x0, y, "|")
            side(t, 0, x0 + pitch_x, y, "|")
            lay.lines[t].append((y, x0 + 1, pitch_x - 1))
        for i in range(s):  # lower slants: SW on the left, SE on the right
            y = y0 + s + v + i
            side(t, 4, x0 + 1 + i, y, "\\")
            side(t, 5, x0 + pitch_x - 1 - i, y, "/")
            lay.lines[t].append((y, x0 + 2 + i, pitch_x - 3 - 2 * i))
        for y, x, w in lay.lines[t]:
            for k in range(w):
                lay.grid[y][x + k] = t
        lay.centre[t] = (x0 + s + 1, y0 + s + (v - 1) // 2)
    lay.edge_cells = [[] for _ in range(B.N_EDGES)]
    for y in range(height):
        for x in range(width):
            code = lay.grid[y][x]
            if 1000 <= code < 2000:
                lay.edge_cells[code - 1000].append((x, y))
    return lay


def pick_scale(width: int, height: int) -> HexLayout:
    """The largest honeycomb that fits ``width`` x ``height`` (the smallest if none does)."""
    best = hex_layout(*SCALES[0])
    for s, v in SCALES:
        lay = hex_layout(s, v)
        if lay.width <= width and lay.height <= height:
            best = lay
    return best


def board_top(lay: HexLayout, height: int, cursor: int) -> int:
    """Where the honeycomb's first line goes in a widget ``height`` lines high: centred when it
    fits; when it does not (a tall choice bar in a short window), from the top, moved up just
    enough that the cursor's tile (the line with its name or pieces) stays in view."""
    if height >= lay.height:
        return (height - lay.height) // 2
    if not 0 <= cursor < B.N_TILES:
        return 0
    need = lay.centre[cursor][1] + 1  # lines down to the cursor's name line
    return -min(lay.height - height, max(0, need - height))


# ----------------------------------------------------------------------------------------------
# What a tile shows
# ----------------------------------------------------------------------------------------------
@dataclass
class Marks:
    """The overlay the screen asks the board to draw on top of the state."""

    cursor: int = -1
    targets: frozenset[int] = frozenset()  # tiles where a decision can be taken now
    greyed: frozenset[int] = frozenset()  # tiles shown as not allowed (setup)
    in_range: frozenset[int] = frozenset()  # range of the selected immune cell
    picked: int = -1  # first tile of a two-tile pick (building a wall)


def tile_pieces(s: R.CWState, t: int) -> list[int]:
    return [p for p in range(len(s.panels)) if s.panels[p].tile == t]


def _spot(s: R.CWState, t: int) -> tuple[str, bool]:
    """(glyph, active) of the special spot on tile ``t``; ("", False) without one."""
    k = R.sign_at(s, t)
    if k < 0:
        return "", False
    if k in R.CARD_SIGNS:
        active = bool(s.card_signs[k])
        return ("C" if active else "c"), active
    return SPOT_GLYPHS[k], False


class HexBoard(Widget, can_focus=True):
    """The honeycomb, painted line by line from a cached list of strips."""

    DEFAULT_CSS = """
    HexBoard { height: 1fr; width: 100%; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.state: R.CWState | None = None
        self.marks = Marks()
        self.layout_: HexLayout = hex_layout(*SCALES[0])
        self._strips: list[Strip] | None = None
        self._styles: dict[tuple, Style] = {}
        self._palette: dict[str, str] = {}
        self._theme_key: Any = None
        self._base: tuple | None = None
        self._grid: tuple[list[list[str]], list[list[Style]]] | None = None
        self._keys: list[tuple] = []
        self._line_strips: list[Strip | None] = []
        self._built_for: tuple[int, int] = (0, 0)  # the widget size the strips were built for
        self.offset_x = 0
        self.offset_y = 0

    # -- feeding it ---------------------------------------------------------------------------
    def update_board(self, state: R.CWState | None, marks: Marks) -> None:
        """Show ``state`` with ``marks``; only the lines that changed are repainted."""
        self.state = state
        self.marks = marks
        old = self._strips
        if old is None or not self.size.width or self._built_for != tuple(self.size):
            self._strips = None
            self.refresh()
            return
        new = self._strips = self._build()
        width = self.size.width
        changed = [y for y in range(len(new)) if new[y] is not old[y] and new[y] != old[y]]
        regions = []
        for y in changed:  # one region per run of changed lines
            if regions and regions[-1][1] == y:
                regions[-1][1] = y + 1
            else:
                regions.append([y, y + 1])
        if regions:
            self.refresh(*(Region(0, a, width, b - a) for a, b in regions))

    def on_resize(self, event: events.Resize) -> None:
        # lay the honeycomb out again for the new size and repaint all of it (strips painted for
        # the old size would leave the board clipped until the next move)
        self._strips = None
        self.refresh()

    # -- geometry for clicks and tests --------------------------------------------------------
    def tile_at(self, x: int, y: int) -> int:
        """The tile drawn at widget offset (x, y), or -1 (an outline or outside)."""
        lay = self.layout_
        gx, gy = x - self.offset_x, y - self.offset_y
        if 0 <= gy < lay.height and 0 <= gx < lay.width:
            code = lay.grid[gy][gx]
            if 0 <= code < B.N_TILES:
                return code
        return -1

    def tile_offset(self, t: int) -> tuple[int, int]:
        """Widget offset of the middle of tile ``t`` (to click it)."""
        x, y = self.layout_.centre[t]
        return x + self.offset_x, y + self.offset_y

    def on_click(self, event: events.Click) -> None:
        t = self.tile_at(event.x, event.y)
        screen = self.screen
        if t >= 0 and isinstance(screen, CellWarsScreen):
            event.stop()
            screen.clicked_tile(t)

    # -- colours -------------------------------------------------------------------------------
    def _colours(self) -> dict[str, str]:
        key = (self.app.theme, id(self.app.theme_variables))
        if key == self._theme_key:
            return self._palette
        variables = self.app.theme_variables
        from ...ui.themes import FALLBACK_VARIABLES

        def get(name: str) -> Color:
            return Color.parse(variables.get(name) or FALLBACK_VARIABLES.get(name, "white"))

        board = get("board")
        fg = Color.parse(variables.get("foreground") or "#DDDDDD")
        pal: dict[str, str] = {"board": board.hex, "line": get("board-line").hex,
                               "fg": fg.hex, "muted": get("muted").hex,
                               "wall": get("danger").hex, "highlight": get("highlight").hex,
                               "target": get("target").hex, "immune": get("immune").hex}
        for i, name in enumerate(("tissue-normal", "tissue-cancer", "tissue-solid")):
            tissue = get(name)
            bg = board.blend(tissue, 0.38)
            pal[f"bg{i}"] = bg.hex
            pal[f"tex{i}"] = bg.blend(fg, 0.45).hex
            pal[f"name{i}"] = bg.blend(fg, 0.7).hex
            pal[f"cur{i}"] = bg.blend(get("highlight"), 0.55).hex
            pal[f"tgt{i}"] = bg.blend(get("target"), 0.3).hex
        for seat in range(6):
            pal[f"seat{seat}"] = get(f"seat-{seat + 1}").hex
        pal["greybg"] = board.hex
        self._palette, self._theme_key, self._styles = pal, key, {}
        return pal

    def _style(self, fg: str, bg: str, bold: bool = False) -> Style:
        key = (fg, bg, bold)
        st = self._styles.get(key)
        if st is None:
            st = self._styles[key] = Style(color=fg, bgcolor=bg, bold=bold)
        return st

    # -- painting ------------------------------------------------------------------------------
    def render_line(self, y: int) -> Strip:
        if self._strips is None or self._built_for != tuple(self.size):
            self._strips = self._build()
        if 0 <= y < len(self._strips):
            return self._strips[y]
        return Strip.blank(self.size.width)

    def _build(self) -> list[Strip]:
        """The strips of every line, redrawing only the tiles whose look changed."""
        width, height = self.size.width, self.size.height
        self._built_for = (width, height)
        lay = pick_scale(width, height)
        pal = self._colours()
        s, m = self.state, self.marks
        offset_y = board_top(lay, height, m.cursor)
        base = (lay.s, lay.v, width, height, offset_y, id(pal),
                s.walls if s is not None else None)
        keys = self._tile_keys(s, m)
        if base != self._base or self._grid is None:
            self.layout_ = lay
            self._base = base
            self.offset_x = max(0, (width - lay.width) // 2)
            self.offset_y = offset_y
            blank = self._style(pal["fg"], pal["board"])
            line_style = self._style(pal["line"], pal["board"])
            self._grid = ([list(row) for row in lay.glyph],
                          [[line_style if code >= 1000 else blank for code in row]
                           for row in lay.grid])
            dirty = list(range(B.N_TILES)) if s is not None else []
            lines = set(range(lay.height))
            self._line_strips = [None] * lay.height
        else:
            dirty = [t for t in range(B.N_TILES) if keys[t] != self._keys[t]]
            lines = set()
            for t in dirty:
                lines.update(y for y, _, _ in lay.lines[t])
                lines.update(y for _, y in lay.sides[t])
        self._keys = keys
        if s is not None and dirty:
            self._paint(s, m, lay, pal, dirty)
        chars, styles = self._grid
        blank = self._style(pal["fg"], pal["board"])
        pad_left = self.offset_x
        right = width - pad_left - lay.width
        for gy in lines:
            segs = [Segment(" " * pad_left, blank)] if pad_left else []
            row_chars, row_styles = chars[gy], styles[gy]
            run_start, run_style = 0, row_styles[0]
            for x in range(1, lay.width + 1):
                st = row_styles[x] if x < lay.width else None
                if st is not run_style:
                    segs.append(Segment("".join(row_chars[run_start:x]), run_style))
                    run_start, run_style = x, st
            if right > 0:
                segs.append(Segment(" " * right, blank))
            self._line_strips[gy] = Strip(segs).crop(0, width)
        empty = Strip([Segment(" " * width, blank)], width)
        out = []
        for y in range(height):
            gy = y - self.offset_y
            out.append(self._line_strips[gy] if 0 <= gy < lay.height else empty)
        return out

    def _tile_keys(self, s: R.CWState | None, m: Marks) -> list[tuple]:
        """What decides the look of each tile (its inside and its outline)."""
        if s is None:
            return [()] * B.N_TILES
        at: dict[int, tuple[int, ...]] = {}
        for p, pn in enumerate(s.panels):
            if pn.tile >= 0:
                at[pn.tile] = at.get(pn.tile, ()) + (p,)
        signs = {t: k for k, t in enumerate(s.signs)}
        keys = []
        for t in range(B.N_TILES):
            k = signs.get(t, -1)
            keys.append((s.tiles[t], k, k in R.CARD_SIGNS and s.card_signs[k], at.get(t, ()),
                         t == m.cursor, t == m.picked, t in m.targets, t in m.greyed,
                         t in m.in_range, s.players))
        return keys

    def _paint(self, s: R.CWState, m: Marks, lay: HexLayout, pal: dict[str, str],
               dirty: list[int]) -> None:
        chars, styles = self._grid
        walls = set(s.walls)
        st = self._style
        wall_style = st(pal["wall"], pal["board"], True)
        range_style = st(pal["immune"], pal["board"], True)
        target_style = st(pal["target"], pal["board"], True)
        cursor_style = st(pal["highlight"], pal["board"], True)
        line_style = st(pal["line"], pal["board"])

        def rank(t: int, straight: bool) -> int:
            # the cursor marks only the straight sides (as [ and ]): moving it then repaints
            # a few lines, not whole hexagons
            if straight and (t == m.cursor or t == m.picked):
                return 3
            if t in m.targets:
                return 2
            return 1 if t in m.in_range else 0

        side_styles = (line_style, range_style, target_style, cursor_style)
        owners = C.PANEL_OWNERS.get(s.players, C.PANEL_OWNERS[6])
        wide = lay.lines[0][lay.s][2]  # width of a straight line inside a hexagon
        straight_rows = range(lay.s, lay.s + lay.v)
        for t in dirty:
            # its outline: the strongest mark of the two tiles sharing each side wins
            for x, y in lay.sides[t]:
                code = lay.grid[y][x]
                glyph = lay.glyph[y][x]
                straight = glyph == "|"
                if code >= 2000:
                    best = t
                else:
                    a, b = B.EDGES[code - 1000]
                    if code - 1000 in walls:
                        chars[y][x], styles[y][x] = WALL_GLYPH, wall_style
                        continue
                    best = a if rank(a, straight) >= rank(b, straight) else b
                r = rank(best, straight)
                styles[y][x] = side_styles[r]
                if r == 3:  # brackets show the cursor without colour too
                    glyph = "[" if x < lay.centre[best][0] else "]"
                chars[y][x] = glyph
            # its inside
            kind = s.tiles[t]
            grey = t in m.greyed
            cursor = t == m.cursor or t == m.picked
            if t in m.targets:
                bg = pal[f"tgt{kind}"]
            elif grey:
                bg = pal["greybg"]
            else:
                bg = pal[f"bg{kind}"]
            tex = TISSUE_GLYPHS[kind]
            spot, active = _spot(s, t)
            spot_fg = pal["highlight"] if active else (pal["muted"] if spot == "c" else pal["fg"])
            name_fg = pal["muted"] if grey else pal[f"name{kind}"]
            tex_fg = pal["muted"] if grey else pal[f"tex{kind}"]
            pieces = [p for p, pn in enumerate(s.panels) if pn.tile == t]
            # each cell as (character, role); the role's style depends on the line's background
            content: dict[int, list[tuple[str, int]]] = {}
            piece_cells = [(PIECE_MARKS[p], 10 + owners[p] % 6) for p in pieces]
            name_cells = [(ch, 1) for ch in B.NAMES[t]]
            spot_line = lay.s - 1
            if lay.v >= 2:
                first = list(name_cells)
                if spot and wide >= 4:
                    first += [(" ", 1), (spot, 2)]
                    spot_line = -1
                content[lay.s] = first
                content[lay.s + 1] = piece_cells
            elif pieces:
                cells = piece_cells
                if len(piece_cells) + 3 <= wide:
                    cells = name_cells + [(" ", 1)] + piece_cells
                content[lay.s] = cells
            else:
                content[lay.s] = name_cells
            if spot and spot_line >= 0:
                content[spot_line] = [(spot, 2)]
            for i, (y, x, w) in enumerate(lay.lines[t]):
                line_bg = pal[f"cur{kind}"] if cursor and i in straight_rows else bg
                tex_style = st(tex_fg, line_bg)
                crow, srow = chars[y], styles[y]
                cells = content.get(i)
                if cells is None:
                    for k in range(x, x + w):
                        crow[k] = tex if (k + y) % 2 == 0 else " "
                        srow[k] = tex_style
                    continue
                role_styles = {0: tex_style, 1: st(name_fg, line_bg),
                               2: st(spot_fg, line_bg, True)}
                cells = cells[:w]
                lead = (w - len(cells)) // 2
                for k in range(w):
                    j = k - lead
                    if 0 <= j < len(cells):
                        ch, role = cells[j]
                        if role >= 10:  # a piece: a badge in its seat's colour
                            style = st(pal["board"], pal[f"seat{role - 10}"], True)
                        else:
                            style = role_styles[role]
                        crow[x + k], srow[x + k] = ch, style
                    else:
                        crow[x + k] = " "
                        srow[x + k] = tex_style


# ----------------------------------------------------------------------------------------------
# Styled lines for the side panel and the log
# ----------------------------------------------------------------------------------------------
class TextLines(Visual):
    """Lines of a Rich ``Text`` drawn straight to strips (cached per width), for the seat panel
    and the log, which are painted again at every action: Textual's general text pipeline
    (markup, spans, selection offsets) took more of a frame than the whole board. ``wrap``: a
    line wider than the panel breaks between words, its later lines indented by ``indent``;
    otherwise it is cut with an ellipsis. ``str()`` is the plain text."""

    def __init__(self, text: Text, console: Any, *, wrap: bool = False, indent: int = 0,
                 cache: dict[tuple, list[Strip]] | None = None) -> None:
        self.text = text
        self.console = console
        self.wrap = wrap
        self.indent = indent
        # strips of each line by (its text and styles, width, base style), kept across updates
        # by the caller: most lines of the next paint were in the last one
        self.cache = cache if cache is not None else {}
        lines = list(text.split("\n", allow_blank=True))
        if lines and text.plain.endswith("\n"):
            lines.pop()  # the newline ending the last line starts no new one
        self.lines: list[Text] = lines
        self._wrapped: dict[int, list[Text]] = {}
        self._strips: dict[tuple[int, Any], list[Strip]] = {}

    def __str__(self) -> str:
        return self.text.plain

    @property
    def plain(self) -> str:
        return self.text.plain

    def get_optimal_width(self, rules: Any, container_width: int) -> int:
        return max((cell_len(line.plain) for line in self.lines), default=0)

    def get_height(self, rules: Any, width: int) -> int:
        return len(self.wrapped(width))

    def wrapped(self, width: int) -> list[Text]:
        out = self._wrapped.get(width)
        if out is None:
            out = []
            for line in self.lines:
                out.extend(self._wrap(line, width) if self.wrap else (line,))
            self._wrapped[width] = out
        return out

    def _wrap(self, line: Text, width: int) -> list[Text]:
        plain = line.plain
        if len(plain) <= width or width <= self.indent + 8:
            return [line]
        if cell_len(plain) != len(plain):  # wide characters: Rich measures them
            return list(line.wrap(self.console, width))
        parts: list[Text] = []
        start, room = 0, width
        while len(plain) - start > room:
            space = plain.rfind(" ", start, start + room + 1)
            end = space if space > start else start + room
            parts.append(line[start:end])
            start = end + 1 if space > start else end
            room = width - self.indent
        parts.append(line[start:])
        pad = Text(" " * self.indent)
        return [parts[0], *(pad + part for part in parts[1:])]

    def render_strips(self, width: int, height: int | None, style: Any,
                      options: Any) -> list[Strip]:
        key = (width, style)
        strips = self._strips.get(key)
        if strips is not None:
            return strips
        cache = self.cache
        if len(cache) > 2000:
            cache.clear()
        base = style.rich_style
        strips = []
        for line in self.lines:
            line_key = (line.plain, tuple(line.spans), str(line.style), width, style)
            done = cache.get(line_key)
            if done is None:
                done = [self._strip(part, width, base) for part in
                        (self._wrap(line, width) if self.wrap else (line,))]
                cache[line_key] = done
            strips.extend(done)
        self._strips[key] = strips
        return strips

    def _strip(self, line: Text, width: int, base: Style) -> Strip:
        strip = Strip(Segment.apply_style(line.render(self.console, end=""), base))
        if strip.cell_length > width:
            cut = strip.crop(0, max(0, width - 1))
            last = list(cut)[-1].style if cut.cell_length else base
            strip = Strip([*cut, Segment("…", last)])
        return strip


# ----------------------------------------------------------------------------------------------
# The bar of numbered choices
# ----------------------------------------------------------------------------------------------
@dataclass
class Choice:
    key: str  # "1".."9", "0", or a direction key
    label: str
    run: Callable[[], Any]
    hint: str = ""  # card text or a longer explanation, shown when highlighted


class ChoiceBar(Widget):
    """Choices as ``[1] charge  [2] mutate  [0] end``, wrapped; a click picks one."""

    DEFAULT_CSS = """
    ChoiceBar { height: auto; max-height: 4; width: 100%; padding: 0 1; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.choices: list[Choice] = []
        self._spans: list[tuple[int, int, int, int]] = []  # (line, x0, x1, index)

    def set_choices(self, choices: list[Choice]) -> None:
        before = [(c.key, c.label) for c in self.choices]
        width = self.content_region.width or self.size.width
        lines_before = len(self._layout(width)[0]) if self.choices else 1
        self.choices = choices
        if before == [(c.key, c.label) for c in choices]:
            return
        lines_now = len(self._layout(width)[0]) if choices else 1
        self.refresh(layout=lines_now != lines_before)

    def _layout(self, width: int) -> tuple[list[list[tuple[str, int]]], list]:
        lines: list[list[tuple[str, int]]] = [[]]
        spans = []
        x = 0
        width = max(10, width)
        for i, c in enumerate(self.choices):
            piece = f"[{c.key}] {c.label}"
            if len(piece) > width:
                piece = piece[: width - 1] + "…"
            gap = 2 if x else 0
            if x + gap + len(piece) > width and x:
                lines.append([])
                x, gap = 0, 0
            x += gap
            if gap:
                lines[-1].append(("  ", -1))
            lines[-1].append((piece, i))
            spans.append((len(lines) - 1, x, x + len(piece), i))
            x += len(piece)
        return lines, spans

    def get_content_height(self, container, viewport, width: int) -> int:
        lines, _ = self._layout(width)
        return max(1, len(lines)) if self.choices else 1

    def render(self) -> Text:
        lines, self._spans = self._layout(self.content_region.width or self.size.width)
        out = Text(no_wrap=True, overflow="ellipsis")
        for n, line in enumerate(lines):
            if n:
                out.append("\n")
            for piece, i in line:
                if i < 0:
                    out.append(piece)
                    continue
                key_end = piece.find("]") + 1
                out.append(piece[:key_end], style="bold reverse")
                out.append(piece[key_end:], style="bold")
        return out

    def index_at(self, x: int, y: int) -> int:
        for line, x0, x1, i in self._spans:
            if line == y and x0 <= x < x1:
                return i
        return -1

    def offset_of(self, index: int) -> tuple[int, int]:
        """Widget offset of choice ``index`` (for clicks in tests)."""
        _, spans = self._layout(self.content_region.width or self.size.width)
        for line, x0, _x1, i in spans:
            if i == index:
                return x0 + 1 + self.styles.padding.left, line
        raise IndexError(index)

    def on_click(self, event: events.Click) -> None:
        i = self.index_at(event.x - self.styles.padding.left, event.y)
        if 0 <= i < len(self.choices):
            event.stop()
            screen = self.screen
            if isinstance(screen, CellWarsScreen):
                screen.run_choice(self.choices[i])


# ----------------------------------------------------------------------------------------------
# The keys panel
# ----------------------------------------------------------------------------------------------
KEYS_HELP = (
    "Arrows move the cursor; Enter or space acts on its tile (or click a tile).\n"
    "1-9 pick a choice of the bar under the board, 0 ends the step (or click it).\n"
    "w e / a d / z x step NW NE / W E / SW SE.\n"
    "n: cursor to the next cell\n"
    "Esc: back out of a card or a wall\n"
    "m: the list of all moves\n"
    "u / r: undo / redo (never past a die roll or a card draw)\n"
    "?: rules · q: leave the table"
)


class KeysPanel(ModalScreen[None]):
    """The keys of the table in a panel that fits the window; any key or a click closes it
    (the key does nothing else, so nothing is played blind)."""

    DEFAULT_CSS = """
    KeysPanel { align: center middle; }
    KeysPanel > Vertical { width: 80; max-width: 100%; height: auto; max-height: 100%;
        border: round $accent; padding: 0 1; background: $surface; }
    KeysPanel #cw-keys-title { text-style: bold; }
    KeysPanel #cw-keys-hint { color: $text-muted; }
    """

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Cell Wars keys", id="cw-keys-title")
            yield Static(self.text, id="cw-keys-text")
            yield Static("Any key closes this panel.", id="cw-keys-hint")

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        self.dismiss(None)

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.dismiss(None)


# ----------------------------------------------------------------------------------------------
# The screen
# ----------------------------------------------------------------------------------------------
class CellWarsScreen(GameScreen):
    """Cell Wars at the table: setup in three guided steps, then sixteen rounds."""

    DEFAULT_CSS = GameScreen.DEFAULT_CSS + (
        Path(__file__).with_name("screen.tcss").read_text(encoding="utf-8"))

    BINDINGS = [
        Binding("up", "cursor('up')", "Up", show=False),
        Binding("down", "cursor('down')", "Down", show=False),
        Binding("left", "cursor('left')", "Left", show=False),
        Binding("right", "cursor('right')", "Right", show=False),
        Binding("enter,space", "act", "Act here"),
        *(Binding(k, f"direction({d})", f"Step {B.DIR_NAMES[d]}", show=False)
          for k, d in DIRECTION_KEYS.items()),
        *(Binding(str(k), f"choose('{k}')", f"Choice {k}", show=False) for k in range(10)),
        Binding("n", "next_piece", "Next cell", show=False),
        Binding("k", "keys_help", "Keys"),
        Binding("escape", "cancel", "Cancel/Back", show=False),
    ]

    dice_seconds: float = 0.06  # per frame of the die animation (0: no animation)
    # the honeycomb (37x19 at its smallest), the panel of six cells and the prompt need this;
    # smaller windows get the "terminal too small" notice (ui/size_guard.py)
    MIN_SIZE = (80, 24)

    def __init__(self, table: Any, *, read_only: bool = False) -> None:
        super().__init__(table, read_only=read_only)
        self.view_state: R.CWState | None = None
        self.view_seat: int | None = None
        self.cursor = CENTRE_TILE
        self.tile_actions: dict[int, list[Action]] = {}
        self.choices: list[Choice] = []
        self.prompt = ""
        self._card: str | None = None  # a card picked in the play-cards step
        self._build_mode = False
        self._build_from = -1
        self._last_panel_key: tuple | None = None
        self._seen_cursor: int | None = None
        self._dice_timer: Any = None
        self._dice_frames: list[str] = []
        self._dice_final = ""
        self._dice_text = ""
        self._rng = random.Random()
        self._line_cache: dict[tuple, list[Strip]] = {}  # drawn lines of the log and panel
        self._side_lines = -1  # lines in the seat panel when it was last painted

    # -- layout ------------------------------------------------------------------------------
    def compose_board(self) -> ComposeResult:
        yield HexBoard(id="cw-board")
        yield ChoiceBar(id="cw-choices")

    def on_resize(self, event: events.Resize) -> None:
        width = event.size.width
        try:
            side = self.query_one("#gs-side")
        except NoMatches:
            return
        if width >= 120:
            lay = pick_scale(width - 40, event.size.height - 5)
            side.styles.width = max(36, min(64, width - lay.width - 6))
        else:
            side.styles.width = 36 if width >= 76 else 28
        self.call_after_refresh(self._paint_side)  # the seat lines fit the panel's new width

    def on_mount(self) -> None:
        # no super().on_mount(): Textual runs GameScreen.on_mount itself (every class's handler
        # in the MRO), and calling it here subscribed the screen twice (two repaints an action)
        self.query_one(HexBoard).focus()
        for panel in self.query("#gs-seats, #gs-log"):
            panel.auto_links = False  # (no links in them: each repaint skips a pass per line)

    # -- painting ------------------------------------------------------------------------------
    def show(self, view: Any, seat: int | None, legal: list[Action]) -> None:
        if not isinstance(view, R.CWState):
            return
        previous = self.view_state
        self.view_state = view
        self.view_seat = seat
        key = (view.phase, view.round, view.panel, view.step, len(view.signs),
               R.cancer_count(view), tuple(legal))
        if key != self._last_panel_key:
            self._card = None
            self._build_mode, self._build_from = False, -1
            if previous is None or (previous.panel, previous.phase, previous.round) != (
                    view.panel, view.phase, view.round):
                self._cursor_to_actor(view)
            self._last_panel_key = key
        self._work_out(view, legal)
        self._paint_board()
        self._paint_bottom()
        if seat is None:  # (a covered table: _paint_frame does not follow)
            self._paint_side()
        self._animate_new_rolls()

    def _paint_frame(self, viewer: int | None, bot: int | None) -> None:
        told = bool(self._status)
        super()._paint_frame(viewer, bot)  # (its seats and log are this screen's, below)
        self._paint_side()
        if not told:
            self._paint_prompt()

    def paint_seats(self, viewer: int | None, acting: list[int], over: bool) -> None:
        pass  # the side panel (_paint_side) draws every seat

    def paint_log(self) -> None:
        self._paint_log()

    def _paint_log(self) -> None:
        """The log with the tile a special action happened on; long sentences wrap (the log
        panel shows the newest entries that fit, newest last)."""
        try:
            widget = self.query_one("#gs-log", Static)
        except NoMatches:
            return
        muted = self.colour("muted")
        entries = []
        for step, seat, sentence in self.log_entries(LOG_LINES):
            entry = Text(f"{step:>3} ", style=muted)
            entry.append(sentence, style=self.seat_colour(seat) if seat is not None else "")
            entries.append(entry)
        # (the log's height is the panel's, whatever it holds: no new layout for it)
        widget.update(TextLines(Text("\n").join(entries), self.app.console, wrap=True,
                                indent=4, cache=self._line_cache), layout=False)

    def log_entries(self, rows: int) -> list[tuple[int, int | None, str]]:
        """The last ``rows`` log lines; a special action names its tile ("Cancer beta degrades
        E4") and comes first among the lines of its step (the cause before what it did to the
        tile) when the match is at hand; every other sentence is the table's own."""
        entries = self.table.events(last=rows)
        match = getattr(self.table, "match", None)
        if match is None:
            return entries
        out = []
        for step, seat, sentence in entries:
            i = step - 1
            better = None
            if 0 <= i < len(match.events) and i + 1 < len(match.states):
                specials = [e for e in match.events[i] if isinstance(e, R.Special)]
                if len(specials) == 1 and sentence == R.describe(specials[0]):
                    better = special_sentence(specials[0], match.states[i + 1])
            out.append((step, better is None, seat, better or sentence))
        out.sort(key=lambda e: e[:2])  # (stable: the steps come in order already)
        return [(step, seat, sentence) for step, _, seat, sentence in out]

    def _paint_prompt(self) -> None:
        """The status line says what to do now (unless a message was just said)."""
        text = self.prompt
        problem = getattr(self.table, "save_problem", None)
        if problem:
            text = problem
        if not text:
            return
        try:
            self.query_one("#gs-status", Static).update(
                Text(text, no_wrap=True, overflow="ellipsis"), layout=False)
        except NoMatches:
            pass

    def _cursor_to_actor(self, view: R.CWState) -> None:
        if view.phase == R.PLAY and 0 <= view.panel < len(view.panels):
            t = view.panels[view.panel].tile
            if t >= 0:
                self.cursor = t

    def _selected_immune(self) -> int:
        """The immune cell whose range is drawn: the one under the cursor, else the acting one."""
        s = self.view_state
        if s is None or s.phase not in (R.PLAY, R.OVER):
            return -1
        for p in tile_pieces(s, self.cursor):
            if R.PANEL_CAMPS[p] == IMMUNE:
                return p
        p = s.panel
        if 0 <= p < len(s.panels) and R.PANEL_CAMPS[p] == IMMUNE and s.panels[p].tile >= 0:
            return p
        return -1

    def marks(self) -> Marks:
        s = self.view_state
        targets = frozenset(self.tile_actions)
        greyed: frozenset[int] = frozenset()
        if s is not None and s.phase in (R.SIGNS, R.TISSUE, R.PIECES) and targets:
            greyed = frozenset(range(B.N_TILES)) - targets
            if len(targets) > 20:  # most of the board: greying the rest says enough
                targets = frozenset()
        in_range: frozenset[int] = frozenset()
        p = self._selected_immune()
        if p >= 0 and s is not None:
            in_range = frozenset(B.within(s.panels[p].tile, R.range_of(s, p)))
        return Marks(cursor=self.cursor, targets=targets, greyed=greyed, in_range=in_range,
                     picked=self._build_from if self._build_mode else -1)

    def _paint_board(self) -> None:
        try:
            board = self.query_one(HexBoard)
        except NoMatches:
            return
        board.update_board(self.view_state, self.marks())

    def _paint_bottom(self) -> None:
        try:
            bar = self.query_one(ChoiceBar)
        except NoMatches:
            return
        bar.set_choices(self.choices)
        # at the end the banner takes the bar's place (so the whole board stays in view at 80x24)
        over = self.view_state is not None and self.view_state.phase == R.OVER
        if bar.display == over:
            bar.display = not over

    # -- the side panel ------------------------------------------------------------------------
    def _paint_side(self) -> None:
        s = self.view_state
        if s is None or not self.is_mounted:
            return
        try:
            widget = self.query_one("#gs-seats", Static)
        except NoMatches:
            return
        lines = TextLines(self.side_text(s), self.app.console, cache=self._line_cache)
        # a new layout only when the panel's height changes (the log below takes the rest)
        widget.update(lines, layout=len(lines.lines) != self._side_lines)
        self._side_lines = len(lines.lines)

    def side_text(self, s: R.CWState) -> Text:
        muted = self.colour("muted")
        out = Text(no_wrap=True, overflow="ellipsis")
        # round track: one character a round, reload rounds marked *
        out.append(f"Round {s.round:>2}/{C.ROUNDS} " if s.round else "Setup     ", style="bold")
        for r in range(1, C.ROUNDS + 1):
            ch = "*" if r in C.RELOAD_ROUNDS else "·"
            if r == s.round:
                out.append(ch if ch == "*" else "o", style="bold reverse")
            else:
                out.append(ch, style="bold" if r > s.round else muted)
        out.append("\n")
        n = R.cancer_count(s)
        danger = self.colour("danger")
        style = f"bold {danger}" if n > C.CANCER_WIN_ABOVE - 4 or n < C.IMMUNE_WIN_BELOW + 3 \
            else "bold"
        out.append("Cancer tiles ")
        out.append(f"{n:>2}", style=style)
        out.append(f"  (C>{C.CANCER_WIN_ABOVE}  I<{C.IMMUNE_WIN_BELOW})\n",
                   style=muted)
        out.append(self._step_line(s) + "\n", style="bold")
        if self._dice_text:
            out.append("die ")
            out.append(self._dice_text, style=f"bold {self.colour('highlight')}")
            out.append("\n")
        owners = C.PANEL_OWNERS.get(s.players, C.PANEL_OWNERS[6])
        acting = s.panel if s.phase == R.PLAY else (
            self.game.acting_panel(s) if s.phase != R.OVER else -1)
        room = self._side_width()
        # a line a seat with every figure labelled when the widest fits; else (the 33 columns of
        # an 80-column window) a compact table under one header line
        labelled = SEAT_TAG + max(len(self._seat_figures(s, p, True))
                                  for p in range(len(s.panels))) + len(" C2") <= room
        if not labelled:
            out.append(" " * SEAT_TAG + "  Bio Att Rng Cards\n", style=muted)
        for p, pn in enumerate(s.panels):
            seat = owners[p]
            colour = self.seat_colour(seat)
            out.append("▶" if p == acting else " ")
            camp = self.colour("immune" if R.PANEL_CAMPS[p] == IMMUNE else "cancer")
            out.append(PIECE_MARKS[p], style=f"bold {self.colour('board')} on {colour}")
            out.append(f" {C.PANEL_NAMES[p]}", style=f"bold {camp}")
            out.append(f" P{seat + 1} ", style=f"bold {colour}")
            figures = self._seat_figures(s, p, labelled)
            if pn.tile == R.DEAD:
                out.append(figures + "\n", style=muted)
                continue
            out.append(figures)
            extras = []
            if pn.walls:
                extras.append(f"walls {pn.walls}")
            if pn.solid:
                extras.append(f"solid {pn.solid}/{C.SOLIDIFY_CLAIMS}")
            if pn.tile >= 0:
                out.append(f" {B.NAMES[pn.tile]}", style=muted)
            tail = " " + " ".join(extras)
            if extras and SEAT_TAG + len(figures) + 3 + len(tail) <= room:
                out.append(tail)
                extras = []
            out.append("\n")
            if extras:
                out.append(" " * SEAT_TAG + " · ".join(extras) + "\n")
            if pn.active:
                # (rounds left in the first edition; the second edition's cards stay: 0)
                for line in list_lines("on panel: ", [f"{CARDS[c].name} ({left})" if left
                                                      else CARDS[c].name
                                                      for c, left in pn.active], room):
                    out.append(line + "\n", style=muted)
            if not pn.hand:
                continue
            if self._may_see_hand(s, p):
                for line in list_lines("hand: ", [CARDS[c].name for c in pn.hand], room):
                    out.append(line + "\n", style=colour)
            else:
                hidden = "hidden " if -1 in pn.hand else ""
                out.append(f"   hand: {len(pn.hand)} {hidden}card"
                           f"{'s' if len(pn.hand) > 1 else ''}\n", style=muted)
        if self._card is not None:  # the picked card's text, whole (the status line may cut it)
            card = CARDS[_card_id(self._card)]
            out.append(f"{card.name} ({card.kind}):\n", style="bold")
            room = self._side_width()
            for line in textwrap.wrap(card.text, max(16, room - 1)):
                out.append(f" {line}\n")
        if s.factory:
            out.append(f"Wall factory stock: {s.factory}\n", style=muted)
        legend = "A B G immune · a b g cancer · * CARD signs reload"
        if len(legend) > room:  # (the 33 columns of an 80-column window)
            legend = "ABG immune · abg cancer · *reload"
        out.append(legend + "\n", style=muted)
        return out

    def _seat_figures(self, s: R.CWState, p: int, labelled: bool) -> str:
        """Panel ``p``'s Biomass/limit, attack, range and cards, labelled ("Bio 4/5 Att 1 Rng 0
        Cards 2") or in the compact table's columns; a dead cell's limit (cancer only)."""
        pn = s.panels[p]
        if pn.tile == R.DEAD:
            return "dead" + (f" lim {pn.limit}" if R.PANEL_CAMPS[p] != IMMUNE else "")
        bio = f"{pn.biomass}/{R.effective_limit(pn)}"
        att, rng, cards = R.attack_of(s, p), R.range_of(s, p), len(pn.hand)
        if labelled:
            return f"Bio {bio} Att {att} Rng {rng} Cards {cards}"
        return f"{bio:>5}{att:>4}{rng:>4}{cards:>6}"

    def _side_width(self) -> int:
        try:
            widget = self.query_one("#gs-seats", Static)
        except NoMatches:
            return 32
        return widget.content_region.width or 32

    def _may_see_hand(self, s: R.CWState, p: int) -> bool:
        """Name the cards of panel ``p``'s hand exactly when the view holds them: a seat's view
        (``Game.view``) already turns every card that seat may not see into -1, the hot-seat
        cover shows the public view (every hand hidden), and reveal-all (a replay's "all" view,
        a finished or bots-only game) holds every hand."""
        return bool(s.panels[p].hand) and -1 not in s.panels[p].hand

    def _step_line(self, s: R.CWState) -> str:
        if s.phase == R.SIGNS:
            return f"Setup 1/3: special spots ({len(s.signs)}/8)"
        if s.phase == R.TISSUE:
            return f"Setup 2/3: cancer tissue ({R.cancer_count(s)}/{s.cancer_tissue})"
        if s.phase == R.PIECES:
            return f"Setup 3/3: pieces ({min(s.panel, 6)}/6)"
        if s.phase == R.OVER:
            return "Game over"
        number, title = STEP_TITLES.get(s.step, (0, s.step))
        return f"{C.PANEL_NAMES[s.panel]} step {number}/10: {title}"

    # -- working out what can be done ------------------------------------------------------------
    def _work_out(self, s: R.CWState, legal: list[Action]) -> None:
        self.tile_actions = {}
        self.choices = []
        if s.phase == R.OVER:
            self.prompt = s.result and f"Game over: {s.result}" or "Game over"
            return
        if not legal:
            self.prompt = self._waiting_prompt(s)
            return
        tiles: dict[int, list[Action]] = {}

        def at(t: int, a: Action) -> None:
            if t >= 0:
                tiles.setdefault(t, []).append(a)

        choices: list[Choice] = []
        number = [0]

        def add(label: str, run: Callable[[], Any], hint: str = "", key: str = "") -> None:
            if not key:
                number[0] += 1
                key = str(number[0]) if number[0] <= 9 else ""
                if not key:
                    return
            choices.append(Choice(key, label, run, hint))

        def act(a: Action) -> Callable[[], Any]:
            return lambda: self.play(a)

        end = next((a for a in legal if isinstance(a, (R.End, R.Stay))), None)
        p = s.panel
        me = s.panels[p] if 0 <= p < len(s.panels) else None
        if s.phase == R.SIGNS:
            for a in legal:
                at(a.tile, a)
            self.prompt = (f"Place the {SETUP_SPOT_WORDS[len(s.signs)]}: a free tile "
                           "(Enter or click)")
        elif s.phase == R.TISSUE:
            for a in legal:
                at(a.tile, a)
            self.prompt = (f"Pick cancer tissue {R.cancer_count(s) + 1} of {s.cancer_tissue}:"
                           " a normal tile")
        elif s.phase == R.PIECES:
            for a in legal:
                at(a.tile, a)
            kind = "normal" if R.PANEL_CAMPS[s.panel] == IMMUNE else "cancer"
            self.prompt = (f"Place {C.PANEL_TITLES[s.panel]} ({PIECE_MARKS[s.panel]}): a "
                           f"{kind} tile off the spots")
        elif s.step == R.RELAPSE:
            for a in legal:
                if isinstance(a, R.Relapse):
                    at(a.tile, a)
            self.prompt = f"{C.PANEL_TITLES[p]} is dead: relapse on a solidified tile, or stay"
        elif s.step == R.DRAW:
            for a in legal:
                if isinstance(a, R.Charge):
                    add("charge (pay 2, draw)", act(a))
                elif isinstance(a, R.Mutate):
                    add("mutate (pay 1, roll)", act(a))
            self.prompt = (f"{C.PANEL_TITLES[p]}: draw cards? (mutate rolls: 3-4 regain 1, "
                           "5-6 draw) 0: no more")
        elif s.step == R.CARDS_STEP:
            self._card_choices(s, legal, at, add, act)
        elif s.step in (R.MOVE, R.CARDMOVE):
            for a in legal:
                if isinstance(a, R.Step):
                    at(B.NEIGHBOUR[me.tile][a.dir], a)
                    add(B.DIR_NAMES[a.dir], act(a), key=KEY_OF_DIRECTION[a.dir])
            left = s.moves
            how = CARDS[s.move_card].name if s.step == R.CARDMOVE and s.move_card >= 0 \
                else "die"
            self.prompt = (f"{C.PANEL_TITLES[p]}: move ({how}), {left} step"
                           f"{'s' if left != 1 else ''} left: a highlighted tile")
        elif s.step == R.SPECIAL:
            self._special_choices(s, legal, at, add, act)
        elif s.step == R.ATTACK:
            for a in legal:
                if isinstance(a, R.Attack):
                    q = a.panel
                    tile = s.panels[q].tile
                    at(tile, a)
                    add(f"attack {C.PANEL_NAMES[q]} ({B.NAMES[tile]}, Bio "
                        f"{s.panels[q].biomass})", act(a))
            self.prompt = (f"{C.PANEL_TITLES[p]}: attack (Att {R.attack_of(s, p)}, range "
                           f"{R.range_of(s, p)}): pick a target, 0 to stop")
        else:
            for a in legal:
                add(self.game.action_to_str(a), act(a))
            self.prompt = f"{C.PANEL_TITLES[p]}: decide"
        if end is not None and not self._card and not self._build_mode:
            label = "stay" if isinstance(end, R.Stay) else {
                R.DRAW: "no more", R.CARDS_STEP: "no card", R.SPECIAL: "end round",
                R.MOVE: "stop", R.CARDMOVE: "stop", R.ATTACK: "no attack"}.get(s.step, "end")
            add(label, act(end), key="0")
        self.tile_actions = tiles
        self.choices = choices

    def _waiting_prompt(self, s: R.CWState) -> str:
        if self.read_only:
            return "Replay"
        seats = [x for x in self.table.to_act() if x != CHANCE]
        if not seats:
            return ""
        panel = self.game.acting_panel(s)
        who = C.PANEL_TITLES[panel] if panel >= 0 else ""
        return f"{self.table.seat_name(seats[0])} is deciding for {who}…"

    def _card_choices(self, s, legal, at, add, act) -> None:
        p = s.panel
        plays = [a for a in legal if isinstance(a, R.Play)]
        if self._card is not None:
            mine = [a for a in plays if a.card == self._card]
            if not mine:
                self._card = None
            else:
                card = CARDS[_card_id(self._card)]
                for a in mine:
                    if a.tile >= 0:
                        at(a.tile, a)
                    elif a.panel >= 0:
                        q = a.panel
                        at(s.panels[q].tile, a)
                        add(f"on {C.PANEL_NAMES[q]} ({B.NAMES[s.panels[q].tile]})", act(a),
                            card.text)
                    else:
                        add(f"play {card.name}", act(a), card.text)
                if any(a.tile >= 0 for a in mine):
                    self.prompt = f"{card.name}: pick a highlighted tile (Esc: back)"
                else:
                    self.prompt = f"{card.name}: {card.text}"
                add("back", self._cancel_card, key="0")
                return
        seen: list[str] = []
        for a in plays:
            if a.card not in seen:
                seen.append(a.card)
        for slug in seen:
            card = CARDS[_card_id(slug)]
            kind = " (continuous)" if card.kind == CONTINUOUS else ""
            add(f"{card.name}{kind}", lambda slug=slug: self.pick_card(slug), card.text)
        self.prompt = f"{C.PANEL_TITLES[p]}: play a card? (a number shows its text)"

    def _special_choices(self, s, legal, at, add, act) -> None:
        p = s.panel
        me = s.panels[p]
        builds = [a for a in legal if isinstance(a, R.Build)]
        if self._build_mode and builds:
            free = {a.edge: a for a in builds}
            if self._build_from < 0:
                for t in range(B.N_TILES):
                    if any(e in free for e in B.TILE_EDGES[t]):
                        at(t, _PickFrom(t))
                self.prompt = "Build a wall: pick the first of two neighbouring tiles"
            else:
                t = self._build_from
                for n in B.NEIGHBOURS[t]:
                    e = B.edge_between(t, n)
                    if e in free:
                        at(n, free[e])
                self.prompt = f"Build a wall: from {B.NAMES[t]} to which neighbour?"
            add("back", self._cancel_build, key="0")
            return
        for a in legal:
            if isinstance(a, R.Purify):
                add(f"purify {B.NAMES[me.tile]}", act(a))
            elif isinstance(a, R.Degrade):
                add(f"degrade {B.NAMES[me.tile]}", act(a))
            elif isinstance(a, R.Solidify):
                add(f"solidify {B.NAMES[me.tile]} ({me.solid + 1}/{C.SOLIDIFY_CLAIMS})", act(a))
            elif isinstance(a, R.Demolish):
                x, y = B.EDGES[a.edge]
                other = y if x == me.tile else x
                at(other, a)
                add(f"demolish {B.edge_name(a.edge)}", act(a))
        if builds:
            add(f"build wall ({me.walls})", self.start_build)
        for a in legal:
            if isinstance(a, R.Roll):
                add("roll", act(a))
        self.prompt = (f"{C.PANEL_TITLES[p]}: a special action (then no move), roll to move,"
                       " 0: end round")

    # -- decisions -------------------------------------------------------------------------------
    def pick_card(self, slug: str) -> None:
        s = self.view_state
        if s is None:
            return
        self._card = slug
        self._refresh_decision()
        card = CARDS[_card_id(slug)]
        self.say(f"{card.name} ({card.kind}): {card.text}")

    def _cancel_card(self) -> None:
        self._card = None
        self._refresh_decision()

    def start_build(self) -> None:
        self._build_mode, self._build_from = True, -1
        self._refresh_decision()

    def _cancel_build(self) -> None:
        self._build_mode, self._build_from = False, -1
        self._refresh_decision()

    def _refresh_decision(self) -> None:
        if self.view_state is None:
            return
        self._work_out(self.view_state, self.legal)
        self._paint_board()
        self._paint_bottom()
        self._paint_prompt()
        self._paint_side()  # a picked card's text shows there

    def run_choice(self, choice: Choice) -> None:
        self._settle_dice()
        choice.run()

    def act_on_tile(self, t: int) -> bool:
        actions = self.tile_actions.get(t)
        if not actions:
            return False
        a = actions[0]
        if isinstance(a, _PickFrom):
            self._build_from = a.tile
            self._refresh_decision()
            return True
        self.play(a)
        return True

    def clicked_tile(self, t: int) -> None:
        self._settle_dice()
        self.cursor = t
        if not self.act_on_tile(t):
            self.say(self.describe_tile(t))
            self._paint_board()

    def describe_tile(self, t: int) -> str:
        s = self.view_state
        if s is None:
            return B.NAMES[t]
        parts = [f"{B.NAMES[t]}: {TISSUE_WORDS[s.tiles[t]]} tissue"]
        k = R.sign_at(s, t)
        if k >= 0:
            word = SPOT_WORDS[k]
            if k in R.CARD_SIGNS:
                word += " (active)" if s.card_signs[k] else " (inactive)"
            parts.append(word)
        for p in tile_pieces(s, t):
            parts.append(f"{C.PANEL_TITLES[p]} (Bio {s.panels[p].biomass})")
        return ", ".join(parts)

    # -- key actions -------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.read_only and action in ("act", "direction", "choose"):
            return False
        return super().check_action(action, parameters)

    def action_cursor(self, where: str) -> None:
        self._settle_dice()
        self.cursor = move_cursor(self.cursor, where)
        self._paint_board()
        if self.view_state is not None:
            self.tell(self.describe_tile(self.cursor))

    def tell(self, text: str) -> None:
        """A passing remark on the status line (no relayout: the line keeps its size)."""
        try:
            self.query_one("#gs-status", Static).update(
                Text(text, no_wrap=True, overflow="ellipsis"), layout=False)
        except NoMatches:
            pass

    def action_act(self) -> None:
        if self._settle_dice():
            return
        if self.act_on_tile(self.cursor):
            return
        if not self.legal:
            self.say("Nothing for you to decide now.")
        elif self.tile_actions:
            self.say(f"Nothing to do on {B.NAMES[self.cursor]}: pick a highlighted tile.")
        else:
            self.say("Pick one of the numbered choices (or m for the list of moves).")

    def action_direction(self, d: int) -> None:
        self._settle_dice()
        for c in self.choices:
            if c.key == KEY_OF_DIRECTION[d]:
                c.run()
                return
        s = self.view_state
        if s is not None and s.phase == R.PLAY and s.step in (R.MOVE, R.CARDMOVE) and self.legal:
            self.say(f"No step {B.DIR_NAMES[d]} from here (a wall, the edge, or the card's rule).")
            return
        n = B.NEIGHBOUR[self.cursor][d]
        if n >= 0:
            self.cursor = n
            self._paint_board()
            self.tell(self.describe_tile(n))

    def action_choose(self, key: str) -> None:
        self._settle_dice()
        for c in self.choices:
            if c.key == key:
                c.run()
                return
        if self.legal:
            self.say(f"No choice {key} now.")

    def action_next_piece(self) -> None:
        s = self.view_state
        if s is None:
            return
        tiles = sorted({pn.tile for pn in s.panels if pn.tile >= 0})
        if not tiles:
            return
        later = [t for t in tiles if t > self.cursor]
        self.cursor = later[0] if later else tiles[0]
        self._paint_board()
        self.tell(self.describe_tile(self.cursor))

    KEYS_HELP = KEYS_HELP

    def action_keys_help(self) -> None:
        self._settle_dice()
        self.app.push_screen(KeysPanel(self.KEYS_HELP))

    def action_cancel(self) -> None:
        if self._card is not None:
            self._cancel_card()
        elif self._build_mode:
            self._cancel_build()
        else:
            self.action_back()

    def action_undo(self) -> None:
        match = getattr(self.table, "match", None)
        humans = self.table._undo_humans() if hasattr(self.table, "_undo_humans") else None
        if (match is not None and not self.read_only
                and match.undo_stopped_by_chance(humans)):
            self.say("Undo stops at the last die roll or card draw: what chance showed "
                     "stays.")
            return
        super().action_undo()

    # -- dice ------------------------------------------------------------------------------------
    def _animate_new_rolls(self) -> None:
        match = getattr(self.table, "match", None)
        if match is None:
            return
        cursor = match.cursor
        start = self._seen_cursor
        self._seen_cursor = cursor
        if start is None or start >= cursor or cursor - start > 60:
            return
        last = None
        for i in range(start, cursor):
            step = match.steps[i]
            if step.seat == CHANCE and isinstance(step.action, R.Die):
                last = (i, step.action.face)
        if last is None:
            return
        i, face = last
        why = ""
        for ev in match.events[i]:
            if isinstance(ev, R.Rolled):
                why = f"{C.PANEL_TITLES[ev.panel]}, {ev.why}"
        self._dice_final = f"[{face}] {why}".strip()
        if self.dice_seconds <= 0:
            self._show_dice(self._dice_final)
            return
        self._dice_frames = [f"[{self._rng.randint(1, 6)}] …" for _ in range(DICE_FRAMES)]
        if self._dice_timer is not None:
            self._dice_timer.stop()
        self._show_dice(self._dice_frames.pop())
        self._dice_timer = self.set_interval(self.dice_seconds, self._dice_tick)

    def _dice_tick(self) -> None:
        if self._dice_frames:
            self._show_dice(self._dice_frames.pop())
        else:
            self._settle_dice()

    def _settle_dice(self) -> bool:
        """Finish a running die animation; True if one was running."""
        if self._dice_timer is None:
            return False
        self._dice_timer.stop()
        self._dice_timer = None
        self._dice_frames = []
        self._show_dice(self._dice_final)
        return True

    @property
    def rolling(self) -> bool:
        return self._dice_timer is not None

    def _show_dice(self, text: str) -> None:
        self._dice_text = text
        self._paint_side()

    def on_key(self, event: events.Key) -> None:
        if self.rolling:
            self._settle_dice()

    def palette_commands(self) -> list[tuple[str, str, Any]]:
        out = super().palette_commands()
        return [("Next cell", "Put the cursor on the next cell piece", self.action_next_piece),
                *out]


def list_lines(label: str, items: list[str], width: int, indent: int = 3) -> list[str]:
    """``label`` and the items, comma separated, in lines of at most ``width`` cells: breaks fall
    between items (inside one only when it is too long for a line), later lines indented under
    the first item."""
    first = " " * indent + label
    cont = " " * len(first)
    lines: list[str] = []
    line = first
    for i, item in enumerate(items):
        piece = item + ("," if i < len(items) - 1 else "")
        fresh = line in (first, cont)
        if len(line) + (0 if fresh else 1) + len(piece) <= width:
            line += piece if fresh else " " + piece
            continue
        if not fresh:
            lines.append(line)
            line = cont
        if len(line) + len(piece) <= width:
            line += piece
            continue
        *whole, last = textwrap.wrap(piece, max(8, width - len(cont))) or [piece]
        for part in whole:
            lines.append(line + part)
            line = cont
        line += last
    lines.append(line)
    return lines


def special_sentence(e: R.Special, after: R.CWState) -> str:
    """A special action in plain words, naming the tile the cell stands on."""
    who = C.PANEL_TITLES[e.panel]
    tile = after.panels[e.panel].tile if e.panel < len(after.panels) else -1
    where = B.NAMES[tile] if tile >= 0 else "its tile"
    if e.what == "purify":
        return f"{who} purifies {where}"
    if e.what == "degrade":
        return f"{who} degrades {where}"
    if e.what == "solidify":
        return f"{who} solidifies {where} ({e.count}/{C.SOLIDIFY_CLAIMS})"
    return R.describe(e)


class _PickFrom(R.Action, frozen=True, tag="_pick-from"):
    """Not a game action: the first tile of a wall being built (screen-internal)."""

    tile: int


def move_cursor(tile: int, where: str) -> int:
    """The tile the cursor goes to from ``tile`` with an arrow key."""
    q, r = B.COORDS[tile]
    if where in ("left", "right"):
        n = B.INDEX.get((q + (1 if where == "right" else -1), r), -1)
        return n if n >= 0 else tile
    dr = -1 if where == "up" else 1
    # the two tiles above (NW, NE) or below (SW, SE): keep to the left on the way up,
    # to the right on the way down, so up then down comes back.
    options = [(q, r + dr), (q + 1, r + dr)] if dr < 0 else [(q, r + dr), (q - 1, r + dr)]
    for c in options:
        if c in B.INDEX:
            return B.INDEX[c]
    return tile


SCREEN = CellWarsScreen
