"""Reading a Cellulis Bellum position: pieces, colonies, where cells may go, the rhombi, flanked
cells and territory, plus a plain-text diagram of a board (tests, logs, debugging).

A position is a tuple of piece codes, one a point of its board (:mod:`.geometry`; its length says
which board). Pure functions only: the rules (:mod:`.rules`) decide what is legal and apply it.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import NamedTuple

from . import clarifications as C
from . import geometry as G

# -- pieces: 0 empty, else 1 + owner + 2 * kind ---------------------------------------------------
EMPTY = 0
CELL, NUCLEUS, VIRUS = 0, 1, 2
KIND_NAMES = ("cell", "nucleus", "virus")


def code(kind: int, owner: int) -> int:
    return 1 + owner + 2 * kind


def owner_of(c: int) -> int:
    return (c - 1) & 1


def kind_of(c: int) -> int:
    return (c - 1) >> 1


CELLS = (code(CELL, 0), code(CELL, 1))
NUCLEI = (code(NUCLEUS, 0), code(NUCLEUS, 1))
VIRUSES = (code(VIRUS, 0), code(VIRUS, 1))


def cells_on_board(board: Sequence[int], seat: int) -> int:
    c = CELLS[seat]
    return sum(1 for x in board if x == c)


def reserve(board: Sequence[int], seat: int) -> int:
    """Cells ``seat`` still has off the board."""
    return C.CELLS_PER_PLAYER - cells_on_board(board, seat)


def find(board: Sequence[int], piece: int) -> int:
    """The point holding ``piece`` (nucleus or virus), or -1."""
    try:
        return board.index(piece)
    except ValueError:
        return -1


# -- colonies and spawning ------------------------------------------------------------------------
def colony_of(board: Sequence[int], p: int) -> tuple[int, ...]:
    """The colony of the cell on ``p``: the cells of its colour joined to it through neighbours."""
    nb = G.board_of(board).neighbours
    c = board[p]
    seen = {p}
    todo = [p]
    while todo:
        q = todo.pop()
        for r in nb[q]:
            if r not in seen and board[r] == c:
                seen.add(r)
                todo.append(r)
    return tuple(sorted(seen))


def colonies(board: Sequence[int], seat: int) -> list[tuple[int, ...]]:
    """``seat``'s colonies: each group of joined cells, then the nucleus on its own."""
    c = CELLS[seat]
    out: list[tuple[int, ...]] = []
    seen: set[int] = set()
    for p in range(len(board)):
        if board[p] == c and p not in seen:
            col = colony_of(board, p)
            seen.update(col)
            out.append(col)
    n = find(board, NUCLEI[seat])
    if n >= 0:
        out.append((n,))
    return out


def reach(nb: Sequence[Sequence[int]], cols: Sequence[tuple[int, ...]]) -> list[frozenset[int]]:
    """The points each colony touches (a neighbour of one of its points), colony by colony."""
    return [frozenset(q for r in col for q in nb[r]) for col in cols]


def matchable(touched: Sequence[frozenset[int]], points: Sequence[int]) -> bool:
    """Whether each point can be given a distinct colony it touches (Kuhn's matching);
    ``touched``: each colony's :func:`reach`."""
    adj = [[i for i, near in enumerate(touched) if p in near] for p in points]
    owner = [-1] * len(touched)

    def augment(i: int, seen: set[int]) -> bool:
        for j in adj[i]:
            if j in seen:
                continue
            seen.add(j)
            if owner[j] < 0 or augment(owner[j], seen):
                owner[j] = i
                return True
        return False

    return all(augment(i, set()) for i in range(len(points)))


def open_spawn_points(board: Sequence[int], seat: int, cols: Sequence[tuple[int, ...]],
                      placed: Sequence[int]) -> list[int]:
    """Empty points where ``seat`` may put a cell, given the colonies as they stood when the
    spawn began and the points spawned since."""
    if reserve(board, seat) <= 0 or len(placed) >= len(cols):
        return []
    touched = reach(G.board_of(board).neighbours, cols)
    near = frozenset().union(*touched)
    return [p for p in range(len(board)) if _spawnable(board, touched, near, placed, p)]


