"""Cellulis Bellum (the war of cells): the pure rules.

Two players, Yellow (seat 0) and Violet (seat 1), each with 28 cells, one virus and one nucleus,
on one of the boards of :mod:`.geometry` (an option: the 72 points of the seed's lines, or the
first rules' 42 corners). A turn is a short sequence of actions by the same
seat (``CBState.step`` says where in the turn we are):

* ``START``: any number of apoptoses (``apo d2-d3``) and at most one virus generation (``gen d3``;
  the new virus may act in the same turn, or from the next under the option ``new_virus``),
  then exactly one main action: the first cell of a spawn (``spawn c2``), the first move of a
  burst (``burst c2-c5``), a virus move (``virus d4``) or shot (``shoot ne``), a nucleus move
  (``nucleus d3``), or ``pass`` when no main action exists at all.
* ``SPAWN``: more ``spawn`` cells (one per colony, colonies as they stood when the spawn began) or
  ``done``; the spawn ends by itself when nothing more can be placed.
* ``BURST``: more ``burst`` moves by cells of the same colony (each at most once) or ``done``; the
  burst ends by itself when no unmoved cell of it can move.

When the main action is over, phagocytosis turns every flanked cell, and the turn passes (or the
game ends: a nucleus was destroyed, or the turn limit is reached). Every decision the seed leaves
open is in :mod:`.clarifications`; the board's shape is in :mod:`.geometry`; reading a position
(colonies, rhombi, flanks, territory) is in :mod:`.position`; the state and the queries the bot
shares with the rules in :mod:`.state`; actions and events are in :mod:`.actions`, their notation
and sentences in :mod:`.notation`; the bot hooks in :mod:`.bot`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import msgspec

from ...core import Action, Event, Game, GameType, Options, Outcome, register
from ...core.errors import BadOptions
from . import bot as BOT
from . import clarifications as C
from . import geometry as G
from . import notation as N
from .actions import (MAIN_ACTIONS, Apoptosed, Apoptosis, Burst, BurstMoved, CBAction, CBEvent,
                      Done, GameOver, Generate, Generated, NucleusMove, NucleusMoved, Pass, Passed,
                      Phagocytosis, Spawn, Spawned, Stopped, VirusFired, VirusMove, VirusMoved,
                      VirusShot)
from .position import (CELL, CELLS, EMPTY, KIND_NAMES, NUCLEI, NUCLEUS, VIRUS, VIRUSES,
                       apoptosis_rhombi, apoptosis_victims, board_from_diagram, cells_on_board,
                       code, colonies, colony_of, diagram, find, flanked, kind_of, owner_of,
                       reserve, slides, territory, territory_triangles, winners_by_territory)
from .state import (BURST, OVER, SPAWN, START, STEP_NAMES, CBState, generation_centres,  # noqa: F401
                    outcome_of, spawn_point, spawn_points, state_from_diagram)

BoardName = Literal[C.BOARD_CHOICES]  # type: ignore[valid-type]
NewVirus = Literal[C.VIRUS_AT_ONCE, C.VIRUS_NEXT_TURN]  # type: ignore[valid-type]
VirusRhombi = Literal[C.RHOMBI_ANY, C.RHOMBI_CORNERS]  # type: ignore[valid-type]


class CellulisBellumOptions(Options, frozen=True, kw_only=True):
    """``board``: the 72 intersections of the seed's lines, or the first rules' 42 corners;
    ``new_virus``: whether a virus generated at the start of a turn may act in that turn (as the
    seed reads) or waits for its owner's next turn (a variant); ``virus_rhombi``: whether a
    rhombus of eight around a square centre makes a virus too (rules version 3) or only one around
    a corner (version 2's records); ``turn_limit``: a safety guard."""

    players: int = 2
    board: BoardName = C.BOARD_DEFAULT
    new_virus: NewVirus = C.NEW_VIRUS_DEFAULT
    virus_rhombi: VirusRhombi = C.VIRUS_RHOMBI_DEFAULT
    turn_limit: int = C.TURN_LIMIT_DEFAULT


def _set(t: tuple, i: int, v) -> tuple:
    return t[:i] + (v,) + t[i + 1:]


rep = msgspec.structs.replace


class CellulisBellum(Game):
    meta = GameType(
        id="cellulis-bellum",
        title="Cellulis Bellum",
        blurb="Two strains of cells fight for the largest territory; only a virus kills a nucleus.",
        min_players=2,
        max_players=2,
        order=3,
        # 2: the 72-point board (version 1's 42 corners kept as an option); 3: a virus around a
        # square centre too (version 2's 20 places kept as an option)
        rules_version=3,
    )
    options_type = CellulisBellumOptions
    state_type = CBState
    action_type = CBAction
    event_type = CBEvent
    seat_names = ("Yellow", "Violet")

    # -- options ---------------------------------------------------------------------------------
    def options_from_dict(self, data: dict[str, Any]) -> Options:
        board = data.get("board", C.BOARD_DEFAULT)
        if board not in C.BOARD_CHOICES:  # the one line a record or -o naming no board gets
            raise BadOptions(f"{self.title} has no board {board!r} (boards: "
                             + ", ".join(repr(b) for b in C.BOARD_CHOICES) + ")")
        return super().options_from_dict(data)

    def upgrade_options(self, data: dict[str, Any], rules_version: int) -> dict[str, Any]:
        if rules_version < 2:  # the first rules: 42 corners (and a virus acting at once, 80 turns)
            for key, value in C.V1_OPTIONS.items():
                data.setdefault(key, value)
        if rules_version < 3:  # the 72-point board's first rules: a virus around corners only
            for key, value in C.V2_OPTIONS.items():
                data.setdefault(key, value)
        return data

    def check_options(self, options: Options) -> None:
        super().check_options(options)
        assert isinstance(options, CellulisBellumOptions)
        limit = options.turn_limit
        if not C.TURN_LIMIT_MIN <= limit <= C.TURN_LIMIT_MAX:
            raise BadOptions(f"turn limit must be {C.TURN_LIMIT_MIN} to {C.TURN_LIMIT_MAX}, "
                             f"not {limit}")

    def initial_state(self, options: Options) -> CBState:
        self.check_options(options)
        assert isinstance(options, CellulisBellumOptions)
        board = [EMPTY] * G.BOARDS[options.board].n_points
        for seat, p in enumerate(C.NUCLEUS_START):
            board[p] = NUCLEI[seat]
        return CBState(board=tuple(board), turn_limit=options.turn_limit,
                       virus_waits=options.new_virus == C.VIRUS_NEXT_TURN,
                       centre_rhombi=options.virus_rhombi == C.RHOMBI_ANY)

    def to_act(self, s: CBState) -> tuple[int, ...]:
        return () if s.step == OVER else (s.seat,)

    # -- legal actions ---------------------------------------------------------------------------
    def virus_may_act(self, s: CBState, seat: int) -> bool:
        """Whether ``seat``'s virus may be used this turn (one is on the board, and it was not
        made this turn under the option that makes a new virus wait)."""
        return s.virus_uses[seat] > 0 and not (s.virus_waits and s.generated)

    def main_actions(self, s: CBState, seat: int) -> list[Action]:
        """The main actions open at the start of the turn (no apoptosis, no generation)."""
        board = s.board
        g = G.board_of(board)
        out: list[Action] = [Spawn(p) for p in spawn_points(s, seat)]
        c = CELLS[seat]
        for p in range(g.n_points):
            if board[p] == c:
                out.extend(Burst(p, q) for q in slides(board, p))
        v = find(board, VIRUSES[seat])
        if v >= 0 and self.virus_may_act(s, seat):
            out.extend(VirusMove(q) for q in g.neighbours[v] if board[q] == EMPTY)
            out.extend(VirusShot(d) for d in range(8) if g.rays[v][d])
        n = find(board, NUCLEI[seat])
        if n >= 0 and not s.dead[seat]:
            out.extend(NucleusMove(q) for q in g.neighbours[n] if board[q] == EMPTY)
        return out

    def legal_actions(self, s: CBState, seat: int) -> list[Action]:
        if s.step == OVER or seat != s.seat:
            return []
        if s.step == SPAWN:
            return [*(Spawn(p) for p in spawn_points(s, seat)), Done()]
        if s.step == BURST:
            out: list[Action] = [Burst(p, q) for p in s.burst for q in slides(s.board, p)]
            out.append(Done())
            return out
        out = [Apoptosis(*k) for k in apoptosis_rhombi(s.board, seat)]
        out.extend(Generate(k) for k in generation_centres(s, seat))
        main = self.main_actions(s, seat)
        return out + (main or [Pass()])

    def is_legal(self, s: CBState, seat: int, a: Action) -> bool:
        if s.step == OVER or seat != s.seat:
            return False
        board = s.board
        n = len(board)
        if isinstance(a, Burst):
            if not (0 <= a.src < n and 0 <= a.dst < n):
                return False
            if s.step == BURST:
                ok_src = a.src in s.burst
            else:
                ok_src = s.step == START and board[a.src] == CELLS[seat]
            return ok_src and a.dst in slides(board, a.src)
        if isinstance(a, Spawn):
            return s.step in (START, SPAWN) and spawn_point(s, seat, a.to)
        return a in self.legal_actions(s, seat)

    # -- applying --------------------------------------------------------------------------------
    def _apply(self, s: CBState, seat: int, a: Action) -> tuple[CBState, tuple[Event, ...]]:
        board = list(s.board)
        g = G.board_of(s.board)
        events: list[Event] = []
        match a:
            case Apoptosis():
                pts = g.rhombi4[a.key]
                victims = apoptosis_victims(s.board, seat, a.key)
                for p in (*pts, *victims):
                    board[p] = EMPTY
                events.append(Apoptosed(seat, a.key, pts, victims))
                return rep(s, board=tuple(board)), tuple(events)
            case Generate(centre=k):
                pts = g.virus_rhombi(s.centre_rhombi)[k]
                gone = tuple(p for p in pts if board[p] in (CELLS[seat], VIRUSES[seat]))
                for p in gone:
                    board[p] = EMPTY
                board[k] = VIRUSES[seat]
                sacrificed = tuple(p for p in gone if s.board[p] == CELLS[seat])
                events.append(Generated(seat, k, sacrificed))
                return rep(s, board=tuple(board), generated=True,
                           virus_uses=_set(s.virus_uses, seat, C.VIRUS_USES)), tuple(events)
            case Spawn(to=p):
                cols = s.colonies if s.step == SPAWN else tuple(colonies(s.board, seat))
                board[p] = CELLS[seat]
                events.append(Spawned(seat, p))
                s2 = rep(s, board=tuple(board), step=SPAWN, colonies=cols,
                         placed=(*s.placed, p))
                if spawn_points(s2, seat):
                    return s2, tuple(events)
                return self._end_turn(s2, events)
            case Burst(src=p, dst=q):
                todo = s.burst if s.step == BURST else colony_of(s.board, p)
                board[q], board[p] = board[p], EMPTY
                events.append(BurstMoved(seat, p, q))
                rest = tuple(x for x in todo if x != p)
                s2 = rep(s, board=tuple(board), step=BURST, burst=rest)
                if any(slides(s2.board, x) for x in rest):
                    return s2, tuple(events)
                return self._end_turn(s2, events)
            case Done():
                if s.step == SPAWN:
                    events.append(Stopped(seat, "spawn", len(s.placed)))
                else:
                    events.append(Stopped(seat, "burst", len(s.burst)))
                return self._end_turn(s, events)
            case VirusMove(to=q):
                v = find(board, VIRUSES[seat])
                board[q], board[v] = board[v], EMPTY
                uses = s.virus_uses[seat] - 1
                if uses <= 0:
                    board[q] = EMPTY
                events.append(VirusMoved(seat, v, q, uses))
                return self._end_turn(rep(s, board=tuple(board),
                                          virus_uses=_set(s.virus_uses, seat, uses)), events)
            case VirusShot(direction=d):
                v = find(board, VIRUSES[seat])
                destroyed, nuclei = [], []
                uses_all = list(s.virus_uses)
                dead = list(s.dead)
                for q in g.rays[v][d]:
                    x = board[q]
                    if x == EMPTY:
                        continue
                    destroyed.append(q)
                    k, o = kind_of(x), owner_of(x)
                    if k == NUCLEUS:
                        if not dead[o]:
                            dead[o] = True
                            nuclei.append(o)
                        continue  # a destroyed nucleus stays on its point
                    board[q] = EMPTY
                    if k == VIRUS:
                        uses_all[o] = 0
                uses = uses_all[seat] - 1
                uses_all[seat] = uses
                if uses <= 0:
                    board[v] = EMPTY
                events.append(VirusFired(seat, v, d, tuple(destroyed), tuple(nuclei), uses))
                return self._end_turn(rep(s, board=tuple(board), virus_uses=tuple(uses_all),
                                          dead=tuple(dead)), events)
            case NucleusMove(to=q):
                n = find(board, NUCLEI[seat])
                board[q], board[n] = board[n], EMPTY
                events.append(NucleusMoved(seat, n, q))
                return self._end_turn(rep(s, board=tuple(board)), events)
            case Pass():
                events.append(Passed(seat))
                return self._end_turn(s, events)
        raise AssertionError(f"unexpected action {a!r}")

    def _end_turn(self, s: CBState, events: list[Event]) -> tuple[CBState, tuple[Event, ...]]:
        board = list(s.board)
        hits = flanked(board)
        if hits:
            turned, removed = [], []
            on = [cells_on_board(board, 0), cells_on_board(board, 1)]
            for p in hits:
                o = owner_of(board[p])
                new = 1 - o
                on[o] -= 1
                if on[new] < C.CELLS_PER_PLAYER:
                    board[p] = CELLS[new]
                    on[new] += 1
                    turned.append(p)
                else:
                    board[p] = EMPTY
                    removed.append(p)
            events.append(Phagocytosis(tuple(turned), tuple(removed)))
        turn = s.turn + 1
        s2 = rep(s, board=tuple(board), step=START, seat=1 - s.seat, turn=turn, generated=False,
                 colonies=(), placed=(), burst=())
        termination = ""
        if any(s.dead):
            termination = "nucleus destroyed"
        elif turn >= s.turn_limit:
            termination = "turn limit"
        if termination:
            s2 = rep(s2, step=OVER, termination=termination)
            winners, t = winners_by_territory(s2.board)
            events.append(GameOver(winners, termination, t))
        return s2, tuple(events)

    # -- the end -------------------------------------------------------------------------------
    def outcome(self, s: CBState) -> Outcome | None:
        return outcome_of(s)

    # -- notation ------------------------------------------------------------------------------
    def action_to_str(self, a: Action) -> str:
        return N.action_to_str(a)

    def action_from_str(self, text: str) -> Action:
        return N.action_from_str(self, text)

    def action_words(self, s: CBState, a: Action) -> str:
        return N.action_words(a)

    def describe_event(self, e: Event, names: Sequence[str]) -> str:
        text = N.describe_event(self, e, names)
        return text if text is not None else super().describe_event(e, names)

    # -- invariants ----------------------------------------------------------------------------
    def check_invariants(self, s: CBState) -> None:
        board = s.board
        assert s.players == 2 and len(board) in (G.FULL.n_points, G.CORNERS.n_points)
        assert all(0 <= x <= 6 for x in board)
        for seat in (0, 1):
            assert 0 <= cells_on_board(board, seat) <= C.CELLS_PER_PLAYER
            assert board.count(NUCLEI[seat]) == 1, "each nucleus stays on the board"
            v = board.count(VIRUSES[seat])
            assert v <= 1
            assert (v == 1) == (s.virus_uses[seat] > 0), (seat, v, s.virus_uses)
            assert 0 <= s.virus_uses[seat] <= C.VIRUS_USES
        assert 0 <= s.turn <= s.turn_limit
        if s.step == OVER:
            assert s.termination and (any(s.dead) or s.turn >= s.turn_limit)
        else:
            assert not any(s.dead) and s.turn < s.turn_limit
        if s.step != SPAWN:
            assert not s.placed and not s.colonies
        if s.step == SPAWN:
            assert s.placed and len(s.placed) <= len(s.colonies)
            assert all(board[p] == CELLS[s.seat] for p in s.placed)
        if s.step != BURST:
            assert not s.burst
        else:
            assert all(board[p] == CELLS[s.seat] for p in s.burst)

    # -- self-play figures ---------------------------------------------------------------------
    def round_figures(self, s: CBState) -> tuple[int, dict[str, float]]:
        """A round is a turn of Yellow's and one of Violet's; followed round by round: each
        player's territory."""
        return s.turn // 2 + 1, {f"territory ({self.seat_label(q)})": float(territory(s.board, q))
                                 for q in (0, 1)}

    # -- bots ----------------------------------------------------------------------------------
    def bot_actions(self, s: CBState, seat: int) -> list[Action]:
        return BOT.bot_actions(self, s, seat)

    def heuristic(self, s: CBState) -> tuple[float, ...]:
        return BOT.heuristic(s)

    def random_playout(self, s: CBState, rng, max_steps: int = 400):
        return BOT.random_playout(self, s, rng, max_steps)


GAME = register(CellulisBellum())

__all__ = ["GAME", "CellulisBellum", "CBState", "CellulisBellumOptions", "Apoptosis", "Generate",
           "Spawn", "Burst", "Done", "VirusMove", "VirusShot", "NucleusMove", "Pass", "START",
           "SPAWN", "BURST", "OVER", "MAIN_ACTIONS", "CELL", "NUCLEUS", "VIRUS", "KIND_NAMES",
           "EMPTY", "CELLS", "NUCLEI", "VIRUSES", "code", "owner_of", "kind_of", "reserve", "find",
           "territory", "territory_triangles", "colonies", "flanked", "spawn_points",
           "generation_centres", "diagram", "board_from_diagram", "state_from_diagram"]
