"""Personal Cell Management statistics in the user's data dir (one JSON file, atomic writes).

Kept: puzzles finished and solved, the current and best streak of solved puzzles, how many were
solved in the minimum number of rounds and the rounds spent above it, the days whose daily puzzle
was solved (for the daily streak) and the last results. Each finished game is counted once, by a
key the caller gives (the screen uses the match's seed and setup), so undoing and winning again
changes nothing.

A puzzle where the player asked for a hint or the solution is *assisted* (:func:`mark_assisted`,
kept by key so it survives leaving and resuming the puzzle): solving it counts as "solved with
help", not as solved. It neither extends nor breaks the streak and never counts as optimal or as a
daily puzzle solved.
"""

from __future__ import annotations

import datetime as _dt
import os
import tempfile
from pathlib import Path

import msgspec

from ...locations import data_dir

FILE_NAME = "cell-management-stats.json"
KEEP_RECENT = 50
KEEP_KEYS = 500


class Entry(msgspec.Struct, frozen=True, kw_only=True):
    code: str
    won: bool
    rounds: int
    optimum: int | None = None
    daily: str = ""
    when: str = ""
    assisted: bool = False  # a hint or the solution was shown


class Stats(msgspec.Struct, kw_only=True):
    played: int = 0
    solved: int = 0
    streak: int = 0
    best_streak: int = 0
    helped: int = 0  # solved after a hint or the solution was shown (not counted in solved)
    optimal: int = 0  # solved in the minimum number of rounds
    extra_rounds: int = 0  # rounds above the minimum, summed over solved puzzles
    daily_solved: list[str] = msgspec.field(default_factory=list)  # ISO dates
    recent: list[Entry] = msgspec.field(default_factory=list)  # newest last
    keys: list[str] = msgspec.field(default_factory=list)  # games already counted
    assisted: list[str] = msgspec.field(default_factory=list)  # games where help was shown

    def daily_streak(self, today: _dt.date | None = None) -> int:
        """Days in a row (ending today, or yesterday if today's is not solved yet) with the daily
        puzzle solved."""
        today = today or _dt.date.today()
        days = set(self.daily_solved)
        day = today if today.isoformat() in days else today - _dt.timedelta(days=1)
        count = 0
        while day.isoformat() in days:
            count += 1
            day -= _dt.timedelta(days=1)
        return count

    def summary(self, today: _dt.date | None = None) -> str:
        """One line for the screen."""
        text = f"solved {self.solved}/{self.played}, streak {self.streak} (best {self.best_streak})"
        if self.helped:
            text += f", {self.helped} solved with help"
        if self.solved:
            text += f", optimal {self.optimal}/{self.solved}"
            if self.extra_rounds:
                text += f" (+{self.extra_rounds / self.solved:.1f} rounds on average)"
        daily = self.daily_streak(today)
        if daily:
            text += f", daily streak {daily}"
        return text


def stats_path() -> Path:
    return data_dir() / FILE_NAME


def load_stats(path: Path | None = None) -> Stats:
    """The saved stats (fresh ones when the file is missing or unreadable)."""
    path = path or stats_path()
    try:
        return msgspec.json.decode(path.read_bytes(), type=Stats)
    except (OSError, msgspec.DecodeError, msgspec.ValidationError):
        return Stats()


def save_stats(stats: Stats, path: Path | None = None) -> None:
    """Write atomically: a temporary file in the same folder, then a rename over the old one."""
    path = path or stats_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".stats-", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(msgspec.json.format(msgspec.json.encode(stats)))
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def is_assisted(key: str, path: Path | None = None) -> bool:
    """Whether help (a hint, the solution) was shown in the game ``key``."""
    return key in load_stats(path).assisted


def mark_assisted(key: str, path: Path | None = None) -> Stats:
    """Note that help was shown in the game ``key`` (saved at once, so leaving and resuming the
    puzzle keeps it). Returns the stats."""
    stats = load_stats(path)
    if key not in stats.assisted:
        stats.assisted.append(key)
        del stats.assisted[:-KEEP_KEYS]
        save_stats(stats, path)
    return stats


def record_result(key: str, *, code: str, won: bool, rounds: int, optimum: int | None,
                  daily: str = "", assisted: bool = False, path: Path | None = None) -> Stats:
    """Count one finished puzzle (once per ``key``) and save. Returns the updated stats. A game
    marked assisted (here or by :func:`mark_assisted`) that is won counts as solved with help."""
    stats = load_stats(path)
    if key in stats.keys:
        return stats
    assisted = assisted or key in stats.assisted
    stats.keys.append(key)
    del stats.keys[:-KEEP_KEYS]
    stats.played += 1
    if won and assisted:
        stats.helped += 1
    elif won:
        stats.solved += 1
        stats.streak += 1
        stats.best_streak = max(stats.best_streak, stats.streak)
        if optimum is not None:
            stats.optimal += rounds <= optimum
            stats.extra_rounds += max(0, rounds - optimum)
        if daily and daily not in stats.daily_solved:
            stats.daily_solved.append(daily)
            stats.daily_solved.sort()
    else:
        stats.streak = 0
    stats.recent.append(Entry(code=code, won=won, rounds=rounds, optimum=optimum, daily=daily,
                              when=_dt.datetime.now().isoformat(timespec="seconds"),
                              assisted=assisted))
    del stats.recent[:-KEEP_RECENT]
    save_stats(stats, path)
    return stats
