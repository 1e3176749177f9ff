"""The rules core and every game's rules never import textual or rich (checked in a fresh process)."""

from __future__ import annotations

import subprocess
import sys

from cellwars_tui.core.registry import GAME_MODULES

HEADLESS = [
    "cellwars_tui.core",
    "cellwars_tui.record",
    "cellwars_tui.ai",
    *GAME_MODULES,
]


def test_headless_modules_never_import_ui_libraries():
    code = (
        "import importlib, sys\n"
        f"for name in {HEADLESS!r}:\n"
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except ModuleNotFoundError as exc:\n"
        "        if not name.startswith(exc.name or '?'): raise\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
