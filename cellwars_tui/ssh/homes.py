"""Where online sessions keep their files, all under the server's data dir.

* Every session (an SSH connection's app, a browser tab) gets a folder of its own,
  ``<root>/sessions/<random>/``: its ``home/`` is the session's HOME (Textual, platformdirs and
  anything else that writes "to the user's home" write there, never to the server's home) and,
  for a guest, its ``cellwars/`` is the app's data and config (CELLWARS_HOME). The folder is
  removed when the session ends.
* A keyed player's data and settings are their own, kept between sessions:
  ``<root>/players/<digest of the key>/``.
* A server takes ``<root>/server.lock`` while it runs. The server that takes it after a crash
  (``kill -9``, a power cut) sweeps what the crashed one left: every session folder, and the
  hub's socket folder in the system's temporary dir (recorded in ``<root>/run/hub-dir``).

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
import tempfile
from pathlib import Path

from ..locations import ENV_CONFINED

log = logging.getLogger(__name__)
HUB_DIR_PREFIX = "cellwars-hub-"


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


def keyed_home(root: Path, identity: str) -> Path | None:
    """A keyed player's own CELLWARS_HOME (settings, saved games); None for a guest."""
    if not identity.startswith("key:"):
        return None
    digest = hashlib.sha256(identity.encode()).hexdigest()[:20]
    path = root / "players" / digest
    path.mkdir(parents=True, exist_ok=True)
    return path


def new_session_folder(root: Path, identity: str = "guest") -> SessionFolder:
    """A new session's folder (mode 0700); a keyed player's data stays in their own folder."""
    sessions = root / "sessions"
    sessions.mkdir(parents=True, exist_ok=True)
    path = sessions / secrets.token_hex(8)
    path.mkdir(mode=0o700)
    keyed = keyed_home(root, identity)
    folder = SessionFolder(path, keyed if keyed is not None else path / "cellwars")
    for sub in (folder.home, path / "tmp", folder.data):
        sub.mkdir(parents=True, exist_ok=True)
    return folder


class RunLock:
    """``<root>/server.lock``, held while a server runs; the first server after a crash sweeps
    what the crashed one left (see the module's docstring)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.fd = -1

    def acquire(self) -> bool:
        """Take the lock (and sweep): False if another server holds it (nothing is swept)."""
        self.root.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.root / "server.lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            log.warning("another cellwars server uses %s: its sessions are left alone",
                        self.root)
            return False
        self.fd = fd
        os.set_inheritable(fd, False)
        self.sweep()
        return True

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
        run.mkdir(exist_ok=True)
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
