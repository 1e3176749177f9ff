"""The typed part of the package checks clean with mypy.

What is checked is one list, ``[tool.mypy] files`` in pyproject.toml: a package joins it once it
checks clean, and never leaves it. ``tests/table/conformance_types.py`` in it makes every table
kind (local, replay, online) a ``Table`` for the type checker.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def checked_paths() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return list(config["tool"]["mypy"]["files"])


def test_the_table_layer_and_the_table_kinds_conformance_are_type_checked():
    assert {"cellwars_tui/table", "tests/table/conformance_types.py"} <= set(checked_paths())


def test_the_typed_part_of_the_package_checks_clean():
    result = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True,
                            text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
