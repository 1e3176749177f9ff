"""Virus Fight's turn generator and board geometry on plain ints, shared by the rules, perft and
the fast random playouts (no msgspec objects on the hot path).

Squares are numbered like chess squares on an 8-wide grid: ``sq = rank * 8 + file`` with rank 0
at the South edge, so a square's number does not depend on the board size and an action's
notation can be read without a state. A board is a sequence of ``size * 8`` ints: 0 for an empty
square, else a piece code ``1..12`` (``type * 3 + pip``; types MOVE, WRITE, JUMP, ERASE).

A *turn* is a 4-tuple ``(kind, a, b, step)``:

* MOVE  ``a`` = from, ``b`` = to (both -1 when nothing can move)
* WRITE ``a`` = piece code written (0: nothing written), ``b`` = square (-1)
* JUMP  ``a`` = ``b`` = -1, ``step`` = landing square
* ERASE ``a`` = erased square (-1: nothing erased), ``b`` = -1

``step`` is where the marker ends (-1: the marker cannot move and the player is eliminated).
"""

from __future__ import annotations

MOVE, WRITE, JUMP, ERASE = 0, 1, 2, 3
TYPE_LETTERS = "MWJE"
TYPE_NAMES = ("MOVE", "WRITE", "JUMP", "ERASE")
ALL_CODES = tuple(range(1, 13))


def code(kind: int, pip: int) -> int:
    return kind * 3 + pip


def kind_of(c: int) -> int:
    return (c - 1) // 3


def pip_of(c: int) -> int:
    return (c - 1) % 3 + 1


def piece_name(c: int) -> str:
    return f"{TYPE_LETTERS[kind_of(c)]}{pip_of(c)}"


KIND = (-1,) + tuple(kind_of(c) for c in ALL_CODES)
PIP = (0,) + tuple(pip_of(c) for c in ALL_CODES)


def square(file: int, rank: int) -> int:
    return rank * 8 + file


def square_name(sq: int) -> str:
    return f"{chr(97 + (sq & 7))}{(sq >> 3) + 1}"


def _neighbours(size: int) -> tuple[tuple[int, ...], ...]:
    out: list[tuple[int, ...]] = []
    for sq in range(size * 8):
        f, r = sq & 7, sq >> 3
        if f >= size:
            out.append(())
            continue
        nb = []
        for df, dr in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            g, s = f + df, r + dr
            if 0 <= g < size and 0 <= s < size:
                nb.append(s * 8 + g)
        out.append(tuple(nb))
    return tuple(out)


NEIGHBOURS = {5: _neighbours(5), 6: _neighbours(6)}
SQUARES = {n: tuple(r * 8 + f for r in range(n) for f in range(n)) for n in (5, 6)}


def board_size(players: int) -> int:
    return 5 if players == 2 else 6


def block_of(board, nb, start: int) -> list[int]:
    """The block (orthogonally connected instructions) holding ``start``."""
    seen = {start}
    todo = [start]
    for c in todo:
        for d in nb[c]:
            if board[d] and d not in seen:
                seen.add(d)
                todo.append(d)
    return todo


def gen_turns(board, nb, markers, seat: int, spares) -> list[tuple[int, int, int, int]]:
    """Every distinct turn of ``seat`` (whose marker must be on the board)."""
    m = markers[seat]
    others = set()
    for s, c in enumerate(markers):
        if s != seat and c >= 0:
            others.add(c)
    kind = KIND[board[m]]
    block = block_of(board, nb, m)
    nbm = nb[m]
    base = [c for c in nbm if board[c] and c not in others]
    out: list[tuple[int, int, int, int]] = []
    append = out.append
    if kind == MOVE or kind == WRITE:
        # empty squares next to the block, with how many block instructions touch each
        touch: dict[int, int] = {}
        for c in block:
            for d in nb[c]:
                if not board[d]:
                    touch[d] = touch.get(d, 0) + 1
        if kind == MOVE:
            for src in block:
                if src == m or src in others:
                    continue
                nbs = nb[src]
                src_next_to_m = src in nbm
                steps_wo = [c for c in base if c != src] if src_next_to_m else base
                for dst, n in touch.items():
                    if n == 1 and dst in nbs:
                        continue  # only touched the block through the moving instruction
                    if dst in nbm:
                        for st in steps_wo:
                            append((MOVE, src, dst, st))
                        append((MOVE, src, dst, dst))
                    elif steps_wo:
                        for st in steps_wo:
                            append((MOVE, src, dst, st))
                    else:
                        append((MOVE, src, dst, -1))
            if not out:
                for st in base or (-1,):
                    append((MOVE, -1, -1, st))
            return out
        codes = sorted(set(spares))
        if codes and touch:
            for dst in touch:
                near = dst in nbm
                for cd in codes:
                    if near:
                        for st in base:
                            append((WRITE, cd, dst, st))
                        append((WRITE, cd, dst, dst))
                    elif base:
                        for st in base:
                            append((WRITE, cd, dst, st))
                    else:
                        append((WRITE, cd, dst, -1))
            return out
        for st in base or (-1,):
            append((WRITE, 0, -1, st))
        return out
    if kind == JUMP:
        for c in block:
            if c != m and c not in others:
                append((JUMP, -1, -1, c))
        seen = set(block)
        for sq in range(len(board)):
            if board[sq] and sq not in seen:
                other = block_of(board, nb, sq)
                seen.update(other)
                if not any(c in others for c in other):
                    for c in other:
                        append((JUMP, -1, -1, c))
        if not out:
            append((JUMP, -1, -1, -1))
        return out
    # ERASE
    targets: set[int] = set()
    empty_near = False
    for e in block:
        if KIND[board[e]] != ERASE:
            continue
        for d in nb[e]:
            if not board[d]:
                empty_near = True
            elif d != m and d not in others:
                targets.add(d)
    if empty_near or not targets:
        for st in base or (-1,):
            append((ERASE, -1, -1, st))
    for t in sorted(targets):
        steps = [c for c in base if c != t]
        for st in steps or (-1,):
            append((ERASE, t, -1, st))
    return out


