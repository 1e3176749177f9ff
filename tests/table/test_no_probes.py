"""No code probes a table for a member with getattr or hasattr: what a table has is declared by
the Table protocol (table/protocol.py), and a screen asks it directly."""

from __future__ import annotations

import re
from pathlib import Path

import cellwars_tui

PROBE = re.compile(r"\b(?:getattr|hasattr)\(\s*(?:self\.)?(?:table|replay_table|remote)\s*,")


def test_no_getattr_or_hasattr_on_a_table():
    root = Path(cellwars_tui.__file__).parent
    found = [f"{path.relative_to(root)}:{n}: {line.strip()}"
             for path in sorted(root.rglob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if PROBE.search(line)]
    assert not found, "\n".join(found)
