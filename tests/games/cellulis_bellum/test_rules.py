"""Cellulis Bellum on the 72-point board: one test per rule clause of the seed, on hand-made
positions. Each test names the seed's words it checks; the board's own shapes (neighbours, rays,
rhombi, triangles) are in test_geometry.py, the first rules (42 corners) in test_rules_corners.py.

``pos("Y d2", "y c3 cd34")`` builds a position: each argument is a piece letter (``y``/``v``
Yellow/Violet cell, ``Y``/``V`` nucleus, ``1``/``2`` Yellow/Violet virus) and the points it
stands on. A position without a nucleus of a player gets it on its starting point.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cellwars_tui.core import IllegalAction
from cellwars_tui.core.errors import BadNotation, BadOptions
from cellwars_tui.games.cellulis_bellum import clarifications as C
from cellwars_tui.games.cellulis_bellum import geometry as G
from cellwars_tui.games.cellulis_bellum.rules import (
    BURST, CELLS, EMPTY, GAME, NUCLEI, OVER, SPAWN, START, VIRUSES, Apoptosis, Burst,
    CellulisBellumOptions, Generate, NucleusMove, Pass, Phagocytosis, Spawn, VirusMove,
    VirusShot, colonies, diagram, reserve, territory)

from .helpers import P, play, pos


def on(s, name: str) -> int:
    return s.board[P(name)]


def legal(s, kind=None) -> set[str]:
    return {GAME.action_to_str(a) for a in GAME.legal_actions(s, s.seat)
            if kind is None or isinstance(a, kind)}


# -- options: the board, old records, bad input ---------------------------------------------------
def test_a_new_game_is_on_the_72_point_board():
    opts = CellulisBellumOptions()
    assert (opts.board, opts.new_virus, opts.virus_rhombi) == (
        "72 points", "acts at once", "around corners and centres (32)")
    s = GAME.initial_state(opts)
    assert len(s.board) == 72 and not s.virus_waits and s.centre_rhombi
    assert GAME.options_from_dict({"players": 2}) == opts


def test_the_first_rules_stay_as_options_that_records_of_version_1_get():
    assert GAME.rules_version == 3
    old = GAME.options_from_record({"players": 2, "turn_limit": 30}, 1)
    assert (old.board, old.new_virus, old.turn_limit) == (
        "corners only (42 points)", "acts at once", 30)
    assert GAME.options_from_record({"players": 2}, 1).turn_limit == 80
    assert len(GAME.initial_state(old).board) == 42
    v2 = GAME.options_from_record({"players": 2, "turn_limit": 30}, 2)
    assert v2.board == "72 points" and v2.new_virus == "acts at once"
    assert v2.virus_rhombi == "around corners only (20)"
    assert not GAME.initial_state(v2).centre_rhombi
    now = GAME.options_from_record({"players": 2, "turn_limit": 30}, 3)
    assert now.virus_rhombi == "around corners and centres (32)"


def test_an_unknown_board_is_a_one_line_error():
    with pytest.raises(BadOptions) as err:
        GAME.options_from_record({"players": 2, "board": "hexagons"}, 2)
    text = str(err.value)
    assert "\n" not in text and "'hexagons'" in text and "'72 points'" in text
    with pytest.raises(BadOptions):
        GAME.options_from_dict({"players": 2, "new_virus": "whenever"})
    with pytest.raises(BadOptions):
        GAME.options_from_dict({"players": 2, "turn_limit": 1})
    with pytest.raises(BadOptions):
        GAME.options_from_dict({"players": 2, "virus_rhombi": "everywhere"})


# -- "Deux fois 30 pions": 28 cells, a virus and a nucleus each ---------------------------------
def test_each_player_has_28_cells_one_virus_and_one_nucleus():
    s = GAME.initial_state(CellulisBellumOptions())
    assert reserve(s.board, 0) == reserve(s.board, 1) == C.CELLS_PER_PLAYER == 28
    assert s.board.count(NUCLEI[0]) == s.board.count(NUCLEI[1]) == 1
    assert C.VIRUS_USES == 2 and s.virus_uses == (0, 0)


# -- "Placer les Noyaux comme ci-dessus", "Les Joueurs jouent chacun leur tour" -----------------
def test_setup_places_the_nuclei_mirrored_and_yellow_begins():
    s = GAME.initial_state(CellulisBellumOptions())
    assert on(s, "d2") == NUCLEI[0] and on(s, "d5") == NUCLEI[1]
    assert sum(1 for x in s.board if x) == 2
    assert GAME.to_act(s) == (0,) and s.step == START
    s, _ = play(s, "spawn d3")  # one colony (the nucleus): one cell, and the turn is over
    assert GAME.to_act(s) == (1,)


# -- "Colonie": cells joined along a line; "Le Noyau est considéré comme une colonie" -----------
def test_colonies_join_cells_that_are_neighbours_along_a_line():
    s = pos("y b2 c3 e2 e3")
    cols = colonies(s.board, 0)
    # b2 and c3 are on one diagonal, but the square's centre bc23 lies between them
    assert sorted(len(c) for c in cols) == [1, 1, 1, 2]  # b2, c3, e2-e3, and the nucleus
    s = pos("y b2 bc23 c3 e2 e3")
    assert sorted(len(c) for c in colonies(s.board, 0)) == [1, 2, 3]
    # the nucleus is a colony of its own, even next to cells; the virus is none
    s = pos("y d3 cd23", "1 c2")
    assert sorted(colonies(s.board, 0)) == sorted([(P("d3"), P("cd23")), (P("d2"),)])


# -- "Apoptose": four cells forming a rhombus, enemy cells adjacent destroyed --------------------
APO = ("y d2 d3 cd23 de23", "v c2 e3 c1 f3 de34", "Y a1")


def test_apoptosis_sacrifices_a_rhombus_of_four_and_destroys_adjacent_enemy_cells():
    s = pos(*APO)
    assert "apo d2-d3" in legal(s, Apoptosis)
    s2, ev = play(s, "apo d2-d3")
    assert all(on(s2, n) == EMPTY for n in ("d2", "d3", "cd23", "de23"))
    # next to one of the four: c2 (cd23), e3 and de34 (d3); c1 and f3 are not next to any
    assert {G.NAMES[p] for p in ev[0].destroyed} == {"c2", "e3", "de34"}
    assert on(s2, "c1") == on(s2, "f3") == CELLS[1]
    assert reserve(s2.board, 0) == 28 and reserve(s2.board, 1) == 26  # all reusable
    assert s2.step == START and s2.seat == 0  # the main action is still to come


def test_apoptosis_needs_all_four_points_of_one_colour_in_a_rhombus():
    s = pos("y d2 d3 cd23 de34", "Y a1")  # de34 is not beside the side d2-d3
    assert not legal(s, Apoptosis)
    s = pos("y d2 d3 cd23", "v de23", "Y a1")
    assert not legal(s, Apoptosis)
    with pytest.raises(IllegalAction):
        GAME.apply(s, 0, Apoptosis(P("d2"), P("d3")))


def test_apoptosis_never_harms_a_nucleus_or_a_virus():
    s = pos("y d2 d3 cd23 de23", "V c2", "2 e3", "Y a1")
    s2, ev = play(s, "apo d2-d3")
    assert on(s2, "c2") == NUCLEI[1] and on(s2, "e3") == VIRUSES[1] and ev[0].destroyed == ()


def test_apoptoses_only_at_the_start_of_the_turn_and_as_many_as_wanted():
    s = pos("y b2 b3 ab23 bc23 f2 f3 ef23 fg23", "Y d1")
    assert legal(s, Apoptosis) == {"apo b2-b3", "apo f2-f3"}
    s2, _ = play(s, "apo b2-b3", "apo f2-f3")
    assert CELLS[0] not in s2.board and s2.step == START and s2.seat == 0
    s3, _ = play(s, "spawn d2")  # the main action has begun: no apoptosis until next turn
    assert s3.step == SPAWN and not legal(s3, Apoptosis)


# -- "une seule des quatre actions" ---------------------------------------------------------------
def test_one_main_action_a_turn():
    s = pos("y c3", "1 f4", "Y d2")
    s2, _ = play(s, "nucleus e2")
    assert s2.seat == 1  # the nucleus moved: nothing else this turn
    s3, _ = play(s, "shoot n")
    assert s3.seat == 1
    s4, _ = play(s, "burst c3-c5")
    assert s4.seat == 1  # the burst of a one-cell colony ends at once


# -- "Apparition de cellules": one per colony, next to it; joining colonies ---------------------
def test_spawn_one_cell_per_colony_next_to_it():
    s = pos("y a4 g1", "Y d2")
    assert len(colonies(s.board, 0)) == 3
    pts = legal(s, Spawn)
    assert {"spawn a5", "spawn ab45", "spawn fg12", "spawn d3", "spawn cd12"} <= pts
    assert "spawn c3" not in pts and "spawn b3" not in pts  # next to no colony
    s2, _ = play(s, "spawn a5")
    left = legal(s2, Spawn)
    assert "spawn a3" not in left and "spawn ab34" not in left  # a4's colony had its cell
    assert "spawn a6" not in left  # next to the new cell only
    s3, _ = play(s2, "spawn f1", "spawn d3")
    assert s3.seat == 1 and s3.step == START  # three colonies, three cells: over


def test_spawn_may_stop_early_and_needs_a_cell_in_reserve():
    s = pos("y a4 g1", "Y d2")
    s2, _ = play(s, "spawn a5", "done")
    assert s2.seat == 1 and reserve(s2.board, 0) == 25
    full = pos("y " + " ".join(G.NAMES[p] for p in range(28)), "Y d6", "V g6")
    assert reserve(full.board, 0) == 0 and not legal(full, Spawn)


def test_a_new_cell_joining_two_colonies_makes_them_one():
    s = pos("y b2 c3", "Y f1")
    assert len(colonies(s.board, 0)) == 3
    s2, _ = play(s, "spawn bc23", "done")
    assert len(colonies(s2.board, 0)) == 2


def test_a_point_next_to_two_colonies_serves_either():
    # b1 touches both the a1 and the c1 colony; after it, a point next to only one of them is
    # still open (the other colony takes b1), a point next to neither is not
    s = pos("y a1 c1", "Y g6", "V g1")
    s2, _ = play(s, "spawn b1")
    left = legal(s2, Spawn)
    assert {"spawn a2", "spawn cd12", "spawn f6"} <= left and "spawn d3" not in left


# -- "Eclatement d'une colonie": each cell along a line, jumping, onto a free point --------------
BURSTY = ("y c2 d2 d3 cd23", "v d4", "Y a1", "V g6")


def test_burst_each_cell_of_the_colony_once_along_a_line_jumping_over_pieces():
    s = pos(*BURSTY)
    s2, _ = play(s, "burst d3-d5")  # over the Violet cell on d4
    assert s2.step == BURST and on(s2, "d5") == CELLS[0]
    moves = legal(s2, Burst)
    assert not any(m.startswith("burst d3-") for m in moves)  # d3 has moved (and is empty)
    assert "burst c2-a4" in moves and "burst cd23-fg56" in moves
    s3, _ = play(s2, "burst c2-c6", "burst d2-g2", "burst cd23-b1")
    assert s3.seat == 1  # every cell moved: the burst is over


def test_done_says_in_the_log_what_it_ended():
    """Issue 29: the log read "Yellow: done" (a step without an event, so the table showed its
    notation): done ends the spawn or the burst early, and the log says which."""
    names = ["Ann", "Bob"]
    _, events = play(pos("y a4 g1", "Y d2"), "spawn a5", "done")
    assert "Ann ends the spawn there (1 new cell)." in [GAME.describe_event(e, names)
                                                         for e in events]
    _, events = play(pos(*BURSTY), "burst d3-d5", "done")
    assert "Ann ends the burst there (3 cells of the colony did not move)." in [
        GAME.describe_event(e, names) for e in events]


def test_a_centre_cell_bursts_along_the_diagonals_only():
    s = pos("y cd34", "Y g1", "V g6")
    dests = {m.split("-")[1] for m in legal(s, Burst)}
    assert dests == {G.NAMES[q] for d in G.DIAGONAL for q in G.FULL.rays[P("cd34")][d]}
    assert {"a6", "ab56", "a1", "f1", "f6"} <= dests
    assert "c5" not in dests and "a4" not in dests


def test_burst_never_lands_on_an_occupied_point_or_off_the_lines():
    s = pos(*BURSTY)
    moves = legal(s, Burst)
    assert "burst d3-d4" not in moves and "burst c2-d2" not in moves
    assert "burst c2-d4" not in moves  # a knight's jump is on no line
    with pytest.raises(IllegalAction):
        GAME.apply(s, 0, Burst(P("c2"), P("d4")))


def test_burst_moves_only_cells_of_the_chosen_colony():
    s = pos(*BURSTY, "y g1")
    s2, _ = play(s, "burst c2-c1")
    assert not any(m.startswith("burst g1-") for m in legal(s2, Burst))
    s3, _ = play(s2, "done")
    assert s3.seat == 1


# -- "Déplacement du Noyau": one intersection at a time ----------------------------------------
def test_the_nucleus_moves_one_intersection_to_a_free_point():
    s = GAME.initial_state(CellulisBellumOptions())
    moves = {a.to for a in GAME.legal_actions(s, 0) if isinstance(a, NucleusMove)}
    assert moves == set(G.FULL.neighbours[P("d2")])
    s2, _ = play(s, "nucleus de23")  # onto a square's centre, along a diagonal
    assert on(s2, "de23") == NUCLEI[0]
    s3, _ = play(s2, "nucleus d4", "nucleus e3")
    assert on(s3, "e3") == NUCLEI[0]
    with pytest.raises(IllegalAction):
        GAME.apply(s3, 1, NucleusMove(P("d2")))  # not next to d4


# -- "Génération": eight cells in a rhombus, a free centre, the nucleus may help ---------------
RING = "y c3 cd23 cd34 d2 d4 de23 de34 e3"


def test_virus_generation_from_eight_cells_in_a_rhombus_with_a_free_centre():
    s = pos(RING, "Y a1")
    assert legal(s, Generate) == {"gen d3"}
    s2, ev = play(s, "gen d3")
    assert on(s2, "d3") == VIRUSES[0] and s2.virus_uses[0] == 2
    assert CELLS[0] not in s2.board and len(ev[0].sacrificed) == 8
    assert s2.step == START and s2.seat == 0 and not legal(s2, Generate)  # once a turn


def test_virus_generation_needs_the_centre_free():
    s = pos(RING, "v d3", "Y a1")
    assert not legal(s, Generate)


def test_the_nucleus_helps_make_the_virus_and_is_not_sacrificed():
    s = pos(RING.replace(" d2 ", " "), "Y d2")
    s2, ev = play(s, "gen d3")
    assert on(s2, "d2") == NUCLEI[0] and len(ev[0].sacrificed) == 7


def test_the_virus_takes_part_in_its_own_generation():
    s = pos(RING.replace(" e3", ""), "1 e3", "Y a1")
    s2, ev = play(s, "gen d3")
    assert on(s2, "e3") == EMPTY and on(s2, "d3") == VIRUSES[0]
    assert s2.virus_uses[0] == 2 and len(ev[0].sacrificed) == 7
    s = pos("y a1 a2 b1", "1 g6", RING.replace("y", "y a6"), "Y f1")
    assert not legal(s, Generate)  # with a virus elsewhere, only a ring holding it will do


def test_a_new_virus_may_act_in_the_turn_it_is_made():
    s = pos(RING, "Y a1", "V g6")
    s2, _ = play(s, "gen d3")
    assert "shoot n" in legal(s2, VirusShot) and legal(s2, VirusMove)
    s3, _ = play(s2, "shoot n")  # its first use is the turn's main action
    assert s3.seat == 1 and s3.virus_uses[0] == 1


def test_the_option_acts_next_turn_makes_a_new_virus_wait_for_its_owners_next_turn():
    s = pos(RING, "Y a1", "V g6", waits=True)
    s2, _ = play(s, "gen d3")
    assert not legal(s2, VirusShot) and not legal(s2, VirusMove)
    s3, _ = play(s2, "nucleus a2", "nucleus f6")
    assert "shoot n" in legal(s3, VirusShot) and legal(s3, VirusMove)
    opts = GAME.options_from_dict({"players": 2, "new_virus": "acts next turn"})
    assert GAME.initial_state(opts).virus_waits


# -- "Utilisation": two uses, one a turn; a step, or a shot that destroys every piece -----------
def test_the_virus_moves_one_step_and_has_two_uses_one_a_turn():
    s = pos("1 d3", "y d4", "Y a1", "V g6")
    moves = {a.to for a in GAME.legal_actions(s, 0) if isinstance(a, VirusMove)}
    assert moves == set(G.FULL.neighbours[P("d3")]) - {P("d4")}
    s2, _ = play(s, "virus cd34")
    assert on(s2, "cd34") == VIRUSES[0] and s2.virus_uses[0] == 1 and s2.seat == 1
    s3, _ = play(s2, "nucleus f6", "virus c4")  # the second use spends it
    assert VIRUSES[0] not in s3.board and s3.virus_uses[0] == 0
    s4, _ = play(s3, "nucleus e6")
    assert not legal(s4, VirusShot) and not legal(s4, VirusMove)


def test_a_shot_destroys_every_piece_on_the_ray_whatever_its_colour():
    s = pos("1 d3", "y d4 e3 g3", "v d6 f3", "2 cd23", "Y a1", "V g6")
    s2, ev = play(s, "shoot e")
    assert [G.NAMES[p] for p in ev[0].destroyed] == ["e3", "f3", "g3"]
    assert on(s2, "d4") == CELLS[0] and s2.virus_uses[0] == 1 and s2.seat == 1
    s3, _ = play(s2, "nucleus f6", "shoot sw")  # the diagonal: through the Violet virus
    assert on(s3, "cd23") == EMPTY and s3.virus_uses[1] == 0 and VIRUSES[0] not in s3.board


def test_a_virus_on_a_centre_fires_along_the_diagonals_only():
    s = pos("1 cd34", "Y a1", "V g6")
    assert legal(s, VirusShot) == {"shoot ne", "shoot se", "shoot sw", "shoot nw"}


# -- "Seul le Virus peut détruire le Noyau", "La partie prend fin" ------------------------------
def test_only_a_virus_destroys_a_nucleus_and_that_ends_the_game():
    # an apoptosis beside Violet's nucleus and a phagocytosis around it leave it alone
    s = pos("y c2 c3 bc23 cd23 d2 d4", "V d3", "1 a6", "Y g1")
    s2, ev = play(s, "apo c2-c3", "nucleus f1")
    assert on(s2, "d3") == NUCLEI[1] and not any(s2.dead) and s2.step == START
    assert on(s2, "d2") == on(s2, "d4") == CELLS[0]  # d3 between them: a nucleus, not a cell
    # the virus's shot does, and the game is over
    s3, ev = play(s, "apo c2-c3", "shoot se")  # a6, ab56, b5, bc45, c4, cd34, d3
    assert s3.dead == (False, True) and s3.step == OVER and GAME.to_act(s3) == ()
    assert on(s3, "d3") == NUCLEI[1]  # "les noyaux restent en place"


def test_the_player_whose_nucleus_is_destroyed_can_still_win_on_territory():
    s = pos("y a5 b5 c5 d5 e5 f5 g5", "Y d3", "V b6", "2 a3", seat=1)
    s2, _ = play(s, "shoot e")  # along rank 3, through Yellow's nucleus; the wall stands
    assert s2.dead == (True, False) and s2.step == OVER
    assert GAME.outcome(s2).winners == (0,) and territory(s2.board, 0) == 4 * 6 * 4
    # a shot destroys wall cells too: through d4, Yellow's wall opens to Violet's nucleus
    s = pos("y a4 b4 c4 d4 e4 f4 g4", "Y d2", "V b6", "2 d6", seat=1)
    s2, _ = play(s, "shoot s")
    assert s2.dead == (True, False) and on(s2, "d4") == EMPTY
    out = GAME.outcome(s2)
    assert out.winners == (0, 1) and out.scores == (0.0, 0.0)


def test_a_player_may_fire_through_their_own_nucleus():
    s = pos("y a5 b5 c5 d5 e5 f5 g5", "Y d3", "1 b3", "V b6")
    s2, ev = play(s, "shoot e")
    assert s2.dead == (True, False) and GAME.outcome(s2).winners == (0,)


def test_both_nuclei_in_one_shot_and_the_end_is_scored_by_territory():
    s = pos("1 d1", "Y d3", "V d5")
    s2, _ = play(s, "shoot n")
    assert s2.dead == (True, True) and s2.step == OVER
    out = GAME.outcome(s2)
    assert out.winners == (0, 1) and "equal territories" in out.termination


def test_the_safety_turn_limit_ends_a_game_scored_by_territory():
    s = pos("y a4 b4 c4 d4 e4 f4 g4", turn=9, limit=10)
    s2, _ = play(s, "nucleus c2")
    assert s2.step == OVER and GAME.outcome(s2).winners == (0,)
    assert GAME.outcome(s2).termination == "turn limit"
    assert C.TURN_LIMIT_DEFAULT == CellulisBellumOptions().turn_limit == 200


# -- "Phagocytose": flanked on an axis by enemy cells -------------------------------------------
def test_phagocytosis_along_a_grid_line():
    s = pos("y d4", "v d3", "Y d1", "V g6")
    s2, ev = play(s, "spawn d2", "done")
    assert on(s2, "d3") == CELLS[0]
    assert any(isinstance(e, Phagocytosis) and e.turned == (P("d3"),) for e in ev)


def test_phagocytosis_along_a_diagonal_a_corner_between_two_centres():
    s = pos("y cd34", "v d3", "Y e2", "V g6")
    s2, _ = play(s, "spawn de23", "done")
    assert on(s2, "d3") == CELLS[0]


def test_phagocytosis_along_a_diagonal_a_centre_between_two_corners():
    s = pos("y d4", "v cd34", "Y b1", "V g6")
    s2, _ = play(s, "nucleus b2")
    assert on(s2, "cd34") == CELLS[1]
    s3, _ = play(pos("y d4 c2", "v cd34", "Y b1", "V g6"), "spawn c3", "done")
    assert on(s3, "cd34") == CELLS[0]  # c3 and d4: the square's other diagonal


def test_phagocytosis_needs_two_enemy_cells_not_an_edge_nucleus_or_virus():
    s = pos("v a2", "y a3", "Y a1", "V g6")
    s2, _ = play(s, "spawn a4", "done")
    assert on(s2, "a2") == CELLS[1]  # between Yellow's nucleus and a Yellow cell, on the edge
    s = pos("v d3", "1 d4", "Y d1", "V g6")
    s2, _ = play(s, "spawn d2")
    assert on(s2, "d3") == CELLS[1]  # between Yellow's virus and a Yellow cell


def test_phagocytosis_turns_every_flanked_cell_together_once():
    s = pos("y d4 f4", "v d3 f3", "y c2 g2", "Y a1", "V a6")
    s2, ev = play(s, "spawn d2", "spawn f2", "done")
    ph = [e for e in ev if isinstance(e, Phagocytosis)]
    assert len(ph) == 1 and set(ph[0].turned) == {P("d3"), P("f3")}
    # no chain in the same turn: d4 would be flanked by d5 and d3 once d3 has turned
    s = pos("y d5 e3", "v d4 d3", "y c3", "Y a1", "V a6")
    s2, ev = play(s, "spawn f3", "done") if "spawn f3" in legal(s) else play(s, "spawn e4", "done")
    assert on(s2, "d4") == CELLS[1]


def test_phagocytosis_removes_the_cell_when_the_new_owner_has_none_left():
    filler = [G.NAMES[G.centre(G.square(f, r))] for f in range(6) for r in range(1, 5)]
    s = pos("y b1 d4 a6 b6 " + " ".join(filler), "v c1", "Y g1", "V g6")
    assert reserve(s.board, 0) == 0
    s2, ev = play(s, "burst d4-d1", "done")  # c1 is now between b1 and d1
    ph = [e for e in ev if isinstance(e, Phagocytosis)]
    assert ph[0].turned == () and ph[0].removed == (P("c1"),)
    assert on(s2, "c1") == EMPTY and reserve(s2.board, 1) == 28


# -- "s'il en a la possibilité" --------------------------------------------------------------
def test_pass_only_when_no_main_action_is_open():
    assert Pass() not in GAME.legal_actions(GAME.initial_state(CellulisBellumOptions()), 0)
    s = pos("v a2 ab12 b1", "Y a1", "V g6")  # no cell, no virus, the nucleus shut in
    assert GAME.legal_actions(s, 0) == [Pass()]
    s2, _ = play(s, "pass")
    assert s2.seat == 1 and s2.turn == 1


# -- notation ------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["apo d2-d3", "apo d3", "gen c4", "spawn cd34", "spawn a1",
                                  "burst c2-c5", "burst ab12-c3", "done", "virus fg56",
                                  "shoot nw", "nucleus d2", "pass"])
def test_notation_round_trips(text):
    assert GAME.action_to_str(GAME.action_from_str(text)) == text


@pytest.mark.parametrize("text", ["", "spawn", "spawn z9", "spawn ab13", "burst c2c5",
                                  "shoot up", "apo d2-", "dance a1"])
def test_bad_notation_is_refused(text):
    with pytest.raises(BadNotation):
        GAME.action_from_str(text)


def test_a_lesson_refusal_says_what_a_move_does_in_words():
    words = {t: GAME.action_words(None, GAME.action_from_str(t))
             for t in ("nucleus d3", "shoot ne", "spawn c2")}
    assert words == {"nucleus d3": "nucleus d3 (your nucleus steps to d3)",
                     "shoot ne": "shoot ne (your virus fires north-east)", "spawn c2": "spawn c2"}


def test_an_old_apoptosis_decodes_with_its_centre():
    a = GAME.decode_action(b'{"kind":"apo","centre":17}')
    assert a == Apoptosis(17) and a.key == (17, -1)
    assert GAME.decode_action(GAME.encode_action(Apoptosis(9, 16))) == Apoptosis(9, 16)


# -- the rules page -------------------------------------------------------------------------------
def test_the_rules_page_quotes_the_seed_passage_of_every_clarification():
    text = Path(GAME_FILE).with_name("rules.md").read_text(encoding="utf-8")
    assert "## Clarifications" in text
    clar = text.split("## Clarifications", 1)[1]
    for quote, decision in C.CLARIFICATIONS:
        assert f'"{quote}"' in clar and decision in clar


GAME_FILE = __import__("cellwars_tui.games.cellulis_bellum.rules", fromlist=["x"]).__file__


def test_diagram_round_trips_on_both_boards():
    from cellwars_tui.games.cellulis_bellum.rules import board_from_diagram

    s = pos(RING, "v a6 fg56", "2 ab12", "Y g1")
    text = diagram(s.board)
    assert board_from_diagram(text) == s.board
    lines = text.splitlines()
    assert len(lines) == 11 and lines[0] == "v . . . . . ."  # rank 6
    assert lines[1] == " . . . . . v" and lines[9] == " 2 . . . . ."  # centres 56 and 12
    assert len(board_from_diagram("......V\n.......\n.......\n.......\n.......\n...Y...")) == 42
