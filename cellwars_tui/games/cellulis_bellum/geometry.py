"""The boards of Cellulis Bellum: the one module that knows their geometry.

The seed's board is "un plateau de 5 sur 6 cases ainsi que leurs diagonales": 6 squares wide and 5
high, both diagonals drawn in every square. Two boards are read from it:

* ``FULL`` (the game's board, "72 points"): pieces stand on every intersection of the drawn lines,
  the 7 x 6 = 42 grid corners (files a-g from left to right, ranks 1-6 from Yellow's side) and the
  30 square centres where the two diagonals of a square cross (named by the files and ranks around
  them: ``cd34`` is the centre of the square c3-d3-d4-c4). A corner reaches its 4 neighbours along
  the grid lines (corners) and its 4 along the diagonals (centres); a centre reaches only the 4
  corners of its square, since only the diagonals pass through it.
* ``CORNERS`` ("corners only (42 points)", the first rules, kept for the records made with them):
  pieces stand on the 42 corners only; a diagonal joins two corners, and a piece reaches its 8
  neighbours like a chess king.

Points are numbered alike on both boards (corners 0-41, ``rank * 7 + file``; centres 42-71, ``42 +
square``), so a point's name and an action's notation never depend on the board. Positions are
drawn on a doubled grid: corner (f, r) at (2f, 2r), the centre of square (f, r) at (2f+1, 2r+1).

Shapes the rules use (``Board``):

* rays along the lines in the 8 directions (virus shot, burst) and axes (phagocytosis);
* ``rhombi4``: the rhombi of four points (apoptosis); ``rhombi8``: the rhombi of eight points
  around a free corner (virus generation), and ``rhombi8_on_centres``: the same diamond around a
  free square centre (rules version 3 on: tips on the four centres beside it, sides through the
  four corners of its square);
* the 120 triangles the diagonals cut the squares into (south, east, north, west of each square),
  and which of their sides a player's cells wall off (territory).
"""

from __future__ import annotations

from collections.abc import Sequence

FILES = "abcdefg"
WIDTH, HEIGHT = 7, 6  # grid corners across and up
SQUARES_W, SQUARES_H = WIDTH - 1, HEIGHT - 1
N_CORNERS = WIDTH * HEIGHT
N_SQUARES = SQUARES_W * SQUARES_H
N_POINTS = N_CORNERS + N_SQUARES  # the most points a board has (the full board)
N_TRIANGLES = N_SQUARES * 4

# Directions as (name, dx, dy) on the doubled grid's unit step; "n" points to Violet's side.
DIRECTIONS: tuple[tuple[str, int, int], ...] = (
    ("n", 0, 1), ("ne", 1, 1), ("e", 1, 0), ("se", 1, -1),
    ("s", 0, -1), ("sw", -1, -1), ("w", -1, 0), ("nw", -1, 1),
)
DIR_NAMES = tuple(d[0] for d in DIRECTIONS)
ORTHOGONAL = (0, 2, 4, 6)
DIAGONAL = (1, 3, 5, 7)
# The four axes, as pairs of opposite direction indices: vertical, both diagonals, horizontal.
AXES = ((0, 4), (1, 5), (2, 6), (3, 7))


# -- points, shared by both boards --------------------------------------------------------------
def point(f: int, r: int) -> int:
    """The corner on file ``f`` and rank ``r`` (both from 0)."""
    return r * WIDTH + f


def square(f: int, r: int) -> int:
    """The square whose lower left corner is (f, r)."""
    return r * SQUARES_W + f


def centre(sq: int) -> int:
    """The point where the diagonals of square ``sq`` cross."""
    return N_CORNERS + sq


def is_centre(p: int) -> bool:
    return p >= N_CORNERS


def coords(p: int) -> tuple[int, int]:
    """A corner's (file, rank)."""
    return p % WIDTH, p // WIDTH


