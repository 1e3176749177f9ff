"""Cellulis Bellum's first rules (rules version 1), kept as options for the records made with them:
the board "corners only (42 points)" and a new virus that "acts at once". One test per rule clause
of the seed, on hand-made positions (the 72-point rules are in test_rules.py).

Diagrams are six lines, rank 6 at the top, files a-g left to right: ``.`` empty, ``y``/``v``
Yellow/Violet cells, ``Y``/``V`` nuclei, ``1``/``2`` Yellow/Violet viruses.
"""

from __future__ import annotations

import pytest

from cellwars_tui.core import IllegalAction
from cellwars_tui.core.errors import BadNotation, BadOptions
from cellwars_tui.games.cellulis_bellum import clarifications as C
from cellwars_tui.games.cellulis_bellum import geometry as G
from cellwars_tui.games.cellulis_bellum.rules import (
    BURST, CELLS, GAME, NUCLEI, OVER, SPAWN, START, VIRUSES, Apoptosis, Burst,
    Done, Generate, NucleusMove, Pass, Phagocytosis, Spawn, VirusMove,
    VirusShot, colonies, diagram, reserve, territory)
from cellwars_tui.games.cellulis_bellum.rules import state_from_diagram as _state

B = G.CORNERS
V1 = GAME.options_from_record({"players": 2, "turn_limit": 80}, 1)


def state_from_diagram(text: str, **kw):
    """A position under the first rules (the diagram's six lines make it a 42-point board)."""
    return _state(text, **kw)


def P(name: str) -> int:
    p = G.parse_point(name)
    assert p is not None
    return p


def play(s, *texts):
    events = []
    for t in texts:
        s, ev = GAME.apply(s, s.seat, GAME.action_from_str(t))
        events.extend(ev)
    return s, events


