"""Fit the Cell Wars search bot's position value (``games/cell_wars/value.py``) from self-play.

Games of the greedy policy (every seat; a share of its moves taken among its other sensible
choices, so positions differ from one game to the next) are played to the end; one position in
four at the start of a panel's individual round is kept with the game's result. Two logistic
regressions over ``value.features`` (L2-regularised, fitted by Newton's method in plain Python)
give the chances that the cancer camp wins and that the immune camp wins; the value is their
difference. The command prints both weight tuples, to paste into ``value.py``::

    python -m cellwars_tui.bench.games.cell_wars_value --games 12000 --seed 300000

Reproducible by seed (game ``i`` uses seed ``S + i``); the games run in a process pool.
"""

from __future__ import annotations

import argparse
import math
import random
from concurrent.futures import ProcessPoolExecutor

NOISE = (0.05, 0.15)  # share of the policy's moves taken among its other choices (odd/even seeds)
KEEP = 0.25  # share of the panels' rounds kept as positions
L2 = 1e-3


def game_rows(seed: int, players: int = 2) -> list[tuple[list[float], int]]:
    """One greedy game: (features, winner) for the positions kept (winner: 0 immune, 1 cancer,
    2 tie)."""
    from ...core import CHANCE
    from ...games.cell_wars import bot as BOT
    from ...games.cell_wars import rules as R
    from ...games.cell_wars.value import features

    rng = random.Random(seed)
    game = R.GAME
    s = game.initial_state(R.CellWarsOptions(players=players))
    noise = NOISE[seed % 2]
    rows: list[list[float]] = []
    last = None
    while True:
        seats = game.to_act(s)
        if not seats:
            break
        seat = seats[0]
        if s.phase == R.PLAY and (s.round, s.panel) != last:
            last = (s.round, s.panel)
            if rng.random() < KEEP:
                rows.append(features(s))
        a = game.sample_chance(s, rng) if seat == CHANCE else BOT.policy(game, s, seat, rng, noise)
        s, _ = game._apply(s, seat, a)
    return [(row, s.winner) for row in rows]


def _rows_of(seeds: range) -> list[tuple[list[float], int]]:
    out: list[tuple[list[float], int]] = []
    for seed in seeds:
        out.extend(game_rows(seed))
    return out


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """a x = b by Gaussian elimination with partial pivoting (a is small and well conditioned)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            if f:
                row, top = m[r], m[c]
                for k in range(c, n + 1):
                    row[k] -= f * top[k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][k] * x[k] for k in range(r + 1, n))) / m[r][r]
    return x


def fit_logistic(xs: list[list[float]], ts: list[float], iters: int = 12) -> list[float]:
    """L2-regularised logistic regression by Newton's method."""
    d, n = len(xs[0]), len(xs)
    w = [0.0] * d
    for _ in range(iters):
        grad = [L2 * wi for wi in w]
        hess = [[(L2 if i == j else 0.0) for j in range(d)] for i in range(d)]
        for x, t in zip(xs, ts):
            z = sum(a * b for a, b in zip(x, w))
            p = 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, z))))
            g, h = (p - t) / n, p * (1.0 - p) / n
            for i, xi in enumerate(x):
                if xi:
                    grad[i] += g * xi
                    hx = h * xi
                    row = hess[i]
                    for j in range(i + 1):
                        row[j] += hx * x[j]
        for i in range(d):
            for j in range(i):
                hess[j][i] = hess[i][j]
        step = _solve(hess, grad)
        w = [wi - si for wi, si in zip(w, step)]
        if max(abs(si) for si in step) < 1e-6:
            break
    return w


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=12000)
    p.add_argument("--seed", type=int, default=300000)
    p.add_argument("--jobs", type=int, default=2)
    args = p.parse_args(argv)
    chunks = [range(args.seed + k, args.seed + args.games, args.jobs) for k in range(args.jobs)]
    rows: list[tuple[list[float], int]] = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for part in pool.map(_rows_of, chunks):
            rows.extend(part)
    xs = [r for r, _ in rows]
    print(f"# {len(rows)} positions from {args.games} greedy games, seeds {args.seed}-"
          f"{args.seed + args.games - 1}")
    for name, camp in (("CANCER_W", 1), ("IMMUNE_W", 0)):
        w = fit_logistic(xs, [1.0 if y == camp else 0.0 for _, y in rows])
        print(f"{name} = (" + ", ".join(f"{v:.4f}" for v in w) + ")")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
