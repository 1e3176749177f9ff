"""The board of Cellulis Bellum: the one module that knows its geometry.

The board is 6 squares wide and 5 squares high, each square with both its diagonals drawn. Pieces
stand on the 7 x 6 = 42 grid intersections (files a-g from left to right, ranks 1-6 from Yellow's
side). Two diagonals of a square cross at its centre, but that crossing is not a point: from any
point a piece reaches its 8 neighbours along a line or a diagonal, like a chess king.

Shapes the rules use:

* ``DIAMOND4[c]``: the 4 points at one step up, down, left and right of ``c`` - a rhombus whose
  sides lie on diagonals (apoptosis);
* ``DIAMOND8[c]``: the 8 points two king-steps away along the diagonals and lines of that rhombus
  doubled (Manhattan distance 2) - the rhombus of side 2 around ``c`` (virus generation);
* triangles: the two diagonals cut each square into 4 triangles (south, east, north, west), 120 in
  all; territory is counted in them.
"""

from __future__ import annotations

FILES = "abcdefg"
WIDTH, HEIGHT = 7, 6  # points
SQUARES_W, SQUARES_H = WIDTH - 1, HEIGHT - 1
N_POINTS = WIDTH * HEIGHT

# Directions as (name, df, dr); "n" points to Violet's side (higher ranks).
DIRECTIONS: tuple[tuple[str, int, int], ...] = (
    ("n", 0, 1), ("ne", 1, 1), ("e", 1, 0), ("se", 1, -1),
    ("s", 0, -1), ("sw", -1, -1), ("w", -1, 0), ("nw", -1, 1),
)
DIR_NAMES = tuple(d[0] for d in DIRECTIONS)
# The four axes, as pairs of opposite direction indices: vertical, both diagonals, horizontal.
AXES = ((0, 4), (1, 5), (2, 6), (3, 7))


def point(f: int, r: int) -> int:
    return r * WIDTH + f


def coords(p: int) -> tuple[int, int]:
    return p % WIDTH, p // WIDTH


def on_board(f: int, r: int) -> bool:
    return 0 <= f < WIDTH and 0 <= r < HEIGHT


def name(p: int) -> str:
    f, r = coords(p)
    return f"{FILES[f]}{r + 1}"


NAMES = tuple(name(p) for p in range(N_POINTS))
_BY_NAME = {n: p for p, n in enumerate(NAMES)}


def parse_point(text: str) -> int | None:
    return _BY_NAME.get(text.strip().lower())


def _step(p: int, d: int) -> int | None:
    f, r = coords(p)
    _, df, dr = DIRECTIONS[d]
    return point(f + df, r + dr) if on_board(f + df, r + dr) else None


# STEP[p][d]: the neighbour of p in direction d, or -1 off the board.
STEP: tuple[tuple[int, ...], ...] = tuple(
    tuple(-1 if (q := _step(p, d)) is None else q for d in range(8)) for p in range(N_POINTS)
)
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(q for q in STEP[p] if q >= 0) for p in range(N_POINTS)
)


def _ray(p: int, d: int) -> tuple[int, ...]:
    out = []
    q = STEP[p][d]
    while q >= 0:
        out.append(q)
        q = STEP[q][d]
    return tuple(out)


# RAYS[p][d]: the points from p (excluded) to the board edge in direction d.
RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_ray(p, d) for d in range(8)) for p in range(N_POINTS)
)


def _diamond(c: int, radius: int) -> tuple[int, ...] | None:
    f, r = coords(c)
    pts = []
    for df in range(-radius, radius + 1):
        for dr in range(-radius, radius + 1):
            if abs(df) + abs(dr) == radius:
                if not on_board(f + df, r + dr):
                    return None
                pts.append(point(f + df, r + dr))
    return tuple(sorted(pts))


def _diamonds(radius: int) -> dict[int, tuple[int, ...]]:
    out = {}
    for c in range(N_POINTS):
        d = _diamond(c, radius)
        if d is not None:
            out[c] = d
    return out


DIAMOND4: dict[int, tuple[int, ...]] = _diamonds(1)  # centre -> its 4 points
DIAMOND8: dict[int, tuple[int, ...]] = _diamonds(2)  # centre -> its 8 points

# -- triangles -------------------------------------------------------------------------------
# Square (f, r) has corners A=(f,r) B=(f+1,r) C=(f+1,r+1) D=(f,r+1) and is cut by AC and BD into
# S=ABO, E=BCO, N=CDO, W=DAO (O the centre). Triangle index = square * 4 + (S, E, N, W).
TRI_S, TRI_E, TRI_N, TRI_W = range(4)
N_SQUARES = SQUARES_W * SQUARES_H
N_TRIANGLES = N_SQUARES * 4


def square(f: int, r: int) -> int:
    return r * SQUARES_W + f


def square_corners(sq: int) -> tuple[int, int, int, int]:
    f, r = sq % SQUARES_W, sq // SQUARES_W
    return point(f, r), point(f + 1, r), point(f + 1, r + 1), point(f, r + 1)


def _triangle_corners(t: int) -> tuple[int, int]:
    a, b, c, d = square_corners(t // 4)
    return ((a, b), (b, c), (c, d), (d, a))[t % 4]


# TRI_CORNERS[t]: the two grid points of triangle t (its third vertex is the square's centre).
TRI_CORNERS: tuple[tuple[int, int], ...] = tuple(_triangle_corners(t) for t in range(N_TRIANGLES))


def _edges() -> tuple[tuple[int, int, int, int], ...]:
    """(t1, t2, p, q): triangles t1 and t2 share a side lying on the segment p-q of the board.

    The side is a wall for a player holding cells on both p and q."""
    out = []
    for sq in range(N_SQUARES):
        a, b, c, d = square_corners(sq)
        t = sq * 4
        out.append((t + TRI_S, t + TRI_W, a, c))  # half of diagonal AC
        out.append((t + TRI_E, t + TRI_N, a, c))
        out.append((t + TRI_S, t + TRI_E, b, d))  # half of diagonal BD
        out.append((t + TRI_N, t + TRI_W, b, d))
        f, r = sq % SQUARES_W, sq // SQUARES_W
        if f + 1 < SQUARES_W:  # east side BC shared with the west triangle of the next square
            out.append((t + TRI_E, square(f + 1, r) * 4 + TRI_W, b, c))
        if r + 1 < SQUARES_H:  # north side CD shared with the south triangle of the square above
            out.append((t + TRI_N, square(f, r + 1) * 4 + TRI_S, d, c))
    return tuple(out)


TRI_EDGES = _edges()
# TRI_LINKS[t]: (other triangle, p, q) for each side t shares.
TRI_LINKS: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple((t2 if t1 == t else t1, p, q) for (t1, t2, p, q) in TRI_EDGES if t in (t1, t2))
    for t in range(N_TRIANGLES)
)
# TRIS_AT[p]: the triangles that have point p as a vertex.
TRIS_AT: tuple[tuple[int, ...], ...] = tuple(
    tuple(t for t in range(N_TRIANGLES) if p in TRI_CORNERS[t]) for p in range(N_POINTS)
)


def region(walls: frozenset[int] | set[int], start_point: int) -> set[int]:
    """Triangles reachable from the triangles around ``start_point`` without crossing a side whose
    two end points are both in ``walls`` (the board edge closes every region)."""
    todo = list(TRIS_AT[start_point])
    seen = set(todo)
    while todo:
        t = todo.pop()
        for t2, p, q in TRI_LINKS[t]:
            if t2 in seen or (p in walls and q in walls):
                continue
            seen.add(t2)
            todo.append(t2)
    return seen
