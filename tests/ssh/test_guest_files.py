"""What an SSH session may touch on the server: its own folder under the server's data dir, and
nothing else (issue 17, points 2 and 7).

* A session's HOME and data dir are its own, under the server's data dir, and removed when it
  ends (a session once inherited the server's HOME: a guest's screenshots went to the
  operator's ``~/Downloads``, and the notice showed the operator's path).
* The Replays page reads every file through the bounded reader: a FIFO named like a record
  once hung the page (Ctrl+Q too), and a symlink to /dev/zero was read without end.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cellwars_tui.ssh.server import default_child_command, fingerprint

from .conftest import open_terminal
from .test_play import until


@pytest.fixture
async def server(make_server, tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "operator"))  # the operator's own home
    (tmp_path / "operator").mkdir()
    # the real app, exec'd (a forked child's /proc/PID/environ shows the zygote's)
    return await make_server(child_command=default_child_command())


def environ(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes()
    return dict(item.split("=", 1) for item in raw.decode().split("\0") if "=" in item)


def files_under(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file()]


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="reads /proc")
async def test_a_guest_session_lives_in_its_own_folder_under_the_data_dir_and_leaves_nothing(
        server, tmp_path):
    started: list[int] = []
    server.on_child_start = started.append
    term = await open_terminal(server.port, guest=True, username="mallory", cols=100, rows=30)
    try:
        await term.wait_for("o Online")
        env = environ(started[0])
        sessions = server.home / "ssh" / "sessions"
        home, data = Path(env["HOME"]), Path(env["CELLWARS_HOME"])
        assert home.is_relative_to(sessions) and data.is_relative_to(sessions)
        assert home.is_dir() and env["CELLWARS_CONFINED"] == "1"
        slots = Path(env["CELLWARS_ANALYSIS_SLOTS"])  # the server's, shared by its sessions
        assert slots == server.home / "run" / "analyses"  # (cellwars web's too, see test_web_token)
        assert slots.stat().st_mode & 0o777 == 0o700
        assert env["CELLWARS_ANALYSES"] == str(server.limits.analyses_limit)
        # the palette's Screenshot writes nothing on the server, and says so
        term.send("\x10")  # ctrl+p
        await term.wait_for("Search for commands")
        term.send("screenshot")
        await term.wait_for("Save an SVG")
        term.send("\r")
        await term.wait_for("not saved on the server")
        assert "Downloads" not in term.everything()
    finally:
        await term.close()
    await until(lambda: not server.sessions, 60, "the session to end")
    assert not home.exists()  # the session's folder went with it
    assert files_under(tmp_path / "operator") == []
    assert not list(sessions.iterdir())


async def test_the_replays_page_refuses_a_fifo_and_a_device_named_like_records(
        server, client_key):
    games = server.keyed_home("key:" + fingerprint(client_key)) / "data" / "games"
    games.mkdir(parents=True)
    os.mkfifo(games / "waits-forever.cellwars.json")
    (games / "endless.cellwars.json").symlink_to("/dev/zero")
    term = await open_terminal(server.port, key=client_key, username="ann", cols=120, rows=30)
    try:
        await term.wait_for("o Online")
        term.send("p")  # the Replays page
        await term.wait_for("2 file(s) could not be read")
        assert "not a regular file" in term.text()
        assert str(games) not in term.everything()  # the name, never the server's path
        term.send("\x11")  # ctrl+q ends the session at once
        await term.wait_closed()
    finally:
        await term.close()
