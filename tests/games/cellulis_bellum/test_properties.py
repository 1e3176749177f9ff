"""Property tests on both boards: random play keeps every invariant and round-trips; the engine's
spawn and burst moves agree with a brute-force reading of the rules (on the plain coordinates of
the drawn lines, not the engine's tables); undo and replay give back every state; territory
respects the board's symmetries."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import pytest

from cellwars_tui.core import Match, Seat
from cellwars_tui.games.cellulis_bellum import geometry as G
from cellwars_tui.games.cellulis_bellum.rules import (
    BURST, CELLS, GAME, OVER, SPAWN, START, Burst, CBState, CellulisBellumOptions, Spawn,
    board_from_diagram, colonies, diagram, territory)

BOARDS = [G.FULL.key, G.CORNERS.key]


def _options(board: str, **kw) -> CellulisBellumOptions:
    return CellulisBellumOptions(board=board, **kw)


def _adjacent(p: int, q: int, n_points: int) -> bool:
    """Neighbours read from the drawing: one unit step apart on the doubled grid along a line of
    the 72-point board (a centre has no line across or up), or a king's step on the corners."""
    (x1, y1), (x2, y2) = G.xy(p), G.xy(q)
    dx, dy = abs(x1 - x2), abs(y1 - y2)
    if n_points == 42:
        return max(dx, dy) == 2
    return (dx, dy) == (1, 1) or ((dx, dy) in ((2, 0), (0, 2)) and x1 % 2 == 0 and y1 % 2 == 0)


def _on_a_line(p: int, q: int, n_points: int) -> bool:
    """Whether a drawn line joins p and q (a burst may go from one to the other)."""
    (x1, y1), (x2, y2) = G.xy(p), G.xy(q)
    if p == q:
        return False
    if abs(x1 - x2) == abs(y1 - y2):
        return True  # the diagonals run on through corners and centres alike
    return (x1 == x2 or y1 == y2) and x1 % 2 == 0 and y1 % 2 == 0 and (
        n_points == 42 or (x2 % 2 == 0 and y2 % 2 == 0))


def _random_states(seed: int, limit: int = 250, board: str = G.FULL.key):
    rng = random.Random(seed)
    s = GAME.initial_state(_options(board, turn_limit=60))
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

    n = len(s.board)
    # touching[j]: the points colony j touches (read once per colony, not once per permutation)
    touching = [{p for p in range(n) if any(_adjacent(p, q, n) for q in col)} for col in cols]

    out = set()
    for p in range(n):
        if s.board[p]:
            continue
        # every way of giving each point a colony it touches; one with no colony used twice wins
        choices = [[j for j in range(len(cols)) if q in touching[j]] for q in (*placed, p)]
        if any(len(set(pick)) == len(pick) for pick in itertools.product(*choices)):
            out.add(p)
    return out


def naive_bursts(s: CBState) -> set[tuple[int, int]]:
    n = len(s.board)
    movers = s.burst if s.step == BURST else [p for p in range(n) if s.board[p] == CELLS[s.seat]]
    return {(p, q) for p in movers for q in range(n)
            if not s.board[q] and _on_a_line(p, q, n)}


@pytest.mark.slow  # a brute-force reading of the rules on every board
@pytest.mark.parametrize("board", BOARDS)
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_spawns_and_bursts_match_a_brute_force_reading_of_the_rules(board, seed):
    n = 72 if board == G.FULL.key else 42
    for i, s in enumerate(_random_states(seed, 120, board)):
        if i % 3 and s.step == START:
            continue
        legal = GAME.legal_actions(s, s.seat)
        spawns = {a.to for a in legal if isinstance(a, Spawn)}
        bursts = {(a.src, a.dst) for a in legal if isinstance(a, Burst)}
        if s.step in (START, SPAWN) and len(s.placed) <= 5:
            assert spawns == naive_spawns(s), diagram(s.board)
        if s.step in (START, BURST):
            assert bursts == naive_bursts(s), diagram(s.board)
        for p, q in itertools.product(range(n), repeat=2):
            if (p + q) % 7 == seed % 7:  # a sample of every pair, is_legal against the list
                assert GAME.is_legal(s, s.seat, Burst(p, q)) == ((p, q) in bursts)
        for p in range(n):
            assert GAME.is_legal(s, s.seat, Spawn(p)) == (p in spawns)


@pytest.mark.parametrize("board", BOARDS)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_random_play_keeps_every_invariant_and_round_trips(board, seed):
    rng = random.Random(seed)
    s = GAME.initial_state(_options(board, turn_limit=rng.choice([10, 30, 80])))
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


@pytest.mark.parametrize("board", BOARDS)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_undo_and_replay_give_back_every_state(board, seed):
    """A random game in a Match: undo walks back through every state, redo and a replay of the
    recorded actions rebuild them exactly."""
    rng = random.Random(seed)
    m = Match(GAME, _options(board, turn_limit=24), [Seat(name="A"), Seat(name="B")], seed)
    while m.to_act():
        seat = m.to_act()[0]
        m.play(seat, rng.choice(list(GAME.bot_actions(m.state, seat))))
    states = list(m.states)
    while m.undo():
        assert m.state == states[m.cursor]
    while m.redo():
        assert m.state == states[m.cursor]
    again = Match(GAME, m.options, m.seats, seed)
    again.replay_steps(m.history)
    assert again.state == states[-1] and GAME.outcome(again.state) is not None


def _mirror_lr(board):
    """The board seen in a mirror down its middle file."""
    out = [0] * len(board)
    for p in range(len(board)):
        x, y = G.xy(p)
        out[G.at_xy(2 * G.SQUARES_W - x, y)] = board[p]
    return tuple(out)


def _swap_colours_and_flip(board):
    swap = {0: 0, 1: 2, 2: 1, 3: 4, 4: 3, 5: 6, 6: 5}
    out = [0] * len(board)
    for p in range(len(board)):
        x, y = G.xy(p)
        out[G.at_xy(x, 2 * G.SQUARES_H - y)] = swap[board[p]]
    return tuple(out)


@pytest.mark.parametrize("board", BOARDS)
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**9), density=st.floats(0.1, 0.7))
def test_territory_respects_the_symmetries_of_the_board(board, seed, density):
    rng = random.Random(seed)
    n = 72 if board == G.FULL.key else 42
    cells = [0] * n
    pts = rng.sample(range(n), 2)
    cells[pts[0]], cells[pts[1]] = 3, 4
    for p in range(n):
        if not cells[p] and rng.random() < density:
            cells[p] = rng.choice((1, 2))
    b = tuple(cells)
    t = (territory(b, 0), territory(b, 1))
    assert t == (territory(_mirror_lr(b), 0), territory(_mirror_lr(b), 1))
    flipped = _swap_colours_and_flip(b)
    assert t == (territory(flipped, 1), territory(flipped, 0))
    assert all(0 <= x <= G.N_TRIANGLES for x in t)


@pytest.mark.parametrize("board", BOARDS)
def test_diagram_round_trips(board):
    for s in _random_states(5, 80, board):
        assert board_from_diagram(diagram(s.board)) == s.board
