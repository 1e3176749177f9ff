"""Every Cellulis Bellum module but the screen is headless: importing them all in a fresh process
brings in neither textual nor rich (the project-wide check lists only some module names)."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import cellwars_tui.games.cellulis_bellum as package


def test_every_module_but_the_screen_is_headless():
    names = [f"{package.__name__}.{m.name}" for m in pkgutil.iter_modules(package.__path__)
             if m.name != "screen"]
    assert {"rules", "geometry", "position", "actions", "notation", "bot",
            "state"} <= {n.rsplit(".", 1)[1] for n in names}
    names.append("cellwars_tui.bench.games.cellulis_bellum")  # its benchmarks (bench/)
    code = (
        "import importlib, sys\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
