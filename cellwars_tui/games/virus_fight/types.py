"""Virus Fight's types: phases, options, actions, events, the state, and the plain functions
over them that the rules, the notation and the bot share (home lines, start squares, the
first-player criteria, the stalemate winners).

Apart from :mod:`.rules` (the game) so that :mod:`.notation` and :mod:`.bot`, which the game
uses, import these without importing the game.
"""

from __future__ import annotations

import random

import msgspec

from ...core import Action, Event, Options
from . import clarifications as C
from . import engine as E
from .engine import ERASE, JUMP, MOVE, WRITE


BUILD, FIRST, PLACE, PLAY, OVER = 0, 1, 2, 3, 4
PHASE_NAMES = ("build", "first", "place", "play", "over")


class VirusFightOptions(Options, frozen=True, kw_only=True):
    players: int = 2
    rounds_per_rival: int = C.ROUNDS_PER_RIVAL  # the round limit: this for each rival
    round_limit: int = 0  # a fixed round limit instead (0: none; rules version 1 records: 50)


# -- actions -----------------------------------------------------------------------------------
class Add(Action, frozen=True, tag="add"):
    piece: int


class Drop(Action, frozen=True, tag="drop"):
    pass


class Mark(Action, frozen=True, tag="mark"):
    index: int  # 0-based position in the program line


class Ready(Action, frozen=True, tag="ready"):
    pass


class First(Action, frozen=True, tag="first"):
    seat: int


class Place(Action, frozen=True, tag="place"):
    sq: int  # square of the program's first instruction


class Move(Action, frozen=True, tag="move"):
    src: int
    dst: int
    step: int


class Write(Action, frozen=True, tag="write"):
    piece: int
    dst: int
    step: int


class Jump(Action, frozen=True, tag="jump"):
    to: int


class Erase(Action, frozen=True, tag="erase"):
    target: int
    step: int


class Offer(Action, frozen=True, tag="offer"):
    """Propose a stalemate instead of playing on (on one's turn, once until that turn is
    played)."""


class Agree(Action, frozen=True, tag="agree"):
    pass


class Decline(Action, frozen=True, tag="decline"):
    pass


VFAction = Add | Drop | Mark | Ready | First | Place | Move | Write | Jump | Erase | Offer | Agree \
    | Decline


# -- events ------------------------------------------------------------------------------------
class ProgramReady(Event, frozen=True, tag="ready"):
    seat: int


class Revealed(Event, frozen=True, tag="revealed"):
    programs: tuple[tuple[int, ...], ...]
    marks: tuple[int, ...]


class FirstPlayer(Event, frozen=True, tag="first"):
    seat: int
    reason: str


class Placed(Event, frozen=True, tag="placed"):
    seat: int
    squares: tuple[int, ...]


class Executed(Event, frozen=True, tag="executed"):
    seat: int
    instruction: int  # MOVE, WRITE, JUMP or ERASE
    piece: int = 0  # the instruction moved, written or erased (0: none)
    src: int = -1
    dst: int = -1


class Stepped(Event, frozen=True, tag="stepped"):
    seat: int
    sq: int


class Eliminated(Event, frozen=True, tag="eliminated"):
    seat: int


class NewRound(Event, frozen=True, tag="round"):
    round: int
    first: int


class GameOver(Event, frozen=True, tag="over"):
    winners: tuple[int, ...]
    termination: str


class StalemateOffered(Event, frozen=True, tag="offered"):
    seat: int


class StalemateAgreed(Event, frozen=True, tag="agreed"):
    seat: int


class StalemateDeclined(Event, frozen=True, tag="declined"):
    seat: int
    offer: int  # the seat whose offer was declined


VFEvent = (ProgramReady | Revealed | FirstPlayer | Placed | Executed | Stepped | Eliminated
           | NewRound | GameOver | StalemateOffered | StalemateAgreed | StalemateDeclined)


class VFState(msgspec.Struct, frozen=True, kw_only=True):
    players: int
    size: int
    phase: int
    board: tuple[int, ...]  # size * 8 squares (see engine), 0 = empty, else piece code
    markers: tuple[int, ...]  # square per seat, -1 before placing / once eliminated
    spares: tuple[tuple[int, ...], ...]  # sorted piece codes off the board, per seat
    programs: tuple[tuple[int, ...], ...] = ()  # build/first/place phases only
    marks: tuple[int, ...] = ()  # marker index in each program (-1: not yet put)
    ready: tuple[bool, ...] = ()
    first: int = 0
    queue: tuple[int, ...] = ()  # place/play: seats still to act in order; first: tied seats
    round: int = 0
    round_limit: int = C.ROUND_LIMIT_DEFAULT
    offer: int = -1  # play: the seat whose stalemate offer awaits the others' answers
    agreed: tuple[bool, ...] = ()  # per seat, while an offer is open (all True: agreed end)
    declined: bool = False  # the seat to act had its offer declined: it must play its turn


