"""Analysis slots: at most N replay analyses of a server's sessions run at once on the machine.

A server (``cellwars serve``, ``cellwars web``) gives each session it starts the folder of its
slots and their number (:func:`session_env`: ``CELLWARS_ANALYSIS_SLOTS`` and
``CELLWARS_ANALYSES``). The slots are files ``slot-0`` ... ``slot-<N-1>`` in that folder (the
server's ``run/analyses``, 0700; the files 0600); a session holds one while its analysis runs by
an exclusive ``flock`` on it. The system lets go of a lock with its open file, so a slot frees
itself when its analysis ends, however it ends: done, stopped, the session closed, or its
process killed (``kill -9`` included). No lock server, nothing to clean up after a crash.

A session whose analysis finds every slot taken waits (:meth:`Slots.take`), polling a few times
a second, saying how many analyses are running, and stops waiting when told to. Only a server's
sessions are capped: ``cellwars analyse`` and a local ``cellwars`` are the machine owner's own
(they get no slots from a server).

Headless and standard library only.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import time
from collections.abc import Callable, Mapping
from pathlib import Path

ENV_SLOTS = "CELLWARS_ANALYSIS_SLOTS"  # the slots' folder (the server's)
ENV_COUNT = "CELLWARS_ANALYSES"  # how many analyses run at once
MAX_SLOTS = 1024
POLL = 0.25  # seconds between looks for a free slot while waiting
log = logging.getLogger(__name__)


def default_count() -> int:
    """The default number of slots: the cores this process may use, at least 1."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, cores)


def session_env(folder: Path, count: int) -> dict[str, str]:
    """What a server passes to each session it starts for its analyses to share ``count``
    slots in ``folder`` (made here, the server's user's only)."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    return {ENV_SLOTS: str(folder), ENV_COUNT: str(count)}


class Slot:
    """A slot held (an open, locked file): :meth:`release` (or the process's end) frees it."""

    def __init__(self, fd: int, index: int) -> None:
        self.fd = fd
        self.index = index

    def release(self) -> None:
        if self.fd >= 0:
            fd, self.fd = self.fd, -1
            os.close(fd)  # (closing the file lets go of its lock)

    def __enter__(self) -> Slot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


class Slots:
    """``count`` slots in ``folder``."""

    def __init__(self, folder: Path, count: int) -> None:
        self.folder = folder
        self.count = max(1, min(count, MAX_SLOTS))

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ) -> Slots | None:
        """The slots a server gave this session, or None (not a server's session, or a value
        that makes no sense: then nothing is capped)."""
        folder = environ.get(ENV_SLOTS, "")
        count = environ.get(ENV_COUNT, "").strip()
        if not folder or not count.isascii() or not count.isdigit() or len(count) > 6:
            return None
        return cls(Path(folder), int(count))

    def _open(self, index: int) -> int:
        flags = os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)
        return os.open(self.folder / f"slot-{index}", flags, 0o600)

    def try_take(self) -> Slot | None:
        """A free slot, taken now; None when all are taken. OSError when the folder cannot be
        used."""
        for index in range(self.count):
            fd = self._open(index)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            except BaseException:
                os.close(fd)
                raise
            return Slot(fd, index)
        return None

    def running(self) -> int:
        """How many slots are taken now (analyses running), as far as a look can tell."""
        taken = 0
        for index in range(self.count):
            try:
                fd = self._open(index)
            except OSError:
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:
                taken += 1
            except OSError:
                pass
            finally:
                os.close(fd)  # (and with it the shared lock, if it got one)
        return taken

    def take(self, stop: Callable[[], bool] | None = None,
             waiting: Callable[[int], None] | None = None, poll: float = POLL) -> Slot | None:
        """A slot, waiting for one to free if need be; None if ``stop()`` said to stop first.
        While it waits, ``waiting(running)`` is called at first and whenever the number of
        analyses running changes."""
        said = -1
        while True:
            if stop is not None and stop():
                return None
            slot = self.try_take()
            if slot is not None:
                return slot
            if waiting is not None:
                now = self.running()
                if now != said:
                    said = now
                    waiting(now)
            time.sleep(poll)


def waiting_words(running: int) -> str:
    """What a player whose analysis waits for a slot reads (under 80 columns)."""
    many = "1 analysis is" if running == 1 else f"{running} analyses are"
    return f"Waiting for a free analysis slot: {many} running on this server"


@contextlib.contextmanager
def held(slots: Slots | None, stop: Callable[[], bool] | None = None,
         waiting: Callable[[int], None] | None = None):
    """Inside, this process holds one of ``slots`` (nothing if ``slots`` is None); yields False
    (holding nothing) if ``stop()`` said to stop while it waited."""
    if slots is None:
        yield True
        return
    try:
        slot = slots.take(stop, waiting)
    except OSError as exc:  # (the server's folder gone or unusable: the analysis runs uncapped)
        log.warning("analysis slots in %s cannot be used (%s): running uncapped", slots.folder,
                    exc.strerror or exc)
        yield True
        return
    if slot is None:
        yield False
        return
    with slot:
        yield True
