"""mypy passes on the files pyproject.toml lists under [tool.mypy]: the whole package, games and
benchmarks included, and the check that every table kind is a Table."""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_the_whole_package_and_the_table_kinds_conformance_are_type_checked():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    files = set(config["tool"]["mypy"]["files"])
    assert files == {"cellwars_tui", "tests/table/conformance_types.py"}  # games/, bench/ too


@pytest.mark.slow  # the type check runs mypy over the package
def test_mypy_is_clean_on_the_checked_files(request, tmp_path):
    # mypy's own incremental cache (it re-checks every file whose content or dependencies
    # changed), kept under pytest's cache and keyed by this venv: a warm run instead of a cold one
    venv = hashlib.sha256(sys.prefix.encode()).hexdigest()[:12]
    # (with pytest's cache plugin off, -p no:cacheprovider, a cold run in a temporary folder)
    store = getattr(request.config, "cache", None)
    cache = store.mkdir(f"mypy-{venv}") if store is not None else tmp_path / "mypy-cache"
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(cache)],
        cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