HIDDEN = 0  # stands for a hidden instruction in another seat's program (view only)


def eliminates(a: Action) -> bool:
    """Whether the turn ``a`` leaves its player's marker nowhere to step (the player is out)."""
    if isinstance(a, (Move, Write, Erase)):
        return a.step < 0
    if isinstance(a, Jump):
        return a.to < 0
    return False


def home_line(players: int, seat: int) -> tuple[int, ...]:
    """Squares of ``seat``'s home line, from that seat's left to its right."""
    if players == 2:
        line = C.HOME_5[seat]
    else:
        line = C.HOME_6[seat]
    return tuple(E.square(f, r) for f, r in line)


def side_name(players: int, seat: int) -> str:
    return C.SIDE_NAMES_2[seat] if players == 2 else C.SIDE_NAMES_6[seat]


def placements(s: VFState, seat: int) -> list[int]:
    """Start squares where ``seat`` may place its program now."""
    return start_squares(s.board, s.players, s.size, seat, len(s.programs[seat]))


def start_squares(board, players: int, size: int, seat: int, n: int) -> list[int]:
    """Where a program of ``n`` instructions may start on ``seat``'s home line of ``board``."""
    line = home_line(players, seat)
    nb = E.NEIGHBOURS[size]
    starts = []
    for off in range(len(line) - n + 1):
        cells = line[off: off + n]
        if all(not board[c] and not any(board[d] for d in nb[c]) for c in cells):
            starts.append(line[off])
    if not starts:
        starts = [line[off] for off in range(len(line) - n + 1)]
    return starts


def first_player_candidates(programs, marks) -> tuple[tuple[int, ...], str]:
    """Seats still tied after the seed's three criteria, and the criterion that decided."""
    seats = list(range(len(programs)))
    sizes = [len(p) for p in programs]
    best = min(sizes)
    seats = [s for s in seats if sizes[s] == best]
    if len(seats) == 1:
        return tuple(seats), "smallest program"
    pips = {s: sum(E.PIP[c] for c in programs[s]) for s in seats}
    best = min(pips.values())
    seats = [s for s in seats if pips[s] == best]
    if len(seats) == 1:
        return tuple(seats), "fewest pips in a smallest program"
    under = {s: E.PIP[programs[s][marks[s]]] for s in seats}
    best = max(under.values())
    seats = [s for s in seats if under[s] == best]
    if len(seats) == 1:
        return tuple(seats), "highest pip under the marker"
    return tuple(seats), "drawn at random"


def stalemate_winners(board, markers, spares, players: int) -> tuple[int, ...]:
    """Among the running players: most spare instructions, then the highest pip total."""
    alive = [q for q in range(players) if markers[q] >= 0]
    key = {q: (len(spares[q]), sum(E.PIP[c] for c in spares[q])) for q in alive}
    best = max(key.values())
    return tuple(q for q in alive if key[q] == best)


def stalemate_termination(markers, spares, players: int, agreed: bool) -> str:
    """How a stalemate ended and what decided it, for the result line: "stalemate at the round
    limit: most spares", "agreed stalemate: most spares, then pips", "...: equal spares and
    pips" (a shared result), "... among the players still running" once someone is out."""
    alive = [q for q in range(players) if markers[q] >= 0]
    winners = stalemate_winners((), markers, spares, players)
    counts = sorted((len(spares[q]) for q in alive), reverse=True)
    if len(winners) > 1:
        why = "equal spares and pips"
    elif len(counts) > 1 and counts[0] == counts[1]:
        why = "most spares, then pips"
    else:
        why = "most spares"
    if len(alive) < players:  # (the scores list every seat's spares: say whose count)
        why += " among the players still running"
    return f"{'agreed stalemate' if agreed else 'stalemate at the round limit'}: {why}"


def random_program(rng: random.Random) -> tuple[tuple[int, ...], int]:
    n = rng.randint(C.MIN_PROGRAM, C.MAX_PROGRAM)
    prog = tuple(rng.sample(E.ALL_CODES, n))
    return prog, rng.randrange(n)


def turn_action(t) -> Action:
    kind, a, b, step = t
    if kind == MOVE:
        return Move(a, b, step)
    if kind == WRITE:
        return Write(a, b, step)
    if kind == JUMP:
        return Jump(step)
    return Erase(a, step)


def action_turn(s: VFState, a: Action):
    """The engine turn tuple for a play-phase action (None if it is not a turn action)."""
    if isinstance(a, Move):
        return (MOVE, a.src, a.dst, a.step)
    if isinstance(a, Write):
        return (WRITE, a.piece, a.dst, a.step)
    if isinstance(a, Jump):
        return (JUMP, -1, -1, a.to)
    if isinstance(a, Erase):
        return (ERASE, a.target, -1, a.step)
    return None
