"""``cellwars replay FILE --export TEXTFILE``: a record's moves as a plain-text move list."""

from __future__ import annotations

import sys
from pathlib import Path

from ..record.format import write_atomic
from .model import Replay


def export_move_list(source: Path, target: Path) -> int:
    """Write ``source``'s valid steps as a move list to ``target`` ("-": standard output). A
    damaged record is exported as far as it is valid, and says where it stopped on stderr."""
    replay = Replay.open(source)
    text = replay.export_text()
    if str(target) == "-":
        sys.stdout.write(text)
    else:
        try:
            write_atomic(target, text.encode("utf-8"))
        except OSError as exc:
            print(f"cellwars: cannot write {target}: {exc.strerror or exc}", file=sys.stderr)
            return 1
        print(f"{len(replay)} steps of {replay.game.title} written to {target}", file=sys.stderr)
    for note in (replay.problem, replay.warning):
        if note:
            print(f"cellwars: {source}: {note}", file=sys.stderr)
    return 0
