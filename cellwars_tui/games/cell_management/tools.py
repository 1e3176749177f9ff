"""Cell Management's command-line tools: ``cellwars solve`` and ``cellwars study``.

The game declares them (``CellManagement.tools``); the command line only parses the arguments
declared here and calls them.
"""

from __future__ import annotations

import argparse

from ...cli_types import whole
from ...core.errors import CellwarsError
from ...core.meta import GameTool
from . import solver as S
from .clarifications import hostile_count
from .setups import SPECIES_CHOICES, number_text, setup_code, setup_from_code


def _solve_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--code", help="puzzle code, or a puzzle number like #1234 or 4#12")
    parser.add_argument("--species", type=whole("number of species"), choices=(4, 5, 6),
                        help="the size of a bare puzzle number like #12 (default 6); a code that "
                             "gives the size must agree")


def _study_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--species", type=whole("number of species"), choices=(4, 5, 6),
                        default=6)
    parser.add_argument("--code", help=argparse.SUPPRESS)  # refused: it solves every setup


def solve(args: argparse.Namespace) -> int:
    """``cellwars solve cell-management --code CODE [--species N]``: the minimum and a plan."""
    code = args.code
    if not code:
        raise CellwarsError("give the puzzle with --code CODE (e.g. --code N3245A-234-4A32N5)")
    # --species (6 unless given) tells which puzzle a bare number names: "#12 --species 4" is
    # the puzzle 4#12; a setup code or "4#12" carries its own size, and a --species given with
    # it must agree (setup_from_code says so in one line), never silently ignored
    setup = setup_from_code(code, args.species)
    sol = S.solve_setup(setup)
    print(f"Cell Management puzzle {setup_code(setup)} (puzzle {number_text(setup)})")
    if sol is None:
        print("unsolvable: no sequence of rounds frees one captive of every species")
        return 0
    print(f"solvable: minimum {sol.rounds} rounds")
    print(f"  (cells are numbered 1-{len(setup.cells)} clockwise, as in the code and the game's "
          "keys)")
    for line in S.describe_plan(setup, sol.plan):
        print("  " + line)
    return 0


def study(args: argparse.Namespace) -> int:
    """``cellwars study cell-management [--species N]``: every setup up to symmetry, solved."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
    from rich.table import Table

    if args.code is not None:
        raise CellwarsError("study solves every setup and takes no --code; "
                            "cellwars solve cell-management --code CODE solves one puzzle")
    species = args.species or 6
    if species not in SPECIES_CHOICES:
        raise CellwarsError("--species must be 4, 5 or 6")
    console = Console()
    n, k = species, hostile_count(species)
    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=console, transient=True) as bar:
        task = bar.add_task(f"solving {n}-species setups", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        result = S.study(species, progress=progress)
    console.print(report_lines(result, n, k), highlight=False)
    table = Table(title="minimum rounds")
    for col in ("rounds", "classes", "raw setups", "share"):
        table.add_column(col, justify="right")
    for r, (classes, raw) in result.histogram().items():
        table.add_row(str(r), str(classes), f"{raw:,}", f"{100 * raw / result.raw_setups:.1f}%")
    console.print(table)
    console.print("hardest setups:")
    for c, r in result.hardest():
        console.print(f"  {r} rounds: {setup_code(c.setup)}  (puzzle {number_text(c.setup)})",
                      highlight=False)
    console.print(f"time: {result.seconds:.1f} s", highlight=False)
    return 0


def report_lines(result: S.StudyResult, n: int, k: int) -> str:
    unsolvable = result.unsolvable()
    raw_unsolvable = sum(c.raw_count for c in unsolvable)
    lines = [
        f"{n} species, {k} hostile hideouts.",
        f"Setups the procedure builds (position 1 fixed): {n}! hideout rings x C({n},{k}) hostile "
        f"sets x {n - 1}! cell chains = {result.raw_setups:,}; as physical ships (rotations of the "
        f"ring identified): {result.raw_setups // n:,}.",
        f"Symmetry reduction: relabelling the {n} species (any permutation) and rotating the ring "
        f"({n} rotations); no reflection (the walk is clockwise). Distinct classes: "
        f"{len(result.classes)}.",
        f"Unsolvable: {len(unsolvable)} classes = {raw_unsolvable:,} of {result.raw_setups:,} "
        f"setups ({100 * raw_unsolvable / result.raw_setups:.2f}%).",
    ]
    for c in unsolvable[:10]:
        lines.append(f"  unsolvable: {setup_code(c.setup)} (puzzle {number_text(c.setup)})")
    return "\n".join(lines)


TOOLS = (
    GameTool("solve", "solve a puzzle", _solve_arguments, solve),
    GameTool("study", "solve every setup of a puzzle", _study_arguments, study),
)
