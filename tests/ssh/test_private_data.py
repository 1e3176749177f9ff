"""The server's data dir is its user's only (issue 28, point 3), and one server runs on a data
dir at a time (point 5). Both through real ``cellwars serve`` processes.

Once the table store (which holds secret moves in clear), its -wal and -shm, the records, the
players' and sessions' folders were created 0644/0755: another user of the host copied them
during a Virus Fight writing phase and read an unrevealed program. And a second server on the
same data dir started anyway and seated two players in one seat.
"""

from __future__ import annotations

import logging
import os
import re
import select
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from cellwars_tui.cli import main
from cellwars_tui.ssh.homes import RunLock, make_private

from .conftest import cellwars_cli, interrupt_leaving_no_process, open_terminal


def line_within(pipe, timeout: float = 60.0) -> str:
    """The next line of a child's pipe (the timeout only guards against a hang)."""
    ready, _, _ = select.select([pipe], [], [], timeout)
    assert ready, f"no line in {timeout}s"
    return pipe.readline()


def modes(data: Path) -> dict[str, str]:
    """Every folder and file under ``data`` (and itself) with its permission bits, in octal."""
    found = {".": oct(stat.S_IMODE(data.stat().st_mode))}
    for folder, dirs, files in os.walk(data):
        for name in dirs + files:
            path = Path(folder) / name
            if not path.is_symlink():
                found[str(path.relative_to(data))] = oct(stat.S_IMODE(path.lstat().st_mode))
    return found


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A real ``cellwars serve`` on a data dir an older version left open to everybody."""
    home = tmp_path_factory.mktemp("served")
    data = home / "data"
    old = data / "ssh" / "players" / "0123456789abcdef0123"
    old.mkdir(parents=True)
    (old / "settings.toml").write_text("theme = 'x'\n")
    for path in (data, data / "ssh", data / "ssh" / "players", old):
        path.chmod(0o755)
    (old / "settings.toml").chmod(0o644)
    with cellwars_cli(home, "serve", "--port", "0") as proc:
        first = line_within(proc.stdout)
        port = int(re.search(r"port (\d+)", first).group(1))
        yield home, port, proc
        interrupt_leaving_no_process(proc)


async def test_serve_makes_its_data_dir_and_everything_it_writes_the_owners_only(served, client_key):
    home, port, proc = served
    data = home / "data"
    warning = line_within(proc.stderr)
    assert "5 files and folders in the data dir" in warning and "were open to other users" in warning
    term = await open_terminal(port, key=client_key)  # a keyed player: a folder of their own
    try:
        await term.wait_for("o Online")
        found = modes(data)
        for name in ("ssh/tables.sqlite3", "ssh/tables.sqlite3-wal", "ssh/tables.sqlite3-shm",
                     "ssh_host_ed25519_key", "ssh/server.lock", "ssh/tables", "ssh/sessions"):
            assert name in found, sorted(found)
        assert sum(name.startswith("ssh/players/") for name in found) >= 4  # old and new
        assert sum(name.startswith("ssh/sessions/") for name in found) >= 3  # HOME, TMPDIR...
        lax = {name: mode for name, mode in found.items()
               if mode != ("0o700" if (data / name).is_dir() else "0o600")}
        assert not lax, lax
    finally:
        await term.close()


def test_a_second_serve_on_the_same_data_dir_exits_with_one_line(served):
    home, _port, _proc = served
    second = subprocess.run(
        [sys.executable, "-m", "cellwars_tui.cli", "serve", "--port", "0"], capture_output=True,
        text=True, env={**os.environ, "CELLWARS_HOME": str(home)}, timeout=120)
    assert second.returncode == 2
    assert second.stdout == ""
    assert second.stderr == (f"cellwars: another cellwars server is running on this data dir "
                             f"({home / 'data' / 'ssh'}): stop it first, or start this one with "
                             "another CELLWARS_HOME\n")


def test_a_second_web_on_the_same_data_dir_exits_with_one_line(capsys, tmp_path):
    from cellwars_tui.locations import data_dir

    lock = RunLock(data_dir() / "web")  # as a running `cellwars web` holds it
    lock.acquire()
    handlers = list(logging.getLogger().handlers)
    try:
        assert main(["web", "--port", "0"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "another cellwars server is running on this" in err
    finally:
        lock.release()
        logging.getLogger().handlers[:] = handlers  # the command set up the server's log


def test_the_check_at_start_tightens_only_what_is_open_and_follows_no_link(tmp_path):
    data = tmp_path / "data"
    (data / "a").mkdir(parents=True, mode=0o700)
    (data / "a" / "open").write_text("x")
    (data / "a" / "open").chmod(0o664)
    (data / "a" / "mine").write_text("x")
    (data / "a" / "mine").chmod(0o600)
    outside = tmp_path / "outside"
    outside.write_text("x")
    outside.chmod(0o644)
    (data / "link").symlink_to(outside)
    data.chmod(0o700)
    assert make_private(data) == [data / "a" / "open"]
    assert stat.S_IMODE((data / "a" / "open").stat().st_mode) == 0o600
    assert stat.S_IMODE(outside.stat().st_mode) == 0o644  # not the data dir's to change
