"""Which lessons a player has finished, kept in the user's settings file (written atomically).

The launcher reads it to offer "new here? Learn to play" on a game until its lesson is done.
No textual or rich here.
"""

from __future__ import annotations

from ..settings import load_settings, save_settings

SETTING = "lessons-finished"  # key in settings.json: a list of game ids


def finished_lessons() -> frozenset[str]:
    """The games whose lesson this player has played to the end."""
    value = load_settings().get(SETTING, [])
    if not isinstance(value, list):
        return frozenset()
    return frozenset(v for v in value if isinstance(v, str))


def mark_finished(game_id: str) -> str | None:
    """Remember that ``game_id``'s lesson is done; a one-line problem if it cannot be saved."""
    settings = load_settings()
    done = finished_lessons()
    if game_id in done:
        return None
    settings[SETTING] = sorted(done | {game_id})
    return save_settings(settings)