def random_turn(board, nb, markers, seat: int, spares, r: float) -> tuple[int, int, int, int]:
    """``gen_turns(...)[int(r * len(turns))]`` for ``0 <= r < 1``, without building the list
    for MOVE and WRITE (whose turns are counted per square, then the one at the index is
    made): the same turn, so random playouts stay uniform and reproducible, only faster."""
    m = markers[seat]
    kind = KIND[board[m]]
    if kind == JUMP or kind == ERASE:
        turns = gen_turns(board, nb, markers, seat, spares)
        return turns[int(r * len(turns))]
    others = set()
    for s, c in enumerate(markers):
        if s != seat and c >= 0:
            others.add(c)
    block = block_of(board, nb, m)
    nbm = nb[m]
    base = [c for c in nbm if board[c] and c not in others]
    touch: dict[int, int] = {}
    for c in block:
        for d in nb[c]:
            if not board[d]:
                touch[d] = touch.get(d, 0) + 1
    if kind == MOVE:
        groups = []
        total = 0
        for src in block:
            if src == m or src in others:
                continue
            nbs = nb[src]
            steps_wo = [c for c in base if c != src] if src in nbm else base
            for dst, n in touch.items():
                if n == 1 and dst in nbs:
                    continue
                if dst in nbm:
                    cnt = len(steps_wo) + 1
                else:
                    cnt = len(steps_wo) or 1
                groups.append((src, dst, steps_wo, cnt))
                total += cnt
        if not total:
            opts = base or [-1]
            return (MOVE, -1, -1, opts[int(r * len(opts))])
        i = int(r * total)
        for src, dst, steps_wo, cnt in groups:
            if i < cnt:
                if i < len(steps_wo):
                    return (MOVE, src, dst, steps_wo[i])
                return (MOVE, src, dst, dst if dst in nbm else -1)
            i -= cnt
        raise AssertionError("index past the last MOVE")
    codes = sorted(set(spares))
    if codes and touch:
        nc = len(codes)
        nbase = len(base)
        total = 0
        for dst in touch:
            total += nc * ((nbase + 1) if dst in nbm else (nbase or 1))
        i = int(r * total)
        for dst in touch:
            near = dst in nbm
            k = (nbase + 1) if near else (nbase or 1)
            if i < nc * k:
                j = i % k
                st = base[j] if j < nbase else (dst if near else -1)
                return (WRITE, codes[i // k], dst, st)
            i -= nc * k
        raise AssertionError("index past the last WRITE")
    opts = base or [-1]
    return (WRITE, 0, -1, opts[int(r * len(opts))])


def do_turn(board: list, markers: list, spares: list, seat: int, turn) -> int:
    """Apply ``turn`` in place (``spares[seat]`` is a list). Returns the captured/written code."""
    kind, a, b, step = turn
    piece = 0
    if kind == MOVE:
        if a >= 0:
            board[b] = board[a]
            board[a] = 0
    elif kind == WRITE:
        if a:
            board[b] = a
            spares[seat].remove(a)
            piece = a
    elif kind == ERASE:
        if a >= 0:
            piece = board[a]
            spares[seat].append(piece)
            board[a] = 0
    markers[seat] = step
    return piece


def next_first(board, markers, first: int, players: int) -> int:
    """The first player of the next round: highest pip under a marker; the current first player
    keeps the role when tied for highest; otherwise the tied player nearest clockwise."""
    best = -1
    for s in range(players):
        c = markers[s]
        if c >= 0 and PIP[board[c]] > best:
            best = PIP[board[c]]
    if markers[first] >= 0 and PIP[board[markers[first]]] == best:
        return first
    for k in range(1, players + 1):
        s = (first + k) % players
        c = markers[s]
        if c >= 0 and PIP[board[c]] == best:
            return s
    return first


def round_order(markers, first: int, players: int) -> tuple[int, ...]:
    return tuple(s for k in range(players) if markers[s := (first + k) % players] >= 0)
