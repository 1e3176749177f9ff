"""Which evaluator weighs each game's decisions, and at what budget: the one table of it.

Every game is weighed by the generic search (``search.verdict``: exact near the end, else the
game's own MCTS) unless it has its own evaluator here:

* Cell Management, exactly, by its solver (``cell_management.py``);
* Infection, a real-time team game that no tree search suits, by playing on from each position
  with the teammate policy on a simulated clock (``infection.py``).

``DEFAULT_BUDGET`` is the playouts (Infection: games played on) a decision gets by default
(a tenth of it is a batch of the paired measurement, ``paired.py``): measured so that a game's
analysis stays within the figures of the rules pages and seeds mark the same blunders but for a
move on the blunder line, marked near it (``~``) where it is not a blunder (see ``cellwars bench
--only analysis`` and the README).
"""

from __future__ import annotations

import random
from typing import Any

from ..core.api import Action, Game
from .search import Verdict, verdict

DEFAULT_BUDGET: dict[str, int] = {
    "virus-fight": 300,
    "cellulis-bellum": 100,
    "cell-wars": 150,
    "infection": 60,
    "cell-management": 1,  # exact: the budget is not used
}
FALLBACK_BUDGET = 200


def default_budget(game: Game) -> int:
    return DEFAULT_BUDGET.get(game.id, FALLBACK_BUDGET)


def weigh(game: Game, state: Any, seat: int, played: Action, budget: int, rng: random.Random,
          context: dict[str, float]) -> Verdict:
    """The verdict on ``played`` by ``seat`` at ``state`` (``context``: what the record adds to
    the state, Infection's time in the round)."""
    if game.id == "cell-management":
        from .cell_management import cell_management_verdict

        return cell_management_verdict(game, state, seat, played)
    if game.id == "infection":
        from .infection import infection_verdict

        return infection_verdict(game, state, seat, played, budget, rng,
                                 elapsed=context.get("elapsed", 0.0),
                                 round_seconds=context.get("round_seconds", 180.0))
    return verdict(game, state, seat, played, budget, rng)


def context_of(game: Game, replay: Any, index: int) -> dict[str, float]:
    """What the evaluator needs besides the state for step ``index`` (0-based)."""
    if game.id == "infection":
        from .infection import elapsed_in_round

        seconds = game.round_seconds(replay.options) or 180.0
        return {"elapsed": elapsed_in_round(replay.steps, index), "round_seconds": seconds}
    return {}
