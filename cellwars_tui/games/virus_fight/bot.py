"""Bot hooks for Virus Fight: a pruned move list, a heuristic and the fast random playout.

The playout runs the play phase on plain lists (``engine.gen_turns`` / ``engine.do_turn``), with
no msgspec objects and no events; the set-up phases before it are completed with random
programs and random placements.
"""

from __future__ import annotations

import random

import msgspec

from ...core.api import Action
from . import clarifications as C
from . import engine as E
from .types import (BUILD, FIRST, OVER, PLACE, PLAY, Add, Agree, Offer, Ready, VFState,
                    action_turn, eliminates, first_player_candidates, home_line,
                    random_program, stalemate_winners, start_squares)


def bot_actions(game, s: VFState, seat: int) -> list[Action]:
    """Legal actions minus the obviously bad: in play, turns that strand the marker (when any
    other turn exists), and every other turn when some turn strands a rival (:func:`kills`); in
    building, programs shorter than three instructions. The search never offers a stalemate (offers
    that the others accept after some rounds without an elimination would end many games that
    an elimination ends later: measured on the rules page); they answer an offer by their
    search, and agree to any after round 50 (three or four players have a longer round limit,
    and a person should not have to play a stuck game out to it)."""
    actions = game.legal_actions(s, seat)
    if s.phase == PLAY:
        if s.offer >= 0:
            if s.round > C.ROUNDS_PER_RIVAL and Agree() in actions:
                return [Agree()]  # a long game: a person who offers a stalemate gets one
            return actions  # agree or decline a stalemate: the search weighs both
        turns = [a for a in actions if not isinstance(a, Offer)]  # the search never offers
        keep = [a for a in turns if not eliminates(a)]
        return kills(s, seat, keep) or keep or turns
    if s.phase == BUILD:
        n = len(s.programs[seat])
        if n < 3:
            keep = [a for a in actions if isinstance(a, Add)]
            return keep or actions
        if n == C.MAX_PROGRAM and s.marks[seat] >= 0:
            return [Ready()]
    return actions


def kills(s: VFState, seat: int, turns: list[Action]) -> list[Action]:
    """The turns among ``turns`` after which some rival's every turn strands its marker.

    The search alone rarely finds them: a four-player turn has about a hundred choices and a
    normal bot 64 playouts, so most turns are never tried, and random playouts seldom finish
    a crowded game (measured on the rules page). A rival whose marker keeps two free
    neighbours always has a turn that steps (one action removes at most one), so only markers
    left with one or none are looked at closely."""
    nb = E.NEIGHBOURS[s.size]
    out = []
    for a in turns:
        t = action_turn(s, a)
        board, markers = list(s.board), list(s.markers)
        spares = [list(x) for x in s.spares]
        E.do_turn(board, markers, spares, seat, t)
        marked = {m for m in markers if m >= 0}
        for rival, m in enumerate(markers):
            if rival == seat or m < 0:
                continue
            if sum(1 for c in nb[m] if board[c] and c not in marked) > 1:
                continue
            if all(x[3] < 0 for x in E.gen_turns(board, nb, markers, rival, spares[rival])):
                out.append(a)
                break
    return out


def heuristic(s: VFState) -> tuple[float, ...]:
    """Per-seat values in [-1, 1]: eliminated -1; otherwise the share of the running players'
    strength (instructions in the active block, marker's free neighbours, spares)."""
    n = s.players
    if s.phase != PLAY and s.phase != OVER:
        return (0.0,) * n
    nb = E.NEIGHBOURS[s.size]
    strength = []
    for q in range(n):
        m = s.markers[q]
        if m < 0:
            strength.append(0.0)
            continue
        block = E.block_of(s.board, nb, m)
        steps = sum(1 for c in nb[m] if s.board[c])
        strength.append(1.0 + len(block) + 2.0 * min(steps, 2) + 0.5 * len(s.spares[q]))
    total = sum(strength) or 1.0
    fair = 1.0 / sum(1 for x in strength if x > 0)
    out = []
    for x in strength:
        if x == 0:
            out.append(-1.0)
        else:
            v = (x / total - fair) / fair
            out.append(max(-0.9, min(0.9, v)))
    return tuple(out)