def spawn_point_open(board: Sequence[int], seat: int, cols: Sequence[tuple[int, ...]],
                     placed: Sequence[int], p: int) -> bool:
    """Whether ``p`` is one of :func:`open_spawn_points` (checks that point alone)."""
    if not 0 <= p < len(board) or reserve(board, seat) <= 0 or len(placed) >= len(cols):
        return False
    touched = reach(G.board_of(board).neighbours, cols)
    return _spawnable(board, touched, frozenset().union(*touched), placed, p)


def _spawnable(board: Sequence[int], touched: Sequence[frozenset[int]], near: frozenset[int],
               placed: Sequence[int], p: int) -> bool:
    """``near``: every point some colony touches (the union of ``touched``)."""
    if board[p] != EMPTY or p not in near:
        return False
    return not placed or matchable(touched, (*placed, p))


def slides(board: Sequence[int], p: int) -> list[int]:
    """Where a cell on ``p`` may land in a burst: any empty point along a line or diagonal."""
    out: list[int] = []
    for ray in G.board_of(board).rays[p]:
        out.extend(q for q in ray if board[q] == EMPTY)
    return out


# -- rhombi ---------------------------------------------------------------------------------------
def apoptosis_rhombi(board: Sequence[int], seat: int) -> list[tuple[int, int]]:
    """The keys of the rhombi of four that ``seat``'s cells fill (see ``Board.rhombi4``)."""
    c = CELLS[seat]
    return [k for k, pts in G.board_of(board).rhombi4.items() if all(board[p] == c for p in pts)]


def apoptosis_victims(board: Sequence[int], seat: int, key: tuple[int, int]) -> tuple[int, ...]:
    """The enemy cells an apoptosis of the rhombus ``key`` destroys."""
    enemy = CELLS[1 - seat]
    return tuple(q for q in G.board_of(board).apoptosis_reach[key] if board[q] == enemy)


def generation_rhombi(board: Sequence[int], seat: int, on_centres: bool) -> list[int]:
    """Centres of the rhombi of eight that ``seat`` could make its virus on (the centre free, the
    eight points its own pieces, its virus among them if it has one on the board); around a
    square centre too when ``on_centres`` (``Board.virus_rhombi``)."""
    mine = (CELLS[seat], NUCLEI[seat], VIRUSES[seat])
    virus = find(board, VIRUSES[seat])
    out = []
    for k, pts in G.board_of(board).virus_rhombi(on_centres).items():
        if board[k] != EMPTY:
            continue
        if not all(board[p] in mine for p in pts):
            continue
        if virus >= 0 and virus not in pts:
            continue
        out.append(k)
    return out


# -- phagocytosis and territory -------------------------------------------------------------------
def flanked(board: Sequence[int]) -> list[int]:
    """Cells flanked on one axis by two enemy cells (phagocytosis), in point order."""
    steps = G.board_of(board).step
    out = []
    for p in range(len(board)):
        x = board[p]
        if x not in CELLS:
            continue
        enemy = CELLS[1 - owner_of(x)]
        step = steps[p]
        for d1, d2 in G.AXES:
            a, b = step[d1], step[d2]
            if a >= 0 and b >= 0 and board[a] == enemy and board[b] == enemy:
                out.append(p)
                break
    return out


def territory_triangles(board: Sequence[int], seat: int) -> set[int]:
    """The triangles of ``seat``'s territory: the region around its nucleus closed by its own
    cells (and the board edge), empty if the enemy nucleus is in it too."""
    n = find(board, NUCLEI[seat])
    if n < 0:
        return set()
    g = G.board_of(board)
    walls = frozenset(p for p in range(len(board)) if board[p] == CELLS[seat])
    reg = g.region(walls, n)
    e = find(board, NUCLEI[1 - seat])
    if e >= 0 and g.tris_at[e][0] in reg:
        return set()
    return reg


