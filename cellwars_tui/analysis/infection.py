"""Infection analysed as the team's chance to cure: each candidate action is played on from the
recorded position, with the time left in the round, by the teammate policy at a normal pace on a
simulated clock (``games/infection/simulate.play_on``), ``budget`` games shared among the
candidates; the share of games in which the virus is cleared is the team's Win% (every seat's:
the team wins or loses together). Dice and draws are chance steps, never judged.
"""

from __future__ import annotations

import random
from typing import Any

from ..core.api import Action, Game
from ..games.infection import clarifications as C
from ..games.infection.simulate import play_on
from ..games.infection.types import CLEARED, TimeUp
from .search import Verdict

MIN_GAMES = 6  # games played on after each candidate action, at least


def elapsed_in_round(steps: Any, index: int) -> float:
    """Seconds into its round when step ``index`` (0-based) was played, from the record's
    times (0 for a record without times: a whole round is then taken to be left)."""
    if not steps or index >= len(steps):
        return 0.0
    start = 0.0
    for step in steps[:index]:
        if isinstance(step.action, TimeUp):
            start = step.t
    t = steps[index].t
    return max(0.0, t - start) if t > 0 else 0.0


def infection_verdict(game: Game, state: Any, seat: int, played: Action, budget: int,
                      rng: random.Random, *, elapsed: float, round_seconds: float) -> Verdict:
    actions = list(game.legal_actions(state, seat))
    if played not in actions:
        actions.append(played)
    games = max(MIN_GAMES, budget // max(1, len(actions)))
    pace = C.PACES["normal"]
    shares: dict[Action, float] = {}
    for action in actions:
        after = game._apply(state, seat, action)[0]
        won = 0
        for _ in range(games):
            final, _ = play_on(after, pace, rng, round_seconds=round_seconds, elapsed=elapsed)
            won += final.result == CLEARED
        shares[action] = 100.0 * won / games
    best = max(actions, key=lambda a: shares[a])
    if shares[best] <= shares[played]:
        best = played
    players = state.players
    return Verdict(best, (round(shares[best], 1),) * players,
                   (round(shares[played], 1),) * players)
