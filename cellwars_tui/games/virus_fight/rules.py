"""Virus Fight (Jorge Arroyo, 2008): the pure rules.

Phases (``VFState.phase``)::

    build (simultaneous, hidden) -> [first: chance among tied players] -> place (turn order)
          -> play (rounds of one turn per running player) -> over

* build: each seat adds instructions one by one (``add M3``), may drop the last (``drop``), puts
  its marker on one (``mark 2``) and declares ``ready``. ``to_act`` names every seat still
  building; ``view`` hides the other seats' programs and markers until everyone is ready.
* first: the seed's first-player rule, with a chance step (``first 2``) only when a tie remains.
* place: in turn order, each seat puts its program on its home line (``place b1``: the square of
  its first instruction).
* play: one action per turn, the executed instruction plus the marker's step, e.g. ``move b1-c2
  >b2``, ``write W2@c2 >c2``, ``jump d4``, ``erase c3 >b2``; ``>out`` when the marker cannot
  step (the player is eliminated) and ``-`` where an instruction does nothing.

Positions of the play phase have a one-line notation (see :mod:`.notation`). Every decision the
seed leaves open is in :mod:`.clarifications`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import msgspec

from ...core import CHANCE, Action, Event, Game, Options, Outcome, register
from ...core.api import parse_error
from ...core.errors import BadOptions
from . import clarifications as C
from . import engine as E
from .engine import ERASE, JUMP, MOVE, WRITE, piece_name, square_name

BUILD, FIRST, PLACE, PLAY, OVER = 0, 1, 2, 3, 4
PHASE_NAMES = ("build", "first", "place", "play", "over")


class VirusFightOptions(Options, frozen=True, kw_only=True):
    players: int = 2
    round_limit: int = C.ROUND_LIMIT_DEFAULT


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


class VirusFight(Game[VFState, Action]):
    id = "virus-fight"
    title = "Virus Fight"
    blurb = "Secret little programs rewrite a shared memory until one marker is left running."
    min_players = 2
    max_players = 4
    rules_version = 1
    has_chance = True
    chance_text = "a random tie-break for the first player"
    hidden_information = True
    options_type = VirusFightOptions
    state_type = VFState
    action_type = VFAction
    event_type = VFEvent

    # -- options and set-up ------------------------------------------------------------------
    def check_options(self, options: Options) -> None:
        super().check_options(options)
        limit = getattr(options, "round_limit", C.ROUND_LIMIT_DEFAULT)
        if not C.ROUND_LIMIT_MIN <= limit <= C.ROUND_LIMIT_MAX:
            raise BadOptions(f"round_limit must be {C.ROUND_LIMIT_MIN} to {C.ROUND_LIMIT_MAX}, "
                             f"not {limit}")

    def initial_state(self, options: Options) -> VFState:
        self.check_options(options)
        n = options.players
        size = E.board_size(n)
        return VFState(
            players=n, size=size, phase=BUILD, board=(0,) * (size * 8), markers=(-1,) * n,
            spares=(E.ALL_CODES,) * n, programs=((),) * n, marks=(-1,) * n,
            ready=(False,) * n, round_limit=getattr(options, "round_limit", C.ROUND_LIMIT_DEFAULT),
        )

    # -- whose move --------------------------------------------------------------------------
    def to_act(self, s: VFState) -> tuple[int, ...]:
        ph = s.phase
        if ph == PLAY and s.offer >= 0:
            return tuple(q for q in range(s.players)
                         if s.markers[q] >= 0 and q != s.offer and not s.agreed[q])
        if ph == PLAY or ph == PLACE:
            return s.queue[:1]
        if ph == BUILD:
            return tuple(i for i in range(s.players) if not s.ready[i])
        if ph == FIRST:
            return (CHANCE,)
        return ()

    def legal_actions(self, s: VFState, seat: int) -> list[Action]:
        ph = s.phase
        if ph == PLAY:
            if s.offer >= 0:
                return [Agree(), Decline()] if seat in self.to_act(s) else []
            if not s.queue or seat != s.queue[0]:
                return []
            out = [turn_action(t) for t in self.turns(s)]
            if not s.declined:
                out.append(Offer())
            return out
        if ph == BUILD:
            if not 0 <= seat < s.players or s.ready[seat]:
                return []
            prog = s.programs[seat]
            out: list[Action] = []
            if len(prog) < C.MAX_PROGRAM:
                out.extend(Add(c) for c in s.spares[seat] if c not in prog)
            if prog:
                out.append(Drop())
                out.extend(Mark(i) for i in range(len(prog)) if i != s.marks[seat])
                if s.marks[seat] >= 0:
                    out.append(Ready())
            return out
        if ph == PLACE:
            if not s.queue or seat != s.queue[0]:
                return []
            return [Place(sq) for sq in placements(s, seat)]
        if ph == FIRST and seat == CHANCE:
            return [First(t) for t in s.queue]
        return []

    def turns(self, s: VFState) -> list[tuple[int, int, int, int]]:
        seat = s.queue[0]
        return E.gen_turns(s.board, E.NEIGHBOURS[s.size], s.markers, seat, s.spares[seat])

    def is_legal(self, s: VFState, seat: int, action: Action) -> bool:
        if seat not in self.to_act(s):
            return False
        if s.phase == PLAY:
            if isinstance(action, (Offer, Agree, Decline)):
                return action in self.legal_actions(s, seat)
            if s.offer >= 0:
                return False
            t = action_turn(s, action)
            return t is not None and t in self.turns(s)
        return action in self.legal_actions(s, seat)

    def chance_outcomes(self, s: VFState):
        return [(First(t), 1 / len(s.queue)) for t in s.queue]

    # -- applying ----------------------------------------------------------------------------
    def _apply(self, s: VFState, seat: int, a: Action) -> tuple[VFState, tuple[Event, ...]]:
        if s.phase == PLAY:
            if isinstance(a, (Offer, Agree, Decline)):
                return self._stalemate(s, seat, a)
            return self._play(s, seat, action_turn(s, a))
        rep = msgspec.structs.replace
        if isinstance(a, Add):
            return rep(s, programs=_set(s.programs, seat, s.programs[seat] + (a.piece,))), ()
        if isinstance(a, Drop):
            prog = s.programs[seat][:-1]
            mark = s.marks[seat] if s.marks[seat] < len(prog) else -1
            return rep(s, programs=_set(s.programs, seat, prog),
                       marks=_set(s.marks, seat, mark)), ()
        if isinstance(a, Mark):
            return rep(s, marks=_set(s.marks, seat, a.index)), ()
        if isinstance(a, Ready):
            ready = _set(s.ready, seat, True)
            events: list[Event] = [ProgramReady(seat)]
            if not all(ready):
                return rep(s, ready=ready), tuple(events)
            events.append(Revealed(s.programs, s.marks))
            tied, reason = first_player_candidates(s.programs, s.marks)
            if len(tied) > 1:
                return rep(s, ready=ready, phase=FIRST, queue=tied), tuple(events)
            s = rep(s, ready=ready)
            return self._start_placing(s, tied[0], reason, events)
        if isinstance(a, First):
            return self._start_placing(s, a.seat, "drawn at random among the tied players", [])
        if isinstance(a, Place):
            line = home_line(s.players, seat)
            off = line.index(a.sq)
            prog = s.programs[seat]
            cells = line[off: off + len(prog)]
            board = list(s.board)
            for c, piece in zip(cells, prog):
                board[c] = piece
            markers = _set(s.markers, seat, cells[s.marks[seat]])
            events = [Placed(seat, cells)]
            queue = s.queue[1:]
            if queue:
                return rep(s, board=tuple(board), markers=markers, queue=queue), tuple(events)
            first = s.first
            order = E.round_order(markers, first, s.players)
            events.append(NewRound(1, first))
            n = s.players
            return rep(s, board=tuple(board), markers=markers, queue=order, phase=PLAY, round=1,
                       programs=((),) * n, marks=(-1,) * n, ready=(True,) * n), tuple(events)
        raise AssertionError(f"unexpected action {a!r}")

    def _start_placing(self, s: VFState, first: int, reason: str, events: list[Event]):
        spares = tuple(tuple(c for c in s.spares[i] if c not in s.programs[i])
                       for i in range(s.players))
        order = tuple((first + k) % s.players for k in range(s.players))
        events.append(FirstPlayer(first, reason))
        return msgspec.structs.replace(s, phase=PLACE, first=first, queue=order,
                                       spares=spares), tuple(events)

    def _stalemate(self, s: VFState, seat: int, a: Action) -> tuple[VFState, tuple[Event, ...]]:
        """An offer of stalemate and the answers: it ends the game only if every other running
        player agrees; one refusal and the offering player plays the turn."""
        rep = msgspec.structs.replace
        if isinstance(a, Offer):
            return rep(s, offer=seat, agreed=(False,) * s.players), (StalemateOffered(seat),)
        if isinstance(a, Decline):
            return (rep(s, offer=-1, agreed=(), declined=True),
                    (StalemateDeclined(seat, s.offer),))
        agreed = _set(s.agreed, seat, True)
        events: list[Event] = [StalemateAgreed(seat)]
        waiting = [q for q in range(s.players)
                   if s.markers[q] >= 0 and q != s.offer and not agreed[q]]
        if waiting:
            return rep(s, agreed=agreed), tuple(events)
        winners = stalemate_winners(s.board, s.markers, s.spares, s.players)
        events.append(GameOver(winners, "agreed stalemate"))
        return rep(s, phase=OVER, queue=(), offer=-1, agreed=(True,) * s.players), tuple(events)

    def _play(self, s: VFState, seat: int, t) -> tuple[VFState, tuple[Event, ...]]:
        board = list(s.board)
        markers = list(s.markers)
        spares = [list(x) for x in s.spares]
        kind, a, b, step = t
        moved = board[a] if kind == MOVE and a >= 0 else 0
        piece = E.do_turn(board, markers, spares, seat, t)
        events: list[Event] = []
        if kind == MOVE:
            events.append(Executed(seat, MOVE, moved, a, b))
        elif kind == WRITE:
            events.append(Executed(seat, WRITE, piece, -1, b))
        elif kind == ERASE:
            events.append(Executed(seat, ERASE, piece, a, -1))
        else:
            events.append(Executed(seat, JUMP, 0, s.markers[seat], step))
        if step >= 0:
            if kind != JUMP:
                events.append(Stepped(seat, step))
        else:
            events.append(Eliminated(seat))
        queue = tuple(q for q in s.queue[1:] if markers[q] >= 0)
        alive = [q for q in range(s.players) if markers[q] >= 0]
        first, rnd, phase = s.first, s.round, PLAY
        if len(alive) <= 1:
            phase, queue = OVER, ()
            events.append(GameOver(tuple(alive), "last program running"))
        elif not queue:
            if rnd >= s.round_limit:
                phase = OVER
                winners = stalemate_winners(board, markers, spares, s.players)
                events.append(GameOver(winners, "stalemate"))
            else:
                first = E.next_first(board, markers, first, s.players)
                rnd += 1
                queue = E.round_order(markers, first, s.players)
                events.append(NewRound(rnd, first))
        new = msgspec.structs.replace(
            s, board=tuple(board), markers=tuple(markers),
            spares=tuple(tuple(sorted(x)) for x in spares), first=first, round=rnd,
            queue=queue, phase=phase, declined=False)
        return new, tuple(events)

    # -- the end -----------------------------------------------------------------------------
    def outcome(self, s: VFState) -> Outcome | None:
        if s.phase != OVER:
            return None
        alive = tuple(q for q in range(s.players) if s.markers[q] >= 0)
        if len(alive) <= 1:
            return Outcome(alive, "last program running")
        scores = tuple(float(len(x)) for x in s.spares)
        how = "agreed stalemate" if s.agreed and all(s.agreed) else "stalemate"
        return Outcome(stalemate_winners(s.board, s.markers, s.spares, s.players), how, scores)

    # -- hidden information ------------------------------------------------------------------
    def view(self, s: VFState, seat: int | None) -> VFState:
        if s.phase != BUILD:
            return s
        programs = tuple(p if q == seat else (HIDDEN,) * 0 for q, p in enumerate(s.programs))
        marks = tuple(m if q == seat else -1 for q, m in enumerate(s.marks))
        if programs == s.programs and marks == s.marks:
            return s
        return msgspec.structs.replace(s, programs=programs, marks=marks)

    def determinize(self, view: VFState, seat: int, rng: random.Random) -> VFState:
        if view.phase != BUILD:
            return view
        programs = list(view.programs)
        marks = list(view.marks)
        for q in range(view.players):
            if q != seat and view.ready[q] and not programs[q]:
                programs[q], marks[q] = random_program(rng)
        return msgspec.structs.replace(view, programs=tuple(programs), marks=tuple(marks))

    # -- notation ----------------------------------------------------------------------------
    def action_to_str(self, a: Action) -> str:
        from .notation import action_to_str

        return action_to_str(a)

    def action_from_str(self, text: str) -> Action:
        from .notation import action_from_str

        return action_from_str(self, text)

    def describe_event(self, e: Event, names: Sequence[str]) -> str:
        from .notation import describe_event

        return describe_event(e, names)

    # -- invariants --------------------------------------------------------------------------
    def check_invariants(self, s: VFState) -> None:
        n = s.players
        assert s.size == E.board_size(n)
        assert len(s.board) == s.size * 8 and len(s.markers) == n and len(s.spares) == n
        valid = set(E.SQUARES[s.size])
        assert all(not s.board[c] for c in range(len(s.board)) if c not in valid)
        on_board = sum(1 for c in s.board if c)
        off = sum(len(x) for x in s.spares)
        if s.phase in (BUILD, FIRST):
            assert on_board == 0 and off == 12 * n
            for q in range(n):
                prog = s.programs[q]
                assert len(prog) <= C.MAX_PROGRAM and len(set(prog)) == len(prog)
                assert -1 <= s.marks[q] < max(1, len(prog))
                if s.ready[q]:
                    assert prog and s.marks[q] >= 0
        elif s.phase == PLACE:
            in_hand = sum(len(s.programs[q]) for q in s.queue)
            assert on_board + off + in_hand == 12 * n
        else:
            assert on_board + off == 12 * n, (on_board, off)
        live = [c for c in s.markers if c >= 0]
        assert len(set(live)) == len(live), "two markers share an instruction"
        assert all(s.board[c] for c in live), "a marker stands on an empty square"
        for x in s.spares:
            assert list(x) == sorted(x) and all(1 <= c <= 12 for c in x)
        if s.offer >= 0:
            assert s.phase == PLAY and s.queue[0] == s.offer and len(s.agreed) == n
            assert not s.declined
        if s.phase == PLAY:
            assert s.queue and all(s.markers[q] >= 0 for q in s.queue)
            assert 1 <= s.round <= s.round_limit
            assert sum(1 for c in live) >= 2

    # -- bots, perft and benchmarks ----------------------------------------------------------
    def bot_actions(self, s: VFState, seat: int) -> list[Action]:
        from .bot import bot_actions

        return bot_actions(self, s, seat)

    def heuristic(self, s: VFState) -> tuple[float, ...]:
        from .bot import heuristic

        return heuristic(s)

    def random_playout(self, s: VFState, rng: random.Random, max_steps: int = 400):
        from .bot import random_playout

        return random_playout(self, s, rng, max_steps)

    def perft_cli(self, position: str, depth: int, divide: bool = False) -> int:
        from .notation import perft_cli

        return perft_cli(self, position, depth, divide)


def _set(t: tuple, i: int, v) -> tuple:
    return t[:i] + (v,) + t[i + 1:]


def stalemate_winners(board, markers, spares, players: int) -> tuple[int, ...]:
    """Among the running players: most spare instructions, then the highest pip total."""
    alive = [q for q in range(players) if markers[q] >= 0]
    key = {q: (len(spares[q]), sum(E.PIP[c] for c in spares[q])) for q in alive}
    best = max(key.values())
    return tuple(q for q in alive if key[q] == best)


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


GAME = register(VirusFight())

__all__ = ["GAME", "VirusFight", "VFState", "VirusFightOptions", "Add", "Drop", "Mark", "Ready",
           "First", "Place", "Move", "Write", "Jump", "Erase", "Offer", "Agree", "Decline", "piece_name", "square_name",
           "BUILD", "FIRST", "PLACE", "PLAY", "OVER", "home_line", "placements",
           "first_player_candidates", "stalemate_winners", "parse_error"]
