"""Analysis slots: at most N replay analyses of a server's sessions run at once on the machine.

A server (``cellwars serve``, ``cellwars web``) gives each session it starts the folder of its
slots and their number (:func:`session_env`: ``CELLWARS_ANALYSIS_SLOTS`` and
``CELLWARS_ANALYSES``). The slots are files ``slot-0`` ... ``slot-<N-1>`` in that folder (the
data dir's ``run/analyses``, 0700, shared by the servers on that data dir; the files 0600); a
session holds one while its analysis runs by an exclusive ``flock`` on it. The system lets go of
a lock with its open file, so a slot frees itself when its analysis ends, however it ends: done,
stopped, the session closed, or its process killed (``kill -9`` included). No lock server,
nothing to clean up after a crash.

A session whose analysis finds every slot taken waits in line (:meth:`Slots.take`), first come,
first served: it takes a number from ``line`` (a counter, locked while it is read and written)
and holds a lock on ``wait-<number>`` while it waits, so a waiter killed meanwhile leaves the
line by itself too (the next look removes its file). It looks a few times a second, says how
many analyses are running and how many wait before it, and stops waiting when told to. Only a
server's sessions are capped: ``cellwars analyse`` and a local ``cellwars`` are the machine
owner's own (they get no slots from a server).

Headless and standard library only.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

ENV_SLOTS = "CELLWARS_ANALYSIS_SLOTS"  # the slots' folder (the server's)
ENV_COUNT = "CELLWARS_ANALYSES"  # how many analyses run at once
MAX_SLOTS = 1024
POLL = 0.25  # seconds between looks for a free slot while waiting
log = logging.getLogger(__name__)
_FLAGS = os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)


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
        return os.open(self.folder / f"slot-{index}", _FLAGS, 0o600)

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
             waiting: Callable[[int, int], None] | None = None,
             poll: float = POLL) -> Slot | None:
        """A slot, waiting in line for one to free if need be (first come, first served); None
        if ``stop()`` said to stop first. While it waits, ``waiting(running, ahead)`` is called
        at first and whenever the analyses running or those in line before it change."""
        if not self._ahead(None):  # (nobody in line: a free slot is this one's)
            slot = self.try_take()
            if slot is not None:
                return slot
        with self._in_line() as mine:
            said = (-1, -1)
            while True:
                if stop is not None and stop():
                    return None
                ahead, running = self._ahead(mine), self.running()
                if ahead < self.count - running:  # (a slot free for each before it, and one)
                    slot = self.try_take()
                    if slot is not None:
                        return slot
                if waiting is not None and (running, ahead) != said:
                    said = (running, ahead)
                    waiting(running, ahead)
                time.sleep(poll)

    # -- the line: wait-<ticket> files, each locked by its waiter while it waits -----------
    def _ticket(self) -> int:
        """The next number in line (``line`` holds it, locked while it is read and written)."""
        fd = os.open(self.folder / "line", _FLAGS, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)  # (held for a read and a write)
            raw = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            ticket = int(raw) if raw.isdigit() else 0
            os.pwrite(fd, f"{ticket + 1:020d}".encode(), 0)  # (one write, always as long)
            return ticket
        finally:
            os.close(fd)

    @contextlib.contextmanager
    def _in_line(self) -> Iterator[str]:
        """Inside, this waiter's place in line (its file's name): locked before it is named, so
        that no one takes it for a waiter gone; gone from the line when it leaves, or dies."""
        ticket = self._ticket()
        name = f"wait-{ticket:020d}"
        spare = self.folder / f".wait-{os.getpid()}-{ticket}"
        fd = os.open(spare, _FLAGS | os.O_EXCL, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            os.rename(spare, self.folder / name)
            yield name
        finally:
            with contextlib.suppress(OSError):
                (self.folder / name).unlink()
            with contextlib.suppress(OSError):
                spare.unlink()
            os.close(fd)

    def _ahead(self, mine: str | None) -> int:
        """Waiters in line before ``mine`` (None: all of them). A place whose waiter is gone
        (killed while it waited) is removed."""
        ahead = 0
        with os.scandir(self.folder) as entries:
            names = [e.name for e in entries if e.name.startswith("wait-")]
        for name in names:
            if mine is not None and name >= mine:
                continue
            try:
                fd = os.open(self.folder / name, _FLAGS & ~os.O_CREAT)
            except OSError:
                continue  # (it left meanwhile)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                ahead += 1
            else:
                with contextlib.suppress(OSError):
                    (self.folder / name).unlink()
            finally:
                os.close(fd)
        return ahead


def waiting_words(running: int, ahead: int = 0) -> str:
    """What a player whose analysis waits for a slot reads (under 80 columns)."""
    if ahead:
        many = "1 analysis" if running == 1 else f"{running} analyses"
        return f"Waiting for a free analysis slot: {many} running, {ahead} ahead of you"
    many = "1 analysis is" if running == 1 else f"{running} analyses are"
    return f"Waiting for a free analysis slot: {many} running on this server"


@contextlib.contextmanager
def held(slots: Slots | None, stop: Callable[[], bool] | None = None,
         waiting: Callable[[int, int], None] | None = None) -> Iterator[bool]:
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
