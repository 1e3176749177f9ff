"""mypy passes on the files pyproject.toml lists under [tool.mypy] (the headless core first;
more packages join the list as they are cleaned)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_the_table_layer_and_the_table_kinds_conformance_are_type_checked():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    files = set(config["tool"]["mypy"]["files"])
    assert {"cellwars_tui/table", "tests/table/conformance_types.py"} <= files
    # the app shell, the online table service and the server too
    assert {"cellwars_tui/ui", "cellwars_tui/online", "cellwars_tui/ssh"} <= files


@pytest.mark.slow  # the type check runs mypy over the package
def test_mypy_is_clean_on_the_checked_files(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "mypy-cache")],
        cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