def at(s, name: str) -> str:
    return diagram(s.board).replace("\n", "")[(G.HEIGHT - 1 - P(name) // 7) * 7 + P(name) % 7]


# -- the board and the set-up ----------------------------------------------------------------------
def test_board_has_5_by_6_squares_with_diagonals_and_both_rhombi_fit():
    assert (G.SQUARES_W, G.SQUARES_H) == (6, 5)
    assert B.n_points == 42 and G.N_TRIANGLES == 120
    assert len(B.neighbours[P("d3")]) == 8 and len(B.neighbours[P("a1")]) == 3
    assert B.rhombi4[(P("d3"), -1)] == tuple(sorted(P(x) for x in ("d2", "c3", "e3", "d4")))
    assert sorted(B.rhombi8[P("d3")]) == sorted(
        P(x) for x in ("d1", "c2", "e2", "b3", "f3", "c4", "e4", "d5"))
    assert len(B.rhombi4) == 20 and len(B.rhombi8) == 6
    assert V1.board == "corners only (42 points)" and V1.new_virus == "acts at once"


def test_setup_places_only_the_nuclei_and_yellow_plays_first():
    s = GAME.initial_state(V1)
    assert s.board[P("d2")] == NUCLEI[0] and s.board[P("d5")] == NUCLEI[1]
    assert sum(1 for x in s.board if x) == 2
    assert GAME.to_act(s) == (0,) and s.step == START
    assert reserve(s.board, 0) == reserve(s.board, 1) == C.CELLS_PER_PLAYER == 28


def test_options_turn_limit_is_checked():
    with pytest.raises(BadOptions):
        GAME.options_from_dict({"players": 2, "turn_limit": 1, "board": B.key})
    with pytest.raises(BadOptions):
        GAME.options_from_dict({"players": 3})


# -- apoptosis -------------------------------------------------------------------------------------
APO = """
.......
..v....
.......
.vyv...
.y.y.V.
.vyv.Y.
"""


def test_apoptosis_sacrifices_four_cells_in_a_rhombus_and_destroys_adjacent_enemy_cells():
    s = state_from_diagram(APO)
    assert Apoptosis(P("c2")) in GAME.legal_actions(s, 0)
    s2, ev = play(s, "apo c2")
    # the four Yellow cells and every Violet cell next to them are gone; c5 was two steps away
    assert diagram(s2.board) == ".......\n..v....\n.......\n.......\n.....V.\n.....Y."
    assert ev[0].sacrificed == tuple(sorted(P(x) for x in ("c1", "b2", "d2", "c3")))
    assert ev[0].destroyed == tuple(sorted(P(x) for x in ("b1", "d1", "b3", "d3")))
    assert reserve(s2.board, 0) == 28 and reserve(s2.board, 1) == 27
    assert s2.step == START and s2.seat == 0  # the main action is still to come


def test_apoptosis_spares_nucleus_and_virus():
    s = state_from_diagram("""
.......
.......
.......
.2y....
.yVy...
..yY...
""")
    s2, ev = play(s, "apo c2")
    assert s2.board[P("c2")] == NUCLEI[1] and s2.board[P("b3")] == VIRUSES[1]
    assert ev[0].destroyed == ()


def test_apoptosis_needs_four_cells_of_one_colour():
    s = state_from_diagram(APO.replace(".y.y.V.", ".y.v.V."))
    assert not any(isinstance(a, Apoptosis) for a in GAME.legal_actions(s, 0))
    with pytest.raises(IllegalAction):
        GAME.apply(s, 0, Apoptosis(P("c2")))


def test_apoptoses_happen_only_before_the_main_action_and_may_be_several():
    s = state_from_diagram("""
.......
.......
.y...y.
y.y.y.y
.y...y.
...Y..V
""")
    s2, _ = play(s, "apo b3", "apo f3")
    assert sum(1 for x in s2.board if x == CELLS[0]) == 0 and s2.step == START
    s3, _ = play(s, "spawn b3")
    assert s3.step == SPAWN
    assert not any(isinstance(a, Apoptosis) for a in GAME.legal_actions(s3, 0))


# -- spawning --------------------------------------------------------------------------------------
def test_spawn_one_cell_per_colony_adjacent_to_it():
    s = state_from_diagram("""
......V
.......
y......
.......
.......
...Y..y
""")
    assert len(colonies(s.board, 0)) == 3  # a4, g1 and the nucleus
    pts = {a.to for a in GAME.legal_actions(s, 0) if isinstance(a, Spawn)}
    assert P("a5") in pts and P("f2") in pts and P("d2") in pts
    assert P("c3") not in pts  # two steps from every colony
    s2, _ = play(s, "spawn a5")
    left = {a.to for a in GAME.legal_actions(s2, 0) if isinstance(a, Spawn)}
    assert P("b5") not in left and P("a3") not in left  # a4's colony has had its cell
    s3, _ = play(s2, "spawn f2", "spawn e1")
    assert s3.step == START and s3.seat == 1  # three colonies, three cells: the spawn ended
    assert sum(1 for x in s3.board if x == CELLS[0]) == 5


def test_spawn_may_stop_early_with_done():
    s = state_from_diagram("......V\n.......\ny......\n.......\n.......\n...Y..y")
    s2, _ = play(s, "spawn a5", "done")
    assert s2.seat == 1 and sum(1 for x in s2.board if x == CELLS[0]) == 3


def test_spawn_a_point_touching_two_colonies_counts_for_either():
    # b2 touches both the a1 colony and the c3 colony; after it, a point next to only one of
    # them is still fine (the other colony takes b2), a point next to neither is not
    s = state_from_diagram("......V\n.......\n.......\n..y....\n.......\ny.....Y")
    s2, _ = play(s, "spawn b2")
    pts = {a.to for a in GAME.legal_actions(s2, 0) if isinstance(a, Spawn)}
    assert P("a2") in pts and P("d4") in pts and P("f1") in pts


def test_spawn_cell_joining_two_colonies_merges_them():
    s = state_from_diagram("......V\n.......\n.......\n.......\n.......\ny.y...Y")
    assert len(colonies(s.board, 0)) == 3
    s2, _ = play(s, "spawn b1", "done")
    assert len(colonies(s2.board, 0)) == 2  # a1-b1-c1 and the nucleus


def test_spawn_needs_a_cell_in_reserve():
    rows = ["yyyyyyy", "yyyyyyy", "yyyyyyy", "yyyyyyy", "......V", ".....Y."]
    s = state_from_diagram("\n".join(rows))
    assert reserve(s.board, 0) == 0
    assert not any(isinstance(a, Spawn) for a in GAME.legal_actions(s, 0))


# -- bursting --------------------------------------------------------------------------------------
BURSTY = """
......V
.......
...v...
...y...
..yy...
Y......
"""


def test_burst_moves_each_cell_of_the_colony_once_along_a_line_jumping_over_pieces():
    s = state_from_diagram(BURSTY)
    s2, _ = play(s, "burst d3-d5")  # jumps over the Violet cell on d4
    assert s2.step == BURST and s2.board[P("d5")] == CELLS[0]
    acts = GAME.legal_actions(s2, 0)
    assert Burst(P("d3"), P("d4")) not in acts  # the cell has moved already (and d4 is taken)
    assert Burst(P("c2"), P("a4")) in acts and Burst(P("d2"), P("g5")) in acts
    s3, _ = play(s2, "burst c2-a4", "burst d2-g2")
    assert s3.seat == 1 and s3.step == START  # every cell moved: the burst ended


def test_burst_cannot_land_on_an_occupied_point_or_off_its_line():
    s = state_from_diagram(BURSTY)
    acts = GAME.legal_actions(s, 0)
    assert Burst(P("d3"), P("d4")) not in acts  # Violet cell
    assert Burst(P("c2"), P("d2")) not in acts  # own cell
    assert Burst(P("c2"), P("e3")) not in acts  # a knight's jump
    with pytest.raises(IllegalAction):
        GAME.apply(s, 0, Burst(P("c2"), P("e3")))


def test_burst_moves_only_cells_of_the_chosen_colony():
    s = state_from_diagram(BURSTY.replace("Y......", "Y.....y"))
    s2, _ = play(s, "burst c2-c1")
    acts = GAME.legal_actions(s2, 0)
    assert not any(isinstance(a, Burst) and a.src == P("g1") for a in acts)
    assert Done() in acts
    s3, _ = play(s2, "done")
    assert s3.seat == 1


# -- the virus -------------------------------------------------------------------------------------
RING = """
......V
...y...
..y.y..
.y...y.
..y.y..
...y.Y.
"""


def test_virus_generation_from_eight_cells_in_a_rhombus_with_a_free_centre():
    s = state_from_diagram(RING)
    assert Generate(P("d3")) in GAME.legal_actions(s, 0)
    s2, ev = play(s, "gen d3")
    assert s2.board[P("d3")] == VIRUSES[0] and s2.virus_uses[0] == 2
    assert sum(1 for x in s2.board if x == CELLS[0]) == 0 and len(ev[0].sacrificed) == 8
    # generation is not the main action: the same turn goes on, and the new virus may act
    assert s2.step == START and VirusShot(0) in GAME.legal_actions(s2, 0)
    assert Generate(P("d3")) not in GAME.legal_actions(s2, 0)  # once a turn


def test_virus_generation_needs_the_centre_free():
    s = state_from_diagram(RING.replace("y...y", "y.v.y"))
    assert not any(isinstance(a, Generate) for a in GAME.legal_actions(s, 0))


def test_virus_generation_nucleus_takes_part_and_is_not_sacrificed():
    s = state_from_diagram(RING.replace("...y.Y.", "...Y...").replace("......V", "V......"))
    s2, ev = play(s, "gen d3")
    assert s2.board[P("d1")] == NUCLEI[0] and len(ev[0].sacrificed) == 7


def test_virus_takes_part_in_its_own_generation():
    s = state_from_diagram(RING.replace(".y...y.", ".1...y."))
    s = s.__class__(**{**{f: getattr(s, f) for f in s.__struct_fields__}, "virus_uses": (1, 0)})
    s2, ev = play(s, "gen d3")
    assert s2.board[P("b3")] == 0 and s2.board[P("d3")] == VIRUSES[0]
    assert s2.virus_uses[0] == 2 and len(ev[0].sacrificed) == 7


def test_virus_move_one_point_uses_one_of_two_actions():
    s = state_from_diagram("......V\n.......\n.......\n...1...\n.......\n.....Y.")
    s2, _ = play(s, "virus d4")
    assert s2.board[P("d4")] == VIRUSES[0] and s2.virus_uses[0] == 1
    acts = GAME.legal_actions(s2, 1)
    assert not any(isinstance(a, (VirusMove, VirusShot)) for a in acts)  # Violet has no virus
    s3, _ = play(s2, "nucleus f6", "virus d5")  # one use a turn; the second one spends it
    assert VIRUSES[0] not in s3.board and s3.virus_uses[0] == 0
    with pytest.raises(IllegalAction):
        GAME.apply(s2, 0, VirusMove(P("d5")))  # not Yellow's turn


def test_virus_two_uses_one_per_turn():
    s = state_from_diagram("......V\n.......\n.......\n...1...\n.......\n.....Y.")
    s2, _ = play(s, "shoot w")  # the first use is the turn's main action: the turn is over
    assert s2.seat == 1 and s2.virus_uses[0] == 1
    assert not any(isinstance(a, (VirusMove, VirusShot)) for a in GAME.legal_actions(s2, 0))
    s3, _ = play(s2, "nucleus f6")
    s4, _ = play(s3, "virus d4")  # the second use, a turn later, spends it
    assert s4.seat == 1 and s4.virus_uses[0] == 0 and VIRUSES[0] not in s4.board
    s5, _ = play(s4, "nucleus e6")
    assert not any(isinstance(a, (VirusMove, VirusShot)) for a in GAME.legal_actions(s5, 0))
    with pytest.raises(IllegalAction):
        GAME.apply(s5, 0, VirusShot(0))  # no third use


def test_virus_move_goes_one_point_onto_a_free_neighbour():
    s = state_from_diagram("......V\n.......\n...y...\n...1...\n.......\n.....Y.")
    moves = {a.to for a in GAME.legal_actions(s, 0) if isinstance(a, VirusMove)}
    assert moves == set(B.neighbours[P("d3")]) - {P("d4")}  # d4 holds a cell
    for far in ("d5", "b3", "f5", "d1"):
        with pytest.raises(IllegalAction):
            GAME.apply(s, 0, VirusMove(P(far)))


def test_virus_shot_destroys_every_piece_on_the_ray_whatever_its_colour():
    s = state_from_diagram("""
...y..V
...v...
.......
...1...
...y...
..vy.Y.
""")
    s2, ev = play(s, "shoot n")
    assert [G.NAMES[p] for p in ev[0].destroyed] == ["d5", "d6"]
    assert s2.board[P("d2")] == CELLS[0] and s2.board[P("d3")] == VIRUSES[0]
    assert s2.virus_uses[0] == 1 and s2.step == START and s2.seat == 1
    s3, _ = play(s2, "nucleus f6", "shoot s")
    assert s3.board[P("d2")] == 0 and s3.board[P("d1")] == 0 and VIRUSES[0] not in s3.board


def test_virus_shot_destroys_the_other_virus():
    s = state_from_diagram("......V\n.......\n...2...\n.......\n...1...\n.....Y.")
    s2, _ = play(s, "shoot n")
    assert VIRUSES[1] not in s2.board and s2.virus_uses[1] == 0
    GAME.check_invariants(s2)


# -- the nucleus -----------------------------------------------------------------------------------
def test_nucleus_moves_one_intersection_onto_a_free_point():
    s = GAME.initial_state(V1)
    moves = {a.to for a in GAME.legal_actions(s, 0) if isinstance(a, NucleusMove)}
    assert moves == set(B.neighbours[P("d2")])
    s2, _ = play(s, "nucleus e3")
    assert s2.board[P("e3")] == NUCLEI[0] and s2.board[P("d2")] == 0
    with pytest.raises(IllegalAction):
        GAME.apply(s2, 1, NucleusMove(P("d3")))  # two steps from d5


def test_nucleus_kill_only_by_virus():
    # apoptosis and phagocytosis leave a nucleus alone; a virus shot kills it and ends the game
    s = state_from_diagram("""
.......
.......
...y...
..yVy..
...y...
.1....Y
""")
    s2, _ = play(s, "apo d3")
    assert s2.board[P("d3")] == NUCLEI[1] and not any(s2.dead)
    s3, ev = play(s2, "shoot ne")
    assert s3.dead == (False, True) and s3.step == OVER
    assert s3.board[P("d3")] == NUCLEI[1]  # the dead nucleus stays in place
    assert any(e.__class__.__name__ == "GameOver" for e in ev)


# -- phagocytosis ----------------------------------------------------------------------------------
def test_phagocytosis_on_the_orthogonal_axes():
    s = state_from_diagram("""
......V
.......
...y...
...v...
.......
..Y....
""")
    s2, ev = play(s, "spawn d2", "done")
    assert s2.board[P("d3")] == CELLS[0]
    assert any(isinstance(e, Phagocytosis) and e.turned == (P("d3"),) for e in ev)
    s = state_from_diagram("......V\n.......\n.......\n..yv.y.\n.......\nY......")
    s2, _ = play(s, "spawn e3", "done")
    assert s2.board[P("d3")] == CELLS[0]


def test_phagocytosis_on_the_diagonal_axes():
    s = state_from_diagram("""
......V
.......
....y..
...v...
.......
.Y.....
""")
    s2, ev = play(s, "spawn c2", "done")
    assert s2.board[P("d3")] == CELLS[0]
    s = state_from_diagram("......V\n.......\n..y....\n...v...\n.......\n.....Y.")
    s2, _ = play(s, "spawn e2", "done")
    assert s2.board[P("d3")] == CELLS[0]


def test_phagocytosis_needs_enemy_cells_not_the_edge_a_nucleus_or_a_virus():
    # a2 lies between the Yellow nucleus a1 and the Yellow cell a3, and against the edge
    s = state_from_diagram("......V\n.......\n.......\ny......\nv......\nY......")
    s2, _ = play(s, "spawn b4", "done")
    assert s2.board[P("a2")] == CELLS[1]
    # d3 lies between the Yellow virus d4 and a Yellow cell spawned on d2
    s = state_from_diagram("......V\n.......\n...1...\n...v...\n.......\n....Y..")
    s2, _ = play(s, "spawn d2")
    assert s2.board[P("d2")] == CELLS[0] and s2.board[P("d3")] == CELLS[1]


def test_phagocytosis_turns_all_flanked_cells_together_once():
    s = state_from_diagram("""
......V
.......
...y.y.
...v.v.
.......
Y.y...y
""")
    s2, ev = play(s, "spawn d2", "spawn f2", "done")
    assert s2.board[P("d3")] == CELLS[0] and s2.board[P("f3")] == CELLS[0]
    ph = [e for e in ev if isinstance(e, Phagocytosis)]
    assert len(ph) == 1 and set(ph[0].turned) == {P("d3"), P("f3")}
    # no chain in the same turn: d4 would be flanked by d5 and d3 only once d3 has turned
    s = state_from_diagram("......V\n...y...\n...vy..\n..yv...\n.......\n....Y..")
    s2, ev = play(s, "spawn e3", "done")
    ph = [e for e in ev if isinstance(e, Phagocytosis)]
    assert len(ph) == 1 and ph[0].turned == (P("d3"),)
    assert s2.board[P("d4")] == CELLS[1]
    s3, ev3 = play(s2, "nucleus f5")  # at the end of the next turn it turns
    assert s3.board[P("d4")] == CELLS[0]


def test_phagocytosis_removes_the_cell_when_the_new_owner_has_none_left():
    s = state_from_diagram("""
yyyyyyy
yyyyyyy
yyyyyyy
yyyyyy.
...v..V
Y.....y
""")
    assert reserve(s.board, 0) == 0
    s2, ev = play(s, "burst g1-d1")
    ph = [e for e in ev if isinstance(e, Phagocytosis)]
    assert ph[0].turned == () and ph[0].removed == (P("d2"),)
    assert s2.board[P("d2")] == 0 and reserve(s2.board, 1) == 28


# -- the end ---------------------------------------------------------------------------------------
def test_game_end_when_a_nucleus_is_destroyed_and_a_dead_nucleus_can_still_win():
    s = state_from_diagram("""
......V
.......
.......
yyyyyyy
...Y..2
.......
""", seat=1)
    s2, ev = play(s, "shoot w")  # f2-e2-d2...: the Yellow nucleus dies, the wall stays
    assert s2.dead == (True, False) and s2.step == OVER and GAME.to_act(s2) == ()
    assert territory(s2.board, 0) == 48 and territory(s2.board, 1) == 0
    out = GAME.outcome(s2)
    assert out.winners == (0,) and out.termination == "nucleus destroyed"
    assert out.scores == (48.0, 0.0)
    assert not GAME.legal_actions(s2, 0) and not GAME.legal_actions(s2, 1)


def test_game_end_both_nuclei_die_in_one_shot_scored_by_territory():
    s = state_from_diagram("""
...V...
.......
...1...
.......
...Y...
.......
""")
    s2, ev = play(s, "shoot n")
    assert s2.dead == (False, True)
    s = state_from_diagram("""
...V...
.......
...2...
.......
...Y...
.......
""", seat=1)
    s2, _ = play(s, "shoot n")
    assert s2.dead == (False, True) and s2.step == OVER
    s = state_from_diagram("...V...\n.......\n.......\n.......\n...Y...\n...2...", seat=1)
    s2, _ = play(s, "shoot n")
    assert s2.dead == (True, True) and s2.step == OVER
    out = GAME.outcome(s2)
    assert out.winners == (0, 1) and "equal territories" in out.termination


def test_game_end_at_the_turn_limit_is_scored_by_territory():
    s = state_from_diagram("......V\n.......\n.......\nyyyyyyy\n...Y...\n.......", turn=9,
                           turn_limit=10)
    s2, _ = play(s, "nucleus c1")
    assert s2.step == OVER and GAME.outcome(s2).winners == (0,)
    assert GAME.outcome(s2).termination == "turn limit"


def test_pass_only_when_no_main_action_exists():
    assert Pass() not in GAME.legal_actions(GAME.initial_state(V1), 0)
    full = ["yyyyyyy", "yyyyyyy", "yyyyyyy", "yyyyyyy", "vvvvvvv", "vvvvYVv"]
    s = state_from_diagram("\n".join(full))
    # no cell in reserve, no empty point: no spawn, burst or move; apoptoses are still open
    acts = GAME.legal_actions(s, 0)
    assert Pass() in acts and all(isinstance(a, (Apoptosis, Pass)) for a in acts)
    assert any(isinstance(a, Apoptosis) for a in acts)
    s2, ev = play(s, "pass")
    assert s2.seat == 1 and s2.turn == 1


# -- territory -------------------------------------------------------------------------------------
def T(text: str) -> tuple[int, int]:
    s = state_from_diagram(text)
    return territory(s.board, 0), territory(s.board, 1)


def test_territory_closed_by_a_line_and_the_board_edge():
    assert T("...V...\n.......\n.......\nyyyyyyy\n...Y...\n.......") == (48, 0)


def test_territory_counts_half_squares_behind_a_diagonal_wall():
    # a3-b2-c1 cuts the corner: square a1 whole (4), half of b1's and of a2's squares (2 + 2)
    assert T("......V\n.......\n.......\ny......\n.y.....\nY.y....") == (8, 0)


def test_territory_smallest_corner():
    assert T("......V\n.......\n.......\n.......\nyy.....\nYy.....") == (2, 0)


def test_territory_is_zero_when_both_nuclei_are_inside():
    assert T("......V\n.......\n.......\n.......\n.......\nY......") == (0, 0)
    assert T(".......\n.......\n.......\nyyyyyyy\n...Y...\n..V....") == (0, 0)


def test_territory_is_zero_without_a_closing_line():
    assert T("......V\n.......\n.......\nyyy.yyy\n...Y...\n.......") == (0, 0)


def test_territories_overlap():
    # Violet's cells b1, b2, a2 close the corner square: its territory is the rest of the board
    # (116: the Yellow nucleus's two triangles and the two walled in beside them are out).
    # Yellow's wall a3-b3-c3-d2-d1 closes five squares and a half (22), 18 of them Violet's too.
    s = state_from_diagram("""
......V
.......
.......
yyy....
vv.y...
Yv.y...
""")
    from cellwars_tui.games.cellulis_bellum.rules import territory_triangles

    a, b = territory_triangles(s.board, 0), territory_triangles(s.board, 1)
    assert (len(a), len(b)) == (22, 116)
    assert len(a & b) == 18


# -- notation --------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["apo d3", "gen c4", "spawn a1", "burst c2-c5", "done",
                                  "virus g6", "shoot nw", "nucleus d2", "pass"])
