"""The analysis' search: every seat's expected result after the best move and after the move
played, from the game's own search at a fixed budget and seed.

Two ways, tried in this order:

* **exact**, for a position near the end of a game without simultaneous moves: every line is
  played to its end (chance steps weighed by ``Game.chance_outcomes``) within ``EXACT_NODES``
  positions; the values are then the true results under best play (max^n: each mover takes what
  is best for itself). A move that loses at once, or a win missed, is seen for certain.
* **search** otherwise: the game's own determinised MCTS (:class:`~cellwars_tui.ai.bots.MCTSBot`,
  with the game's ``bot_actions``, ``random_playout`` and ``heuristic``) for ``budget`` playouts,
  keeping every seat's playout values at the root's children (the bot keeps only the mover's).
  The move played, if the search gave it few playouts, gets more (up to half the budget,
  all through its own subtree), so that its value is measured as well as the best move's.

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

EXACT_NODES = 400  # positions the exact search may visit before it gives up (a few ms)


class Verdict(msgspec.Struct, frozen=True):
    """A decision weighed: the best move, each seat's Win% after it and after the move played."""

    best: Action
    best_values: tuple[float, ...]
    played_values: tuple[float, ...]
    exact: bool = False
    note: str = ""
    margin: float = 0.0  # Win% points of the drop the search cannot tell from noise


Z = 2.0  # standard errors of a searched drop left out of the judgment (see judge.py)
# Win% points left out besides: the playouts' spread does not measure how the tree below each
# move was explored (which replies the search tried), and two seeds' values of the same move
# differ by that much more (measured on Cell Wars and Virus Fight, see the rules pages)
ALLOWANCE = 3.0


def win_percent(values: Sequence[float]) -> tuple[float, ...]:
    """Returns in [-1, 1] as Win% in 0..100, one decimal."""
    return tuple(round(max(0.0, min(100.0, 50.0 * (v + 1.0))), 1) for v in values)


# -- exact -----------------------------------------------------------------------------------------
class _TooBig(Exception):
    pass


def _solve(game: Game, state: Any, left: list[int]) -> tuple[float, ...]:
    outcome = game.outcome(state)
    players = game.num_players(state)
    if outcome is not None:
        return outcome.returns(players)
    left[0] -= 1
    if left[0] < 0:
        raise _TooBig
    seats = game.to_act(state)
    if not seats:
        return (0.0,) * players
    if seats == (CHANCE,):
        try:
            outcomes = list(game.chance_outcomes(state))
        except NotImplementedError:
            raise _TooBig from None
        total = [0.0] * players
        for action, p in outcomes:
            values = _solve(game, game._apply(state, CHANCE, action)[0], left)
            for i in range(players):
                total[i] += p * values[i]
        return tuple(total)
    if len(seats) > 1:  # simultaneous moves: no single best reply to search
        raise _TooBig
    seat = seats[0]
    best: tuple[float, ...] | None = None
    for action in game.legal_actions(state, seat):
        values = _solve(game, game._apply(state, seat, action)[0], left)
        if best is None or values[seat] > best[seat]:
            best = values
    return best if best is not None else (0.0,) * players


def exact_verdict(game: Game, state: Any, seat: int, played: Action,
                  nodes: int = EXACT_NODES) -> Verdict | None:
    """The exact values of every legal move of ``seat`` (None when the game is too long from
    here to search to its end within ``nodes`` positions)."""
    if game.real_time:
        return None
    left = [nodes]
    values: dict[Action, tuple[float, ...]] = {}
    try:
        for action in game.legal_actions(state, seat):
            values[action] = _solve(game, game._apply(state, seat, action)[0], left)
    except _TooBig:
        return None
    if played not in values:
        return None
    best = max(values, key=lambda a: values[a][seat])
    if values[best][seat] <= values[played][seat]:
        best = played
    return Verdict(best, win_percent(values[best]), win_percent(values[played]), exact=True)


