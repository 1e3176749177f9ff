"""A real server on 127.0.0.1 (ephemeral port) and a real client: asyncssh plus pyte as terminal."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import asyncssh
import pyte
import pytest

from cellwars_tui.ssh.limits import Limits
from cellwars_tui.ssh.server import CellwarsServer

from ..standins import _stand_in_games, pytest_make_collect_report  # noqa: F401

FAKE_APP = [sys.executable, str(Path(__file__).with_name("fake_app.py"))]

# The stand-in games of these tests and the online ones: tests/standins.py.


class Terminal:
    """One client session seen through a pyte screen."""

    def __init__(self, conn: asyncssh.SSHClientConnection, process: asyncssh.SSHClientProcess,
                 cols: int, rows: int) -> None:
        self.conn = conn
        self.process = process
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        self.closed = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            while True:
                data = await self.process.stdout.read(65536)
                if not data:
                    break
                self.raw += data
                self.stream.feed(data)
        except (asyncssh.Error, OSError):
            pass
        finally:
            self.closed.set()

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def everything(self) -> str:
        return self.raw.decode("utf-8", "replace")

    async def wait_for(self, needle: str, timeout: float = 60.0, *, raw: bool = False) -> None:
        """Wait until ``needle`` shows (the timeout only guards against a hang: a loaded machine
        takes longer)."""
        deadline = time.monotonic() + timeout
        while True:
            haystack = self.everything() if raw else self.text()
            if needle in haystack:
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"{needle!r} not seen in {timeout}s; screen:\n{self.text()}")
            if self.closed.is_set() and needle not in haystack:
                await asyncio.sleep(0.05)
                if needle in (self.everything() if raw else self.text()):
                    return
                raise AssertionError(f"session closed before {needle!r}; seen:\n{self.everything()}")
            await asyncio.sleep(0.02)

    def send(self, data: bytes | str) -> None:
        self.process.stdin.write(data.encode() if isinstance(data, str) else data)

    def resize(self, cols: int, rows: int) -> None:
        self.screen.resize(rows, cols)
        self.process.change_terminal_size(cols, rows)

    async def wait_closed(self, timeout: float = 60.0) -> None:
        await asyncio.wait_for(self.closed.wait(), timeout)

    async def close(self) -> None:
        self.conn.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.conn.wait_closed(), 5)
        self._reader.cancel()
        with contextlib.suppress(BaseException):
            await self._reader


class _GuestClient(asyncssh.SSHClient):
    def kbdint_auth_requested(self) -> str:
        return ""  # any submethod: the server asks nothing


async def connect(port: int, *, username: str = "alice", key: asyncssh.SSHKey | None = None,
                  guest: bool = False, **kw) -> asyncssh.SSHClientConnection:
    return await asyncssh.connect(
        "127.0.0.1", port, username=username, known_hosts=None,
        client_keys=[key] if key is not None else None, agent_path=None,
        kbdint_auth=guest, password_auth=False, gss_host=None,
        client_factory=_GuestClient if guest else None, **kw,
    )


async def open_terminal(port: int, *, cols: int = 80, rows: int = 24, term: str = "xterm-256color",
                        **kw) -> Terminal:
    conn = await connect(port, **kw)
    process = await conn.create_process(term_type=term, term_size=(cols, rows), encoding=None)
    return Terminal(conn, process, cols, rows)


@pytest.fixture
def client_key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


@pytest.fixture
async def make_server(tmp_path):
    """``await make_server(**kw)`` starts a server; all close after.

    Sessions run the fake app unless told: ``child_command=None`` runs the real app (forked from
    the zygote, as ``cellwars serve`` does).
    """
    made: list[CellwarsServer] = []
    home = tmp_path / "server"
    home.mkdir()

    async def make(*, child_command=FAKE_APP, limits: Limits | None = None, **kw) -> CellwarsServer:
        server = CellwarsServer(
            "127.0.0.1", 0, limits=limits or Limits(kill_grace=1.0),
            child_command=child_command, home=home, **kw,
        )
        await server.start()
        made.append(server)
        return server

    yield make
    for server in made:
        await server.close()


@contextlib.contextmanager
def cellwars_cli(home: Path, *args: str):
    """``python -m cellwars_tui.cli ARGS`` with CELLWARS_HOME=home, in its own process group
    (stdout and stderr are text pipes); the group is killed if it still runs at the end."""
    env = {**os.environ, "CELLWARS_HOME": str(home)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "cellwars_tui.cli", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, start_new_session=True,
    )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        proc.stdout.close()
        proc.stderr.close()


def interrupt_leaving_no_process(proc: subprocess.Popen, timeout: float = 15.0) -> None:
    """Ctrl-C the command: it ends cleanly, and nothing of its process group is left."""
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout) in (0, 130)
    deadline = time.monotonic() + timeout
    while True:
        out = subprocess.run(["ps", "-eo", "pgid,cmd"], capture_output=True, text=True).stdout
        left = [line for line in out.splitlines() if line.split()[0] == str(proc.pid)]
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert not left, left
