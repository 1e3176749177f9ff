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

Phases, actions, events and the state are in :mod:`.types`, the bot hooks in :mod:`.bot`.
Positions of the play phase have a one-line notation (see :mod:`.notation`). Every decision the
seed leaves open is in :mod:`.clarifications`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import msgspec

from ...core import CHANCE, Action, Event, Game, GameTool, GameType, Options, Outcome, register
from ...core.api import parse_error
from ...core.errors import BadOptions
from . import bot as BOT
from . import clarifications as C
from . import engine as E
from . import notation as N
from .engine import ERASE, JUMP, MOVE, WRITE, piece_name, square_name
from .types import (
    BUILD, FIRST, HIDDEN, OVER, PHASE_NAMES, PLACE, PLAY, Add, Agree, Decline, Drop, Eliminated,
    Erase, Executed, First, FirstPlayer, GameOver, Jump, Mark, Move, NewRound, Offer, Place,
    Placed, ProgramReady, Ready, Revealed, StalemateAgreed, StalemateDeclined, StalemateOffered,
    Stepped, VFAction, VFEvent, VFState, VirusFightOptions, Write, action_turn,
    first_player_candidates, home_line, placements, random_program, side_name,
    stalemate_termination, stalemate_winners, start_squares, turn_action,
)

class VirusFight(Game[VFState, Action]):
    meta = GameType(
        id="virus-fight",
        title="Virus Fight",
        blurb="Secret little programs rewrite a shared memory until one marker is left running.",
        min_players=2,
        max_players=4,
        order=1,
        rules_version=2,  # 2: the round limit is 50 rounds for each rival (1: 50 rounds)
        has_chance=True,
        chance_text="a random tie-break for the first player",
        hidden_information=True,
    )
    options_type = VirusFightOptions
    state_type = VFState
    action_type = VFAction
    event_type = VFEvent

    # -- options and set-up ------------------------------------------------------------------
    hidden_options = frozenset({"round_limit"})  # a fixed limit: old records, the command line

    def check_options(self, options: Options) -> None:
        super().check_options(options)
        own = self.own_options(options)
        lo, hi = C.ROUND_LIMIT_MIN, C.ROUND_LIMIT_MAX
        if own.round_limit and not lo <= own.round_limit <= hi:
            raise BadOptions(f"round_limit must be {lo} to {hi} (or 0: rounds_per_rival for "
                             f"each rival), not {own.round_limit}")
        rivals = options.players - 1
        if not own.round_limit and not lo <= own.rounds_per_rival * rivals <= hi:
            raise BadOptions(f"rounds_per_rival must make a round limit of {lo} to {hi} rounds "
                             f"({rivals} rival{'s' if rivals > 1 else ''}), not "
                             f"{own.rounds_per_rival}")

    def upgrade_options(self, data: dict[str, Any], rules_version: int) -> dict[str, Any]:
        """A record of rules version 1 stopped at its round_limit option, 50 rounds whatever the
        number of players (its options always carry it)."""
        if rules_version < 2:
            data = {**data, "round_limit": data.get("round_limit") or C.ROUND_LIMIT_V1}
        return data

    def initial_state(self, options: Options) -> VFState:
        self.check_options(options)
        n = options.players
        own = self.own_options(options)
        size = E.board_size(n)
        return VFState(
            players=n, size=size, phase=BUILD, board=(0,) * (size * 8), markers=(-1,) * n,
            spares=(E.ALL_CODES,) * n, programs=((),) * n, marks=(-1,) * n,
            ready=(False,) * n, round_limit=C.round_limit(n, own.rounds_per_rival,
                                                           own.round_limit),
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
            turns: list[Action] = [turn_action(t) for t in self.turns(s)]
            if not s.declined:
                turns.append(Offer())
            return turns
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
        events.append(GameOver(winners, stalemate_termination(s.markers, s.spares, s.players,
                                                              agreed=True)))
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
                events.append(GameOver(winners, stalemate_termination(markers, spares,
                                                                      s.players, agreed=False)))
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
        how = stalemate_termination(s.markers, s.spares, s.players,
                                    agreed=bool(s.agreed) and all(s.agreed))
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

    def chat_closed(self, s: VFState) -> str:
        if s.phase != BUILD:
            return ""
        return ("the chat waits while programs are written in secret (a word now could strike "
                "a deal or give a program away); it opens when they are revealed")

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
        return N.action_to_str(a)

    def action_from_str(self, text: str) -> Action:
        return N.action_from_str(self, text)

    def describe_event(self, e: Event, names: Sequence[str]) -> str:
        return N.describe_event(e, names)

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

    # -- self-play figures -------------------------------------------------------------------
    def round_figures(self, s: VFState) -> tuple[int, dict[str, float]]:
        """Followed round by round in self-play: how crowded the memory is and how many
        programs still run (a crowded board is why markers are hard to cut off)."""
        if s.phase not in (PLAY, OVER):
            return 0, {}
        return s.round, {"instructions on the board": float(sum(1 for c in s.board if c)),
                         "programs running": float(sum(1 for m in s.markers if m >= 0))}

    # -- bots and the perft tool -------------------------------------------------------------
    def bot_actions(self, s: VFState, seat: int) -> list[Action]:
        return BOT.bot_actions(self, s, seat)

    def heuristic(self, s: VFState) -> tuple[float, ...]:
        return BOT.heuristic(s)

    def random_playout(self, s: VFState, rng: random.Random,
                       max_steps: int = 400) -> tuple[float, ...]:
        return BOT.random_playout(self, s, rng, max_steps)

    def tools(self) -> tuple[GameTool, ...]:
        return (N.perft_tool(self),)


def _set(t: tuple, i: int, v) -> tuple:
    return t[:i] + (v,) + t[i + 1:]


GAME = register(VirusFight())

__all__ = [
    "GAME", "VirusFight", "VFState", "VirusFightOptions", "VFAction", "VFEvent", "Add", "Drop",
    "Mark", "Ready", "First", "Place", "Move", "Write", "Jump", "Erase", "Offer", "Agree",
    "Decline", "ProgramReady", "Revealed", "FirstPlayer", "Placed", "Executed", "Stepped",
    "Eliminated", "NewRound", "GameOver", "StalemateOffered", "StalemateAgreed",
    "StalemateDeclined", "piece_name", "square_name", "BUILD", "FIRST", "PLACE", "PLAY", "OVER",
    "PHASE_NAMES", "HIDDEN", "home_line", "side_name", "placements", "start_squares",
    "first_player_candidates", "stalemate_winners", "random_program", "turn_action",
    "action_turn", "parse_error",
]
