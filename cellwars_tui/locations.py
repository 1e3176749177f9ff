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


ENV_CONFINED = "CELLWARS_CONFINED"


def confined() -> bool:
    """Whether this app is a session a server started for someone else (``cellwars serve``,
    ``cellwars web``): its files then stay in its own data dir. A file dialog reads and writes
    only names inside it (never a path of the server's), no screenshot is written on the
    server, and notices show no server path."""
    if os.environ.get(ENV_CONFINED) == "1":
        return True
    # a session of ``cellwars serve`` (it has a hub to join: ssh.client.in_ssh_session) always is
    return bool(os.environ.get("CELLWARS_SSH_HUB") and os.environ.get("CELLWARS_SSH_TOKEN"))


def shown_folder(path: Path, words: str) -> str:
    """A folder as a screen names it: its path, or ``words`` ("your themes folder") in a
    confined session, which never shows a path of the server's."""
    return words if confined() else str(path)
