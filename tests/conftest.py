"""What every test gets, serial or under pytest-xdist (``-n auto``): its own user directories,
and Hypothesis settings that do not depend on the machine's speed."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

# A loaded machine (CI, or parallel workers sharing two cores) runs an example many times slower
# than a quiet one: Hypothesis's default 200 ms deadline would fail correct code there. A test that
# must bound its time does it itself, as a guard against a hang (tests/test_cli_sweep.py).
settings.register_profile("cellwars", deadline=None)
settings.load_profile("cellwars")


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path, monkeypatch):
    """Every test gets its own CELLWARS_HOME and XDG directories (inherited by the processes it
    starts): no test touches the user's files or another test's, whatever the order or worker."""
    monkeypatch.setenv("CELLWARS_HOME", str(tmp_path / "cellwars-home"))
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        monkeypatch.setenv(name, str(tmp_path / "xdg" / name.split("_")[1].lower()))
    yield


@pytest.fixture(autouse=True)
def _no_fsync(monkeypatch):
    """Files are still written atomically (temporary file, then rename), but not forced to the
    disk: no test can see a power cut, and every autosave's fsync cost milliseconds (far more with
    parallel workers on one disk), thousands of times a run."""
    monkeypatch.setattr(os, "fsync", lambda fd: None)
