"""Bot hooks for Cellulis Bellum: a pruned move list, a heuristic and a short playout.

The search bot (``ai.bots.MCTSBot``) works on these hooks:

* ``bot_actions``: every spawn point, virus use, nucleus move and generation, but only the
  apoptoses that destroy at least as many enemy cells as they sacrifice and only the burst moves
  that flank an enemy cell (the rest of the hundreds of burst moves are noise for a search);
* ``heuristic``: territory (the real score), a "wall" potential (the best straight line of own
  cells across the board between the two nuclei), cells on the board and a live virus;
* ``random_playout``: finishes the turn under way (a spawn or burst ends, a fresh turn is left
  as it is), plays a few random turns from the pruned lists, then scores with the heuristic. At
  the end of the game the score is the outcome.
"""

from __future__ import annotations

import math
import random

from ...core.api import Action
from . import geometry as G
from .rules import (BURST, CELLS, EMPTY, NUCLEI, OVER, SPAWN, START, VIRUSES, Apoptosis, Burst,
                    CBState, Done, Generate, NucleusMove, Spawn, VirusMove, VirusShot,
                    apoptosis_centres, apoptosis_victims, cells_on_board, find,
                    generation_centres, slides, spawn_points, territory)

PLAYOUT_TURNS = 2


def _flanks(board, seat: int, src: int, dst: int) -> bool:
    """Whether a cell of ``seat`` moved from ``src`` to ``dst`` would flank an enemy cell."""
    mine, enemy = CELLS[seat], CELLS[1 - seat]
    step = G.STEP[dst]
    for d in range(8):
        e = step[d]
        if e < 0 or board[e] != enemy:
            continue
        far = G.STEP[e][d]
        if far >= 0 and far != src and board[far] == mine:
            return True
    return False


def bot_actions(game, s: CBState, seat: int) -> list[Action]:
    """Legal actions minus most bursts and the losing apoptoses (see the module text)."""
    if s.step == SPAWN or s.step == OVER or seat != s.seat:
        return game.legal_actions(s, seat)
    board = s.board
    mine = CELLS[seat]
    if s.step == BURST:
        keep: list[Action] = [Burst(p, q) for p in s.burst for q in slides(board, p)
                              if _flanks(board, seat, p, q)]
        keep.append(Done())
        return keep
    keep = [Apoptosis(k) for k in apoptosis_centres(board, seat)
            if len(apoptosis_victims(board, seat, k)) >= 4]
    keep.extend(Generate(k) for k in generation_centres(s, seat))
    main: list[Action] = [Spawn(p) for p in spawn_points(s, seat)]
    for p in range(G.N_POINTS):
        if board[p] == mine:
            main.extend(Burst(p, q) for q in slides(board, p) if _flanks(board, seat, p, q))
    v = find(board, VIRUSES[seat])
    if v >= 0:
        main.extend(VirusMove(q) for q in G.NEIGHBOURS[v] if board[q] == EMPTY)
        main.extend(VirusShot(d) for d in range(8) if G.RAYS[v][d])
    n = find(board, NUCLEI[seat])
    main.extend(NucleusMove(q) for q in G.NEIGHBOURS[n] if board[q] == EMPTY)
    if not main:
        # only bursts that flank nothing (or nothing at all) are left: the full list
        return game.legal_actions(s, seat)
    return keep + main


def _wall_potential(board, seat: int) -> float:
    """Triangles a straight wall (a full rank of own cells) between the nuclei would enclose,
    weighted by how much of that rank already holds own cells."""
    n, e = find(board, NUCLEI[seat]), find(board, NUCLEI[1 - seat])
    rn, re_ = n // G.WIDTH, e // G.WIDTH
    if rn == re_:
        return 0.0
    mine = CELLS[seat]
    best = 0.0
    lo, hi = (rn + 1, re_) if rn < re_ else (re_ + 1, rn)
    for r in range(lo, hi):
        row = board[r * G.WIDTH:(r + 1) * G.WIDTH]
        cover = sum(1 for x in row if x == mine) / G.WIDTH
        area = (r if rn < re_ else G.HEIGHT - 1 - r) * G.SQUARES_W * 4
        best = max(best, cover * cover * area)
    return best


def score(board, seat: int, virus_uses: int) -> float:
    return (territory(board, seat) + 0.5 * _wall_potential(board, seat)
            + 1.0 * cells_on_board(board, seat) + 3.0 * virus_uses)


def heuristic(s: CBState) -> tuple[float, ...]:
    """Per-seat values in [-1, 1] (zero-sum)."""
    if s.step == OVER:
        from .rules import GAME

        return GAME.outcome(s).returns(2)
    diff = score(s.board, 0, s.virus_uses[0]) - score(s.board, 1, s.virus_uses[1])
    v = math.tanh(diff / 40.0) * 0.95
    return (v, -v)


def random_playout(game, s: CBState, rng: random.Random, max_steps: int = 400):
    """Finish the turn under way, play up to PLAYOUT_TURNS random turns, score."""
    t0 = s.turn
    for _ in range(max_steps):
        if s.step == OVER:
            break
        if s.step in (SPAWN, BURST):
            s, _ = game._apply(s, s.seat, Done())
        elif s.turn - t0 >= PLAYOUT_TURNS:
            break
        else:
            acts = bot_actions(game, s, s.seat)
            s, _ = game._apply(s, s.seat, acts[int(rng.random() * len(acts))])
    return heuristic(s)


__all__ = ["bot_actions", "heuristic", "random_playout", "score", "VIRUSES", "START"]