def test_notation_round_trips(text):
    assert GAME.action_to_str(GAME.action_from_str(text)) == text


@pytest.mark.parametrize("text", ["", "spawn", "spawn z9", "burst c2c5", "shoot up", "dance a1"])
def test_bad_notation_is_refused(text):
    with pytest.raises(BadNotation):
        GAME.action_from_str(text)


def test_legal_action_counts_on_known_positions():
    # the opening: a cell on any of the nucleus's 8 neighbours, or a nucleus step to one of them
    s = GAME.initial_state(V1)
    acts = GAME.legal_actions(s, 0)
    assert len(acts) == 16
    assert sum(isinstance(a, Spawn) for a in acts) == 8
    # a lone cell in the corner slides 5 up, 6 along and 5 along the long diagonal
    s = state_from_diagram("......V\n.......\n.......\n.......\n.......\ny....Y.")
    bursts = [a for a in GAME.legal_actions(s, 0) if isinstance(a, Burst)]
    assert len(bursts) == 16 - 1  # f1 holds the nucleus
    # a virus in the middle: 8 moves and 8 shots
    s = state_from_diagram("......V\n.......\n...1...\n.......\n.......\n.....Y.")
    acts = GAME.legal_actions(s, 0)
    assert sum(isinstance(a, VirusMove) for a in acts) == 8
    assert sum(isinstance(a, VirusShot) for a in acts) == 8
    # a virus in a corner can only fire along the three rays that leave it
    s = state_from_diagram("1.....V\n.......\n.......\n.......\n.......\n.....Y.")
    assert sum(isinstance(a, VirusShot) for a in GAME.legal_actions(s, 0)) == 3
