from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path, monkeypatch):
    """Every test gets its own CELLWARS_HOME: no test touches the user's saved games."""
    monkeypatch.setenv("CELLWARS_HOME", str(tmp_path / "cellwars-home"))
    yield