# -- search ----------------------------------------------------------------------------------------
class _Stats:
    """The playouts through one root child: how many, each seat's sum of values, and the
    sum of squares of the mover's (for the standard error)."""

    __slots__ = ("count", "sums", "squares")

    def __init__(self, players: int) -> None:
        self.count = 0
        self.sums = [0.0] * players
        self.squares = 0.0

    def variance(self, seat: int) -> float:
        """The variance of the mean of ``seat``'s value, in Win% points squared."""
        if self.count < 2:
            return 2500.0
        mean = self.sums[seat] / self.count
        var = max(0.0, self.squares / self.count - mean * mean)
        return 2500.0 * var / (self.count - 1)


def searched_verdict(game: Game, state: Any, seat: int, played: Action, budget: int,
                     rng: random.Random) -> Verdict:
    """The game's MCTS at ``state`` for ``budget`` playouts, each seat's values kept."""
    players = game.num_players(state)
    bot = MCTSBot()
    actions = list(candidate_actions(game, state, seat))
    if played not in actions:  # a move the bot would not weigh (a resignation, an offer)
        actions.append(played)
    uncertain = game.has_chance or game.hidden_information
    root = _Node()
    root.seat = seat
    root.untried = list(actions)
    stats: dict[int, _Stats] = {}

    def run(node: _Node) -> bool:
        path, values = bot._iterate(game, game.determinize(state, seat, rng), node, rng,
                                    uncertain)
        if not path:
            return False
        got = stats.setdefault(id(path[0][1]), _Stats(players))
        got.count += 1
        if values is not None:
            for i in range(min(players, len(values))):
                got.sums[i] += values[i]
            if seat < len(values):
                got.squares += values[seat] * values[seat]
        return True

    for _ in range(max(1, budget)):
        run(root)
    if not root.children:
        return Verdict(played, (50.0,) * players, (50.0,) * players, note="no move searched")
    best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].value))[0]
    if best != played:
        want = max(2, budget // 2)
        forced = _Node()
        forced.seat = seat
        child = root.children.get(played)
        if child is None:
            forced.untried = [played]
        else:
            forced.children = {played: child}
            forced.untried = []
        for _ in range(2 * want):
            child = root.children.get(played) or forced.children.get(played)
            if child is not None and child.visits >= want:
                break
            if not run(forced) and child is None:
                break
        if played not in root.children and played in forced.children:
            root.children[played] = forced.children[played]

    def mean(action: Action) -> tuple[float, ...]:
        child = root.children.get(action)
        got = stats.get(id(child)) if child is not None else None
        if got is None or not got.count:
            return (0.0,) * players
        return tuple(x / got.count for x in got.sums)

    best_values, played_values = mean(best), mean(played)
    if best_values[seat] < played_values[seat]:  # the move played measured better: it is best
        best, best_values = played, played_values
    margin = 0.0
    if best != played:
        spread = sum(_variance(game, state, seat, action, stats.get(id(root.children[action])))
                     for action in (best, played))
        margin = round(Z * spread ** 0.5 + ALLOWANCE, 1)
    return Verdict(best, win_percent(best_values), win_percent(played_values), margin=margin)


def _variance(game: Game, state: Any, seat: int, action: Action, got: _Stats | None) -> float:
    """The variance of a root child's mean for ``seat``: none for a move that ends the game (its
    value is its result), the playouts' otherwise."""
    if game.outcome(game._apply(state, seat, action)[0]) is not None:
        return 0.0
    return got.variance(seat) if got is not None else 2500.0


def verdict(game: Game, state: Any, seat: int, played: Action, budget: int,
            rng: random.Random) -> Verdict:
    """Exact where the game ends within reach, else the search."""
    found = exact_verdict(game, state, seat, played)
    if found is not None:
        return found
    return searched_verdict(game, state, seat, played, budget, rng)
