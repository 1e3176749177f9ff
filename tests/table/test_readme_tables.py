"""README's Development section names every module of the table layer and of the online table
service (issue 30: the layout shown is the one in the package)."""

from __future__ import annotations

import pkgutil
from pathlib import Path

import cellwars_tui.online
import cellwars_tui.table

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_names_every_table_and_online_module():
    text = README.read_text(encoding="utf-8")
    development = text[text.index("## Development"):]
    missing = []
    for package in (cellwars_tui.table, cellwars_tui.online):
        for module in pkgutil.iter_modules(package.__path__):
            name = f"`{module.name}/`" if module.ispkg else f"`{module.name}.py`"
            if module.name != "__init__" and name not in development:
                missing.append(f"{package.__name__}.{module.name}")
    assert not missing, f"README's Development section does not name: {missing}"
