"""Bot hooks for Cellulis Bellum: a pruned move list, a heuristic and a short playout.

The search bot (``ai.bots.MCTSBot``) and the greedy one work on these hooks:

* ``bot_actions``: the winning shot alone when there is one; otherwise every spawn point, virus
  use, nucleus move and generation, but only the apoptoses that destroy at least as many enemy
  cells as they sacrifice, and only the burst moves that flank an enemy cell or bring a cell onto
  a rhombus of eight the player is filling (the rest of the hundreds of burst moves are noise for
  a search);
* ``heuristic``: nearly a win for a player ahead on territory whose virus has a nucleus (either)
  on one of its rays, since the shot ends the game; otherwise a bounded difference of territory
  (the real score), a "wall" potential (the best straight line of own cells across the board
  between the two nuclei), cells on the board, progress towards a virus whose cells can go
  without losing the lead, and a live virus;
* ``random_playout``: finishes the turn under way (a spawn or burst ends, a fresh turn is left
  as it is), plays a few random turns from the pruned lists, then scores with the heuristic. At
  the end of the game the score is the outcome.
"""

from __future__ import annotations

import random

from ...core.api import Action
from . import geometry as G
from .position import (CELLS, EMPTY, NUCLEI, VIRUSES, apoptosis_rhombi, apoptosis_victims,
                       cells_on_board, find, slides, territory_triangles)
from .actions import Apoptosis, Burst, Done, Generate, NucleusMove, Spawn, VirusMove, VirusShot
from .state import (BURST, OVER, SPAWN, START, CBState, generation_centres, outcome_of,
                    spawn_points)

PLAYOUT_TURNS = 2


def _flanks(board, seat: int, src: int, dst: int) -> bool:
    """Whether a cell of ``seat`` moved from ``src`` to ``dst`` would flank an enemy cell."""
    mine, enemy = CELLS[seat], CELLS[1 - seat]
    steps = G.board_of(board).step
    step = steps[dst]
    for d in range(8):
        e = step[d]
        if e < 0 or board[e] != enemy:
            continue
        far = steps[e][d]
        if far >= 0 and far != src and board[far] == mine:
            return True
    return False


RINGS_CHECKED = 4  # rhombi of eight checked for keeping the lead, the most advanced first


def _keeps_lead(board, seat: int, pts, enemy_territory: int) -> bool:
    """Whether ``seat`` would still lead on territory with its cells on ``pts`` gone (as they go
    when a virus is made of them): a virus is worth making to cash in a lead it keeps."""
    cell = CELLS[seat]
    after = list(board)
    for p in pts:
        if after[p] == cell:
            after[p] = EMPTY
    return len(territory_triangles(after, seat)) > enemy_territory


def ring_survey(board, seat: int, terr: tuple[int, int] | None = None,
                on_centres: bool = True) -> tuple[int, set[int], set[int]]:
    """How near ``seat`` is to a virus: the most of its pieces on one rhombus of eight around a
    free centre with no enemy piece on it, with those rhombi's empty points (where a cell helps)
    and all their points (where a cell should stay). With ``terr`` (its territory and the
    enemy's) and a lead, only rhombi whose cells can go without losing the lead count (a virus
    made of the walls would open what it is meant to cash in); of equal ones, those whose centre
    has a nucleus on one of its lines come first. Rhombi with fewer than three pieces count for
    the number only. ``on_centres``: rhombi around a square centre count too (the game's
    ``centre_rhombi``)."""
    geo = G.board_of(board)
    mine = (CELLS[seat], NUCLEI[seat], VIRUSES[seat])
    found = []
    for k, pts in geo.virus_rhombi(on_centres).items():
        if board[k] != EMPTY:
            continue
        n = 0
        for p in pts:
            x = board[p]
            if x == EMPTY:
                continue
            if x not in mine:
                n = -1
                break
            n += 1
        if n > 0:
            aimed = any(board[q] in NUCLEI for ray in geo.rays[k] for q in ray)
            found.append((n, aimed, k, pts))
    found.sort(reverse=True)
    lead = terr is not None and terr[0] > terr[1]
    best, rings, checked = 0, [], 0
    for n, _, _, pts in found:
        if n < best or (n < 3 and best):
            break
        if lead and n >= 3:
            if checked >= RINGS_CHECKED:
                break
            checked += 1
            if not _keeps_lead(board, seat, pts, terr[1]):  # type: ignore[index]
                continue
        if n > best:
            best, rings = n, [pts]
        else:
            rings.append(pts)
    if best < 3:
        return best, set(), set()
    held = {p for pts in rings for p in pts}
    return best, {p for p in held if board[p] == EMPTY}, held


def _useful_bursts(board, seat: int, movers, on_centres: bool) -> list[Action]:
    """Burst moves worth a search: those that flank an enemy cell, and those that bring a cell
    onto one of the rhombi of eight nearest to a virus from outside them."""
    terr = (len(territory_triangles(board, seat)), len(territory_triangles(board, 1 - seat)))
    _, gaps, held = ring_survey(board, seat, terr, on_centres)
    out: list[Action] = []
    for p in movers:
        for q in slides(board, p):
            if _flanks(board, seat, p, q) or (q in gaps and p not in held):
                out.append(Burst(p, q))
    return out


def winning_shot(game, s: CBState, seat: int) -> Action | None:
    """A virus shot that ends the game now with ``seat`` the sole winner, if there is one."""
    v = find(s.board, VIRUSES[seat])
    if v < 0 or s.step != START or not game.virus_may_act(s, seat):
        return None
    for d in range(8):
        if not G.board_of(s.board).rays[v][d]:
            continue
        after, _ = game._apply(s, seat, VirusShot(d))
        if after.step == OVER and game.outcome(after).winners == (seat,):
            return VirusShot(d)
    return None


