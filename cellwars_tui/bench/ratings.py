"""Ratings benchmarks (``cellwars bench --only ratings``): calibration, update cost, leaderboard.

**Calibration.** Simulated rated games between bots of known strength drive the rating code
(:mod:`cellwars_tui.online.ratings`), not the SSH layer: bots of four levels (random, easy,
normal, hard: a known true skill each, every bot a little off its level's), all new at first,
play one another in the three rated shapes of game (Cellulis Bellum's one against one, Virus
Fight's free-for-all of 3 or 4, Cell Wars' camps of 2 against 2 and 1 against 2). A game's
result is drawn from the bots' true skills (each camp performs at its mean skill plus a normal
noise of the model's beta; the best performance wins), never from the ratings: 40 bots, 10
of each level. Before each
game the model predicts every seat's chance to win; after it, the ratings are updated. Every
seat of every game is one prediction: grouped by decile of the predicted chance, the mean
prediction must be within 5 points of the observed share of wins in every decile. (The first
games of new players are predicted too timidly: over only 1,000 games of 40 new bots the worst
decile is 10 points off; from about 5,000 games it is within the goal.)

**Costs.** One rating update (the model alone, and stored with its game in the SQLite store);
a leaderboard of 10,000 players opened from the store.
"""

from __future__ import annotations

import asyncio

import random
import statistics
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import msgspec

from . import Result, result, timed
from ..core.api import Outcome
from ..core.registry import get_game
from ..online.ratings import Rating, model, rate, win_chances

# The bots' true skills, on the model's scale (a new player's mean is 25, beta is 25/6).
LEVEL_SKILL = {"random": 14.0, "easy": 21.0, "normal": 27.0, "hard": 33.0}
SPREAD = 1.5  # each bot's skill around its level's
# (game, players) of the simulated games, in turn: one against one, free-for-all, camps.
SHAPES = (("cellulis-bellum", 2), ("virus-fight", 3), ("virus-fight", 4),
          ("cell-wars", 4), ("cell-wars", 3))
TOLERANCE = 0.05  # the largest gap allowed between predicted and observed, per decile


@dataclass
class Decile:
    low: float  # the decile's predictions are in [low, low + 0.1)
    predictions: int
    predicted: float  # the mean predicted chance
    observed: float  # the share of wins

    @property
    def gap(self) -> float:
        return abs(self.predicted - self.observed)


class Calibration(msgspec.Struct, kw_only=True):
    games: int
    deciles: list[tuple[float, int, float, float]]  # low, predictions, predicted, observed
    worst_gap: float  # the largest |predicted - observed| over the deciles

    def table(self) -> list[Decile]:
        return [Decile(*d) for d in self.deciles]


def deciles(points: Sequence[tuple[float, bool]]) -> list[Decile]:
    """Predictions (chance, won) grouped by decile of the chance; empty deciles left out."""
    bins: list[list[tuple[float, bool]]] = [[] for _ in range(10)]
    for chance, won in points:
        bins[min(9, max(0, int(chance * 10)))].append((chance, won))
    return [Decile(i / 10, len(b), statistics.fmean(c for c, _ in b),
                   sum(1 for _, w in b if w) / len(b))
            for i, b in enumerate(bins) if b]


def simulate(games: int, seed: int = 1, bots_per_level: int = 10,
             shapes: Sequence[tuple[str, int]] = SHAPES) -> Calibration:
    """``games`` simulated rated games (see the module's docstring) and their calibration:
    ``bots_per_level`` bots of each level, the games' shapes taken in turn."""
    rng = random.Random(seed)
    bots = [(level, rng.gauss(skill, SPREAD)) for level, skill in LEVEL_SKILL.items()
            for _ in range(bots_per_level)]
    ratings: dict[tuple[str, int], Rating] = {}
    points: list[tuple[float, bool]] = []
    beta = model().beta
    for n in range(games):
        game_id, players = shapes[n % len(shapes)]
        game = get_game(game_id)
        seats = rng.sample(range(len(bots)), players)
        before = [ratings.get((game_id, b), Rating()) for b in seats]
        chances = win_chances(game, before)
        sides = game.sides(players)
        camp_skill: dict[str, list[float]] = {}
        for seat, bot in enumerate(seats):
            camp_skill.setdefault(sides[seat], []).append(bots[bot][1])
        performance = {side: statistics.fmean(s) + rng.gauss(0.0, beta)
                       for side, s in camp_skill.items()}
        best = max(performance, key=performance.__getitem__)
        winners = tuple(seat for seat in range(players) if sides[seat] == best)
        for seat in range(players):
            points.append((chances[seat], seat in winners))
        after = rate(game, before, Outcome(winners, "simulated"))
        for bot, r in zip(seats, after):
            ratings[(game_id, bot)] = r
    table = deciles(points)
    return Calibration(games=games, deciles=[(d.low, d.predictions, d.predicted, d.observed)
                                             for d in table],
                       worst_gap=max(d.gap for d in table))


