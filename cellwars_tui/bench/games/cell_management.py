"""Cell Management benchmarks: the six-species study (goal: under 20 s on two cores), one solve,
and the packed walk the solver runs on."""

from __future__ import annotations

import random
import time

from .. import Result, result, timed
from ...games.cell_management import rules as R
from ...games.cell_management import solver as S


def bench_study(quick: bool) -> list[Result]:
    out = []
    for species in ((4, 5) if quick else (4, 5, 6)):
        t0 = time.perf_counter()
        res = S.study(species)
        seconds = time.perf_counter() - t0
        note = (f"{len(res.classes)} classes of {res.raw_setups:,} setups, "
                f"{len(res.unsolvable())} unsolvable")
        if species == 6:
            out.append(result("cell-management: study, 6 species", seconds, "s", "<=", 20, note))
        else:
            out.append(result(f"cell-management: study, {species} species", seconds, "s",
                              note=note))
    return out


def bench_solve(quick: bool) -> list[Result]:
    hardest = R.setup_from_number(1740, 6)  # 13 rounds, one of the two hardest classes
    per, _ = timed(lambda: S.solve_setup(hardest), min_time=0.2 if quick else 1.0)
    sample = R.setup_from_code(R.SAMPLE_CODE)
    per_hint, _ = timed(lambda: S.hint(R.initial_position(sample)), min_time=0.2 if quick else 1.0)
    rng = random.Random(1)
    puzzle = S.Compiled(R.shuffle_setup(6, rng))
    states = [rng.randrange(4**6) for _ in range(1000)]

    def walks() -> None:
        for bits in states:
            for _cell, steps in puzzle.walks:
                S.walk_bits(bits, steps)

    per_k, _ = timed(walks, min_time=0.2 if quick else 1.0)
    return [
        result("cell-management: solve the hardest 6-species puzzle", per * 1e3, "ms", "<=", 500,
               note="BFS, 13 rounds"),
        result("cell-management: hint on the sample puzzle", per_hint * 1e3, "ms", "<=", 200),
        result("cell-management: guard walks (packed)", 6000 / per_k, "walks/s"),
    ]


BENCHMARKS = [bench_study, bench_solve]
