"""The Cell Wars board widget: the 61-tile hex body drawn as a honeycomb of plain characters.

The honeycomb is drawn with plain ``/ \\ |`` outlines (no box drawing, so any terminal font works)
at the largest of a few scales that fits the widget: 37x19 characters at 80x24, 73x39 at 160x50.
Each tile shows its tissue by a background colour *and* a texture glyph (``·`` normal, ``x``
cancer, ``X`` solidified), its special spot (``C`` an active CARD sign, ``c`` an inactive one,
``+`` the generator, ``F`` the wall factory, ``~`` a Blood vessel), its name when there is room,
and every cell piece as one letter in its seat's colour. Walls are ``#`` on the side between two
tiles. The screen's :class:`Marks` (cursor, targets, greyed tiles, an immune cell's range) are
drawn on top; a click posts :class:`HexBoard.Clicked`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.color import Color
from textual.geometry import Region
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

from ...ui.css import default_css

from . import board as B
from . import clarifications as C
from . import rules as R
from .labels import PIECE_MARKS, SPOT_GLYPHS, TISSUE_GLYPHS, WALL_GLYPH

# Scales (s, v): slant lines and straight lines of each hexagon, smallest first.
SCALES = ((1, 1), (2, 1), (2, 2), (3, 1), (3, 2), (4, 2))

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
    lit: frozenset[int] = frozenset()  # tiles a lesson points at (drawn as targets are)


def tile_pieces(s: R.CWState, t: int) -> list[int]:
    return [p for p in range(len(s.panels)) if s.panels[p].tile == t]


def spot_of(s: R.CWState, t: int) -> tuple[str, bool]:
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

    DEFAULT_CSS = default_css(__file__, "hex_board.tcss")

    class Clicked(Message):
        """A tile of the board was clicked."""

        def __init__(self, tile: int) -> None:
            super().__init__()
            self.tile = tile

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
        regions: list[list[int]] = []
        for y in changed:  # one region per run of changed lines
            if regions and regions[-1][1] == y:
                regions[-1][1] = y + 1
            else:
                regions.append([y, y + 1])
        if regions:
            self.refresh(*(Region(0, a, width, b - a) for a, b in regions))

    def notify_style_update(self) -> None:
        super().notify_style_update()
        # a new theme (the picker previews one as its cursor moves): draw with its colours
        if self._theme_key is not None and self._theme_key[0] != self.app.theme:
            self._strips = None
            self.refresh()

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
        if t >= 0:
            event.stop()
            self.post_message(self.Clicked(t))

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
            run_start = 0
            run_style: Style | None = row_styles[0]
            for x in range(1, lay.width + 1):
                st = row_styles[x] if x < lay.width else None
                if st is not run_style:
                    segs.append(Segment("".join(row_chars[run_start:x]), run_style))
                    run_start, run_style = x, st
            if right > 0:
                segs.append(Segment(" " * right, blank))
            self._line_strips[gy] = Strip(segs).crop(0, width)
        empty = Strip([Segment(" " * width, blank)], width)
        out: list[Strip] = []
        for y in range(height):
            gy = y - self.offset_y
            line = self._line_strips[gy] if 0 <= gy < lay.height else None
            out.append(line if line is not None else empty)
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
                         t in m.in_range, s.players, t in m.lit))
        return keys

    def _paint(self, s: R.CWState, m: Marks, lay: HexLayout, pal: dict[str, str],
               dirty: list[int]) -> None:
        assert self._grid is not None  # (made before the first paint)
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
            if t in m.targets or t in m.lit:
                return 2
            return 1 if t in m.in_range else 0

        side_styles = (line_style, range_style, target_style, cursor_style)
        owners = R.shown_owners(s)
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
            if t in m.targets or t in m.lit:
                bg = pal[f"tgt{kind}"]
            elif grey:
                bg = pal["greybg"]
            else:
                bg = pal[f"bg{kind}"]
            tex = TISSUE_GLYPHS[kind]
            spot, active = spot_of(s, t)
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
                got = content.get(i)
                if got is None:
                    for k in range(x, x + w):
                        crow[k] = tex if (k + y) % 2 == 0 else " "
                        srow[k] = tex_style
                    continue
                role_styles = {0: tex_style, 1: st(name_fg, line_bg),
                               2: st(spot_fg, line_bg, True)}
                cells = got[:w]
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