def bench_calibration(quick: bool) -> list[Result]:
    games = 10_000 if quick else 20_000
    cal = simulate(games)
    out = [result(f"ratings: calibration over {games:,} simulated games, worst decile",
                  cal.worst_gap * 100, "points", "<=", TOLERANCE * 100,
                  note="|predicted - observed| win chance")]
    for d in cal.table():
        out.append(result(f"ratings: decile {d.low:.1f}-{d.low + 0.1:.1f}", d.gap * 100, "points",
                          "<=", TOLERANCE * 100,
                          note=f"{d.predictions} predictions: {d.predicted:.3f} predicted, "
                               f"{d.observed:.3f} observed"))
    return out


def bench_costs(quick: bool) -> list[Result]:
    """One rating update (the model alone, per shape of game), one result stored with its
    rating (one SQLite transaction, on disk), and a leaderboard of 10,000 players opened."""
    from ..online.league import GameResult, ResultSeat
    from ..online.store import SqliteTableStore

    out: list[Result] = []
    min_time = 0.2 if quick else 0.5
    for game_id, players in (("cellulis-bellum", 2), ("virus-fight", 4), ("cell-wars", 6)):
        game = get_game(game_id)
        before = [Rating(mu=20 + 2 * i, sigma=4 + i / 2, games=10) for i in range(players)]
        outcome = Outcome((0,), "x")
        seconds, _ = timed(lambda: rate(game, before, outcome), min_time=min_time)
        out.append(result(f"ratings: one rating update, {game.title} with {players}",
                          seconds * 1e3, "ms", "<=", 1.0, note="the model alone"))
    with tempfile.TemporaryDirectory() as tmp:
        store = SqliteTableStore(Path(tmp) / "tables.sqlite3")
        try:
            n = 0

            def stored() -> None:
                nonlocal n
                n += 1
                seats = (ResultSeat(identity=f"key:a{n % 50}", name="a", place=1),
                         ResultSeat(identity=f"key:b{n % 50}", name="b", place=2))
                store.record_result_now(GameResult(
                    game_id=f"G{n}", code="ABCD", game="cellulis-bellum", rated=True,
                    finished_at=float(n), seats=seats, winners=(0,), termination="x",
                    text="a wins", moves=30, record=b"x" * 2000))

            seconds, _ = timed(stored, min_time=min_time)
            out.append(result("ratings: a result and its rating stored (SQLite, synced to disk)",
                              seconds * 1e3, "ms", note="one transaction, synchronous=FULL"))
            rng = random.Random(3)
            store.db.execute("BEGIN")
            store.db.executemany(
                "INSERT INTO ratings (game, identity, name, mu, sigma, games) VALUES "
                "('virus-fight', ?, ?, ?, ?, ?)",
                [(f"key:p{i}", f"player{i}", rng.gauss(25, 4), rng.uniform(2, 8.3),
                  rng.randint(1, 300)) for i in range(PLAYERS)])
            store.db.execute("COMMIT")
            seconds, _ = timed(lambda: store.leaderboard_now("virus-fight", you="key:p5000"),
                               min_time=min_time)
            out.append(result(f"ratings: leaderboard of {PLAYERS:,} players opened (top 20 and "
                              "your place)", seconds * 1e3, "ms", "<=", 100.0,
                              note="from the SQLite store"))
        finally:
            asyncio.run(store.close())
    return out


PLAYERS = 10_000

BENCHMARKS = [bench_calibration, bench_costs]
