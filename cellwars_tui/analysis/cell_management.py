"""Cell Management analysed exactly, by its solver (``games/cell_management/solver.py``).

The puzzle has no chance after the shuffle and no opponent, so every position has a true answer:
the round of the best finish from it (the rounds played so far plus the fewest rounds the solver
finds from here), or none when the puzzle can no longer be finished within its round limit.
The line the chart draws is that answer as a score: 100 while the best finish is still the
puzzle's best from its start, 10 points lower for each round a move added to it, 0 once the puzzle
cannot be finished. So a move that adds a round is a mistake, two rounds or more a blunder, and
a move that makes the puzzle unsolvable a blunder, each with the best move beside it.
"""

from __future__ import annotations

from typing import Any

from ..core.api import Action, Game
from ..games.cell_management import solver
from ..games.cell_management.types import OVER, WON
from .search import Verdict

ROUND_POINTS = 10.0  # points of the score a round added to the best finish costs


def best_finish(state: Any, found: Any = False) -> int | None:
    """The round the puzzle ends in with best play from ``state`` (None: it cannot be won);
    ``found``: the solver's answer for it, when known already."""
    if state.phase == WON:
        return int(state.round)
    if state.phase in OVER:
        return None
    if found is False:
        found = solver.solve_state(state)
    if found is None:
        return None
    finish = int(state.round) + found.rounds
    return finish if finish <= state.max_rounds else None


def score_of(finish: int | None, par: int | None) -> float:
    if finish is None or par is None:
        return 0.0
    return max(0.0, 100.0 - ROUND_POINTS * max(0, finish - par))


def cell_management_verdict(game: Game, state: Any, seat: int, played: Action) -> Verdict:
    """The solver's answer before and after ``played`` (exact)."""
    par = solver.min_rounds(state.setup)
    after = game._apply(state, seat, played)[0]
    found = solver.solve_state(state)
    best = solver.first_action(state, found)
    was = best_finish(state, found)
    finish = best_finish(after)
    before = score_of(was, par)
    played_score = score_of(finish, par)
    note = ""
    if was is not None and finish is None:
        note = "the puzzle can no longer be finished"
    elif was is not None and finish is not None and finish > was:
        extra = finish - was
        note = f"adds {extra} round{'s' if extra != 1 else ''} (best finish: round {was})"
    if best is None or played_score >= before:
        best = played
    return Verdict(best, (before,), (played_score,), exact=True, note=note)
