"""The analysis' search: every seat's expected result after the best move and after the move
played, from the game's own search at a fixed budget and seed.

Two ways, tried in this order:

* **exact**, for a position near the end of a game without simultaneous moves: every line is
  played to its end (chance steps weighed by ``Game.chance_outcomes``) within ``EXACT_NODES``
  positions; the values are then the true results under best play (max^n: each mover takes what
  is best for itself). A move that loses at once, or a win missed, is seen for certain.
* **search** otherwise: the game's own determinised MCTS (:class:`~cellwars_tui.ai.bots.MCTSBot`,
  with the game's ``bot_actions``, ``random_playout`` and ``heuristic``) for ``budget`` playouts
  ranks the moves; the move played and the search's most visited others are then measured
  again, paired on the same random numbers and in batches until the judgment is clear
  (``paired.py``): the drop comes with its standard error.

Values are OpenSpiel returns in [-1, 1] (+1 a win, -1 a loss, 0 a draw) and are shown as Win%:
``50 * (value + 1)``, so a sole winner's seat is 100, a loser's 0, every seat of a draw 50.

The analysis is given the whole state the record holds (hidden programs and hands included): it
judges a move knowing what its player could not see. Nothing here imports textual or rich.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import msgspec

from ..ai.bots import MCTSBot, _Node, candidate_actions
from ..core.api import CHANCE, Action, Game
from .paired import paired

EXACT_NODES = 400  # positions the exact search may visit before it gives up (a few ms)


class Verdict(msgspec.Struct, frozen=True):
    """A decision weighed: the best move, each seat's Win% after it and after the move played."""

    best: Action
    best_values: tuple[float, ...]
    played_values: tuple[float, ...]
    exact: bool = False
    note: str = ""
    margin: float = 0.0  # Win% points of the drop the search cannot tell from noise


def win_percent(values: Sequence[float]) -> tuple[float, ...]:
    """Returns in [-1, 1] as Win% in 0..100, one decimal."""
    return tuple(round(max(0.0, min(100.0, 50.0 * (v + 1.0))), 1) for v in values)


# -- exact -----------------------------------------------------------------------------------------
class _TooBig(Exception):
    pass


def _solve(game: Game, state: Any, left: list[int]) -> tuple[float, ...]:
    """The values of ``state`` (not over, already counted in ``left``) under best play.

    Every position of a move's tree is counted once whatever the order, so the search either
    finishes within ``left`` or not; a position's children are made and counted all at once,
    before any is searched, so a tree too big for the budget is given up after a few levels
    rather than after ``EXACT_NODES`` positions down its first line."""
    players = game.num_players(state)
    seats = game.to_act(state)
    if not seats:
        return (0.0,) * players
    if seats == (CHANCE,):
        try:
            outcomes = list(game.chance_outcomes(state))
        except NotImplementedError:
            raise _TooBig from None
        total = [0.0] * players
        made = _children(game, state, CHANCE, [a for a, _ in outcomes], left)
        for (after, over), (_, p) in zip(made, outcomes):
            values = over.returns(players) if over is not None else _solve(game, after, left)
            for i in range(players):
                total[i] += p * values[i]
        return tuple(total)
    if len(seats) > 1:  # simultaneous moves: no single best reply to search
        raise _TooBig
    seat = seats[0]
    best: tuple[float, ...] | None = None
    for after, over in _children(game, state, seat, game.legal_actions(state, seat), left):
        values = over.returns(players) if over is not None else _solve(game, after, left)
        if best is None or values[seat] > best[seat]:
            best = values
    return best if best is not None else (0.0,) * players


def _children(game: Game, state: Any, seat: int, actions: Sequence[Action],
              left: list[int]) -> list[tuple[Any, Any]]:
    """The positions ``actions`` lead to, each with its outcome (None: not over); those not
    over are counted in ``left`` (``_TooBig`` past the budget)."""
    made = []
    for action in actions:
        after = game._apply(state, seat, action)[0]
        made.append((after, game.outcome(after)))
    left[0] -= sum(over is None for _, over in made)
    if left[0] < 0:
        raise _TooBig
    return made


def exact_verdict(game: Game, state: Any, seat: int, played: Action,
                  nodes: int = EXACT_NODES) -> Verdict | None:
    """The exact values of every legal move of ``seat`` (None when the game is too long from
    here to search to its end within ``nodes`` positions)."""
    if game.real_time:
        return None
    left = [nodes]
    values: dict[Action, tuple[float, ...]] = {}
    actions = game.legal_actions(state, seat)
    players = game.num_players(state)
    try:
        for action, (after, over) in zip(actions, _children(game, state, seat, actions, left)):
            values[action] = (over.returns(players) if over is not None
                              else _solve(game, after, left))
    except _TooBig:
        return None
    if played not in values:
        return None
    best = max(values, key=lambda a: values[a][seat])
    if values[best][seat] <= values[played][seat]:
        best = played
    return Verdict(best, win_percent(values[best]), win_percent(values[played]), exact=True)


# -- search ----------------------------------------------------------------------------------------
def searched_verdict(game: Game, state: Any, seat: int, played: Action, budget: int,
                     rng: random.Random) -> Verdict:
    """The game's MCTS at ``state`` for ``budget`` playouts ranks the moves; then the move played
    is measured against the ones it prefers, paired (``paired.py``)."""
    players = game.num_players(state)
    bot = MCTSBot()
    actions = list(candidate_actions(game, state, seat))
    if played not in actions:  # a move the bot would not weigh (a resignation, an offer)
        actions.append(played)
    uncertain = game.has_chance or game.hidden_information
    root = _Node()
    root.seat = seat
    root.untried = list(actions)
    for _ in range(max(1, budget)):
        bot._iterate(game, game.determinize(state, seat, rng), root, rng, uncertain)
    if not root.children:
        return Verdict(played, (50.0,) * players, (50.0,) * players, note="no move searched")
    ranked = sorted(root.children, key=lambda a: (-root.children[a].visits,
                                                  -root.children[a].value))
    found = paired(game, state, seat, played, ranked, budget, rng)
    return Verdict(found.best, win_percent(found.best_values), win_percent(found.played_values),
                   margin=round(found.margin, 1))


def verdict(game: Game, state: Any, seat: int, played: Action, budget: int,
            rng: random.Random) -> Verdict:
    """Exact where the game ends within reach, else the search."""
    found = exact_verdict(game, state, seat, played)
    if found is not None:
        return found
    return searched_verdict(game, state, seat, played, budget, rng)