def bot_actions(game, s: CBState, seat: int) -> list[Action]:
    """Legal actions minus most bursts and the losing apoptoses (see the module text); only the
    shot when one wins the game at once."""
    if s.step == SPAWN or s.step == OVER or seat != s.seat:
        return game.legal_actions(s, seat)
    board = s.board
    g = G.board_of(board)
    mine = CELLS[seat]
    if s.step == BURST:
        keep = _useful_bursts(board, seat, s.burst, s.centre_rhombi)
        keep.append(Done())
        return keep
    win = winning_shot(game, s, seat)
    if win is not None:
        return [win]
    keep = [Apoptosis(*k) for k in apoptosis_rhombi(board, seat)
            if len(apoptosis_victims(board, seat, k)) >= 4]
    keep.extend(Generate(k) for k in generation_centres(s, seat))
    main: list[Action] = [Spawn(p) for p in spawn_points(s, seat)]
    main.extend(_useful_bursts(board, seat, [p for p in range(g.n_points) if board[p] == mine],
                               s.centre_rhombi))
    v = find(board, VIRUSES[seat])
    if v >= 0 and game.virus_may_act(s, seat):
        main.extend(VirusMove(q) for q in g.neighbours[v] if board[q] == EMPTY)
        main.extend(VirusShot(d) for d in range(8) if g.rays[v][d])
    n = find(board, NUCLEI[seat])
    main.extend(NucleusMove(q) for q in g.neighbours[n] if board[q] == EMPTY)
    if not main:
        # only bursts that flank nothing (or nothing at all) are left: the full list
        return game.legal_actions(s, seat)
    return keep + main


def _wall_potential(board, seat: int) -> float:
    """Triangles a straight wall (a full rank of own cells) between the nuclei would enclose,
    weighted by how much of that rank already holds own cells."""
    yn, ye = G.xy(find(board, NUCLEI[seat]))[1], G.xy(find(board, NUCLEI[1 - seat]))[1]
    mine = CELLS[seat]
    best = 0.0
    for r in range(G.HEIGHT):  # the ranks of corners strictly between the nuclei
        if not (min(yn, ye) < 2 * r < max(yn, ye)):
            continue
        row = board[r * G.WIDTH:(r + 1) * G.WIDTH]
        cover = sum(1 for x in row if x == mine) / G.WIDTH
        area = (r if yn < ye else G.HEIGHT - 1 - r) * G.SQUARES_W * 4
        best = max(best, cover * cover * area)
    return best


def _can_fire_at_a_nucleus(board, v: int) -> bool:
    rays = G.board_of(board).rays[v]
    return any(board[q] in NUCLEI for ray in rays for q in ray)


RING_WEIGHT = 1.5
VIRUS_VALUE = 14.0
VIRUS_USE_VALUE = 3.0
SCALE = 50.0  # score difference at which a position is worth half of POSITION_CAP
POSITION_CAP = 0.75  # the most a position short of a threat to end the game is worth
THREAT_TO_MOVE, THREAT_WAITING = 0.92, 0.8


def score(board, seat: int, virus_uses: int, terr: tuple[int, int],
          on_centres: bool = True) -> float:
    """``seat``'s material: territory (the real score), the wall it is building, cells on the
    board, how near it is to a virus that would keep its lead, and a live virus. ``terr``: its
    territory and the enemy's; ``on_centres``: the game's ``centre_rhombi``."""
    ring, _, _ = ring_survey(board, seat, terr, on_centres)
    value = (terr[0] + 0.5 * _wall_potential(board, seat) + 1.0 * cells_on_board(board, seat)
             + RING_WEIGHT * ring * ring / 8)
    if virus_uses:
        value += VIRUS_VALUE + VIRUS_USE_VALUE * virus_uses
    return value


def threatens_to_end(board, seat: int, virus_uses: int, terr: tuple[int, int]) -> bool:
    """Whether ``seat`` leads on territory and its virus has a nucleus (either) on a ray: the
    shot that ends the game and wins it, unless the opponent changes something first."""
    if not virus_uses or terr[0] <= terr[1]:
        return False
    v = find(board, VIRUSES[seat])
    return v >= 0 and _can_fire_at_a_nucleus(board, v)


def heuristic(s: CBState) -> tuple[float, ...]:
    """Per-seat values in [-1, 1] (zero-sum): a bounded score difference, or nearly a win for a
    seat threatening to end the game while ahead."""
    if s.step == OVER:
        over = outcome_of(s)
        assert over is not None
        return over.returns(2)
    board = s.board
    t = (len(territory_triangles(board, 0)), len(territory_triangles(board, 1)))
    threat = [threatens_to_end(board, q, s.virus_uses[q], (t[q], t[1 - q])) for q in (0, 1)]
    if threat[s.seat] and not (s.virus_waits and s.generated):
        v = THREAT_TO_MOVE if s.seat == 0 else -THREAT_TO_MOVE
    elif threat[s.seat]:  # a virus made this turn: the opponent has a turn to answer
        v = THREAT_WAITING if s.seat == 0 else -THREAT_WAITING
    elif threat[1 - s.seat]:
        v = -THREAT_WAITING if s.seat == 0 else THREAT_WAITING
    else:
        diff = (score(board, 0, s.virus_uses[0], t, s.centre_rhombi)
                - score(board, 1, s.virus_uses[1], (t[1], t[0]), s.centre_rhombi))
        v = POSITION_CAP * diff / (abs(diff) + SCALE)
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
