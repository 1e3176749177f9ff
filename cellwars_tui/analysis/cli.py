"""``cellwars analyse RECORD [--budget N] [--json]``: the replay analysis on the command line.

Prints a table per player (accuracy, inaccuracies, mistakes, blunders) and the judged moves with
the preferred move beside each; ``--json`` prints the whole analysis (every decision step). The
analysis is read from the sidecar beside the record when one of the same record and budget is
there, else computed (progress on stderr) and saved there. Ctrl+C stops it cleanly: nothing is
written. Plain text only (no rich: this package is headless).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from typing import TYPE_CHECKING

from ..core.errors import CellwarsError
from .limits import MAX_BUDGET

if TYPE_CHECKING:  # (imported where used: the parser is built at every start of cellwars)
    from ..replay.model import Replay
    from .model import Analysis


def add_analyse_arguments(parser: argparse.ArgumentParser) -> None:
    from ..cli_types import path, whole

    parser.description = ("Analyse a recorded game: each seat's Win% before and after every "
                          "decision (the game's own search at a fixed budget and seed), "
                          "inaccuracies (?!), mistakes (?) and blunders (??) with the move "
                          "preferred, and each player's accuracy. The result is saved beside the "
                          "record (NAME.analysis.json) so the replay viewer shows it at once.")
    parser.add_argument("file", type=path, metavar="RECORD")
    parser.add_argument("--budget", type=whole("budget"), default=None,
                        help="search playouts a decision (default: the game's own, see the "
                             f"rules page; 1 to {MAX_BUDGET})")
    parser.add_argument("--seed", type=whole("seed"), default=0,
                        help="the search's seed (the same seed gives the same numbers)")
    parser.add_argument("--jobs", type=whole("number of jobs"), default=None,
                        help="processes to spread the work over (default: one per core)")
    parser.add_argument("--json", action="store_true", help="print every step as JSON")


def check_arguments(args: argparse.Namespace) -> None:
    if args.budget is not None and not 1 <= args.budget <= MAX_BUDGET:
        raise CellwarsError(f"--budget must be 1 to {MAX_BUDGET} playouts, not {args.budget}")
    if not 0 <= args.seed < 2**63:
        raise CellwarsError("--seed must be between 0 and 2**63-1")
    if args.jobs is not None and not 1 <= args.jobs <= 64:
        raise CellwarsError(f"--jobs must be 1 to 64, not {args.jobs}")


def run_analyse(args: argparse.Namespace) -> int:
    """The command: one line and exit status 2 for bad input (raised as CellwarsError)."""
    from ..replay.model import Replay
    from . import sidecar
    from .model import encode
    from .run import record_key

    check_arguments(args)
    path: Path = args.file
    replay = Replay.open(path)
    key = record_key(replay)
    found = None
    try:
        found = sidecar.load(path, key, args.budget)
    except sidecar.SidecarProblem as exc:
        print(f"cellwars: note: {exc}", file=sys.stderr)
    if found is not None and found.seed != args.seed:
        found = None
    if found is None:
        try:
            found = _compute(replay, args)
        except KeyboardInterrupt:
            print("cellwars: analysis stopped; nothing written", file=sys.stderr)
            return 130
        try:
            where = sidecar.save(path, found)
        except OSError as exc:
            print(f"cellwars: note: the analysis could not be saved beside the record "
                  f"({exc.strerror or exc})", file=sys.stderr)
        else:
            print(f"cellwars: analysis saved to {where}", file=sys.stderr)
    if args.json:
        sys.stdout.write(encode(found).decode() + "\n")
    else:
        sys.stdout.write(report(found, replay))
    return 0


def _compute(replay: Replay, args: argparse.Namespace) -> Analysis:
    from .run import analyse, default_workers

    tty = sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        if tty:
            sys.stderr.write(f"\ranalysing: {done}/{total} decisions")
            sys.stderr.flush()

    try:
        return analyse(replay, budget=args.budget, seed=args.seed,
                       workers=args.jobs or default_workers(), progress=progress)
    finally:
        if tty:
            sys.stderr.write("\r\x1b[K")


def report(analysis: Analysis, replay: Replay) -> str:
    """The table per player and the judged moves, as plain text."""
    title = replay.game.title
    lines = [f"{title}: {analysis.steps} steps, {len(analysis.decisions)} decisions, budget "
             f"{analysis.budget}, seed {analysis.seed}"]
    lines += [f"note: {n}" for n in analysis.notes]
    width = max([len("player")] + [len(p.name) for p in analysis.players])
    lines.append("")
    lines.append(f"{'player':<{width}}  accuracy  inaccuracies (?!)  mistakes (?)  blunders (??)")
    for p in analysis.players:
        acc = "-" if p.accuracy is None else f"{p.accuracy:.0f}"
        lines.append(f"{p.name:<{width}}  {acc:>8}  {p.inaccuracies:>17}  {p.mistakes:>12}  "
                     f"{p.blunders:>13}")
    judged = [d for d in analysis.decisions if d.judgment]
    if judged:
        lines.append("")
        for d in judged:
            name = analysis.names[d.seat] if d.seat < len(analysis.names) else f"seat {d.seat}"
            you = f"{d.before[d.seat]:.0f}% -> {d.after[d.seat]:.0f}%"
            extra = f"; {d.note}" if d.note else ""
            near = f"; near the {d.near} line ~" if d.near else ""
            lines.append(f"{d.step}. {name}: {d.played} {d.mark}  best: {d.best}  "
                         f"({you}{near}{extra})")
    unsure = sum(1 for d in analysis.decisions if d.near and not d.judgment)
    if unsure:
        lines.append(f"(and {unsure} move(s) within the margin of the inaccuracy line: not "
                     f"judged; a larger --budget may judge them)")
    return "\n".join(lines) + "\n"
