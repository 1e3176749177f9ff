"""The Cellulis Bellum screen: the board with its lines and diagonals, pieces by colour and glyph,
colonies drawn as links between their cells, the legal targets of the chosen piece lit up, and a
territory overlay (on demand with ``t``, and at the end with the counts).

The board is drawn on the doubled grid of :mod:`.geometry`: corners on the grid lines, square
centres where the diagonals cross (on the 72-point board they are points like any other; on the
first rules' 42-point board only a crossing). A square is ``w`` by ``h`` characters, the largest
scale that fits: 16 x 8 at 160 x 50, 6 x 2 (compact: a row of corners, a row of centres) at 80 x 24.

Play by keys or mouse: the cursor (arrows or hjkl move along the grid lines, to the next corner
or the next centre; Home/PgUp/End/PgDn or 7/9/1/3 step along a diagonal, from a corner to a
centre and back; or a click on the nearest point) picks a point; Enter/Space acts there: on an
empty point it spawns, on one of your pieces it selects it (its targets light up), on a lit
target it moves the selected piece there (a burst move, a nucleus or virus step). ``s`` lights
the points open to a spawn; ``f`` aims the virus (its rays light up; Enter on a ray fires); ``a``
lights one rhombus of four that may be sacrificed (one holding the cursor, if any; ``a`` again:
the next), Enter or a click on it plays it; ``g`` generates the virus on the cursor's point or
lights the possible centres; ``d`` ends a spawn or a burst, ``p`` passes, ``x`` drops the
selection or the lit targets. Every action is also in the moves list (``m``); ``i`` shows the
keys and the legend of the board (:mod:`.legend`). In a lesson, the points a step is about are
drawn on the highlight colour (``highlight``).
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.css.query import NoMatches
from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import Static

from ...table.protocol import Table
from ...ui.css import default_css
from ...ui.game_screen import GameScreen
from ...ui.widgets.keys_panel import KeysPanel
from . import geometry as G
from . import rules as R
from .legend import (CROSSING_GLYPH, DEAD_GLYPHS, EMPTY_CENTRE, EMPTY_GLYPH, GLYPHS,
                     GEN_GLYPH, KEYS_AND_LEGEND, SHOT_GLYPH, TARGET_GLYPH)
from .notation import ending_text, rhombus_name, territory_note
from .position import TerritoryView, territory_view
from .rules import (BURST, CELL, NUCLEUS, OVER, SPAWN, VIRUS, Apoptosis, Burst, CBState, Done,
                    Generate, NucleusMove, Pass, Spawn, VirusMove, VirusShot)

MODE_ACTIONS = {"aim": VirusShot, "spawn": Spawn, "apo": Apoptosis, "gen": Generate}
# what t shows, in turn: nothing (at the end: both), both territories, Yellow's alone, Violet's
TERRITORY_VIEWS: tuple[str | int | None, ...] = (None, "both", 0, 1)
SEAT_VARS = ("seat-4", "seat-5")  # the theme's yellow and violet
# characters per square (width, height), both even so that a square's centre falls on a character;
# the largest that fits is used (w = 2h keeps the diagonals at 45 degrees on most terminals)
HUGE, BIG, MEDIUM, COMPACT, SMALL = (16, 8), (12, 6), (8, 4), (6, 2), (4, 2)
SCALES = (HUGE, BIG, MEDIUM, COMPACT, SMALL)
LEFT = 3  # columns for the rank numbers
SIDE_GAP = 2  # columns kept between the board and the side column when the side widens
SIDE_MAX = 64  # the widest the side column grows into what the board leaves
CLICK_REACH = 0.7  # how far from a point a click still picks it (1: halfway to the next one)


def _blend(a: str, b: str, t: float) -> str:
    """Mix two #rrggbb colours (t = share of b); anything else returns b."""
    try:
        ca = [int(a[i:i + 2], 16) for i in (1, 3, 5)]
        cb = [int(b[i:i + 2], 16) for i in (1, 3, 5)]
    except (ValueError, IndexError, TypeError):
        return b
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(ca, cb))


