"""Shared helpers for the Cellulis Bellum tests: positions by point names, playing notation."""

from __future__ import annotations

from cellwars_tui.games.cellulis_bellum import clarifications as C
from cellwars_tui.games.cellulis_bellum import geometry as G
from cellwars_tui.games.cellulis_bellum.rules import CELLS, EMPTY, GAME, NUCLEI, VIRUSES, CBState

GLYPH = {"y": CELLS[0], "v": CELLS[1], "Y": NUCLEI[0], "V": NUCLEI[1], "1": VIRUSES[0],
         "2": VIRUSES[1]}


def P(name: str) -> int:
    p = G.parse_point(name)
    assert p is not None, name
    return p


def pos(*groups: str, seat: int = 0, turn: int = 0, limit: int = C.TURN_LIMIT_DEFAULT,
        waits: bool = False, centre_rhombi: bool = True) -> CBState:
    board = [EMPTY] * G.N_POINTS
    for group in groups:
        glyph, *points = group.split()
        for name in points:
            assert board[P(name)] == EMPTY, name
            board[P(name)] = GLYPH[glyph]
    for q in (0, 1):
        if NUCLEI[q] not in board:
            board[C.NUCLEUS_START[q]] = NUCLEI[q]
    uses = tuple(C.VIRUS_USES if VIRUSES[q] in board else 0 for q in (0, 1))
    return CBState(board=tuple(board), seat=seat, turn=turn, turn_limit=limit, virus_uses=uses,
                   virus_waits=waits, centre_rhombi=centre_rhombi)


def play(s, *texts):
    events = []
    for t in texts:
        s, ev = GAME.apply(s, s.seat, GAME.action_from_str(t))
        events.extend(ev)
    return s, events
