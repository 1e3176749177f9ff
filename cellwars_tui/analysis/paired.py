"""The move played weighed against the moves the search prefers, paired and sequential.

The root search (``search.py``) spreads its playouts over every candidate, so the preferred
move's value comes from few of them, which move it prefers comes and goes with the seed, and so
would a judgment. Here the move played and the search's ``CONTENDERS`` most visited other moves
(whichever it prefers, the move played included) are measured again, each from the position it
leaves, in **batches**:

* a batch's value of a position is the mean of ``batch`` playouts of the game's own search from
  it (a fresh tree each batch, so batches are independent);
* **the preferred move** is chosen among the contenders by successive halving: each round the
  ones left get ``SELECT`` more batches and the better half goes on, until two are left; they
  race on (``race_on``) until one leads clearly, or they are too close for the choice to
  matter (``GAP``), or ``RACE_MOST`` batches;
* **the drop** is then measured on fresh batches only (at least ``FIRST``), never on the ones
  that chose the preferred move: a contender chosen for measuring well in a few batches
  measures too well in those (the winner's curse, seen as false blunders);
* **paired**: batch ``k`` measures the preferred move and the move played with the same random
  numbers (common random numbers), so what luck they share cancels out of their difference
  (little in Virus Fight, measured: one move apart, random games soon part ways); the drop is
  the mean over batches of the paired differences in the mover's Win%, and its **margin**
  ``t`` standard errors (Student's 95% quantile for the batches' count: few batches tell their
  own spread poorly, so their margin is wider);
* **sequential**, only where a grave judgment is in doubt (``wanted``): the drop is looked at
  after ``FIRST``, ``MOST`` and ``MOST_BLUNDER`` batches (``LOOKS``) and goes on to the next
  look while the mistake line (10 points; up to ``MOST``) or the blunder line (15; up to
  ``MOST_BLUNDER``) lies within its margin: a blunder is told from a lesser move by more
  measurement, at three looks fixed in advance, not by the first of many looks to cross the
  line by luck. A move near the inaccuracy line (5) only is left near it.

A move is judged by the drop less its margin (``Decision.margin``), and a drop whose margin
reaches over a threshold is *near* it (``Decision.near``). Everything is seeded from the
decision's own generator: the same budget and seed give the same numbers. Nothing here imports
textual or rich.
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

CONTENDERS = 4  # the root search's most visited moves (besides the one played) measured again
SELECT = 2  # batches each contender left gets per round of the successive halving
FIRST = 6  # fresh batches the preferred move and the move played get at least
MOST = 24  # batches at most while a mistake (the 10 points line) is in doubt
MOST_BLUNDER = 64  # batches at most while the blunder line is in doubt
LOOKS = (FIRST, MOST, MOST_BLUNDER)  # the batch counts at which the drop is judged
RACE_MOST = 8  # batches at most for each of the two last contenders
GAP = 2.5  # Win% points between the two last contenders too few to matter (half a grade)
BLUNDER_EDGE, MISTAKE_EDGE = EDGES[-1], EDGES[-2]  # 15 and 10 points


def batch_size(budget: int) -> int:
    """Playouts a position gets in one batch: a tenth of the decision's budget (at least 4), so
    a larger ``--budget`` measures every batch more finely."""
    return max(4, budget // 10)


def t95(batches: int) -> float:
    """Student's two-sided 95% quantile for the mean of ``batches`` batches (``batches - 1``
    degrees of freedom; Cornish-Fisher's expansion, within 0.03 of the table from 4 batches)."""
    df = max(1, batches - 1)
    z = 1.959964
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df * df)


class Paired(msgspec.Struct, frozen=True):
    best: Action
    best_values: tuple[float, ...]  # each seat's mean value (in [-1, 1]) after ``best``
    played_values: tuple[float, ...]
    drop: float  # the mover's Win% lost by the move played against ``best``
    error: float  # the standard error of ``drop``
    batches: int  # the fresh batches the drop was measured on
    margin: float = 0.0  # ``t95(batches)`` standard errors: what the drop cannot tell from noise


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


