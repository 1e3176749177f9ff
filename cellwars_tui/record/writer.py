"""Saves written off the event loop: one writer thread, atomic files, pending saves coalesced.

A table encodes its record on its own thread (the match belongs to the event loop: the encoding
must see one consistent match, and is cheap, every step being encoded once) and hands the bytes
to :class:`SaveWriter`, which writes them with :func:`~.format.write_atomic` (temporary file,
fsync, rename) on a thread of its own, so the fsync never holds up a key press. The thread starts
a write ``DELAY`` seconds after a save is asked for (the frame that shows the action goes out
first: on a busy machine a thread that holds the interpreter lock while the system runs others
delays the screen), and saves of one file that pile up meanwhile, or while it writes, are
coalesced: only the newest is written. A crash loses
at most the action whose save was still in flight; a kill at any moment leaves the old file or
the new one, never half of one.

:func:`flush` waits until everything asked for is on disk: tables call it when a game is left,
the app when it exits, and an ``atexit`` hook when the process ends. A failed write is kept as a
one-line problem for its file (:meth:`SaveWriter.problem`) until a later write of it succeeds.
"""

from __future__ import annotations

import atexit
import os
import threading
from collections.abc import Callable
from pathlib import Path

from .format import write_atomic

DELAY = 0.05  # seconds between a save asked for and its write (unless someone waits for it)


class SaveWriter:
    """Writes ``(path, bytes)`` on a background thread, newest save of each path only."""

    def __init__(self, write: Callable[[Path, bytes], None] = write_atomic, *,
                 delay: float = DELAY) -> None:
        self._write = write
        self.delay = delay
        self._hurry = False  # someone waits in flush: no delay
        self._cond = threading.Condition()
        self._pending: dict[Path, bytes] = {}
        self._busy: Path | None = None
        self._problems: dict[Path, str] = {}
        self._thread: threading.Thread | None = None
        self.writes = 0  # files written so far (tests and the curious)

    def put(self, path: Path, data: bytes) -> None:
        """Write ``data`` to ``path`` soon (replacing a save of ``path`` not yet begun)."""
        with self._cond:
            first = not self._pending
            self._pending[path] = data
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="cellwars-saves",
                                                daemon=True)
                self._thread.start()
            if first:  # (a thread already counting down its delay is not woken for nothing)
                self._cond.notify_all()

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every save asked for is written (True) or ``timeout`` seconds passed."""
        with self._cond:
            self._hurry = True
            self._cond.notify_all()
            return self._cond.wait_for(lambda: not self._pending and self._busy is None,
                                       timeout)

    def problem(self, path: Path) -> str | None:
        """Why the last write of ``path`` failed (None: it did not)."""
        with self._cond:
            return self._problems.get(path)

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: bool(self._pending))
                if not self._hurry and self.delay > 0:
                    self._cond.wait_for(lambda: self._hurry, self.delay)
                path = next(iter(self._pending))
                data = self._pending.pop(path)
                self._busy = path
            problem: str | None = None
            try:
                self._write(path, data)
            except OSError as exc:
                problem = f"could not save the game: {exc.strerror or exc}"
            except Exception as exc:  # noqa: BLE001 - the thread must go on for other saves
                problem = f"could not save the game: {exc}"
            with self._cond:
                if problem is None:
                    self._problems.pop(path, None)
                    self.writes += 1
                else:
                    self._problems[path] = problem
                self._busy = None
                if not self._pending:
                    self._hurry = False
                self._cond.notify_all()


_writer: SaveWriter | None = None


def saves() -> SaveWriter:
    """The process's save writer (made on first use)."""
    global _writer
    if _writer is None:
        _writer = SaveWriter()
    return _writer


def flush(timeout: float | None = 10.0) -> bool:
    """Wait for every pending save of this process (True when all are written)."""
    return _writer.flush(timeout) if _writer is not None else True


def _forget_in_child() -> None:
    """A forked child (an SSH session from the zygote) starts with no writer thread: it makes
    its own on its first save."""
    global _writer
    _writer = None


os.register_at_fork(after_in_child=_forget_in_child)
atexit.register(flush)