def xy(p: int) -> tuple[int, int]:
    """A point on the doubled grid: corner (f, r) at (2f, 2r), a square's centre in between."""
    if p < N_CORNERS:
        return 2 * (p % WIDTH), 2 * (p // WIDTH)
    sq = p - N_CORNERS
    return 2 * (sq % SQUARES_W) + 1, 2 * (sq // SQUARES_W) + 1


def at_xy(x: int, y: int) -> int | None:
    """The point at (x, y) on the doubled grid, or None."""
    if not (0 <= x <= 2 * SQUARES_W and 0 <= y <= 2 * SQUARES_H):
        return None
    if x % 2 == 0 and y % 2 == 0:
        return point(x // 2, y // 2)
    if x % 2 == 1 and y % 2 == 1:
        return centre(square(x // 2, y // 2))
    return None


def on_board(f: int, r: int) -> bool:
    return 0 <= f < WIDTH and 0 <= r < HEIGHT


def name(p: int) -> str:
    x, y = xy(p)
    if p < N_CORNERS:
        return f"{FILES[x // 2]}{y // 2 + 1}"
    f, r = x // 2, y // 2
    return f"{FILES[f]}{FILES[f + 1]}{r + 1}{r + 2}"


NAMES = tuple(name(p) for p in range(N_POINTS))
_BY_NAME = {n: p for p, n in enumerate(NAMES)}


def parse_point(text: str) -> int | None:
    return _BY_NAME.get(text.strip().lower())


# -- triangles, shared by both boards -----------------------------------------------------------
# Square (f, r) has corners A=(f,r) B=(f+1,r) C=(f+1,r+1) D=(f,r+1) and centre O, and is cut by AC
# and BD into S=ABO, E=BCO, N=CDO, W=DAO. Triangle index = square * 4 + (S, E, N, W).
TRI_S, TRI_E, TRI_N, TRI_W = range(4)


def square_corners(sq: int) -> tuple[int, int, int, int]:
    f, r = sq % SQUARES_W, sq // SQUARES_W
    return point(f, r), point(f + 1, r), point(f + 1, r + 1), point(f, r + 1)


def _triangle_corners(t: int) -> tuple[int, int]:
    a, b, c, d = square_corners(t // 4)
    return ((a, b), (b, c), (c, d), (d, a))[t % 4]


# TRI_CORNERS[t]: the two corners of triangle t (its third vertex is its square's centre).
TRI_CORNERS: tuple[tuple[int, int], ...] = tuple(_triangle_corners(t) for t in range(N_TRIANGLES))


class Board:
    """One board's points and every shape the rules use on it, as lookup tables.

    ``step[p][d]``: the neighbour of p in direction d (-1: none); ``neighbours[p]``; ``rays[p][d]``:
    the points from p (excluded) to the edge in direction d; ``rhombi4``: apoptosis rhombi by the
    key an ``Apoptosis`` names them with; ``apoptosis_reach[key]``: the points whose enemy cells an
    apoptosis of that rhombus destroys; ``rhombi8``: generation rhombi by the point at their centre;
    ``tri_links[t]``: (other triangle, p, q) for each side triangle t shares with another, closed
    to a player holding cells on both p and q; ``tris_at[p]``: the triangles around point p.
    """

    def __init__(self, key: str, points: tuple[int, ...], moves: tuple[tuple[int, int], ...],
                 centre_points: bool) -> None:
        self.key = key
        self.points = points
        self.n_points = len(points)
        self.centre_points = centre_points
        here = set(points)

        def _step(p: int, d: int) -> int:
            x, y = xy(p)
            mx, my = moves[d]
            if mx == my == 0:
                return -1
            q = at_xy(x + mx, y + my)
            return q if q is not None and q in here else -1

        # 72 points: no line runs across or up through a centre, so only corners step that way
        self.step: tuple[tuple[int, ...], ...] = tuple(
            tuple(-1 if (is_centre(p) and d in ORTHOGONAL) else _step(p, d) for d in range(8))
            for p in points)
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(
            tuple(q for q in self.step[p] if q >= 0) for p in points)
        self.rays: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(self._ray(p, d) for d in range(8)) for p in points)
        self.rhombi4, self.apoptosis_reach = self._rhombi4()
        self.rhombi8 = self._rhombi8()
        self.rhombi8_on_centres = self._rhombi8_on_centres()
        self._all_rhombi8 = {**self.rhombi8, **self.rhombi8_on_centres}
        self.tri_links = self._tri_links()
        self.tris_at: tuple[tuple[int, ...], ...] = tuple(
            tuple(t for t in range(N_TRIANGLES)
                  if p in TRI_CORNERS[t] or p == centre(t // 4)) for p in points)

    def __repr__(self) -> str:
        return f"<Board {self.key!r}>"

    def _ray(self, p: int, d: int) -> tuple[int, ...]:
        out = []
        q = self.step[p][d]
        while q >= 0:
            out.append(q)
            q = self.step[q][d]
        return tuple(out)

    def _rhombi4(self) -> tuple[dict[tuple[int, int], tuple[int, ...]],
                                dict[tuple[int, int], tuple[int, ...]]]:
        rhombi: dict[tuple[int, int], tuple[int, ...]] = {}
        reach: dict[tuple[int, int], tuple[int, ...]] = {}
        if self.centre_points:
            # two corners joined by a grid line, and the two square centres on either side of it:
            # the smallest rhombus the lines draw (two triangles), its sides on diagonals
            for sq in range(N_SQUARES):
                f, r = sq % SQUARES_W, sq // SQUARES_W
                a, b, _, d = square_corners(sq)
                if f + 1 < SQUARES_W:  # the east side b-c, between this square and the next
                    pts: tuple[int, ...] = (b, point(f + 1, r + 1), centre(sq),
                                            centre(square(f + 1, r)))
                    rhombi[(b, point(f + 1, r + 1))] = tuple(sorted(pts))
                if r + 1 < SQUARES_H:  # the north side d-c, between this square and the one above
                    pts = (d, point(f + 1, r + 1), centre(sq), centre(square(f, r + 1)))
                    rhombi[(d, point(f + 1, r + 1))] = tuple(sorted(pts))
            for k, pts in rhombi.items():
                reach[k] = tuple(sorted({q for p in pts for q in (p, *self.neighbours[p])}))
        else:
            # the four corners one step up, down, left and right of a centre corner; the centre
            # is inside the rhombus and counts as next to the four
            for c in self.points:
                pts = tuple(self.step[c][d] for d in ORTHOGONAL)
                if all(q >= 0 for q in pts):
                    rhombi[(c, -1)] = tuple(sorted(pts))
                    reach[(c, -1)] = tuple(sorted({q for p in (*pts, c)
                                                   for q in (p, *self.neighbours[p])}))
        return dict(sorted(rhombi.items())), reach

    def _rhombi8(self) -> dict[int, tuple[int, ...]]:
        out = {}
        for c in self.points:
            if self.centre_points:
                # the 8 neighbours of an inner corner: 4 corners along the lines are the rhombus's
                # vertices, 4 centres along the diagonals the middles of its sides
                pts = self.neighbours[c]
                if len(pts) == 8:
                    out[c] = tuple(sorted(pts))
                continue
            # corners only: the ring two king steps away that the rhombus of side two draws
            x, y = xy(c)
            ring = [at_xy(x + 2 * dx, y + 2 * dy) for dx in range(-2, 3) for dy in range(-2, 3)
                    if abs(dx) + abs(dy) == 2]
            if all(q is not None for q in ring):
                out[c] = tuple(sorted(q for q in ring if q is not None))
        return out

    def _rhombi8_on_centres(self) -> dict[int, tuple[int, ...]]:
        """The diamond of eight around a square centre: the same size and shape as the one around
        a corner, its tips on the four centres one square away along the grid (cd23, de34, cd45
        and bc34 around cd34), its sides running along the diagonals through the four corners of
        the square (c3, d3, d4, c4). Only a square with a square on each side has one: 12."""
        out: dict[int, tuple[int, ...]] = {}
        if not self.centre_points:
            return out
        for sq in range(N_SQUARES):
            k = centre(sq)
            x, y = xy(k)
            tips = [at_xy(x + dx, y + dy) for dx, dy in ((0, 2), (2, 0), (0, -2), (-2, 0))]
            if any(q is None for q in tips):
                continue
            out[k] = tuple(sorted((*self.neighbours[k], *(q for q in tips if q is not None))))
        return out

    def virus_rhombi(self, on_centres: bool) -> dict[int, tuple[int, ...]]:
        """The rhombi of eight a virus may be generated in, by the point at their centre: around
        a corner (``rhombi8``), and with ``on_centres`` around a square centre too."""
        return self._all_rhombi8 if on_centres else self.rhombi8

    def _tri_links(self) -> tuple[tuple[tuple[int, int, int], ...], ...]:
        edges = []
        for sq in range(N_SQUARES):
            a, b, c, d = square_corners(sq)
            o = centre(sq)
            t = sq * 4
            # a half diagonal: on the full board it joins a corner and the centre; with corners
            # only it is closed by cells on the diagonal's two corners
            ao, co, bo, do = ((a, o), (c, o), (b, o), (d, o)) if self.centre_points else \
                ((a, c), (a, c), (b, d), (b, d))
            edges.append((t + TRI_S, t + TRI_W, *ao))
            edges.append((t + TRI_E, t + TRI_N, *co))
            edges.append((t + TRI_S, t + TRI_E, *bo))
            edges.append((t + TRI_N, t + TRI_W, *do))
            f, r = sq % SQUARES_W, sq // SQUARES_W
            if f + 1 < SQUARES_W:  # east side BC, shared with the west triangle of the next square
                edges.append((t + TRI_E, square(f + 1, r) * 4 + TRI_W, b, c))
            if r + 1 < SQUARES_H:  # north side DC, shared with the south triangle above
                edges.append((t + TRI_N, square(f, r + 1) * 4 + TRI_S, d, c))
        return tuple(
            tuple((t2 if t1 == t else t1, p, q) for (t1, t2, p, q) in edges if t in (t1, t2))
            for t in range(N_TRIANGLES))

    def region(self, walls: frozenset[int] | set[int], start_point: int) -> set[int]:
        """Triangles reachable from the triangles around ``start_point`` without crossing a side
        whose two end points are both in ``walls`` (the board edge closes every region)."""
        return self.flood(walls, self.tris_at[start_point])

    def flood(self, walls: frozenset[int] | set[int], start: tuple[int, ...] | list[int]
              ) -> set[int]:
        """Triangles reachable from the triangles ``start`` without crossing a wall side."""
        todo = list(start)
        seen = set(todo)
        links = self.tri_links
        while todo:
            t = todo.pop()
            for t2, p, q in links[t]:
                if t2 in seen or (p in walls and q in walls):
                    continue
                seen.add(t2)
                todo.append(t2)
        return seen


FULL = Board("72 points", tuple(range(N_POINTS)),
             ((0, 2), (1, 1), (2, 0), (1, -1), (0, -2), (-1, -1), (-2, 0), (-1, 1)), True)
CORNERS = Board("corners only (42 points)", tuple(range(N_CORNERS)),
                ((0, 2), (2, 2), (2, 0), (2, -2), (0, -2), (-2, -2), (-2, 0), (-2, 2)), False)
BOARDS = {b.key: b for b in (FULL, CORNERS)}
_BY_SIZE = {b.n_points: b for b in (FULL, CORNERS)}


def board_of(cells: Sequence[int]) -> Board:
    """The board a position stands on (its length says which)."""
    return _BY_SIZE[len(cells)]
