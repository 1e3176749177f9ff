"""Virus Fight notation: actions, event sentences, the one-line position notation and perft.

Actions (squares named like chess squares, a1 at the South-West corner)::

    add M3 | drop | mark 2 | ready            building (mark counts from 1, left to right)
    first 2                                   chance: seat 2 goes first (seats count from 1)
    place b1                                  the program's first instruction goes on b1
    move b1-c2 >b2 | move - >b2               MOVE (``-``: nothing could move)
    write W2@c2 >c2 | write - >b2             WRITE (``-``: nothing written)
    jump d4 | jump out                        JUMP (``out``: nowhere to land, eliminated)
    erase c3 >b2 | erase - >b2                ERASE (``-``: nothing erased)
    ... >out                                  the marker cannot step: eliminated
    offer | agree | decline                   a stalemate offered (on one's turn) and answered

Position notation (play phase), six fields separated by spaces::

    .M3W1E2./...../...../...../J1M2E3.. c1,b5 M1M2W1,- 12 1 3/50

1. the board, ranks from the North edge (top) down to rank 1, separated by ``/``; each square is
   ``.`` (empty) or an instruction: its type letter (M W J E) and its pip (1-3);
2. each seat's marker square, comma separated, ``-`` for an eliminated seat (the number of seats
   gives the player count: 5x5 for two, 6x6 for three or four);
3. each seat's spare instructions, comma separated, ``-`` for none;
4. the seats still to act in this round, in order (seats count from 1);
5. this round's first player;
6. the round number and the round limit, ``round/limit`` (``/limit`` may be left out: 50).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence

from ...core.api import CHANCE, Action, Event
from ...core.errors import BadNotation, CellwarsError
from ...cli_types import whole
from ...core.meta import GameTool
from . import clarifications as C
from . import engine as E
from .engine import ERASE, MOVE, TYPE_LETTERS, WRITE, piece_name, square_name
from .types import (PLAY, Add, Agree, Decline, Drop, Eliminated, Erase, Executed, First,
                    FirstPlayer, GameOver, Jump, Mark, Move, NewRound, Offer, Place, Placed,
                    ProgramReady, Ready, Revealed, StalemateAgreed, StalemateDeclined,
                    StalemateOffered, Stepped, VFState, Write, side_name, turn_action)


def _sq(sq: int) -> str:
    return "-" if sq < 0 else square_name(sq)


def _step(sq: int) -> str:
    return ">out" if sq < 0 else ">" + square_name(sq)


def action_to_str(a: Action) -> str:
    if isinstance(a, Move):
        what = "-" if a.src < 0 else f"{square_name(a.src)}-{square_name(a.dst)}"
        return f"move {what} {_step(a.step)}"
    if isinstance(a, Write):
        what = "-" if not a.piece else f"{piece_name(a.piece)}@{square_name(a.dst)}"
        return f"write {what} {_step(a.step)}"
    if isinstance(a, Jump):
        return f"jump {'out' if a.to < 0 else square_name(a.to)}"
    if isinstance(a, Erase):
        return f"erase {_sq(a.target)} {_step(a.step)}"
    if isinstance(a, Add):
        return f"add {piece_name(a.piece)}"
    if isinstance(a, Drop):
        return "drop"
    if isinstance(a, Mark):
        return f"mark {a.index + 1}"
    if isinstance(a, Ready):
        return "ready"
    if isinstance(a, Offer):
        return "offer"
    if isinstance(a, Agree):
        return "agree"
    if isinstance(a, Decline):
        return "decline"
    if isinstance(a, First):
        return f"first {a.seat + 1}"
    if isinstance(a, Place):
        return f"place {square_name(a.sq)}"
    raise BadNotation(f"Virus Fight: not an action: {a!r}")


def parse_square(text: str) -> int:
    t = text.strip().lower()
    if len(t) == 2 and "a" <= t[0] <= "f" and "1" <= t[1] <= "6":
        return E.square(ord(t[0]) - 97, int(t[1]) - 1)
    raise ValueError(f"{text!r} is not a square a1..f6")


def parse_piece(text: str) -> int:
    t = text.strip().upper()
    if len(t) == 2 and t[0] in TYPE_LETTERS and t[1] in "123":
        return E.code(TYPE_LETTERS.index(t[0]), int(t[1]))
    raise ValueError(f"{text!r} is not an instruction like M3 or E1")


def _parse_step(text: str) -> int:
    if not text.startswith(">"):
        raise ValueError("the marker step must look like >b2 or >out")
    rest = text[1:]
    return -1 if rest.lower() == "out" else parse_square(rest)


def action_from_str(game, text: str) -> Action:
    from ...core.api import parse_error

    words = text.split()
    try:
        if not words:
            raise ValueError("empty action")
        verb, args = words[0].lower(), words[1:]
        if verb in ("drop", "ready", "offer", "agree", "decline") and not args:
            return {"drop": Drop, "ready": Ready, "offer": Offer, "agree": Agree,
                    "decline": Decline}[verb]()
        if verb == "add" and len(args) == 1:
            return Add(parse_piece(args[0]))
        if verb == "mark" and len(args) == 1 and args[0].isdigit():
            i = int(args[0])
            if not 1 <= i <= C.MAX_PROGRAM:
                raise ValueError(f"mark counts 1 to {C.MAX_PROGRAM}")
            return Mark(i - 1)
        if verb == "first" and len(args) == 1 and args[0].isdigit():
            i = int(args[0])
            if not 1 <= i <= 4:
                raise ValueError("seats count 1 to 4")
            return First(i - 1)
        if verb == "place" and len(args) == 1:
            return Place(parse_square(args[0]))
        if verb == "jump" and len(args) == 1:
            return Jump(-1 if args[0].lower() == "out" else parse_square(args[0]))
        if verb in ("move", "write", "erase") and len(args) == 2:
            what, step = args[0], _parse_step(args[1])
            if verb == "move":
                if what == "-":
                    return Move(-1, -1, step)
                src, sep, dst = what.partition("-")
                if not sep:
                    raise ValueError("a move looks like b1-c2")
                return Move(parse_square(src), parse_square(dst), step)
            if verb == "write":
                if what == "-":
                    return Write(0, -1, step)
                piece, sep, dst = what.partition("@")
                if not sep:
                    raise ValueError("a write looks like W2@c2")
                return Write(parse_piece(piece), parse_square(dst), step)
            return Erase(-1 if what == "-" else parse_square(what), step)
        raise ValueError("expected add, drop, mark, ready, first, place, move, write, jump, "
                         "erase, offer, agree or decline")
    except ValueError as exc:
        raise parse_error(game, text, str(exc)) from None


# -- event sentences ----------------------------------------------------------------------------
def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"


def program_text(prog: Sequence[int], mark: int) -> str:
    return " ".join(f"[{piece_name(c)}]" if i == mark else piece_name(c)
                    for i, c in enumerate(prog))


def describe_event(e: Event, names: Sequence[str]) -> str:
    if isinstance(e, ProgramReady):
        return f"{_name(names, e.seat)} has a program ready."
    if isinstance(e, Revealed):
        parts = [f"{_name(names, q)}: {program_text(p, m)}"
                 for q, (p, m) in enumerate(zip(e.programs, e.marks))]
        return "Programs revealed (marker in brackets): " + "; ".join(parts) + "."
    if isinstance(e, FirstPlayer):
        return f"{_name(names, e.seat)} goes first ({e.reason})."
    if isinstance(e, Placed):
        return (f"{_name(names, e.seat)} places the program on "
                f"{square_name(e.squares[0])}-{square_name(e.squares[-1])}.")
    if isinstance(e, Executed):
        who = _name(names, e.seat)
        if e.instruction == MOVE:
            if e.src < 0:
                return f"{who} runs MOVE, but nothing can move."
            return (f"{who} runs MOVE: {piece_name(e.piece)} goes from {square_name(e.src)} "
                    f"to {square_name(e.dst)}.")
        if e.instruction == WRITE:
            if not e.piece:
                return f"{who} runs WRITE, but writes nothing."
            return f"{who} runs WRITE: {piece_name(e.piece)} written on {square_name(e.dst)}."
        if e.instruction == ERASE:
            if e.src < 0:
                return f"{who} runs ERASE, erasing nothing."
            return (f"{who} runs ERASE: {piece_name(e.piece)} on {square_name(e.src)} is "
                    "captured.")
        if e.dst < 0:
            return f"{who} runs JUMP, but has nowhere to land."
        return f"{who} runs JUMP: the marker lands on {square_name(e.dst)}."
    if isinstance(e, Stepped):
        return f"{_name(names, e.seat)}'s marker steps to {square_name(e.sq)}."
    if isinstance(e, Eliminated):
        return f"{_name(names, e.seat)}'s marker cannot move: {_name(names, e.seat)} is out."
    if isinstance(e, NewRound):
        return f"Round {e.round}: {_name(names, e.first)} goes first."
    if isinstance(e, StalemateOffered):
        return (f"{_name(names, e.seat)} offers a stalemate (most spares, then pips, would "
                "win).")
    if isinstance(e, StalemateAgreed):
        return f"{_name(names, e.seat)} agrees to the stalemate."
    if isinstance(e, StalemateDeclined):
        return (f"{_name(names, e.seat)} declines the stalemate: {_name(names, e.offer)} plays "
                "on.")
    if isinstance(e, GameOver):
        if not e.winners:
            return f"Game over ({e.termination})."
        who = " and ".join(_name(names, q) for q in e.winners)
        verb = "wins" if len(e.winners) == 1 else "share the win"
        return f"Game over ({e.termination}): {who} {verb}."
    return repr(e)


# -- positions ----------------------------------------------------------------------------------
def position_to_str(s: VFState) -> str:
    if s.phase != PLAY:
        raise BadNotation("Virus Fight: only positions of the play phase have a notation")
    n = s.size
    ranks = []
    for r in range(n - 1, -1, -1):
        ranks.append("".join(piece_name(s.board[r * 8 + f]) if s.board[r * 8 + f] else "."
                             for f in range(n)))
    markers = ",".join(_sq(c) for c in s.markers)
    spares = ",".join("".join(piece_name(c) for c in x) or "-" for x in s.spares)
    queue = "".join(str(q + 1) for q in s.queue)
    return (f"{'/'.join(ranks)} {markers} {spares} {queue} {s.first + 1} "
            f"{s.round}/{s.round_limit}")


def position_from_str(game, text: str) -> VFState:
    from ...core.api import parse_error

    try:
        return _position(text)
    except (ValueError, IndexError) as exc:
        raise parse_error(game, text, str(exc)) from None


def _is_number(text: str) -> bool:
    """ASCII digits only, at most six (``str.isdigit`` also takes "²" and "①", which ``int``
    refuses, and "٣", which ``int`` reads as 3; and ``int`` refuses more than 4,300 digits)."""
    return 0 < len(text) <= 6 and text.isascii() and text.isdigit()


def _position(text: str) -> VFState:
    fields = text.split()
    if len(fields) != 6:
        raise ValueError("a position has six fields: board markers spares queue first round")
    board_f, markers_f, spares_f, queue_f, first_f, round_f = fields
    marker_words = markers_f.split(",")
    players = len(marker_words)
    if not 2 <= players <= 4:
        raise ValueError("two to four markers expected")
    size = E.board_size(players)
    ranks = board_f.split("/")
    if len(ranks) != size:
        raise ValueError(f"{players} players play on {size}x{size}: {size} ranks expected")
    board = [0] * (size * 8)
    for i, rank_text in enumerate(ranks):
        r = size - 1 - i
        f, k = 0, 0
        while k < len(rank_text):
            if f >= size:
                raise ValueError(f"rank {r + 1} is longer than {size} squares")
            if rank_text[k] == ".":
                k += 1
            else:
                board[r * 8 + f] = parse_piece(rank_text[k: k + 2])
                k += 2
            f += 1
        if f != size:
            raise ValueError(f"rank {r + 1} has {f} squares, not {size}")
    markers = tuple(-1 if w == "-" else parse_square(w) for w in marker_words)
    for c in markers:
        if c >= 0 and ((c & 7) >= size or (c >> 3) >= size or not board[c]):
            raise ValueError(f"marker on {square_name(c)}, which holds no instruction")
    live = [c for c in markers if c >= 0]
    if len(set(live)) != len(live):
        raise ValueError("two markers on one instruction")
    if len(live) < 2:
        raise ValueError("at least two markers must be running")
    spare_words = spares_f.split(",")
    if len(spare_words) != players:
        raise ValueError(f"{players} spare lists expected")
    spares: list[tuple[int, ...]] = []
    for w in spare_words:
        if w == "-":
            spares.append(())
            continue
        if len(w) % 2:
            raise ValueError(f"bad spare list {w!r}")
        spares.append(tuple(sorted(parse_piece(w[k:k + 2]) for k in range(0, len(w), 2))))
    total = sum(1 for c in board if c) + sum(len(x) for x in spares)
    if total != 12 * players:
        raise ValueError(f"{total} instructions in all, not {12 * players}")
    for c in range(1, 13):
        count = board.count(c) + sum(x.count(c) for x in spares)
        if count != players:
            raise ValueError(f"{piece_name(c)} appears {count} times, not {players}")
    if not _is_number(queue_f):
        raise ValueError("the queue lists seats like 12")
    queue = tuple(int(ch) - 1 for ch in queue_f)
    if not queue or any(not 0 <= q < players or markers[q] < 0 for q in queue) or len(
            set(queue)) != len(queue):
        raise ValueError("the queue must list running seats, each once")
    if not (_is_number(first_f) and 1 <= int(first_f) <= players):
        raise ValueError(f"first player must be a seat number 1..{players}, not {first_f!r}")
    rnd_text, slash, limit_text = round_f.partition("/")
    if not _is_number(rnd_text) or slash and not _is_number(limit_text):
        raise ValueError(f"the round field looks like 3/50 or 3 (limit 50), not {round_f!r}")
    rnd = int(rnd_text)
    limit = int(limit_text) if slash else C.ROUND_LIMIT_DEFAULT
    if not (C.ROUND_LIMIT_MIN <= limit <= C.ROUND_LIMIT_MAX):
        raise ValueError(f"the round limit must be {C.ROUND_LIMIT_MIN}..{C.ROUND_LIMIT_MAX}, "
                         f"not {limit}")
    if not 1 <= rnd <= limit:
        raise ValueError(f"the round must be 1..{limit}, not {rnd}")
    return VFState(players=players, size=size, phase=PLAY, board=tuple(board), markers=markers,
                   spares=tuple(spares), programs=((),) * players, marks=(-1,) * players,
                   ready=(True,) * players, first=int(first_f) - 1, queue=queue, round=rnd,
                   round_limit=limit)


# Fixed positions for perft and benchmarks (also in tests/games/virus_fight/perft.txt).
STANDARD: dict[str, str] = {
    "opening-2a": ".J3M2M1E2/...../...../...../..W3M3J1 c1,c5 M1M2W1W2J2J3E1E2E3,M3W1W2W3J1J2E1E3 12 1 1/50",
    "opening-2b": "W3M3E2M1W1/...../...../...../W1M1J3E2M3 b1,e5 M2W2W3J1J2E1E3,M2W2J1J2J3E1E3 12 1 1/50",
    "opening-3": "J1M1J2W2W1M3/J3...../W3...../....../....../W2M2M1E3J1. b1,a4,c6 M3W1W3J2J3E1E2,M1M2M3W1W2J2E1E2E3,M2W3J1J3E1E2E3 231 2 1/50",
    "opening-4": "W1E3W2J1M2W3/M1....E3/J1....M3/.....J3/.....E1/J3W3E1M1.M2 c1,a5,b6,f1 M2M3W1W2J1J2E2E3,M2M3W2W3J2J3E1E2E3,M1M3W1J2J3E1E2,M1W1W2W3J1J2E2 2341 2 1/50",
    "midgame-2a": "...M1./..J3E2M2/...../..W1J1./.E2W3M3. c2,d4 M1M2W2J2J3E1E3,M3W1W2W3J1J2E1E3 21 2 5/50",
    "midgame-2b": ".E3.M3W2/W1M2..J3/...../...../J2J3J1W2W3 a4,e5 M1M2M3W1E1E2E3,M1W3J1J2E1E2 21 2 5/50",
    "midgame-3": "...J1M3./E2W1.W1W2./J2E2..../J1...../J3...../M2M3..W1. b1,a4,e5 M1W2W3J1J2E1E3,M1M2M3W2W3J3E1E3,M1M2W3J2J3E1E2E3 123 1 4/50",
    "midgame-4": ".W2J3J1M1M2/J1..E3../J2...../...E1../M2.J1M3.W1/W1W2M2.J3M1 a1,c1,f6,f1 M1M3W3J2J3E1E2E3,M1W1W2W3J3E2,M3W1W3J2E1E2E3,M2M3W2W3J1J2E1E2E3 41 2 3/50",
}
DEFAULT_POSITION = STANDARD["opening-2a"]


# -- perft --------------------------------------------------------------------------------------
def perft(game, s: VFState, depth: int) -> int:
    """Count turn sequences of ``depth`` turns (one node per distinct turn; bulk-counted)."""
    if depth < 0:
        raise ValueError(f"perft depth must be 0 or more, not {depth}")
    if depth == 0:
        return 1
    if s.phase != PLAY:
        return 0 if depth else 1
    board = list(s.board)
    markers = list(s.markers)
    spares = [list(x) for x in s.spares]
    return _perft(board, markers, spares, s.queue, s.first, s.round, s.round_limit, s.players,
                  E.NEIGHBOURS[s.size], depth)


def _perft(board, markers, spares, queue, first, rnd, limit, players, nb, depth) -> int:
    seat = queue[0]
    turns = E.gen_turns(board, nb, markers, seat, spares[seat])
    if depth == 1:
        return len(turns)
    total = 0
    mine = spares[seat]
    for t in turns:
        kind, a, b, step = t
        # apply
        old_m = markers[seat]
        if kind == MOVE and a >= 0:
            board[b] = board[a]
            board[a] = 0
        elif kind == WRITE and a:
            board[b] = a
            mine.remove(a)
        elif kind == ERASE and a >= 0:
            erased = board[a]
            mine.append(erased)
            board[a] = 0
        markers[seat] = step
        # next turn
        q2 = tuple(q for q in queue[1:] if markers[q] >= 0)
        alive = sum(1 for c in markers if c >= 0)
        if alive > 1:
            if q2:
                total += _perft(board, markers, spares, q2, first, rnd, limit, players, nb,
                                depth - 1)
            elif rnd < limit:
                f2 = E.next_first(board, markers, first, players)
                total += _perft(board, markers, spares, E.round_order(markers, f2, players), f2,
                                rnd + 1, limit, players, nb, depth - 1)
        # undo
        markers[seat] = old_m
        if kind == MOVE and a >= 0:
            board[a] = board[b]
            board[b] = 0
        elif kind == WRITE and a:
            board[b] = 0
            mine.append(a)
        elif kind == ERASE and a >= 0:
            mine.remove(erased)
            board[a] = erased
    return total


def perft_cli(game, position: str | None, depth: int, divide: bool = False) -> int:
    """``cellwars perft virus-fight [--position TEXT] [--depth N] [--divide]``: the node count (and
    with ``--divide`` the count below each first turn). No position given: the standard opening;
    an empty one is an error. Depth 0 counts the position itself: ``nodes 1``, nothing to divide."""
    if position is None:
        position = DEFAULT_POSITION
    if not position.strip():
        raise BadNotation("Virus Fight: the position is empty (leave out --position for the "
                          "standard opening)")
    s = position_from_str(game, position)
    if depth < 0:
        raise BadNotation(f"perft depth must be 0 or more, not {depth}")
    t0 = time.perf_counter()
    if divide and depth > 0:
        total = 0
        for t in game.turns(s):
            a = turn_action(t)
            child, _ = game._apply(s, s.queue[0], a)
            n = perft(game, child, depth - 1)
            total += n
            print(f"{action_to_str(a)}: {n}")
    else:
        total = perft(game, s, depth)
    dt = time.perf_counter() - t0
    print(f"nodes {total}")
    print(f"time {dt:.3f} s ({total / dt if dt else 0:,.0f} nodes/s)", file=sys.stderr)
    return 0


def perft_tool(game) -> GameTool:
    """``cellwars perft virus-fight [--position TEXT] [--depth N] [--divide]``."""

    def add_arguments(parser) -> None:
        parser.add_argument("--position",
                            help="position notation (default: a standard opening)")
        parser.add_argument("--depth", type=whole("depth"), default=3,
                            help="turns to count (0-6, default 3)")
        parser.add_argument("--divide", action="store_true", help="count per first move")

    def run(args) -> int:
        if not 0 <= args.depth <= 6:
            raise CellwarsError(f"--depth must be between 0 and 6, not {args.depth}")
        return perft_cli(game, args.position, args.depth, divide=args.divide)

    return GameTool("perft", "count legal move paths from a position", add_arguments, run)


__all__ = ["action_to_str", "action_from_str", "describe_event", "position_to_str",
           "position_from_str", "perft", "perft_cli", "perft_tool", "STANDARD", "side_name", "CHANCE",
           "program_text"]
