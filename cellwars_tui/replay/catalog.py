"""The Replays page's data: saved games as rows (game, date, seats, result, length), searchable.
Every file is read through the bounded reader (``record.files``: regular files only, a size cap)."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable
from pathlib import Path

import msgspec

from ..core.errors import CellwarsError, RecordError
from ..core.registry import get_game
from ..record.files import read_user_file
from ..record.format import MAX_RECORD_BYTES
from ..record.store import Problem, SavedGame, list_saved
from ..table.naming import seats_text
from .salvage import salvage


class Row(msgspec.Struct, frozen=True):
    """One saved game as the list shows it."""

    path: Path
    game_id: str
    game: str  # the game's title (its id when the game is unknown here)
    date: str  # local time, "2026-11-23 01:55"
    seats: str  # "Ann, Bob (search bot)" (ui/naming.py)
    result: str  # Outcome.text ("Ann wins (eliminated)", "Tie (stalemate)"), or "unfinished"
    length: int
    modified: float
    origin: str = ""
    started: float = 0.0  # when the game began (POSIX seconds; the file's time if unknown)
    lesson: bool = False  # the game began as its guided first game

    def matches(self, query: str) -> bool:
        """Every word of ``query`` appears in the game (id or title) or a player's name."""
        hay = f"{self.game_id} {self.game} {self.seats}".casefold()
        return all(word in hay for word in query.casefold().split())


def _title(game_id: str) -> str:
    try:
        return get_game(game_id).title
    except CellwarsError:
        return game_id


def _start(saved: SavedGame) -> _dt.datetime:
    """When the game began (its record says; the file's time for a record that does not)."""
    try:
        return _dt.datetime.fromisoformat(saved.header.started).astimezone()
    except (TypeError, ValueError):
        return _dt.datetime.fromtimestamp(saved.modified).astimezone()


def _date(saved: SavedGame) -> str:
    return _start(saved).strftime("%Y-%m-%d %H:%M")


def _result(saved: SavedGame, names: list[str]) -> str:
    """The game's end in the words every table uses for a replay (``Outcome.text`` with names:
    "Ann wins", "Tie", "Team wins"), or "unfinished"."""
    outcome = saved.header.result
    if outcome is None:
        return "unfinished"
    try:
        team = get_game(saved.header.game).meta.cooperative
    except CellwarsError:
        team = False
    return outcome.text(names, team=team)


def row(saved: SavedGame) -> Row:
    h = saved.header
    names = [s.name or f"seat {i + 1}" for i, s in enumerate(h.seats)]
    seats = seats_text(h.seats, names)
    return Row(saved.path, h.game, _title(h.game), _date(saved), seats, _result(saved, names),
               saved.length, saved.modified, h.origin or "", _start(saved).timestamp(),
               bool(h.lesson))


def begun(row: Row) -> str:
    """How a game began, when not as a new game: "from replay step 150" (played on from a
    replay) or "from the lesson" (a guided first game, gone on); else ""."""
    if row.origin:
        source, _, step = row.origin.rpartition("#")
        return f"from replay step {step}" if source and step.isdigit() else "from a replay"
    return "from the lesson" if row.lesson else ""


def newest_first(found: Iterable[Row]) -> list[Row]:
    """Rows by when their games began, newest first (the Replays and Resume lists' order)."""
    return sorted(found, key=lambda r: (r.started, r.modified), reverse=True)


def rows(directory: Path | None = None) -> tuple[list[Row], list[Problem]]:
    """Saved games newest first (by when they began), and the files that could not be read (with why). A damaged
    file whose header can still be read is listed (result "damaged", length = its readable
    steps): the replay opens it as far as it is valid."""
    saved, problems = list_saved(directory)
    out = [row(s) for s in saved]
    unreadable = []
    for problem in problems:
        damaged = _damaged_row(problem)
        if damaged is None:
            unreadable.append(problem)
        else:
            out.append(damaged)
    return newest_first(out), unreadable


def _damaged_row(problem: Problem) -> Row | None:
    """A damaged save as a row, if its header can be read. Read through the bounded reader like
    every file (``record.files``): a FIFO or a device named like a record (a symlink to
    /dev/zero) is refused, never waited on nor read without end."""
    path = problem.path
    try:
        data = read_user_file(path, limit=MAX_RECORD_BYTES)
        found = salvage(data, path, RecordError(path, problem.message))
        modified = path.stat().st_mtime
    except (OSError, RecordError):
        return None
    saved = SavedGame(path, found.record.header, len(found.record.steps), modified)
    return msgspec.structs.replace(row(saved), result="damaged")


def search(all_rows: Iterable[Row], query: str) -> list[Row]:
    return [r for r in all_rows if r.matches(query)]
