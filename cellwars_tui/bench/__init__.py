"""``cellwars bench``: every benchmark the issues name, as a table or JSON.

Every benchmark and self-play measure lives in this package, mirroring the tree (``core.py``,
``replay.py``, ``ui.py``, ``ssh.py``, ``games/<game>.py``; ``balance.py`` is ``cellwars balance``,
``ladder.py`` its ``--ladder``). A module with benchmarks defines
``BENCHMARKS: list[Callable[[bool], list[Result]]]`` (the argument is ``quick``); this module
finds them, runs them and prints them.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import sys
import time
import traceback
from collections.abc import Callable, Iterable

import msgspec


def bench_modules() -> list[str]:
    """Every module of this package (games/ included), in name order."""
    return sorted(m.name for m in pkgutil.walk_packages(__path__, prefix=f"{__name__}.")
                  if not m.ispkg)


class Result(msgspec.Struct, kw_only=True):
    name: str
    value: float
    unit: str
    goal: str = ""  # e.g. ">= 2000"
    met: bool | None = None  # None: no goal, or no way to judge here (printed ? with a goal)
    note: str = ""


def goal_check(value: float, op: str, target: float) -> bool:
    return value >= target if op == ">=" else value <= target


def result(name: str, value: float, unit: str, op: str = "", target: float | None = None,
           note: str = "") -> Result:
    if op and target is not None:
        return Result(name=name, value=value, unit=unit, goal=f"{op} {target:g}",
                      met=goal_check(value, op, target), note=note)
    return Result(name=name, value=value, unit=unit, note=note)


def timed(fn: Callable[[], object], *, min_time: float = 0.5) -> tuple[float, int]:
    """Run ``fn`` repeatedly for at least ``min_time`` s; return (seconds per call, calls)."""
    n, start = 0, time.perf_counter()
    while True:
        fn()
        n += 1
        elapsed = time.perf_counter() - start
        if elapsed >= min_time:
            return elapsed / n, n


def collect(only: Iterable[str] = ()) -> list[Callable[[bool], list[Result]]]:
    found: list[Callable[[bool], list[Result]]] = []
    for name in bench_modules():
        module = importlib.import_module(name)
        found.extend(getattr(module, "BENCHMARKS", []))
    only = list(only)
    if only:  # a game's id (virus-fight) names its module (virus_fight) too
        wanted = [o.replace("-", "_") for o in only]
        found = [f for f in found if any(o in f"{f.__module__}.{f.__name__}" for o in wanted)]
    return found


def run_bench(only: Iterable[str] = (), as_json: bool = False, quick: bool = False) -> int:
    only = list(only)
    benches = collect(only)
    if not benches:
        wanted = ", ".join(repr(o) for o in only)
        print(f"cellwars bench: no benchmark matches {wanted}", file=sys.stderr)
        return 2
    results: list[Result] = []
    for bench in benches:
        label = f"{bench.__module__.removeprefix('cellwars_tui.')}.{bench.__name__}"
        if not as_json:
            print(f"running {label} ...", file=sys.stderr, flush=True)
        try:
            results.extend(bench(quick))
        except Exception as exc:  # a broken benchmark is reported, the others still run
            traceback.print_exc(file=sys.stderr)
            results.append(Result(name=label, value=float("nan"), unit="", met=False,
                                  note=f"failed: {exc}"))
    if as_json:
        print(json.dumps(msgspec.to_builtins(results), indent=2))
    else:
        print_table(results)
    return 0


def print_table(results: list[Result]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title="cellwars bench")
    for col in ("benchmark", "value", "unit", "goal", "met", "note"):
        table.add_column(col, justify="right" if col == "value" else "left")
    for r in results:
        met = ("?" if r.goal else "") if r.met is None else ("yes" if r.met else "NO")
        table.add_row(r.name, f"{r.value:,.4g}", r.unit, r.goal, met, r.note)
    Console().print(table)
