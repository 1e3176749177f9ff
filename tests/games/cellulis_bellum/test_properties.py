"""Property tests: random play keeps every invariant; the engine's spawn and burst moves agree
with a brute-force reading of the rules; territory respects the board's symmetries."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from cellwars_tui.games.cellulis_bellum import geometry as G
from cellwars_tui.games.cellulis_bellum.rules import (
    BURST, CELLS, GAME, OVER, SPAWN, START, Burst, CBState, CellulisBellumOptions, Spawn,
    board_from_diagram, colonies, diagram, territory)


def _random_states(seed: int, limit: int = 250):
    rng = random.Random(seed)
    s = GAME.initial_state(CellulisBellumOptions(turn_limit=60))
    for _ in range(limit):
        if s.step == OVER:
            return
        yield s
        acts = GAME.bot_actions(s, s.seat) if rng.random() < 0.6 else GAME.legal_actions(s, s.seat)
        s, _ = GAME.apply(s, s.seat, rng.choice(acts))


def naive_spawns(s: CBState) -> set[int]:
    """Spawn points read literally: an empty point such that the cells placed this turn plus it
    can each be given a different colony (as it stood when the spawn began) it touches."""
    seat = s.seat
    if sum(1 for x in s.board if x == CELLS[seat]) >= 28:
        return set()
    cols = s.colonies if s.step == SPAWN else tuple(colonies(s.board, seat))
    placed = s.placed if s.step == SPAWN else ()

    def touches(col, p):
        return any(max(abs(p % 7 - q % 7), abs(p // 7 - q // 7)) == 1 for q in col)

    out = set()
    for p in range(G.N_POINTS):
        if s.board[p]:
            continue
        pts = (*placed, p)
        for perm in itertools.permutations(range(len(cols)), len(pts)):
            if all(touches(cols[j], q) for q, j in zip(pts, perm)):
                out.add(p)
                break
    return out


def naive_bursts(s: CBState) -> set[tuple[int, int]]:
    movers = s.burst if s.step == BURST else [p for p in range(G.N_POINTS)
                                              if s.board[p] == CELLS[s.seat]]
    out = set()
    for p in movers:
        f, r = p % 7, p // 7
        for q in range(G.N_POINTS):
            g, t = q % 7, q // 7
            if q == p or s.board[q]:
                continue
            if f == g or r == t or abs(f - g) == abs(r - t):
                out.add((p, q))
    return out


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10**9))
def test_spawns_and_bursts_match_a_brute_force_reading_of_the_rules(seed):
    for i, s in enumerate(_random_states(seed, 120)):
        if i % 3 and s.step == START:
            continue
        legal = GAME.legal_actions(s, s.seat)
        spawns = {a.to for a in legal if isinstance(a, Spawn)}
        bursts = {(a.src, a.dst) for a in legal if isinstance(a, Burst)}
        if s.step in (START, SPAWN) and len(s.placed) <= 5:
            assert spawns == naive_spawns(s), diagram(s.board)
        if s.step in (START, BURST):
            assert bursts == naive_bursts(s), diagram(s.board)
        for p, q in itertools.product(range(G.N_POINTS), repeat=2):
            if (p + q) % 7 == seed % 7:  # a sample of every pair, is_legal against the list
                assert GAME.is_legal(s, s.seat, Burst(p, q)) == ((p, q) in bursts)
        for p in range(G.N_POINTS):
            assert GAME.is_legal(s, s.seat, Spawn(p)) == (p in spawns)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**9))
def test_random_play_keeps_every_invariant_and_round_trips(seed):
    rng = random.Random(seed)
    s = GAME.initial_state(CellulisBellumOptions(turn_limit=rng.choice([10, 30, 80])))
    for _ in range(3000):
        GAME.check_invariants(s)
        assert GAME.decode_state(GAME.encode_state(s)) == s
        if not GAME.to_act(s):
            break
        acts = GAME.legal_actions(s, s.seat)
        assert acts and len(set(acts)) == len(acts)
        bots = GAME.bot_actions(s, s.seat)
        assert set(bots) <= set(acts)
        a = rng.choice(bots if rng.random() < 0.5 else acts)
        assert GAME.action_from_str(GAME.action_to_str(a)) == a
        before = s
        s, events = GAME.apply(s, s.seat, a)
        assert before != s or not events
        for e in events:
            assert GAME.describe_event(e, GAME.seat_names)
    assert GAME.outcome(s) is not None
    terr = GAME.outcome(s).scores
    assert all(0 <= t <= G.N_TRIANGLES for t in terr)


def _mirror_lr(board):
    return tuple(board[G.point(G.WIDTH - 1 - p % 7, p // 7)] for p in range(G.N_POINTS))


def _swap_colours_and_flip(board):
    swap = {0: 0, 1: 2, 2: 1, 3: 4, 4: 3, 5: 6, 6: 5}
    return tuple(swap[board[G.point(p % 7, G.HEIGHT - 1 - p // 7)]] for p in range(G.N_POINTS))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.floats(0.1, 0.7))
def test_territory_respects_the_symmetries_of_the_board(seed, density):
    rng = random.Random(seed)
    board = [0] * G.N_POINTS
    pts = rng.sample(range(G.N_POINTS), 2)
    board[pts[0]], board[pts[1]] = 3, 4
    for p in range(G.N_POINTS):
        if not board[p] and rng.random() < density:
            board[p] = rng.choice((1, 2))
    board = tuple(board)
    t = (territory(board, 0), territory(board, 1))
    assert t == (territory(_mirror_lr(board), 0), territory(_mirror_lr(board), 1))
    flipped = _swap_colours_and_flip(board)
    assert t == (territory(flipped, 1), territory(flipped, 0))
    assert all(0 <= x <= G.N_TRIANGLES for x in t)


def test_diagram_round_trips():
    for s in _random_states(5, 80):
        assert board_from_diagram(diagram(s.board)) == s.board
