"""The 72-point board, one test per clause of the seed's words, each checked against the board
drawn from scratch: "un plateau de 5 sur 6 cases ainsi que leurs diagonales".

``Drawing`` below knows nothing of the game's code: it takes the drawn lines (the grid of 6 by 5
squares and both diagonals of every square, in plain coordinates, one square = 2 units), finds
every point where lines meet, and walks along the lines. The game's tables must agree with it for
every point, every direction and every rhombus. ``data/board72.txt`` lists every point's
neighbours and the rhombi, for a person to read (and is checked too).
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path

import pytest

from cellwars_tui.games.cellulis_bellum import geometry as G
from cellwars_tui.games.cellulis_bellum.position import (
    CELLS, EMPTY, NUCLEI, board_from_diagram, territory, territory_triangles)

B = G.FULL
W, H = 6, 5  # squares


def P(name: str) -> int:
    p = G.parse_point(name)
    assert p is not None, name
    return p


def names(points) -> list[str]:
    return sorted(G.NAMES[p] for p in points)


class Drawing:
    """The seed's board as drawn lines, in coordinates where a square has side 2."""

    def __init__(self) -> None:
        lines = []
        for y in range(0, 2 * H + 1, 2):
            lines.append(((0, y), (2 * W, y)))  # the grid's rows
        for x in range(0, 2 * W + 1, 2):
            lines.append(((x, 0), (x, 2 * H)))  # its columns
        for f, r in itertools.product(range(W), range(H)):
            x, y = 2 * f, 2 * r
            lines.append(((x, y), (x + 2, y + 2)))  # both diagonals of every square
            lines.append(((x, y + 2), (x + 2, y)))
        self.lines = lines
        pts = set()
        for a, b in lines:
            pts.add(a)
            pts.add(b)
        for l1, l2 in itertools.combinations(lines, 2):
            q = _meet(l1, l2)
            if q is not None:
                pts.add(q)
        self.points = pts

    def on_line(self, q, line) -> bool:
        (ax, ay), (bx, by) = line
        if (bx - ax) * (q[1] - ay) != (by - ay) * (q[0] - ax):
            return False
        return min(ax, bx) <= q[0] <= max(ax, bx) and min(ay, by) <= q[1] <= max(ay, by)

    def walk(self, q, d):
        """The points met going from q in direction d (a unit step of the doubled grid) along
        drawn lines, in order; empty if no drawn line leaves q that way."""
        out = []
        cur = q
        while True:
            nxt = (cur[0] + d[0], cur[1] + d[1])
            seg_mid = (Fraction(cur[0] + nxt[0], 2), Fraction(cur[1] + nxt[1], 2))
            if not any(self.on_line(seg_mid, line) and self.on_line(nxt, line)
                       for line in self.lines):
                return out
            if nxt in self.points:
                out.append(nxt)
            cur = nxt


def _meet(l1, l2):
    (x1, y1), (x2, y2) = l1
    (x3, y3), (x4, y4) = l2
    den = (x1 - x2) * (y3 - y4) - (y1 - y2) * (x3 - x4)
    if den == 0:
        return None
    t = Fraction((x1 - x3) * (y3 - y4) - (y1 - y3) * (x3 - x4), den)
    u = Fraction((x1 - x3) * (y1 - y2) - (y1 - y3) * (x1 - x2), den)
    if not (0 <= t <= 1 and 0 <= u <= 1):
        return None
    x, y = x1 + t * (x2 - x1), y1 + t * (y2 - y1)
    assert x.denominator == 1 and y.denominator == 1
    return (int(x), int(y))


DRAWING = Drawing()
UNIT = {name: (dx, dy) for name, dx, dy in G.DIRECTIONS}


def _p(xy) -> int:
    p = G.at_xy(*xy)
    assert p is not None
    return p


# -- "un plateau de 5 sur 6 cases ainsi que leurs diagonales" -------------------------------------
def test_the_drawn_lines_meet_at_72_points_42_corners_and_30_square_centres():
    assert len(DRAWING.points) == 72 == B.n_points == G.N_POINTS
    assert {G.xy(p) for p in B.points} == DRAWING.points
    corners = [p for p in B.points if not G.is_centre(p)]
    assert len(corners) == 42 and len(B.points) - len(corners) == 30
    for sq in range(G.N_SQUARES):  # each centre is where its square's two diagonals cross
        a, b, c, d = (G.xy(q) for q in G.square_corners(sq))
        assert G.xy(G.centre(sq)) == _meet((a, c), (b, d))


def test_point_names_read_back_and_name_files_and_ranks():
    assert [G.parse_point(n) for n in G.NAMES] == list(range(72))
    assert G.NAMES[P("a1")] == "a1" and G.xy(P("g6")) == (12, 10)
    assert G.xy(P("cd34")) == (5, 5)  # the centre of the square c3-d3-d4-c4
    assert G.parse_point("dc34") is None and G.parse_point("ab13") is None