def _triangle_of(f: int, r: int, u: float, v: float) -> int:
    """The triangle of square (f, r) under a character at (u, v) in [0, 1] (v from the top)."""
    sq = G.square(f, r) * 4
    dist = {G.TRI_S: 1 - v, G.TRI_N: v, G.TRI_W: u, G.TRI_E: 1 - u}
    return sq + min(dist, key=lambda k: (dist[k], k))


def char_xy(p: int, scale: tuple[int, int]) -> tuple[int, int]:
    """Where point ``p`` is drawn (column, row) in a board drawing at ``scale``."""
    w, h = scale
    x, y = G.xy(p)
    return x * w // 2, (2 * G.SQUARES_H - y) * h // 2


def point_at(x: int, y: int, scale: tuple[int, int], board: G.Board) -> int | None:
    """The point of ``board`` a click at (x, y) of the drawing picks, or None (too far from any).

    On the doubled grid a point's nearest neighbours are half a square away on a diagonal, so
    each point owns the diamond |dx|/(w/2) + |dy|/(h/2) <= 1 around it; a click counts within
    CLICK_REACH of that."""
    w, h = scale
    u, v = 2 * x / w, 2 * y / h  # doubled-grid units, from the top left
    best, dist = None, CLICK_REACH
    for gx in (int(u), int(u) + 1):
        for gy in (int(v), int(v) + 1):
            p = G.at_xy(gx, 2 * G.SQUARES_H - gy)
            if p is None or p >= board.n_points:
                continue
            d = abs(u - gx) + abs(v - gy)
            if d <= dist:
                best, dist = p, d
    return best


