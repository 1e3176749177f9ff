"""Property tests: a brute-force reading of the turn rules agrees with the engine on random
reachable positions; random play keeps every invariant; views never leak a secret program."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from cellwars_tui.core import CHANCE
from cellwars_tui.games.virus_fight import engine as E
from cellwars_tui.games.virus_fight.bot import finish_setup
from cellwars_tui.games.virus_fight.notation import position_from_str, position_to_str
from cellwars_tui.games.virus_fight.rules import BUILD, GAME, PLAY, action_turn


def _adjacent(a: int, b: int) -> bool:
    fa, ra, fb, rb = a & 7, a >> 3, b & 7, b >> 3
    return abs(fa - fb) + abs(ra - rb) == 1


def _block(board, squares, start):
    found, todo = {start}, [start]
    while todo:
        c = todo.pop()
        for d in squares:
            if board[d] and d not in found and _adjacent(c, d):
                found.add(d)
                todo.append(d)
    return found


def naive_turns(s) -> set[tuple[int, int, int, int]]:
    """The turn rules read literally, by brute force over every square."""
    seat = s.queue[0]
    squares = E.SQUARES[s.size]
    board = s.board
    m = s.markers[seat]
    marked = {c for c in s.markers if c >= 0}
    others = marked - {m}
    block = _block(board, squares, m)
    kind = E.kind_of(board[m])

    def steps(b):
        ok = [c for c in squares if b[c] and c not in others and _adjacent(c, m)]
        return ok or [-1]

    out = set()
    if kind == E.MOVE:
        for src in block - marked:
            for dst in squares:
                if board[dst] or not any(_adjacent(dst, c) for c in block - {src}):
                    continue
                b = list(board)
                b[dst], b[src] = b[src], 0
                out.update((E.MOVE, src, dst, st) for st in steps(b))
        if not out:
            out.update((E.MOVE, -1, -1, st) for st in steps(board))
    elif kind == E.WRITE:
        for piece in set(s.spares[seat]):
            for dst in squares:
                if not board[dst] and any(_adjacent(dst, c) for c in block):
                    b = list(board)
                    b[dst] = piece
                    out.update((E.WRITE, piece, dst, st) for st in steps(b))
        if not out:
            out.update((E.WRITE, 0, -1, st) for st in steps(board))
    elif kind == E.JUMP:
        for t in squares:
            if board[t] and t not in marked:
                if t in block or not (_block(board, squares, t) & marked):
                    out.add((E.JUMP, -1, -1, t))
        if not out:
            out.add((E.JUMP, -1, -1, -1))
    else:
        erasers = [c for c in block if E.kind_of(board[c]) == E.ERASE]
        near = [d for d in squares if any(_adjacent(d, e) for e in erasers)]
        targets = [d for d in near if board[d] and d not in marked]
        if any(not board[d] for d in near) or not targets:
            out.update((E.ERASE, -1, -1, st) for st in steps(board))
        for t in targets:
            b = list(board)
            b[t] = 0
            out.update((E.ERASE, t, -1, st) for st in steps(b))
    return out


def _random_states(seed: int, players: int, limit: int = 60):
    rng = random.Random(seed)
    s = finish_setup(GAME, GAME.initial_state(GAME.options_type(players=players)), rng)
    for _ in range(limit):
        if s.phase != PLAY:
            return
        if s.offer < 0:  # an open stalemate offer has answers, not turns
            yield s
        seat = GAME.to_act(s)[0]
        actions = GAME.bot_actions(s, seat) if rng.random() < 0.7 else GAME.legal_actions(s, seat)
        s, _ = GAME.apply(s, seat, rng.choice(actions))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([2, 2, 3, 4]))
def test_engine_turns_match_a_brute_force_reading_of_the_rules(seed, players):
    for s in _random_states(seed, players):
        engine = GAME.turns(s)
        assert len(engine) == len(set(engine))
        assert set(engine) == naive_turns(s), position_to_str(s)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([2, 3, 4]))
def test_random_play_keeps_every_invariant_and_positions_round_trip(seed, players):
    rng = random.Random(seed)
    s = GAME.initial_state(GAME.options_type(players=players))
    for _ in range(600):
        GAME.check_invariants(s)
        if s.phase == PLAY and s.offer < 0 and not s.declined:  # offers have no notation
            assert position_from_str(GAME, position_to_str(s)) == s
        seats = GAME.to_act(s)
        if not seats:
            break
        seat = rng.choice(seats)
        if seat == CHANCE:
            a = GAME.sample_chance(s, rng)
        else:
            a = rng.choice(GAME.legal_actions(s, seat))
            assert GAME.action_from_str(GAME.action_to_str(a)) == a
        s, _ = GAME.apply(s, seat, a)
    assert GAME.outcome(s) is not None


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**9))
def test_views_never_show_another_seats_program_while_building(seed):
    rng = random.Random(seed)
    s = GAME.initial_state(GAME.options_type(players=3))
    while s.phase == BUILD:
        seat = rng.choice(GAME.to_act(s))
        s, _ = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat)))
        if s.phase != BUILD:
            break  # everyone is ready: the reveal
        for viewer in (0, 1, 2, None):
            v = GAME.view(s, viewer)
            for q in range(3):
                if q != viewer:
                    assert v.programs[q] == () and v.marks[q] == -1


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**9))
def test_fast_playout_returns_a_result_for_every_seat(seed):
    rng = random.Random(seed)
    players = 2 + seed % 3
    values = GAME.random_playout(GAME.initial_state(GAME.options_type(players=players)), rng)
    assert len(values) == players and all(-1 <= v <= 1 for v in values)


def test_an_action_turn_is_none_for_set_up_actions():
    from cellwars_tui.games.virus_fight.rules import Ready

    assert action_turn(None, Ready()) is None


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([2, 3, 4]))
def test_the_fast_random_turn_is_the_turn_at_that_index_of_the_full_list(seed, players):
    for s in _random_states(seed, players, limit=40):
        seat = s.queue[0]
        nb = E.NEIGHBOURS[s.size]
        turns = E.gen_turns(s.board, nb, s.markers, seat, s.spares[seat])
        for i in range(len(turns)):
            r = (i + 0.5) / len(turns)
            assert E.random_turn(s.board, nb, s.markers, seat, s.spares[seat], r) == turns[i]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([2, 3, 4]), st.integers(0, 30))
def test_the_playouts_set_up_is_one_the_actions_reach(seed, players, partial):
    """finish_setup works on plain lists: replaying its programs, first player and placements
    as actions from the same start gives the very same state."""
    from cellwars_tui.games.virus_fight.rules import First, Mark, Place, Ready

    rng = random.Random(seed)
    s = GAME.initial_state(GAME.options_type(players=players))
    for _ in range(partial):  # a set-up part way through, as a search may meet it
        seats = GAME.to_act(s)
        if not seats or s.phase == PLAY:
            break
        seat = rng.choice(seats)
        a = GAME.sample_chance(s, rng) if seat == CHANCE else rng.choice(
            GAME.legal_actions(s, seat))
        s, _ = GAME.apply(s, seat, a)
    if s.phase == PLAY:
        return
    fast = finish_setup(GAME, s, random.Random(seed))
    GAME.check_invariants(fast)
    slow = s
    if slow.phase == BUILD:
        for q in range(players):
            if slow.ready[q]:
                continue
            prog = fast_program(fast, s, q)
            for code in prog[len(slow.programs[q]):]:
                slow, _ = GAME.apply(slow, q, GAME.action_from_str(f"add {E.piece_name(code)}"))
            if slow.marks[q] != fast_mark(fast, s, q):
                slow, _ = GAME.apply(slow, q, Mark(fast_mark(fast, s, q)))
            slow, _ = GAME.apply(slow, q, Ready())
    if slow.phase == 1:
        slow, _ = GAME.apply(slow, CHANCE, First(fast.first))
    while slow.phase == 2:
        q = slow.queue[0]
        slow, _ = GAME.apply(slow, q, Place(_start_of(players, q, slow.programs[q], fast)))
    assert slow == fast


def home_line_of(players, seat):
    from cellwars_tui.games.virus_fight.rules import home_line

    return home_line(players, seat)


def _start_of(players, seat, prog, fast):
    """The start square where ``prog`` lies on ``seat``'s home line in ``fast``'s board."""
    line = home_line_of(players, seat)
    for off in range(len(line) - len(prog) + 1):
        if all(fast.board[line[off + i]] == c for i, c in enumerate(prog)):
            return line[off]
    raise AssertionError("program not found on its home line")


def fast_program(fast, s, seat):
    """The program ``finish_setup`` gave ``seat`` (read back from the board)."""
    line = home_line_of(fast.players, seat)
    cells = [sq for sq in line if fast.board[sq]]
    return tuple(fast.board[sq] for sq in cells)


def fast_mark(fast, s, seat):
    line = home_line_of(fast.players, seat)
    cells = [sq for sq in line if fast.board[sq]]
    return cells.index(fast.markers[seat])


def _match(seed: int, players: int):
    from cellwars_tui.core import Match, Seat

    seats = [Seat(name=f"P{i + 1}") for i in range(players)]
    return Match(GAME, GAME.options_type(players=players, round_limit=12), seats, seed)


def _random_action(m, rng):
    seat = rng.choice(m.to_act())
    return seat, rng.choice(list(m.legal_actions(seat)))


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([2, 3, 4]))
def test_undo_after_any_action_restores_the_exact_prior_state(seed, players):
    rng = random.Random(seed)
    m = _match(seed, players)
    while not m.is_over():
        before, cursor = m.state, m.cursor
        seat, action = _random_action(m, rng)
        m.play(seat, action)  # (a first-player draw that follows is played by the match)
        after = m.state
        assert m.undo()
        assert m.cursor == cursor and m.state == before
        assert GAME.decode_state(GAME.encode_state(m.state)) == before
        assert m.redo() and m.state == after


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([2, 3, 4]))
def test_undo_against_bots_returns_to_the_humans_previous_decision(seed, players):
    rng = random.Random(seed)
    m = _match(seed, players)
    human = {0}
    last_human_state = None
    while not m.is_over():
        seat, action = _random_action(m, rng)
        if seat == 0:
            last_human_state = m.state
        m.play(seat, action)
        if last_human_state is not None and rng.random() < 0.2:
            end, state = m.cursor, m.state
            assert m.undo(human)
            assert m.state == last_human_state and 0 in m.to_act()
            m.redo(human)
            while m.cursor < end and m.redo(human):
                pass
            assert m.state == state


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([2, 3, 4]), st.integers(0, 200))
def test_a_record_written_during_play_replays_to_the_exact_state(seed, players, stop):
    from cellwars_tui.record import decode_record, encode_record, match_to_record
    from cellwars_tui.record.format import record_to_match

    rng = random.Random(seed)
    m = _match(seed, players)
    while not m.is_over() and m.cursor < stop:
        m.play(*_random_action(m, rng))
    again = record_to_match(decode_record(encode_record(match_to_record(m))))
    assert again.state == m.state and again.cursor == m.cursor
    assert [s.action for s in again.history] == [s.action for s in m.history]