def test_every_points_neighbours_are_the_next_points_along_the_drawn_lines():
    for p in B.points:
        expected = set()
        for d in UNIT.values():
            met = DRAWING.walk(G.xy(p), d)
            if met:
                expected.add(_p(met[0]))
        assert set(B.neighbours[p]) == expected, G.NAMES[p]


def test_a_corner_has_up_to_8_neighbours_and_a_centre_has_the_4_corners_of_its_square():
    assert names(B.neighbours[P("d3")]) == ["c3", "cd23", "cd34", "d2", "d4", "de23", "de34",
                                             "e3"]
    assert names(B.neighbours[P("a1")]) == ["a2", "ab12", "b1"]
    assert names(B.neighbours[P("d1")]) == ["c1", "cd12", "d2", "de12", "e1"]
    assert names(B.neighbours[P("cd34")]) == ["c3", "c4", "d3", "d4"]
    counts = sorted(len(B.neighbours[p]) for p in B.points)
    assert counts.count(8) == 20 and counts.count(4) == 30  # inner corners; centres
    assert counts.count(5) == 18 and counts.count(3) == 4  # edge corners; board corners


def test_every_ray_follows_a_drawn_line_to_the_edge():
    for p in B.points:
        for d, (name, dx, dy) in enumerate(G.DIRECTIONS):
            expected = tuple(_p(q) for q in DRAWING.walk(G.xy(p), (dx, dy)))
            assert B.rays[p][d] == expected, (G.NAMES[p], name)
    assert names(B.rays[P("a1")][1]) == names(
        [P(n) for n in ("ab12", "b2", "bc23", "c3", "cd34", "d4", "de45", "e5", "ef56", "f6")])
    assert B.rays[P("cd34")][0] == ()  # no line runs up through a centre
    assert [G.NAMES[q] for q in B.rays[P("d3")][2]] == ["e3", "f3", "g3"]


# -- "quatre cellules de la même couleur forment un losange" ------------------------------------
def test_a_rhombus_of_four_is_the_outline_of_two_triangles_that_share_a_grid_side():
    assert len(B.rhombi4) == 49  # 25 upright grid sides, 24 flat ones, inside the board
    assert names(B.rhombi4[(P("d2"), P("d3"))]) == ["cd23", "d2", "d3", "de23"]
    assert names(B.rhombi4[(P("c3"), P("d3"))]) == ["c3", "cd23", "cd34", "d3"]
    for (a, b), pts in B.rhombi4.items():
        ca, cb = (p for p in pts if G.is_centre(p))
        # its four sides are drawn (each vertex is a neighbour of the next), all on diagonals
        for corner in (a, b):
            assert ca in B.neighbours[corner] and cb in B.neighbours[corner]
        # and its diagonals are the grid side a-b and the line between the two centres
        assert b in B.neighbours[a]
        (xa, ya), (xb, yb) = G.xy(ca), G.xy(cb)
        assert ((xa + xb) / 2, (ya + yb) / 2) == tuple((u + v) / 2 for u, v in
                                                        zip(G.xy(a), G.xy(b)))


# -- "huit cellules de la même couleur formant un losange ... l'intersection au centre" -----------
def test_a_rhombus_of_eight_is_the_ring_of_neighbours_around_an_inner_corner():
    assert len(B.rhombi8) == 20 and all(not G.is_centre(k) for k in B.rhombi8)
    assert names(B.rhombi8[P("d3")]) == ["c3", "cd23", "cd34", "d2", "d4", "de23", "de34", "e3"]
    for k, pts in B.rhombi8.items():
        x, y = G.xy(k)
        vertices = {G.at_xy(x + 2, y), G.at_xy(x - 2, y), G.at_xy(x, y + 2), G.at_xy(x, y - 2)}
        middles = set(pts) - vertices
        assert vertices <= set(pts) and len(middles) == 4
        # the four centres are the middles of the rhombus's sides (which are drawn diagonals)
        for m in middles:
            mx, my = G.xy(m)
            assert abs(mx - x) == 1 and abs(my - y) == 1
        assert set(pts) == set(B.neighbours[k])  # the intersection in the middle touches all 8
    assert P("a1") not in B.rhombi8 and P("d1") not in B.rhombi8  # the edge: no full ring


