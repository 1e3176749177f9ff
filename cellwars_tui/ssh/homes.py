"""Where online sessions keep their files, all under the server's data dir.

* Every session (an SSH connection's app, a browser tab) gets a folder of its own,
  ``<root>/sessions/<random>/``: its ``home/`` is the session's HOME (Textual, platformdirs and
  anything else that writes "to the user's home" write there, never to the server's home) and,
  for a guest, its ``cellwars/`` is the app's data and config (CELLWARS_HOME). The folder is
  removed when the session ends.
* A keyed player's data and settings are their own, kept between sessions:
  ``<root>/players/<digest of the key>/`` (or in ``--players-dir``: one folder several servers
  share).
* A server takes ``<root>/server.lock`` while it runs: a second server on the same data dir
  (``cellwars serve`` or ``cellwars web``) is refused with one line. The server that takes it
  after a crash (``kill -9``, a power cut: the system lets go of the lock with the process)
  sweeps what the crashed one left: every session folder, and the hub's socket folder in the
  system's temporary dir (recorded in ``<root>/run/hub-dir``).
* The sessions' replay analyses share ``<data dir>/run/analyses/`` (:func:`analysis_env`), with
  those of every server on the same data dir (``cellwars serve``'s, ``cellwars web``'s): one
  slot file each of the N that may run at once, held by a lock that dies with its holder
  (see ``..analysis.slots``).

Everything is the server's user's only (0700 folders, 0600 files: the store holds secret moves
in clear, and the players' folders their settings): ``cellwars serve`` and ``cellwars web`` run
with the file-creation mask 077 (:func:`private_files`), which their sessions inherit, and check
the whole data dir at start (:func:`make_private`): anything another user could read is
tightened, and the log says so.

Nothing here knows about SSH or browsers: the SSH server (:mod:`.server`) and the browser front
end (:mod:`.web`) both use it.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import logging
import os
import secrets
import shutil
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

from ..core.errors import CellwarsError
from ..locations import ENV_CONFINED

log = logging.getLogger(__name__)
HUB_DIR_PREFIX = "cellwars-hub-"


@contextlib.contextmanager
def private_files() -> Iterator[None]:
    """Inside, this process and what it starts create files and folders for their user only
    (0600, 0700): the store and its -wal/-shm, records, logs, every session's files."""
    old = os.umask(0o077)
    try:
        yield
    finally:
        os.umask(old)


def make_private(path: Path) -> list[Path]:
    """Make ``path`` (the server's data dir) and everything in it the user's only: a folder or
    file that its group or other users could read, write or enter is tightened (its owner's
    bits are kept), and the log says how many and which. Symbolic links are not followed;
    what belongs to another user is left alone (and said). Returns what was tightened."""
    tightened: list[Path] = []
    foreign: list[Path] = []
    uid = os.getuid()

    def check(p: Path) -> None:
        try:
            info = p.lstat()
        except OSError:
            return
        if stat.S_ISLNK(info.st_mode):
            return
        if info.st_uid != uid:
            foreign.append(p)
            return
        mode = stat.S_IMODE(info.st_mode)
        if mode & 0o077:
            with contextlib.suppress(OSError):
                os.chmod(p, mode & 0o700, follow_symlinks=False)
                tightened.append(p)

    check(path)
    for folder, dirs, files in os.walk(path):
        for name in dirs + files:
            check(Path(folder) / name)
    if tightened:
        shown = ", ".join(str(p.relative_to(path)) if p != path else "." for p in tightened[:5])
        more = f" and {len(tightened) - 5} more" if len(tightened) > 5 else ""
        log.warning("%d files and folders in the data dir %s were open to other users; now "
                    "they are the owner's only: %s%s", len(tightened), path, shown, more)
    if foreign:
        log.warning("%d files in the data dir %s belong to another user (left alone): %s",
                    len(foreign), path, ", ".join(str(p) for p in foreign[:5]))
    return tightened


