"""The move played weighed against the moves the search prefers, paired and sequential.

The root search (``search.py``) spreads its playouts over every candidate, so the preferred
move's value comes from few of them, which move it prefers comes and goes with the seed, and so
would a judgment. Here the move played and the search's ``CONTENDERS`` most visited other moves
(whichever it prefers, the move played included) are measured again, each from the position it
leaves, in **batches**:

* **paired**: batch ``k`` measures every move with the same random numbers (the same seed for
  its determinisation, chance and playouts: common random numbers), so what luck two moves share
  cancels out of their difference (little in Virus Fight, measured: one move apart, random games
  soon part ways; the batches' spread below is what is left, whatever it is);
* a batch's value of a position is the mean of ``batch`` playouts of the game's own search from
  it (a fresh tree each batch, so batches are independent); the drop is the mean over batches of
  the paired differences in the mover's Win%, and its **standard error** the batches' spread;
* the preferred move is the contender measured best over the first ``SELECT`` batches; only it
  and the move played go on, to ``FIRST`` batches at least (the move played is preferred, and
  not judged, when it measures at least as good in the end);
* **sequential**: batches are added (``STEP`` at a time, up to ``MOST``) only while the drop is
  within ``Z`` standard errors of a judgment's threshold (5, 10 or 15 points), so the playouts go
  where a judgment is in doubt.

``Z`` standard errors of the drop are its margin (``Decision.margin``): a move is judged by the
drop less its margin, and a drop whose margin reaches over a threshold is *near* it
(``Decision.near``). Everything is seeded from the decision's own generator: the same budget and
seed give the same numbers. Nothing here imports textual or rich.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

import msgspec

from ..ai.bots import MCTSBot, _Node
from ..core.api import Action, Game
from .judge import EDGES

CONTENDERS = 3  # the root search's most visited moves (besides the one played) measured again
SELECT = 3  # batches every contender gets: the best of them is the preferred move
FIRST = 6  # batches the preferred move and the move played get at least (for a standard error)
STEP = 2  # batches added at a time while a judgment is in doubt
MOST = 24  # batches at most for the preferred move and the move played
Z = 2.0  # standard errors of the drop that are its margin


def batch_size(budget: int) -> int:
    """Playouts a position gets in one batch: a tenth of the decision's budget (at least 4), so
    a larger ``--budget`` measures every batch more finely."""
    return max(4, budget // 10)


class Paired(msgspec.Struct, frozen=True):
    best: Action
    best_values: tuple[float, ...]  # each seat's mean value (in [-1, 1]) after ``best``
    played_values: tuple[float, ...]
    drop: float  # the mover's Win% lost by the move played against ``best``
    error: float  # the standard error of ``drop``
    batches: int


def position_value(game: Game, state: Any, seat: int, playouts: int, rng: random.Random,
                   uncertain: bool) -> tuple[float, ...]:
    """Each seat's mean value over ``playouts`` iterations of the game's MCTS from ``state``
    (its result when the game is over)."""
    players = game.num_players(state)
    outcome = game.outcome(state)
    if outcome is not None:
        return outcome.returns(players)
    bot = MCTSBot()
    root = _Node()
    sums = [0.0] * players
    n = 0
    for _ in range(playouts):
        _, values = bot._iterate(game, game.determinize(state, seat, rng), root, rng, uncertain)
        if values is None:
            continue
        n += 1
        for i in range(min(players, len(values))):
            sums[i] += values[i]
    return tuple(x / n for x in sums) if n else (0.0,) * players


def _in_doubt(drop: float, error: float) -> bool:
    return any(abs(drop - edge) <= Z * error for edge in EDGES)


def _mean(rows: Sequence[Sequence[float]]) -> tuple[float, ...]:
    return tuple(sum(column) / len(rows) for column in zip(*rows))


def paired(game: Game, state: Any, seat: int, played: Action, ranked: Sequence[Action],
           budget: int, rng: random.Random) -> Paired:
    """The move played against the first ``CONTENDERS`` others of ``ranked`` (the root search's
    moves, most visited first; see the module docstring)."""
    uncertain = game.has_chance or game.hidden_information
    size = batch_size(budget)
    seed = rng.getrandbits(64)
    moves = [played, *[a for a in ranked if a != played][:CONTENDERS]]
    after = {a: game._apply(state, seat, a)[0] for a in moves}
    over = {a: game.outcome(after[a]) is not None for a in moves}
    values: dict[Action, list[tuple[float, ...]]] = {a: [] for a in moves}

    def measure(action: Action, k: int) -> None:
        batch = random.Random(f"{seed}/{k}")  # the same numbers for every move in batch k
        values[action].append(position_value(game, after[action], seat, size, batch, uncertain))

    def drops(action: Action) -> list[float]:
        return [50.0 * (b[seat] - p[seat]) for b, p in zip(values[action], values[played])]

    first = 1 if all(over.values()) else FIRST  # results: one batch says it all
    select = min(SELECT, first)
    for k in range(select):
        for action in moves:
            measure(action, k)
    best = max(moves[1:], key=lambda a: sum(drops(a)), default=played)
    if best == played:  # nothing else to weigh it against
        mean = _mean(values[played])
        return Paired(played, mean, mean, 0.0, 0.0, select)
    for k in range(select, first):
        measure(played, k)
        measure(best, k)
    k = first
    while True:
        diffs = drops(best)
        drop = sum(diffs) / k
        error = 0.0
        if k > 1:
            error = math.sqrt(sum((x - drop) ** 2 for x in diffs) / (k - 1) / k)
        if k >= MOST or (over[best] and over[played]) or not _in_doubt(drop, error):
            break
        for _ in range(min(STEP, MOST - k)):
            measure(played, k)
            measure(best, k)
            k += 1
    if drop <= 0:  # the move played measured at least as good: it is the one preferred
        mean = _mean(values[played])
        return Paired(played, mean, mean, 0.0, 0.0, k)
    return Paired(best, _mean(values[best]), _mean(values[played]), drop, error, k)
