"""Cellulis Bellum's state: the steps of a turn, the frozen state, and the queries on a state
that both the rules (``rules.py``) and the bot hooks (``bot.py``) ask: where a cell may be
spawned, where a virus may be generated, and the outcome of a finished game. Apart from the rules
so that the bot imports the state, and the game the bot, with no cycle."""

from __future__ import annotations

import msgspec

from ...core import Outcome
from . import clarifications as C
from .position import (VIRUSES, board_from_diagram, colonies, generation_rhombi, open_spawn_points,
                       spawn_point_open, winners_by_territory)

START, SPAWN, BURST, OVER = 0, 1, 2, 3
STEP_NAMES = ("start", "spawn", "burst", "over")


class CBState(msgspec.Struct, frozen=True, kw_only=True):
    players: int = 2
    board: tuple[int, ...]  # a piece code a point (72 or 42: the length says which board)
    seat: int = C.FIRST_PLAYER  # the seat whose turn it is
    step: int = START
    turn: int = 0  # turns completed
    turn_limit: int = C.TURN_LIMIT_DEFAULT
    virus_uses: tuple[int, ...] = (0, 0)  # uses left of each seat's virus (0: none on the board)
    dead: tuple[bool, ...] = (False, False)  # nucleus destroyed (it stays on its point)
    generated: bool = False  # a virus was generated this turn
    colonies: tuple[tuple[int, ...], ...] = ()  # SPAWN: colonies as they stood at its start
    placed: tuple[int, ...] = ()  # SPAWN: points spawned this turn
    burst: tuple[int, ...] = ()  # BURST: cells of the colony not yet moved
    termination: str = ""
    virus_waits: bool = False  # the option new_virus: a virus acts only from the next turn
    # the option virus_rhombi: a rhombus of eight around a square centre makes a virus too (rules
    # version 3; False in states made before it, whose games offered the 20 around corners only)
    centre_rhombi: bool = False


def state_from_diagram(text: str, *, seat: int = 0, turn: int = 0,
                       turn_limit: int = C.TURN_LIMIT_DEFAULT,
                       virus_waits: bool = False, centre_rhombi: bool = True) -> CBState:
    """A position at the start of ``seat``'s turn (on the board the diagram draws); each virus on
    the board has both its uses; today's rules unless told (``centre_rhombi``)."""
    board = board_from_diagram(text)
    uses = tuple(C.VIRUS_USES if VIRUSES[q] in board else 0 for q in (0, 1))
    return CBState(board=board, seat=seat, turn=turn, turn_limit=turn_limit, virus_uses=uses,
                   virus_waits=virus_waits, centre_rhombi=centre_rhombi)


def spawn_points(s: CBState, seat: int) -> list[int]:
    """Empty points where ``seat`` may put a cell now (start of a spawn or during one)."""
    cols = s.colonies if s.step == SPAWN else colonies(s.board, seat)
    return open_spawn_points(s.board, seat, cols, s.placed if s.step == SPAWN else ())


def spawn_point(s: CBState, seat: int, p: int) -> bool:
    """Whether ``seat`` may put a cell on ``p`` now (``p in spawn_points(s, seat)``, cheaper)."""
    cols = s.colonies if s.step == SPAWN else colonies(s.board, seat)
    return spawn_point_open(s.board, seat, cols, s.placed if s.step == SPAWN else (), p)


def generation_centres(s: CBState, seat: int) -> list[int]:
    """Centres where ``seat`` may generate its virus now (once a turn, before the main action)."""
    if s.generated or s.step != START:
        return []
    return generation_rhombi(s.board, seat, s.centre_rhombi)


def outcome_of(s: CBState) -> Outcome | None:
    """The outcome once the game is over (the most territory wins), else None."""
    if s.step != OVER:
        return None
    winners, t = winners_by_territory(s.board)
    term = s.termination if len(winners) == 1 else f"{s.termination}, equal territories"
    return Outcome(winners, term, (float(t[0]), float(t[1])))