class SessionFolder:
    """One session's own folder: ``home`` (its HOME) and ``data`` (its CELLWARS_HOME)."""

    def __init__(self, path: Path, data: Path) -> None:
        self.path = path
        self.home = path / "home"
        self.data = data

    def env(self) -> dict[str, str]:
        """The environment a session's app gets for its files (and that it is confined)."""
        home = self.home
        return {"HOME": str(home), "CELLWARS_HOME": str(self.data),
                "XDG_CONFIG_HOME": str(home / ".config"), "XDG_DATA_HOME": str(home / ".local/share"),
                "XDG_CACHE_HOME": str(home / ".cache"), "XDG_STATE_HOME": str(home / ".local/state"),
                "TMPDIR": str(self.path / "tmp"), ENV_CONFINED: "1"}

    def remove(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)


def analysis_env(data: Path, count: int) -> dict[str, str]:
    """What each session gets for its replay analyses to share ``count`` slots (``--analyses``)
    with every other session of the servers on the data dir ``data`` (SSH and browser)."""
    from ..analysis.slots import session_env

    return session_env(data / "run" / "analyses", count)


def keyed_home(players: Path, identity: str) -> Path | None:
    """A keyed player's own CELLWARS_HOME (settings, saved games) in the players' folder
    ``players`` (``<root>/players``, or ``--players-dir``); None for a guest."""
    if not identity.startswith("key:"):
        return None
    digest = hashlib.sha256(identity.encode()).hexdigest()[:20]
    path = players / digest
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path


def new_session_folder(root: Path, identity: str = "guest", players: Path | None = None
                       ) -> SessionFolder:
    """A new session's folder (mode 0700); a keyed player's data stays in their own folder
    (in ``players``, by default ``<root>/players``)."""
    sessions = root / "sessions"
    sessions.mkdir(mode=0o700, parents=True, exist_ok=True)
    path = sessions / secrets.token_hex(8)
    path.mkdir(mode=0o700)
    keyed = keyed_home(players or root / "players", identity)
    folder = SessionFolder(path, keyed if keyed is not None else path / "cellwars")
    for sub in (folder.home, path / "tmp", folder.data):
        sub.mkdir(mode=0o700, parents=True, exist_ok=True)
    return folder


class RunLock:
    """``<root>/server.lock``, held while a server runs; the first server after a crash sweeps
    what the crashed one left (see the module's docstring). ``cellwars serve`` and
    ``cellwars web`` both take theirs with :meth:`acquire`."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.fd = -1

    def acquire(self) -> None:
        """Take the lock (and sweep); CellwarsError (one line) if another server holds it
        (nothing is swept, nothing of the other server's is touched)."""
        self.root.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(self.root / "server.lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise CellwarsError(
                f"another cellwars server is running on this data dir ({self.root}): stop it "
                "first, or start this one with another CELLWARS_HOME") from None
        self.fd = fd
        os.set_inheritable(fd, False)
        self.sweep()

    def sweep(self) -> None:
        shutil.rmtree(self.root / "sessions", ignore_errors=True)
        shutil.rmtree(self.root / "guests", ignore_errors=True)  # older versions' guest homes
        record = self.root / "run" / "hub-dir"
        with contextlib.suppress(OSError):
            _remove_hub_dir(Path(record.read_text(encoding="utf-8").strip()))
            record.unlink()

    def record_hub_dir(self, path: Path) -> None:
        """Remember the hub's socket folder (outside the data dir), for the sweep after a crash."""
        if self.fd < 0:
            return
        run = self.root / "run"
        run.mkdir(mode=0o700, exist_ok=True)
        with contextlib.suppress(OSError):
            (run / "hub-dir").write_text(str(path), encoding="utf-8")

    def release(self) -> None:
        if self.fd >= 0:
            with contextlib.suppress(OSError):
                (self.root / "run" / "hub-dir").unlink()
            os.close(self.fd)
            self.fd = -1


def _remove_hub_dir(path: Path) -> None:
    """Remove a crashed hub's socket folder, and only such a folder: directly in the system's
    temporary dir, named by the hub, ours."""
    if path.parent != Path(tempfile.gettempdir()) or not path.name.startswith(HUB_DIR_PREFIX):
        return
    info = path.lstat()
    if info.st_uid == os.getuid() and path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