def wanted(drop: float, margin: float, batches: int) -> int:
    """How many batches the drop should have in all, measured on ``batches`` so far: the next
    of ``LOOKS`` while the line of a mistake (10 points, up to ``MOST``) or of a blunder (15,
    up to ``MOST_BLUNDER``) lies within its margin, else ``batches`` (done). A move near the
    inaccuracy line (5) only is left near it. Few looks, fixed in advance: a drop looked at
    every few batches would cross a line by luck at one look or another, and the blunders two
    seeds mark would differ."""
    doubt = [edge for edge in EDGES if abs(drop - edge) <= margin]
    cap = MOST_BLUNDER if BLUNDER_EDGE in doubt else MOST if MISTAKE_EDGE in doubt else batches
    return next((n for n in LOOKS if batches < n <= cap), batches)


def race_on(leads: Sequence[float]) -> bool:
    """Whether the two last contenders need more batches: ``leads`` are the first's lead over
    the second, batch by batch (paired). Done when the leader is clear (its lead beyond its
    margin), when the two are too close for the choice to matter (the lead and its margin
    within ``GAP``) or at ``RACE_MOST`` batches: a choice left to a few batches would name a
    move some points worse in one seed of three, and its drop with it."""
    n = len(leads)
    if n >= RACE_MOST or n < 2:
        return n < 2
    lead = sum(leads) / n
    margin = t95(n) * math.sqrt(sum((x - lead) ** 2 for x in leads) / (n - 1) / n)
    return not (abs(lead) > margin or abs(lead) + margin <= GAP)


def _mean(rows: Sequence[Sequence[float]]) -> tuple[float, ...]:
    return tuple(sum(column) / len(rows) for column in zip(*rows))


def paired(game: Game, state: Any, seat: int, played: Action, ranked: Sequence[Action],
           budget: int, rng: random.Random) -> Paired:
    """The move played against the first ``CONTENDERS`` others of ``ranked`` (the root search's
    moves, most visited first; see the module docstring)."""
    uncertain = game.has_chance or game.hidden_information
    size = batch_size(budget)
    seed = rng.getrandbits(64)
    contenders = [a for a in ranked if a != played][:CONTENDERS]
    moves = [played, *contenders]
    after = {a: game._apply(state, seat, a)[0] for a in moves}
    over = {a: game.outcome(after[a]) is not None for a in moves}
    values: dict[Action, list[tuple[float, ...]]] = {a: [] for a in moves}

    def measure(action: Action, key: str) -> tuple[float, ...]:
        batch = random.Random(f"{seed}/{key}")  # the same numbers for every move of a batch
        found = position_value(game, after[action], seat, size, batch, uncertain)
        values[action].append(found)
        return found

    if not contenders:  # nothing else to weigh it against
        only = measure(played, "0")
        return Paired(played, only, only, 0.0, 0.0, 1)
    # successive halving to two, then a race: the preferred move, on batches of its own
    left, k = contenders, 0

    def rounds(actions: Sequence[Action], count: int) -> None:
        nonlocal k
        for _ in range(1 if all(over[a] for a in actions) else count):  # results: one says all
            for action in actions:
                measure(action, f"s{k}")
            k += 1

    def mover_mean(action: Action) -> float:
        return sum(v[seat] for v in values[action]) / len(values[action])

    while len(left) > 2:
        rounds(left, SELECT)
        left = sorted(left, key=lambda a: -mover_mean(a))[:(len(left) + 1) // 2]
    if len(left) == 2:
        first, second = left
        while True:
            if len(values[first]) < RACE_MOST:
                rounds(left, SELECT)
            if all(over[a] for a in left) or not race_on(
                    [50.0 * (x[seat] - y[seat]) for x, y in zip(values[first], values[second])]):
                break
        left = sorted(left, key=lambda a: -mover_mean(a))
    best = left[0]
    # the drop, on fresh batches ("0", "1", ...)
    values = {best: [], played: []}
    k = 1 if over[best] and over[played] else FIRST
    for n in range(k):
        measure(played, str(n))
        measure(best, str(n))
    while True:
        diffs = [50.0 * (b[seat] - p[seat]) for b, p in zip(values[best], values[played])]
        drop = sum(diffs) / k
        error = 0.0
        if k > 1:
            error = math.sqrt(sum((x - drop) ** 2 for x in diffs) / (k - 1) / k)
        margin = t95(k) * error
        more = 0 if over[best] and over[played] else wanted(drop, margin, k)
        if more <= k:
            break
        for n in range(k, more):
            measure(played, str(n))
            measure(best, str(n))
        k = more
    if drop <= 0:  # the move played measured at least as good: it is the one preferred
        played_mean = _mean(values[played])
        return Paired(played, played_mean, played_mean, 0.0, 0.0, k)
    return Paired(best, _mean(values[best]), _mean(values[played]), drop, error, k, margin)
