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
    """The themes shipped inside the package (``cellwars_tui/themes``; the top-level ``themes/``
    of a checkout points there), so an editable install and a wheel find the same files."""
    return Path(__file__).resolve().parent / "themes"


def settings_file() -> Path:
    return config_dir() / "settings.json"
