"""Where the user's files live. ``CELLWARS_HOME`` overrides everything (tests use it)."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP = "cellwars"


def _home() -> Path | None:
    value = os.environ.get("CELLWARS_HOME")
    return Path(value).expanduser() if value else None


def data_dir() -> Path:
    home = _home()
    path = home / "data" if home else Path(platformdirs.user_data_dir(APP, appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path


def config_dir() -> Path:
    home = _home()
    path = home / "config" if home else Path(platformdirs.user_config_dir(APP, appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path


def games_dir() -> Path:
    """Every game's record: unfinished ones are offered for resume, all of them for replay."""
    path = data_dir() / "games"
    path.mkdir(parents=True, exist_ok=True)
    return path


def user_themes_dir() -> Path:
    path = config_dir() / "themes"
    path.mkdir(parents=True, exist_ok=True)
    return path


def shipped_themes_dir() -> Path:
    """The ``themes/`` folder shipped with the project (beside the package)."""
    here = Path(__file__).resolve().parent
    for candidate in (here.parent / "themes", here / "themes"):
        if candidate.is_dir():
            return candidate
    return here.parent / "themes"


def settings_file() -> Path:
    return config_dir() / "settings.json"
