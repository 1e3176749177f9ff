"""Reading files a player names: only regular files, never more than a cap, never blocking on a
FIFO or a device. Every record and move list the app opens comes through here."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..core.errors import RecordError

MAX_MOVE_LIST_BYTES = 8 * 1024 * 1024  # a move list of a very long game is well under 1 MB


def _megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):g} MB"


def _file_problem(mode: int, size: int, limit: int) -> str | None:
    if stat.S_ISDIR(mode):
        return "not a regular file (a directory)"
    if not stat.S_ISREG(mode):
        return "not a regular file"
    if size > limit:
        return f"too big ({size} bytes; the limit is {_megabytes(limit)})"
    return None


def _unreadable(path: Path, exc: OSError) -> RecordError:
    """The one line for a file a player named that the system would not let us read."""
    if isinstance(exc, FileNotFoundError):
        return RecordError(path, "no such file")
    if isinstance(exc, IsADirectoryError):
        return RecordError(path, "not a regular file (a directory)")
    if isinstance(exc, PermissionError):
        return RecordError(path, "permission denied")
    return RecordError(path, f"cannot read ({exc.strerror or exc})")


def check_user_file(path: Path, *, limit: int = MAX_MOVE_LIST_BYTES) -> None:
    """Refuse, before anything reads it, a path a player named that is not a regular file (a
    directory, a device such as /dev/zero, a FIFO) or is larger than ``limit`` bytes: one
    :class:`RecordError` line each."""
    try:
        info = path.stat()
    except OSError as exc:
        raise _unreadable(path, exc) from None
    problem = _file_problem(info.st_mode, info.st_size, limit)
    if problem:
        raise RecordError(path, problem)


def read_user_file(path: Path, *, limit: int = MAX_MOVE_LIST_BYTES) -> bytes:
    """The bytes of a file a player named, checked on the open file itself (opened without
    blocking, so a FIFO is refused rather than waited on) and never more than ``limit`` bytes
    read, even if the file grows meanwhile."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise _unreadable(path, exc) from None
    try:
        info = os.fstat(fd)
    except OSError as exc:
        os.close(fd)
        raise RecordError(path, f"cannot read ({exc.strerror or exc})") from None
    problem = _file_problem(info.st_mode, info.st_size, limit)
    if problem:
        os.close(fd)
        raise RecordError(path, problem)
    with os.fdopen(fd, "rb") as fh:
        try:
            data = fh.read(limit + 1)
        except OSError as exc:
            raise RecordError(path, f"cannot read ({exc.strerror or exc})") from None
    if len(data) > limit:
        raise RecordError(path, f"too big (over {_megabytes(limit)})")
    return data