class BoardView(Widget):
    """The board, drawn as text; clicks go to the screen as points."""

    DEFAULT_CSS = default_css(__file__, "board_view.tcss")
    can_focus = True  # keys go to the screen's bindings, not to a banner button

    def __init__(self) -> None:
        super().__init__(id="cb-board")
        self.scale = MEDIUM
        self.origin = (LEFT, 0)  # left margin for the rank numbers

    def pick_scale(self) -> tuple[int, int]:
        """The largest scale whose board (rank numbers and file letters included) fits."""
        w, h = self.size.width, self.size.height
        for scale in SCALES:
            if w >= G.SQUARES_W * scale[0] + 1 + LEFT and h >= G.SQUARES_H * scale[1] + 2:
                return scale
        return SMALL

    def render(self) -> Text:
        screen = self.screen
        if isinstance(screen, CellulisBellumScreen):
            self.scale = self.pick_scale()
            # centred in the space it has: the margin counts in where clicks land
            spare = self.size.width - (G.SQUARES_W * self.scale[0] + 1 + LEFT)
            margin = max(0, spare // 2)
            self.origin = (LEFT + margin, 0)
            return screen.draw_board(self.scale, margin)
        return Text("")

    def point_at(self, x: int, y: int) -> int | None:
        screen = self.screen
        if not isinstance(screen, CellulisBellumScreen):
            return None
        return point_at(x - self.origin[0], y - self.origin[1], self.scale, screen.geometry)

    def offset_of(self, p: int) -> tuple[int, int]:
        """Where a click on point ``p`` goes (for tests and help)."""
        x, y = char_xy(p, self.scale)
        return x + self.origin[0], y + self.origin[1]

    def on_click(self, event: events.Click) -> None:
        screen = self.screen
        p = self.point_at(event.x, event.y)
        if p is not None and isinstance(screen, CellulisBellumScreen):
            event.stop()
            screen.clicked(p)


class CellulisBellumScreen(GameScreen):
    CSS_PATH = "screen.tcss"

    BINDINGS = [
        Binding("up,k", "cursor(0,1)", "Up", show=False),
        Binding("down,j", "cursor(0,-1)", "Down", show=False),
        Binding("left,h", "cursor(-1,0)", "Left", show=False),
        Binding("right,l", "cursor(1,0)", "Right", show=False),
        Binding("home,7", "diagonal(-1,1)", "Up left", show=False),
        Binding("pageup,9", "diagonal(1,1)", "Up right", show=False),
        Binding("end,1", "diagonal(-1,-1)", "Down left", show=False),
        Binding("pagedown,3", "diagonal(1,-1)", "Down right", show=False),
        Binding("enter,space", "act", "Act"),
        Binding("s", "spawn", "Spawn"),
        Binding("f", "aim", "Fire virus"),
        Binding("a", "apoptosis", "Apoptosis"),
        Binding("g", "generate", "Virus gen."),
        Binding("d", "done", "Done"),
        Binding("p", "pass_turn", "Pass", show=False),
        Binding("t", "territory", "Territory"),
        Binding("x", "clear", "Clear", show=False),
        Binding("i", "keys_help", "Legend", show=False),  # (k is the cursor's Up)
    ]

    # A finished game's footer keeps only what still applies (territory, legend, rules, back).
    MOVE_KEYS = frozenset({"act", "spawn", "aim", "apoptosis", "generate", "done", "pass_turn",
                           "clear"})

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self._over and action in self.MOVE_KEYS:
            return False
        return super().check_action(action, parameters)

    def __init__(self, table: Table, *, read_only: bool = False) -> None:
        super().__init__(table, read_only=read_only)
        self.state: CBState = table.view(None)
        self.cursor = self.state.board.index(R.NUCLEI[0]) if R.NUCLEI[0] in self.state.board \
            else G.point(3, 1)
        self.selected: int | None = None
        self.mode: str | None = None  # None, or "aim", "spawn", "apo", "gen": what is lit
        self.apo_choice: Apoptosis | None = None  # the rhombus lit in "apo" mode
        self.territory_shown: str | int | None = None  # one of TERRITORY_VIEWS
        self.legend_seen = False  # i was pressed: no more pointing at it

    # -- layout ------------------------------------------------------------------------------
    def compose_board(self) -> ComposeResult:
        yield BoardView()
        yield Static(id="cb-info")

    def on_mount(self) -> None:
        # Textual also runs GameScreen.on_mount (handlers run along the MRO): no super() here,
        # or the screen would subscribe to the table twice
        self.query_one(BoardView).focus()

    def on_resize(self, event: events.Resize) -> None:
        """The board keeps the largest scale that fits; the columns it leaves go to the side
        column (the log then reads whole on a wide terminal), measured once laid out."""
        try:
            self.query_one("#gs-side").styles.clear_rule("width")  # the shared layout's width
        except NoMatches:  # (a resize reaching a screen being taken down: nothing to fit)
            return
        self.call_after_refresh(self._side_takes_the_spare)

    def _side_takes_the_spare(self) -> None:
        try:
            board, side = self.query_one(BoardView), self.query_one("#gs-side")
        except NoMatches:
            return
        spare = board.size.width - (G.SQUARES_W * board.pick_scale()[0] + 1 + LEFT) - SIDE_GAP
        if spare > 0 and board.size.width:
            side.styles.width = min(side.outer_size.width + spare, SIDE_MAX)

    @property
    def geometry(self) -> G.Board:
        return G.board_of(self.state.board)

    def seat_colour(self, seat: int) -> str:
        return self.colour(SEAT_VARS[seat % 2])

    # -- what the chosen action may reach -------------------------------------------------------
    def targets(self) -> dict[int, Any]:
        """Lit points and the action a press there plays."""
        out: dict[int, Any] = {}
        legal = self.legal
        if self.mode == "apo":
            choice = self.apo_choice
            if choice is None or choice not in legal:
                return {}
            return {p: choice for p in self.geometry.rhombi4[choice.key]}
        if self.mode == "gen":
            return {a.centre: a for a in legal if isinstance(a, Generate)}
        if self.mode == "aim":
            v = self._own_piece(VIRUS)
            if v is not None:
                for a in legal:
                    if isinstance(a, VirusShot):
                        for q in self.geometry.rays[v][a.direction]:
                            out[q] = a
            return out
        if self.selected is not None:
            p, seat = self.selected, self.state.seat
            for a in legal:
                if isinstance(a, Burst) and a.src == p:
                    out[a.dst] = a
                elif isinstance(a, NucleusMove) and self.state.board[p] == R.NUCLEI[seat]:
                    out[a.to] = a
                elif isinstance(a, VirusMove) and self.state.board[p] == R.VIRUSES[seat]:
                    out[a.to] = a
            return out
        if self.state.step == SPAWN or self.mode == "spawn":
            for a in legal:
                if isinstance(a, Spawn):
                    out[a.to] = a
        return out

    def movable(self) -> set[int]:
        """Points of pieces that can be selected now."""
        out = set()
        for a in self.legal:
            if isinstance(a, Burst):
                out.add(a.src)
        if any(isinstance(a, NucleusMove) for a in self.legal):
            n = self._own_piece(NUCLEUS)
            if n is not None:
                out.add(n)
        if any(isinstance(a, (VirusMove, VirusShot)) for a in self.legal):
            v = self._own_piece(VIRUS)
            if v is not None:
                out.add(v)
        return out

    def _own_piece(self, kind: int) -> int | None:
        code = R.code(kind, self.state.seat)
        return self.state.board.index(code) if code in self.state.board else None

    # -- painting ----------------------------------------------------------------------------
    def show(self, view: Any, seat: int | None, legal: list) -> None:
        self.state = view
        if self.selected is not None and self.selected not in self.movable():
            self.selected = None
        if self.mode is not None and not any(
                isinstance(a, MODE_ACTIONS[self.mode]) for a in legal):
            self.mode = None
        if view.step == BURST and self.selected is None and len(view.burst) == 1:
            self.selected = view.burst[0]
        self._paint()

    def _paint(self) -> None:
        if not self.is_mounted:
            return
        self.set_class(self.state.step == OVER, "-over")  # (the banner takes 3 rows)
        self.query_one(BoardView).refresh()
        self.query_one("#cb-info", Static).update(self.info_text())

    def shown_territory(self) -> str | int | None:
        """What the territory view shows: None, "both" (at the end, unless t chose one side),
        or one seat's territory alone, with why it counts what it counts."""
        if self.territory_shown is None and self.state.step == OVER:
            return "both"
        return self.territory_shown

    def territories(self) -> tuple[TerritoryView, TerritoryView]:
        board = self.state.board
        return territory_view(board, 0), territory_view(board, 1)

    def names(self) -> list[str]:
        return [self.table.seat_name(q) for q in (0, 1)]

    def info_text(self) -> Text:
        """Under the board: a line a player (territory, a dead nucleus, cells left, virus
        uses), the turn, the cursor's point and the keys; then why the territory of the side t
        shows alone counts what it counts, and a pointer to the legend while a virus or a
        destroyed nucleus stands on the board unexplained. At the end (six rows at 80x24) the
        turn line gives way to the keys that explain the end, or to the side t shows."""
        s = self.state
        t = Text()
        views = self.territories()
        for seat in (0, 1):
            style = f"bold {self.seat_colour(seat)}"
            t.append(f"{GLYPHS[CELL][seat]} {self.table.seat_name(seat)}", style=style)
            if s.dead[seat]:
                t.append(f" {DEAD_GLYPHS[seat]}", style=style)
            t.append(f" territory {len(views[seat].counted)}", style="bold")
            t.append(f" · {R.reserve(s.board, seat)} left")
            if s.virus_uses[seat]:
                t.append(f" · {GLYPHS[VIRUS][seat]}×{s.virus_uses[seat]}")
            t.append("\n")  # one line a seat
        muted = self.colour("muted")
        shown = self.shown_territory()
        if s.step != OVER:
            t.append(f"turn {min(s.turn + 1, s.turn_limit)}/{s.turn_limit} · ", style=muted)
            t.append(G.NAMES[self.cursor], style="bold")
            t.append(" · ", style=muted)
            t.append(self.hint_line() + "\n", style=muted)
        elif shown not in (0, 1):  # (at the end, one side's note takes the hint's place)
            t.append(self.hint_line() + "\n", style=muted)
        if shown in (0, 1):
            v = views[int(shown)]
            t.append(territory_note(v, self.names()), style=f"bold {self.seat_colour(v.seat)}")
            t.append("\n")
        new = self.unexplained()
        if new and s.step != OVER:  # (at the end the hint line points at i)
            t.append("New: ", style=f"bold {self.colour('highlight')}")
            t.append(", ".join(new) + " · i: legend", style=self.colour("highlight"))
        t.rstrip()
        return t

    def log_events(self, last: int) -> list[tuple[int, int | None, str]]:
        """The log, and at the end, after the result, why each territory counts what it
        counts (a side left with none, or cells that closed ground with no nucleus in it)."""
        entries = super().log_events(last)
        if self.state.step == OVER and entries:
            step = entries[-1][0]
            entries += [(step, None, territory_note(v, self.names())) for v in self.territories()]
        return entries

    def unexplained(self) -> list[str]:
        """The glyphs a newcomer meets late, standing on the board while the legend (i) has
        not been opened yet: a virus, a destroyed nucleus."""
        if self.legend_seen:
            return []
        s = self.state
        viruses = [GLYPHS[VIRUS][q] for q in (0, 1) if R.VIRUSES[q] in s.board]
        dead = [DEAD_GLYPHS[q] for q in (0, 1) if s.dead[q]]
        out = []
        if viruses:
            out.append(" ".join(viruses) + (" a virus" if len(viruses) == 1 else " viruses"))
        if dead:
            out.append(" ".join(dead) + (" a destroyed nucleus" if len(dead) == 1
                                         else " destroyed nuclei"))
        return out

    def result_text(self) -> str:
        """The end as it happened: "You lose · Violet's nucleus died to its own virus; territory
        decides: Violet 53, Yellow 0" (the banner, the status line and the log's last line)."""
        outcome = self.table.outcome()
        if outcome is None or self.state.step != OVER:
            return super().result_text()
        reader, winners = self.reader(), outcome.winners
        if len(winners) != 1:
            who = "Draw"
        elif reader is not None:
            who = "You win" if winners == (reader,) else "You lose"
        else:
            who = f"{self.table.seat_name(winners[0])} wins"
        return f"{who} · {ending_text(self.state, self.names())}"

    def hint_line(self) -> str:
        s = self.state
        if s.step == OVER or not self.legal:
            if s.step == OVER:
                return "t: each side's territory · i: legend"
            return "waiting"
        if self.mode == "aim":
            return "Aim: Enter on a lit ray fires the virus that way · x: cancel"
        if self.mode == "apo" and self.apo_choice is not None:
            return (f"Apoptosis {rhombus_name(self.apo_choice.key)}: Enter on it sacrifices it"
                    " · a: another · x: cancel")
        if self.mode == "gen":
            return "Virus: Enter on a lit centre generates it there · x: cancel"
        if self.mode == "spawn":
            return "Spawn: Enter on a lit point puts a cell there · x: cancel"
        if s.step == SPAWN:
            return f"Spawn: {len(s.placed)} placed · Enter on a lit point adds a cell · d: done"
        if s.step == BURST:
            return "Burst: pick a cell of the colony, then its landing point · d: done"
        if self.selected is not None:
            return f"{G.NAMES[self.selected]} selected: Enter on a lit point moves it · x: drop"
        extra = []
        if any(isinstance(a, Apoptosis) for a in self.legal):
            extra.append("a: apoptosis")
        if any(isinstance(a, Generate) for a in self.legal):
            extra.append("g: virus")
        if any(isinstance(a, VirusShot) for a in self.legal):
            extra.append("f: fire")
        if Pass() in self.legal:
            extra.append("p: pass")
        return " · ".join(["Enter: spawn on empty / select a piece", *extra])

    def draw_board(self, scale: tuple[int, int], margin: int = 0) -> Text:
        """The board at ``scale`` (characters a square), ``margin`` blank columns to its left."""
        s = self.state
        board = s.board
        geo = G.board_of(board)
        w, h = scale
        width, height = G.SQUARES_W * w + 1, G.SQUARES_H * h + 1
        grid = [[" "] * width for _ in range(height)]
        styles: list[list[str]] = [[""] * width for _ in range(height)]
        line_style = self.colour("board-line")

        def link_style(p: int, q: int) -> str:
            a, b = board[p], board[q]
            if a and a == b and R.kind_of(a) == CELL:
                return f"bold {self.seat_colour(R.owner_of(a))}"
            return line_style

        def put(x: int, y: int, ch: str, st: str) -> None:
            if grid[y][x] in ("╲", "╱", "╳") and ch in ("╲", "╱") and grid[y][x] != ch:
                ch = CROSSING_GLYPH  # two diagonals cross here (the 42-point board: not a point)
                if styles[y][x] != line_style:
                    st = styles[y][x]
            grid[y][x] = ch
            if st != line_style or not styles[y][x]:
                styles[y][x] = st

        # lines and diagonals, one segment between each two neighbours (a segment joining two
        # cells of one colony is drawn in their owner's colour)
        for p in geo.points:
            x0, y0 = char_xy(p, scale)
            for d in (0, 1, 2, 3):  # n, ne, e, se: each segment once
                q = geo.step[p][d]
                if q < 0:
                    continue
                st = link_style(p, q)
                x1, y1 = char_xy(q, scale)
                if y1 == y0:
                    for x in range(x0 + 1, x1):
                        put(x, y0, "─", st)
                elif x1 == x0:
                    for y in range(y1 + 1, y0):
                        put(x0, y, "│", st)
                else:
                    rows = abs(y1 - y0)
                    up = y1 < y0  # on the screen, rows grow downwards
                    ch = "╱" if (x1 > x0) == up else "╲"
                    for i in range(1, rows):
                        put(x0 + (x1 - x0) * i // rows, y0 + (y1 - y0) * i // rows, ch, st)
        # territory overlay
        shown = self.shown_territory()
        if shown is not None:
            self._tint_territories(styles, scale, shown)
        # points and pieces
        targets = self.targets() if self.legal else {}
        movable = self.movable() if self.legal and self.mode is None else set()
        target_style = self.colour("target")
        shot = self.mode == "aim"
        mark = GEN_GLYPH if self.mode == "gen" else TARGET_GLYPH
        lit = self.lit_points()
        for p in geo.points:
            x, y = char_xy(p, scale)
            c = board[p]
            if c == R.EMPTY:
                ch = EMPTY_CENTRE if G.is_centre(p) else EMPTY_GLYPH
                st = self.colour("muted")
            else:
                kind, owner = R.kind_of(c), R.owner_of(c)
                ch = GLYPHS[kind][owner]
                if kind == NUCLEUS and s.dead[owner]:
                    ch = DEAD_GLYPHS[owner]
                st = f"bold {self.seat_colour(owner)}"
            if p in targets:
                if c == R.EMPTY:
                    ch = SHOT_GLYPH if shot else mark
                st = f"bold {self.colour('danger') if shot else target_style}"
            if p in movable:
                st += " underline"
            if p == self.selected and c != R.EMPTY:  # the piece in its colour, its glyph dark
                st = f"bold {self.colour('board')} on {self.seat_colour(R.owner_of(c))}"
            if p in lit:  # a point the lesson is about: dark on the highlight colour
                st = f"bold underline {self.colour('board')} on {self.colour('highlight')}"
            if p == self.cursor:
                st += " reverse"
            under = styles[y][x].split()
            if "on" in under and " on " not in st:  # a point inside a territory keeps its tint
                st += f" on {under[under.index('on') + 1]}"
            grid[y][x] = ch
            styles[y][x] = st
        out = Text(no_wrap=True)
        for i, row in enumerate(grid):
            out.append(" " * margin)
            if i % h == 0:
                out.append(f"{G.HEIGHT - i // h:>2} ", style=self.colour("muted"))
            else:
                out.append(" " * LEFT)
            run, run_style = "", styles[i][0]
            for ch, st in zip(row, styles[i]):  # one span per run of equal style
                if st != run_style:
                    out.append(run, style=run_style or None)
                    run, run_style = "", st
                run += ch
            out.append(run + "\n", style=run_style or None)
        files = " " * (margin + LEFT) + "".join(G.FILES[f].ljust(w) for f in range(G.WIDTH))
        out.append(files.rstrip(), style=self.colour("muted"))
        return out

    def _tint_territories(self, styles: list[list[str]], scale: tuple[int, int],
                          shown: str | int) -> None:
        """Tint the triangles of the territories ``shown`` ("both", or one seat) in their
        owner's colour (both: mixed). One side alone also shows what does not count: the ground
        its cells close with no nucleus in it (grey), and its ground when the enemy nucleus
        stands in it too (red: it counts 0)."""
        w, h = scale
        views = self.territories()
        seats = (0, 1) if shown == "both" else (int(shown),)
        counted = [views[q].counted if q in seats else frozenset() for q in (0, 1)]
        bg = self.colour("board")
        tints = [_blend(bg, self.seat_colour(q), 0.35) for q in (0, 1)]
        both = _blend(tints[0], self.seat_colour(1), 0.35)
        lost: dict[int, str] = {}  # triangle: tint, for what does not count
        if shown != "both":
            v = views[int(shown)]
            grey = _blend(bg, self.colour("muted"), 0.35)
            lost = dict.fromkeys(v.pockets, grey)
            if v.shared:
                lost.update(dict.fromkeys(v.region, _blend(bg, self.colour("danger"), 0.3)))
        for sq in range(G.N_SQUARES):
            f, r = sq % G.SQUARES_W, sq // G.SQUARES_W
            x0, y0 = f * w, (G.SQUARES_H - 1 - r) * h
            for dy in range(1, h):
                for dx in range(1, w):
                    t = _triangle_of(f, r, dx / w, dy / h)
                    inside = (t in counted[0], t in counted[1])
                    if any(inside):
                        tint = both if all(inside) else tints[0] if inside[0] else tints[1]
                    elif t in lost:
                        tint = lost[t]
                    else:
                        continue
                    cur = styles[y0 + dy][x0 + dx]
                    styles[y0 + dy][x0 + dx] = f"{cur} on {tint}".strip()

    def highlight(self, marks: tuple[str, ...]) -> None:
        """The lesson points at ``marks`` (point names such as ``d2`` or ``cd23``): they are drawn
        dark on the highlight colour (``lit_points``), from this paint on."""
        super().highlight(marks)
        self._paint()  # (closing the lesson's panel clears them with no new state to show)

    def lit_points(self) -> frozenset[int]:
        """The points the lesson points at now (names that are no point are ignored)."""
        found = (G.parse_point(m) for m in self.highlighted)
        return frozenset(p for p in found if p is not None and p < self.geometry.n_points)

    # -- input ---------------------------------------------------------------------------------
    def action_cursor(self, dx: int, dy: int) -> None:
        """Along a grid line: to the next corner from a corner, the next centre from a centre."""
        self._move_cursor(2 * dx, 2 * dy)

    def action_diagonal(self, dx: int, dy: int) -> None:
        """Along a diagonal: to the next point (a centre from a corner and back; with corners
        only, the next corner)."""
        k = 1 if self.geometry.centre_points else 2
        self._move_cursor(k * dx, k * dy)

    def _move_cursor(self, dx: int, dy: int) -> None:
        x, y = G.xy(self.cursor)
        p = G.at_xy(x + dx, y + dy)
        if p is not None and p < self.geometry.n_points:
            self.cursor = p
        self._paint()

    def clicked(self, p: int) -> None:
        self.cursor = p
        self.action_act()

    def action_act(self) -> None:
        p = self.cursor
        if not self.legal:
            self.say("It is not your turn." if self.state.step != OVER else "The game is over.")
            self._paint()
            return
        targets = self.targets()
        if p in targets:
            self._play(targets[p])
            return
        if self.mode == "apo" and self._apoptoses(p):
            self._choose_apoptosis(self._apoptoses(p))
            return
        if self.mode in ("aim", "apo", "gen"):
            self.say("Not a lit point: Enter on one of them, or x to cancel.")
            return
        if p in self.movable() and p != self.selected:
            self.selected = p
            self.mode = None
            self.say(f"{G.NAMES[p]} selected: its targets are lit.")
            self._paint()
            return
        if self.state.board[p] == R.EMPTY and Spawn(p) in self.legal:
            self._play(Spawn(p))
            return
        if self.selected is not None:
            self.selected = None
            self.say("Selection dropped.")
        else:
            self.say(f"Nothing to do on {G.NAMES[p]}.")
        self._paint()

    def _play(self, action: Any) -> None:
        self.selected = None
        self.mode = None
        self.play(action)

    def action_aim(self) -> None:
        if not any(isinstance(a, VirusShot) for a in self.legal):
            self.say("Your virus cannot fire now.")
            return
        self._toggle("aim", "Aim: Enter on a lit ray fires.")

    def _toggle(self, mode: str, text: str) -> None:
        self.mode = None if self.mode == mode else mode
        self.selected = None
        self.say(text if self.mode else "Cancelled.")
        self._paint()

    def action_spawn(self) -> None:
        if not any(isinstance(a, Spawn) for a in self.legal):
            self.say("No cell can be spawned now.")
            return
        self._toggle("spawn", "Spawn: the lit points can take a cell.")

    def _apoptoses(self, p: int | None = None) -> list[Apoptosis]:
        """The legal apoptoses (whose rhombus holds ``p``, if given)."""
        rhombi = self.geometry.rhombi4
        return [a for a in self.legal if isinstance(a, Apoptosis)
                and (p is None or p in rhombi[a.key])]

    def action_apoptosis(self) -> None:
        """Light one rhombus that may be sacrificed (one holding the cursor, if any); again:
        the next one. Enter or a click on it plays it."""
        choices = self._apoptoses(self.cursor) or self._apoptoses()
        if not choices:
            self.say("No apoptosis is possible now.")
            return
        self._choose_apoptosis(choices)

    def _choose_apoptosis(self, choices: list[Apoptosis]) -> None:
        if self.mode == "apo" and self.apo_choice in choices:
            i = (choices.index(self.apo_choice) + 1) % len(choices)
        else:
            i = 0
        self.mode, self.selected, self.apo_choice = "apo", None, choices[i]
        name = rhombus_name(choices[i].key)
        more = f" ({i + 1} of {len(choices)}; a: the next)" if len(choices) > 1 else ""
        self.say(f"Apoptosis {name}{more}: Enter or a click on it sacrifices it; x: cancel.")
        self._paint()

    def action_generate(self) -> None:
        a = Generate(self.cursor)
        if a in self.legal:
            self._play(a)
            return
        if any(isinstance(x, Generate) for x in self.legal):
            self._toggle("gen", "Virus: Enter on a lit centre.")
        else:
            self.say("No virus can be generated now.")

    def action_done(self) -> None:
        if Done() in self.legal:
            self._play(Done())
        else:
            self.say("Nothing to end: d ends a spawn or a burst.")

    def action_pass_turn(self) -> None:
        if Pass() in self.legal:
            self._play(Pass())
        else:
            self.say("You cannot pass: a main action is open.")

    def action_clear(self) -> None:
        self.selected = None
        self.mode = None
        self._paint()

    def action_keys_help(self) -> None:
        self.legend_seen = True
        self._paint()
        self.app.push_screen(KeysPanel("Cellulis Bellum: keys and legend", KEYS_AND_LEGEND))

    def action_territory(self) -> None:
        """Both territories, then each side's alone with why it counts what it counts, then
        none again (at the end: back to both)."""
        now = self.shown_territory()
        shown = TERRITORY_VIEWS[(TERRITORY_VIEWS.index(now) + 1) % len(TERRITORY_VIEWS)]
        self.territory_shown = shown
        views, names = self.territories(), self.names()
        shown = self.shown_territory()
        if shown == "both":
            self.say(f"Territories: {names[0]} {len(views[0].counted)}, {names[1]} "
                     f"{len(views[1].counted)} triangles · t: each side alone")
        elif shown is None:
            self.say("Territories hidden (t shows them).")
        else:
            self.say(f"{names[int(shown)]}'s territory alone: what counts and why · t: next")
        self._paint()


SCREEN = CellulisBellumScreen
