"""The user's saved games: autosave after every action, resume, and the list for the Replays page."""

from __future__ import annotations

import datetime as _dt
import secrets
from pathlib import Path

import msgspec

from ..core.errors import RecordError
from ..core.match import Match
from ..locations import games_dir
from .format import SUFFIX, Header, read_record_file, save_match


class SavedGame(msgspec.Struct, frozen=True):
    """One line of the saved-games list."""

    path: Path
    header: Header
    length: int
    modified: float

    @property
    def finished(self) -> bool:
        return self.header.result is not None


class Problem(msgspec.Struct, frozen=True):
    path: Path
    message: str


def new_game_path(game_id: str) -> Path:
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    return games_dir() / f"{game_id}-{stamp}-{secrets.token_hex(3)}{SUFFIX}"


def autosave(match: Match) -> Path:
    """Save ``match`` to its own file (made on first save), atomically."""
    path = record_path(match)
    save_match(match, path)
    return path


def record_path(match: Match) -> Path:
    """The file ``match`` is saved in: its own, or a new one in the saved games (made now)."""
    if match.path is None:
        match.path = new_game_path(match.game.id)
    return match.path


def list_saved(directory: Path | None = None) -> tuple[list[SavedGame], list[Problem]]:
    """Saved games newest first, and the files that could not be read (with why)."""
    directory = directory or games_dir()
    games: list[SavedGame] = []
    problems: list[Problem] = []
    for path in directory.glob(f"*{SUFFIX}"):
        try:
            record = read_record_file(path)
        except RecordError as exc:
            problems.append(Problem(path, str(exc)))
            continue
        games.append(SavedGame(path, record.header, len(record.steps), path.stat().st_mtime))
    games.sort(key=lambda g: g.modified, reverse=True)
    return games, problems


def unfinished(directory: Path | None = None) -> list[SavedGame]:
    return [g for g in list_saved(directory)[0] if not g.finished]
