"""Hex geometry of the Cell Wars board: 61 tissue tiles forming a hexagon with five tiles a side.

Tiles use axial coordinates ``(q, r)`` with ``max(|q|, |r|, |q + r|) <= 4`` and are numbered 0..60
in reading order. Rows run from ``A`` (top, five tiles) through ``E`` (the middle, nine tiles) to
``I`` (bottom, five tiles); tiles in a row are numbered from 1 at the left, so the board reads::

        A1 A2 A3 A4 A5
       B1 ...       B6
      ...
    E1 E2 ... E8 E9
      ...
        I1 I2 I3 I4 I5

Rows are horizontal (pointy-top hexes), so each tile has up to six neighbours in the directions
``E`` and ``W`` (same row), ``NE``/``NW`` (row above) and ``SE``/``SW`` (row below). Directions are
numbered counter-clockwise from east, so the opposite of direction ``d`` is ``(d + 3) % 6``.

Walls lie on *edges*: the side shared by two neighbouring tiles. Edges are numbered 0..N-1 and
written as the two tile names joined by a dash, lower tile first (``E4-E5``).
"""

from __future__ import annotations

RADIUS = 4
ROWS = "ABCDEFGHI"

# Axial steps, counter-clockwise from east: E, NE, NW, W, SW, SE.
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
DIR_NAMES: tuple[str, ...] = ("E", "NE", "NW", "W", "SW", "SE")


def opposite(direction: int) -> int:
    """The direction pointing the other way."""
    return (direction + 3) % 6


def _build_tiles() -> tuple[tuple[tuple[int, int], ...], tuple[str, ...]]:
    coords: list[tuple[int, int]] = []
    names: list[str] = []
    for r in range(-RADIUS, RADIUS + 1):
        q_lo, q_hi = max(-RADIUS, -RADIUS - r), min(RADIUS, RADIUS - r)
        for i, q in enumerate(range(q_lo, q_hi + 1)):
            coords.append((q, r))
            names.append(f"{ROWS[r + RADIUS]}{i + 1}")
    return tuple(coords), tuple(names)


COORDS, NAMES = _build_tiles()
N_TILES = len(COORDS)  # 61
INDEX: dict[tuple[int, int], int] = {c: i for i, c in enumerate(COORDS)}
BY_NAME: dict[str, int] = {n: i for i, n in enumerate(NAMES)}

# NEIGHBOUR[tile][direction] -> tile, or -1 off the board.
NEIGHBOUR: tuple[tuple[int, ...], ...] = tuple(
    tuple(INDEX.get((q + dq, r + dr), -1) for dq, dr in DIRECTIONS) for q, r in COORDS
)
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(n for n in row if n >= 0) for row in NEIGHBOUR
)
BORDER: frozenset[int] = frozenset(t for t in range(N_TILES) if len(NEIGHBOURS[t]) < 6)


def _distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


DIST: tuple[tuple[int, ...], ...] = tuple(
    tuple(_distance(a, b) for b in COORDS) for a in COORDS
)


def distance(a: int, b: int) -> int:
    """Hex distance (fewest steps) between two tiles."""
    return DIST[a][b]


def within(tile: int, radius: int) -> tuple[int, ...]:
    """Tiles at distance ``<= radius`` of ``tile``, in reading order."""
    row = DIST[tile]
    return tuple(t for t in range(N_TILES) if row[t] <= radius)


def _build_edges() -> tuple[tuple[tuple[int, int], ...], dict[tuple[int, int], int]]:
    edges: list[tuple[int, int]] = []
    for t in range(N_TILES):
        for n in NEIGHBOURS[t]:
            if n > t:
                edges.append((t, n))
    edges.sort()
    return tuple(edges), {e: i for i, e in enumerate(edges)}


EDGES, EDGE_INDEX = _build_edges()
N_EDGES = len(EDGES)

# TILE_EDGES[tile] -> the edges around that tile (at most six).
TILE_EDGES: tuple[tuple[int, ...], ...] = tuple(
    tuple(EDGE_INDEX[(min(t, n), max(t, n))] for n in NEIGHBOURS[t]) for t in range(N_TILES)
)


def edge_between(a: int, b: int) -> int:
    """The edge shared by two neighbouring tiles (-1 if they are not neighbours)."""
    return EDGE_INDEX.get((min(a, b), max(a, b)), -1)


def step(tile: int, direction: int) -> int:
    """The tile one step away in ``direction`` (-1 off the board)."""
    return NEIGHBOUR[tile][direction]


def edge_name(edge: int) -> str:
    a, b = EDGES[edge]
    return f"{NAMES[a]}-{NAMES[b]}"


def parse_tile(text: str) -> int:
    """Tile index from a name like ``E5`` (any case); -1 if it is no tile."""
    return BY_NAME.get(text.strip().upper(), -1)


def parse_edge(text: str) -> int:
    """Edge index from ``E4-E5`` (either order); -1 if it is no edge."""
    a, sep, b = text.strip().partition("-")
    if not sep:
        return -1
    ta, tb = parse_tile(a), parse_tile(b)
    if ta < 0 or tb < 0:
        return -1
    return edge_between(ta, tb)


def parse_direction(text: str) -> int:
    try:
        return DIR_NAMES.index(text.strip().upper())
    except ValueError:
        return -1


def direction_between(a: int, b: int) -> int:
    """The direction from ``a`` to its neighbour ``b`` (-1 if not neighbours)."""
    row = NEIGHBOUR[a]
    for d in range(6):
        if row[d] == b:
            return d
    return -1
