"""Board geometry: 61 hex tiles, names, neighbours, distances, edges, directions, border."""

from cellwars_tui.games.cell_wars import board as B


def test_board_has_61_tiles_in_rows_of_five_to_nine():
    assert B.N_TILES == 61
    lengths = [sum(1 for n in B.NAMES if n[0] == row) for row in B.ROWS]
    assert lengths == [5, 6, 7, 8, 9, 8, 7, 6, 5]


def test_tile_names_read_row_letter_then_number_and_parse_back():
    assert B.NAMES[0] == "A1" and B.NAMES[-1] == "I5" and B.NAMES[30] == "E5"
    for t, name in enumerate(B.NAMES):
        assert B.parse_tile(name) == t and B.parse_tile(name.lower()) == t
    assert B.parse_tile("J1") == -1 and B.parse_tile("A6") == -1


def test_every_tile_has_six_neighbours_except_on_the_border():
    assert len(B.BORDER) == 24
    for t in range(B.N_TILES):
        assert len(B.NEIGHBOURS[t]) == (6 if t not in B.BORDER else len(B.NEIGHBOURS[t]))
        assert (len(B.NEIGHBOURS[t]) < 6) == (t in B.BORDER)
    corners = [t for t in B.BORDER if len(B.NEIGHBOURS[t]) == 3]
    assert sorted(B.NAMES[t] for t in corners) == ["A1", "A5", "E1", "E9", "I1", "I5"]


def test_neighbours_of_the_centre_by_direction():
    e5 = B.BY_NAME["E5"]
    got = {B.DIR_NAMES[d]: B.NAMES[B.step(e5, d)] for d in range(6)}
    assert got == {"E": "E6", "NE": "D5", "NW": "D4", "W": "E4", "SW": "F4", "SE": "F5"}


def test_opposite_directions_lead_back():
    for t in range(B.N_TILES):
        for d in range(6):
            n = B.step(t, d)
            if n >= 0:
                assert B.step(n, B.opposite(d)) == t
                assert B.direction_between(t, n) == d


def test_distance_is_the_fewest_steps():
    a1, i5, e5 = B.BY_NAME["A1"], B.BY_NAME["I5"], B.BY_NAME["E5"]
    assert B.distance(a1, i5) == 8 and B.distance(e5, a1) == 4 and B.distance(e5, e5) == 0
    assert all(B.distance(t, n) == 1 for t in range(B.N_TILES) for n in B.NEIGHBOURS[t])
    assert len(B.within(e5, 1)) == 7 and len(B.within(e5, 4)) == 61


def test_edges_lie_between_neighbouring_tiles_and_parse_back():
    assert B.N_EDGES == 156
    for e, (a, b) in enumerate(B.EDGES):
        assert b in B.NEIGHBOURS[a]
        assert B.parse_edge(B.edge_name(e)) == e
        assert B.parse_edge(f"{B.NAMES[b]}-{B.NAMES[a]}") == e
    assert B.parse_edge("A1-A3") == -1 and B.parse_edge("A1") == -1
    assert all(len(B.TILE_EDGES[t]) == len(B.NEIGHBOURS[t]) for t in range(B.N_TILES))