class TerritoryView(NamedTuple):
    """Why ``seat``'s territory counts what it counts (the screen's territory view).

    ``region``: the triangles reachable from its nucleus without crossing one of its walls;
    ``counted``: its territory (``region``, or nothing when ``shared``); ``shared``: the enemy
    nucleus stands in ``region`` too, so it counts 0; ``pockets``: ground its walls close off
    that holds no nucleus at all (inside a block of its cells, say): never territory."""

    seat: int
    region: frozenset[int]
    counted: frozenset[int]
    shared: bool
    pockets: frozenset[int]


def territory_view(board: Sequence[int], seat: int) -> TerritoryView:
    g = G.board_of(board)
    walls = frozenset(p for p in range(len(board)) if board[p] == CELLS[seat])
    n, e = find(board, NUCLEI[seat]), find(board, NUCLEI[1 - seat])
    region = frozenset(g.region(walls, n)) if n >= 0 else frozenset()
    shared = e >= 0 and g.tris_at[e][0] in region
    outside = set(range(G.N_TRIANGLES)) - region
    if e >= 0 and not shared:
        outside -= g.region(walls, e)  # the enemy's side of the walls: not a pocket
    return TerritoryView(seat, region, frozenset() if shared else region, shared,
                         frozenset(outside))


def territory(board: Sequence[int], seat: int) -> int:
    return len(territory_triangles(board, seat))


def winners_by_territory(board: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, int]]:
    t = (territory(board, 0), territory(board, 1))
    if t[0] == t[1]:
        return (0, 1), t
    return ((0,) if t[0] > t[1] else (1,)), t


# -- diagrams -------------------------------------------------------------------------------------
GLYPHS = ".yvYV12"  # empty, cells, nuclei, viruses (Yellow then Violet)


def diagram(board: Sequence[int]) -> str:
    """A picture of the board, rank 6 first, one character a point (see GLYPHS).

    72 points: 11 lines on the doubled grid, corners on the even lines (``. . . V . . .``) and
    square centres between them on the odd ones (`` . . . . . .``). Corners only: 6 lines of 7."""
    if len(board) == G.N_CORNERS:
        return "\n".join("".join(GLYPHS[board[G.point(f, r)]] for f in range(G.WIDTH))
                         for r in reversed(range(G.HEIGHT)))
    lines = []
    for y in reversed(range(2 * G.SQUARES_H + 1)):
        row = [" "] * (2 * G.SQUARES_W + 1)
        for x in range(y % 2, 2 * G.SQUARES_W + 1, 2):
            p = G.at_xy(x, y)
            assert p is not None
            row[x] = GLYPHS[board[p]]
        lines.append("".join(row).rstrip())
    return "\n".join(lines)


def board_from_diagram(text: str) -> tuple[int, ...]:
    """The board a :func:`diagram` draws (11 lines: 72 points; 6 lines: corners only)."""
    rows = [line.rstrip() for line in textwrap.dedent(text.strip("\n")).splitlines()
            if line.strip()]
    if len(rows) == G.HEIGHT and all(len(r) == G.WIDTH for r in rows):
        board = [EMPTY] * G.N_CORNERS
        for i, row in enumerate(rows):
            for f, ch in enumerate(row):
                board[G.point(f, G.HEIGHT - 1 - i)] = _glyph(ch)
        return tuple(board)
    height, width = 2 * G.SQUARES_H + 1, 2 * G.SQUARES_W + 1
    if len(rows) != height or any(len(r) > width for r in rows):
        raise ValueError(f"a diagram is {height} lines of up to {width} characters (72 points) "
                         f"or {G.HEIGHT} lines of {G.WIDTH} (corners only)")
    board = [EMPTY] * G.N_POINTS
    for i, row in enumerate(rows):
        y = height - 1 - i
        for x, ch in enumerate(row.ljust(width)):
            p = G.at_xy(x, y)
            if p is None:
                if ch != " ":
                    raise ValueError(f"line {i + 1}, column {x + 1}: {ch!r} is between points")
            else:
                board[p] = _glyph(ch)
    return tuple(board)


def _glyph(ch: str) -> int:
    if ch not in GLYPHS:
        raise ValueError(f"unknown piece {ch!r} (use {GLYPHS})")
    return GLYPHS.index(ch)