# -- "la taille du territoire est définie par le nombre de triangles" ---------------------------
def test_the_diagonals_cut_the_board_into_120_triangles_each_side_a_drawn_segment():
    assert G.N_TRIANGLES == 120
    sides = set()
    for t in range(G.N_TRIANGLES):
        for _, p, q in B.tri_links[t]:
            assert q in B.neighbours[p]  # every inner side is one step along a drawn line
            sides.add(frozenset((p, q)))
        corners = set(G.TRI_CORNERS[t]) | {G.centre(t // 4)}
        for p in corners:
            assert t in B.tris_at[p]
    # every segment between neighbours inside the board is a side between two triangles
    inner = {frozenset((p, q)) for p in B.points for q in B.neighbours[p]
             if not _on_edge(p, q)}
    assert sides == inner and len(inner) == 191 - 22  # 22 segments lie on the board's edge
    assert sum(len(B.tris_at[p]) for p in B.points) == 3 * 120


def _on_edge(p: int, q: int) -> bool:
    (x1, y1), (x2, y2) = G.xy(p), G.xy(q)
    return (x1 == x2 and x1 in (0, 2 * W)) or (y1 == y2 and y1 in (0, 2 * H))


CORNER_WALL = """
. . . . . . V
 . . . . . .
. . . . . . .
 . . . . . .
. . . . . . .
 . . . . . .
y . . . . . .
 y . . . . .
. y . . . . .
 . y . . . .
Y . y . . . .
"""


def test_territory_worked_by_hand_a_diagonal_wall_cuts_off_a_corner():
    # Yellow's cells a3, ab23, b2, bc12, c1 run along one diagonal line from the left edge to the
    # bottom edge. Around the nucleus on a1 they close: the square a1-b1-b2-a2 whole (its four
    # triangles), and in each of the two squares the wall crosses, the two triangles on the
    # nucleus's side of its diagonal: 4 + 2 + 2 = 8 triangles.
    board = board_from_diagram(CORNER_WALL)
    tris = territory_triangles(board, 0)
    sq_a1, sq_a2, sq_b1 = G.square(0, 0), G.square(0, 1), G.square(1, 0)
    assert tris == {sq_a1 * 4 + k for k in range(4)} | {sq_a2 * 4 + G.TRI_S, sq_a2 * 4 + G.TRI_W} \
        | {sq_b1 * 4 + G.TRI_S, sq_b1 * 4 + G.TRI_W}
    assert territory(board, 0) == 8 and territory(board, 1) == 0


def test_territory_the_board_edge_closes_and_a_gap_opens():
    wall = """
. . . V . . .
 . . . . . .
. . . . . . .
 . . . . . .
y y y y y y y
 . . . . . .
. . . Y . . .
 . . . . . .
. . . . . . .
 . . . . . .
. . . . . . .
"""
    board = board_from_diagram(wall)
    assert territory(board, 0) == 3 * 6 * 4  # a full rank of corners: three rows of squares
    gap = board_from_diagram(wall.replace("y y y y y y y", "y y y . y y y"))
    assert territory(gap, 0) == 0  # open through d4: Violet's nucleus is inside too
    # the gap closed the long way round, along diagonals through two centres: c4-cd45-d5-de45-e4
    # takes in the two triangles below that detour in each of the two squares it crosses
    detour = list(gap)
    for name in ("cd45", "d5", "de45"):
        detour[P(name)] = CELLS[0]
    assert territory(tuple(detour), 0) == 72 + 2 + 2


def test_territory_is_zero_when_the_enemy_nucleus_is_inside_and_territories_may_overlap():
    board = list(board_from_diagram(CORNER_WALL))
    assert territory(tuple(board), 0) == 8
    board[P("g6")], board[P("ab12")] = EMPTY, NUCLEI[1]  # Violet's nucleus inside the corner
    assert territory(tuple(board), 0) == 0
    # each player counts with their own cells only: Violet's a2, ab12, b1 shut Yellow's nucleus
    # into two triangles, so Violet's territory is the other 118, six of them Yellow's too
    board = list(board_from_diagram(CORNER_WALL))
    for name in ("a2", "ab12", "b1"):
        board[P(name)] = CELLS[1]
    mine, theirs = territory_triangles(tuple(board), 0), territory_triangles(tuple(board), 1)
    assert (len(mine), len(theirs), len(mine & theirs)) == (8, 118, 6)


# -- the reference listing ----------------------------------------------------------------------
def listing() -> str:
    lines = ["# The 72-point board: every point's neighbours, then the rhombi (see test_geometry)."]
    for p in B.points:
        lines.append(f"{G.NAMES[p]}: " + " ".join(names(B.neighbours[p])))
    lines.append("# rhombi of four (apoptosis), named by the grid side they straddle")
    for k, pts in B.rhombi4.items():
        lines.append(f"{G.NAMES[k[0]]}-{G.NAMES[k[1]]}: " + " ".join(names(pts)))
    lines.append("# rhombi of eight (virus generation), named by the point in their middle")
    for k, pts in B.rhombi8.items():
        lines.append(f"{G.NAMES[k]}: " + " ".join(names(pts)))
    lines.append("# rhombi of eight around a square centre (rules version 3 on)")
    for k, pts in B.rhombi8_on_centres.items():
        lines.append(f"{G.NAMES[k]}: " + " ".join(names(pts)))
    return "\n".join(lines) + "\n"


def test_the_reference_listing_is_up_to_date():
    path = Path(__file__).with_name("data") / "board72.txt"
    assert path.read_text(encoding="utf-8") == listing()


@pytest.mark.parametrize("board", [G.FULL, G.CORNERS], ids=lambda b: b.key)
def test_each_board_knows_its_size(board):
    assert G.board_of((0,) * board.n_points) is board
    assert G.BOARDS[board.key] is board
