"""The user's settings file (``settings.json`` in the config dir): read whole, written atomically.

Headless (no textual): the app shell keeps the theme here, Cell Management its walk speed, and the
lessons (:mod:`cellwars_tui.learn.progress`) which games' lessons a player has finished. A file
that cannot be read counts as empty settings; a failed write is a one-line problem, never a crash.
"""

from __future__ import annotations

import json
from typing import Any

from .locations import settings_file


def load_settings() -> dict[str, Any]:
    path = settings_file()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def save_settings(settings: dict[str, Any]) -> str | None:
    """Write the settings atomically; a one-line problem on failure, else None."""
    from .record.format import write_atomic

    try:
        write_atomic(settings_file(), json.dumps(settings, indent=2).encode())
    except OSError as exc:
        return f"could not save settings: {exc.strerror or exc}"
    return None
