"""Rules version 3: the rhombus of eight around a square centre makes a virus too.

The rules page's definition ("its sides run along the diagonals; cells form one when they stand on
every point of its outline") and the seed's ("huit cellules de la même couleur formant un losange
... l'intersection au centre du losange est libre") fit the diamond around a free square centre as
well as the one around a free corner: 12 more places for a virus. Games recorded under version 2
(``records_v2/``, written by the version-2 code: a game where Yellow's pieces stood on the ring
around cd23 at the start of its turn, and two whole games of pruned-random bots) replay exactly and
play on with the 20 places they had.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cellwars_tui.games.cellulis_bellum import clarifications as C
from cellwars_tui.games.cellulis_bellum import geometry as G
from cellwars_tui.games.cellulis_bellum.bot import bot_actions, ring_survey
from cellwars_tui.games.cellulis_bellum.rules import (
    CELLS, EMPTY, GAME, NUCLEI, START, VIRUSES, CellulisBellumOptions, Generate, VirusMove,
    VirusShot)
from cellwars_tui.record import decode_record, load_match
from cellwars_tui.record.text import import_text
from cellwars_tui.replay.model import Replay

from .helpers import P, play, pos

B = G.FULL
CENTRED = sorted(B.rhombi8_on_centres)
HERE = Path(__file__).with_name("records_v2")
EXPECTED = json.loads((HERE / "final_states.json").read_text(encoding="utf-8"))


def names(points) -> list[str]:
    return sorted(G.NAMES[p] for p in points)


def ring(k: int) -> str:
    """Yellow cells on every point of the rhombus of eight around ``k``."""
    return "y " + " ".join(G.NAMES[p] for p in B.virus_rhombi(True)[k])


# -- the shape -------------------------------------------------------------------------------------
def test_twelve_square_centres_have_a_full_rhombus_of_eight_around_them():
    assert len(CENTRED) == 12 and all(G.is_centre(k) for k in CENTRED)
    assert names(B.rhombi8_on_centres[P("cd34")]) == [
        "bc34", "c3", "c4", "cd23", "cd45", "d3", "d4", "de34"]
    # a square on the board's edge lacks a tip: the 18 others have none
    assert P("ab12") not in B.rhombi8_on_centres and P("fg34") not in B.rhombi8_on_centres
    assert len(B.virus_rhombi(True)) == 32 and B.virus_rhombi(False) is B.rhombi8
    assert G.CORNERS.rhombi8_on_centres == {}  # the first rules' board has no centres


@pytest.mark.parametrize("k", CENTRED, ids=lambda k: G.NAMES[k])
def test_the_rhombus_around_a_centre_is_the_corner_rhombus_shape_with_sides_on_diagonals(k):
    x, y = G.xy(k)
    corner_shape = {(G.xy(p)[0] - 6, G.xy(p)[1] - 4) for p in B.rhombi8[P("d3")]}  # d3: (6, 4)
    assert {(G.xy(p)[0] - x, G.xy(p)[1] - y) for p in B.rhombi8_on_centres[k]} == corner_shape
    tips = [G.at_xy(x + dx, y + dy) for dx, dy in ((0, 2), (2, 0), (0, -2), (-2, 0))]
    sides = set(B.neighbours[k])  # the four corners of its square, in the middle of its sides
    for i, tip in enumerate(tips):  # each side: tip, corner, next tip, along one diagonal
        nxt = tips[(i + 1) % 4]
        middle = next(c for c in sides if tip in B.neighbours[c] and nxt in B.neighbours[c])
        d = B.step[tip].index(middle)
        assert d in G.DIAGONAL and B.step[middle][d] == nxt


# -- one test for each new rhombus: the virus appears on the centre ---------------------------
@pytest.mark.parametrize("k", CENTRED, ids=lambda k: G.NAMES[k])
def test_eight_cells_around_a_free_square_centre_generate_the_virus_there(k):
    s = pos(ring(k), "Y a1", "V g6")
    assert f"gen {G.NAMES[k]}" in {GAME.action_to_str(a) for a in GAME.legal_actions(s, 0)}
    s2, ev = play(s, f"gen {G.NAMES[k]}")
    assert s2.board[k] == VIRUSES[0] and s2.virus_uses[0] == C.VIRUS_USES
    assert CELLS[0] not in s2.board and len(ev[0].sacrificed) == 8 and s2.step == START
    # a virus on a centre: four diagonal rays, and steps to the four corners of its square
    shots = {a.direction for a in GAME.legal_actions(s2, 0) if isinstance(a, VirusShot)}
    steps = {a.to for a in GAME.legal_actions(s2, 0) if isinstance(a, VirusMove)}
    assert shots == set(G.DIAGONAL) and steps == set(B.neighbours[k])
    taken = pos(ring(k), "v " + G.NAMES[k], "Y a1")  # the centre must be free
    assert Generate(k) not in GAME.legal_actions(taken, 0)


def test_the_nucleus_may_stand_on_a_corner_of_the_ring_and_stays():
    s = pos("y c2 c3 d3 cd12 bc23 de23 cd34", "Y d2")
    s2, ev = play(s, "gen cd23")
    assert s2.board[P("d2")] == NUCLEI[0] and s2.board[P("cd23")] == VIRUSES[0]
    assert len(ev[0].sacrificed) == 7


def test_the_virus_on_a_tip_takes_part_in_its_generation_around_a_centre():
    s = pos("y c3 d3 c4 d4 cd23 bc34 cd45", "1 de34", "Y a1")
    s2, ev = play(s, "gen cd34")
    assert s2.board[P("de34")] == EMPTY and s2.board[P("cd34")] == VIRUSES[0]
    assert s2.virus_uses[0] == 2 and len(ev[0].sacrificed) == 7


def test_under_version_2s_option_a_ring_around_a_centre_makes_no_virus():
    k = P("cd34")
    s = pos(ring(k), "Y a1", centre_rhombi=False)
    assert not [a for a in GAME.legal_actions(s, 0) if isinstance(a, Generate)]
    opts = CellulisBellumOptions(virus_rhombi=C.RHOMBI_CORNERS)
    assert not GAME.initial_state(opts).centre_rhombi


def test_the_bot_sees_and_takes_a_virus_around_a_centre():
    s = pos(ring(P("cd34")).replace(" cd23", ""), "Y a1", "V g6")
    best, gaps, _ = ring_survey(s.board, 0, on_centres=True)
    assert best == 7 and gaps == {P("cd23")}
    assert ring_survey(s.board, 0, on_centres=False)[0] < 7
    s = pos(ring(P("cd34")), "Y a1", "V g6")
    assert Generate(P("cd34")) in bot_actions(GAME, s, 0)


# -- records of version 2 ------------------------------------------------------------------------
def _same_as_recorded(state, expected: dict) -> None:
    now = json.loads(GAME.encode_state(state))
    assert {k: now[k] for k in expected} == expected
    assert state.centre_rhombi is False


def _outcome(m) -> list | None:
    out = m.outcome()
    return None if out is None else [list(out.winners), out.termination, list(out.scores)]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_version_2_record_resumes_replays_and_imports_exactly(name):
    expected = EXPECTED[name]
    path = HERE / f"{name}.cellwars.json"
    m = load_match(path)
    assert m.options.virus_rhombi == C.RHOMBI_CORNERS  # it plays on as it was played
    assert len(m.history) == expected["steps"] and _outcome(m) == expected["outcome"]
    _same_as_recorded(m.state, expected["final_state"])
    replay = Replay.from_record(decode_record(path.read_bytes()), path)
    _same_as_recorded(replay.state_at(expected["steps"]), expected["final_state"])
    moves = import_text((HERE / f"{name}.txt").read_text(encoding="utf-8"))
    _same_as_recorded(moves.state, expected["final_state"])


def test_a_version_2_ring_around_a_centre_stays_no_virus_and_is_one_today():
    name = "v2-ring-on-a-centre"
    at = EXPECTED[name]["ring_step"]
    m = load_match(HERE / f"{name}.cellwars.json")
    s = m.states[at]
    assert s.seat == 0 and s.step == START
    assert all(s.board[p] in (CELLS[0], NUCLEI[0]) for p in B.rhombi8_on_centres[P("cd23")])
    assert Generate(P("cd23")) not in GAME.legal_actions(s, 0)
    today = GAME.initial_state(CellulisBellumOptions())
    for step in m.history[:at]:
        today, _ = GAME.apply(today, step.seat, step.action)
    assert today.board == s.board and Generate(P("cd23")) in GAME.legal_actions(today, 0)