def finish_setup(game, s: VFState, rng: random.Random) -> VFState:
    """Complete building, the first-player draw and placement at random (on plain lists: the
    same state the actions would make, see the test that replays it)."""
    n = s.players
    if s.phase == BUILD:
        programs = list(s.programs)
        marks = list(s.marks)
        for q in range(n):
            if s.ready[q]:
                continue
            prog = programs[q]
            if not prog:
                prog, mark = random_program(rng)
            else:
                want = rng.randint(len(prog), C.MAX_PROGRAM)
                pool = [c for c in E.ALL_CODES if c not in prog]
                prog = prog + tuple(rng.sample(pool, want - len(prog)))
                mark = marks[q] if marks[q] >= 0 else rng.randrange(len(prog))
            programs[q], marks[q] = prog, mark
        tied, _ = first_player_candidates(programs, marks)
        first = tied[0] if len(tied) == 1 else rng.choice(tied)
    elif s.phase == FIRST:
        programs, marks = list(s.programs), list(s.marks)
        first = rng.choice(s.queue)
    elif s.phase == PLACE:
        programs, marks = list(s.programs), list(s.marks)
        first = s.first
    else:
        return s
    if s.phase == PLACE:
        spares = s.spares
        queue = s.queue
    else:
        spares = tuple(tuple(c for c in s.spares[q] if c not in programs[q]) for q in range(n))
        queue = tuple((first + k) % n for k in range(n))
    board = list(s.board)
    markers = list(s.markers)
    for seat in queue:
        prog = programs[seat]
        start = rng.choice(start_squares(board, n, s.size, seat, len(prog)))
        line = home_line(n, seat)
        off = line.index(start)
        cells = line[off: off + len(prog)]
        for c, piece in zip(cells, prog):
            board[c] = piece
        markers[seat] = cells[marks[seat]]
    return VFState(players=n, size=s.size, phase=PLAY, board=tuple(board),
                   markers=tuple(markers), spares=spares, programs=((),) * n, marks=(-1,) * n,
                   ready=(True,) * n, first=first, queue=E.round_order(markers, first, n),
                   round=1, round_limit=s.round_limit)


def random_playout(game, s: VFState, rng: random.Random, max_steps: int = 400):
    """Uniformly random turns to the end; per-seat returns (+1 winner, -1 losers, 0 draw)."""
    if s.phase != PLAY:
        if s.phase == OVER:
            return game.outcome(s).returns(s.players)
        s = finish_setup(game, s, rng)
    elif s.offer >= 0:  # an open stalemate offer: random players would not all agree
        s = msgspec.structs.replace(s, offer=-1, agreed=(), declined=True)
    return play_out(s, rng, max_steps)


def play_out(s: VFState, rng: random.Random, max_steps: int = 400):
    players = s.players
    nb = E.NEIGHBOURS[s.size]
    board = list(s.board)
    markers = list(s.markers)
    spares = [list(x) for x in s.spares]
    queue = list(s.queue)
    first, rnd, limit = s.first, s.round, s.round_limit
    pick = E.random_turn
    do = E.do_turn
    rand = rng.random
    alive = sum(1 for c in markers if c >= 0)
    for _ in range(max_steps):
        seat = queue.pop(0)
        t = pick(board, nb, markers, seat, spares[seat], rand())
        do(board, markers, spares, seat, t)
        if t[3] < 0:
            alive -= 1
            if alive <= 1:
                return tuple(1.0 if c >= 0 else -1.0 for c in markers)
            queue = [q for q in queue if markers[q] >= 0]
        if not queue:
            if rnd >= limit:
                winners = stalemate_winners(board, markers, spares, players)
                if len(winners) == players:
                    return (0.0,) * players
                return tuple(1.0 if q in winners else -1.0 for q in range(players))
            first = E.next_first(board, markers, first, players)
            rnd += 1
            queue = list(E.round_order(markers, first, players))
    state = msgspec.structs.replace(
        s, board=tuple(board), markers=tuple(markers),
        spares=tuple(tuple(sorted(x)) for x in spares), queue=tuple(queue), first=first,
        round=rnd)
    return heuristic(state)
