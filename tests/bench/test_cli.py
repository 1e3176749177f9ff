"""`cellwars bench` refuses a filter that matches nothing instead of printing an empty table, and
finds every benchmark in one package."""

from __future__ import annotations

import ast
from pathlib import Path

import cellwars_tui
from cellwars_tui.bench import bench_modules, run_bench

PACKAGE = Path(cellwars_tui.__file__).parent


def test_bench_only_matching_nothing_is_an_error(capsys):
    assert run_bench(only=["no-such-benchmark-zzz"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "cellwars bench: no benchmark matches 'no-such-benchmark-zzz'"


def test_bench_only_takes_a_games_id_as_written_on_the_command_line():
    from cellwars_tui.bench import collect

    names = {f"{f.__module__}.{f.__name__}" for f in collect(["virus-fight"])}
    assert names and all(".virus_fight." in n for n in names)
    assert names == {f"{f.__module__}.{f.__name__}" for f in collect(["virus_fight"])}


def _defines_benchmarks(path: Path) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(isinstance(node, (ast.Assign, ast.AnnAssign))
               and any(isinstance(t, ast.Name) and t.id == "BENCHMARKS"
                       for t in (node.targets if isinstance(node, ast.Assign) else [node.target]))
               for node in tree.body)


def test_every_benchmark_lives_in_the_bench_package():
    outside = sorted(str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py")
                     if p.relative_to(PACKAGE).parts[0] != "bench" and _defines_benchmarks(p))
    assert outside == []
    modules = bench_modules()
    for name in ("cellwars_tui.bench.games.cell_wars", "cellwars_tui.bench.games.cellulis_bellum",
                 "cellwars_tui.bench.ssh"):
        assert name in modules
    assert modules == sorted(modules)
