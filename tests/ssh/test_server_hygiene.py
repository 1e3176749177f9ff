"""The smaller holes of issue 17, point 9: a graceful shutdown tells every player and puts
their terminal back; what a crash leaves (session folders, the hub's socket folder) is swept at
the next start (a store that fails: tests/online/test_saving.py); notices show no server path; allow-list keys restricted to a command or denied a terminal are refused."""

from __future__ import annotations

import random
import re
import signal
from pathlib import Path

import asyncssh
import pytest

from cellwars_tui.core import Match, Seat
from cellwars_tui.core.registry import get_game
from cellwars_tui.record.format import save_match
from cellwars_tui.ssh.server import CellwarsServer, fingerprint

from .conftest import cellwars_cli, connect, open_terminal


async def test_a_graceful_shutdown_tells_every_player_and_resets_their_terminal(
        client_key, tmp_path):
    from cellwars_tui.ssh.limits import Limits

    server = CellwarsServer("127.0.0.1", 0, child_command=None, home=tmp_path,
                            limits=Limits(kill_grace=1.0))
    await server.start()
    terms = [await open_terminal(server.port, key=client_key, cols=100, rows=30)
             for _ in range(2)]
    try:
        for term in terms:
            await term.wait_for("o Online")
        await server.close()
        for term in terms:
            await term.wait_closed()
            seen = term.everything()
            said = seen.rindex("the server is shutting down")
            assert seen.rfind("\x1b[?1049l", 0, said) > seen.rfind("\x1b[?1049h")  # reset first
    finally:
        for term in terms:
            await term.close()


SERVING = re.compile(r"serving on 127\.0\.0\.1 port (\d+)")


def started_port(proc) -> int:
    line = proc.stdout.readline()
    found = SERVING.search(line)
    assert found, line + proc.stderr.read()
    proc.stdout.readline()  # "players connect with: ..."
    return int(found.group(1))


async def test_what_a_killed_server_leaves_is_swept_at_the_next_start(tmp_path, client_key):
    home = tmp_path / "cellwars"
    data = home / "data"
    with cellwars_cli(home, "serve", "--port", "0") as proc:
        port = started_port(proc)
        term = await open_terminal(port, guest=True, cols=100, rows=30)
        try:
            await term.wait_for("o Online")
            sessions = list((data / "ssh" / "sessions").iterdir())
            hub_dir = Path((data / "ssh" / "run" / "hub-dir").read_text())
            assert sessions and (hub_dir / "hub.sock").exists()
            proc.send_signal(signal.SIGKILL)
            proc.wait(10)
            await term.wait_closed()
        finally:
            await term.close()
    assert sessions[0].exists() and hub_dir.exists()  # left behind by the crash
    with cellwars_cli(home, "serve", "--port", "0") as proc:
        started_port(proc)
        assert not sessions[0].exists() and not hub_dir.exists()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0


def a_finished_record(path: Path) -> None:
    game = get_game("virus-fight")
    m = Match(game, game.options_type(players=2), [Seat(name="Ann"), Seat(name="Bob")], 5)
    rng = random.Random(5)
    for _ in range(6):
        seat = next(s for s in m.to_act() if s >= 0)
        m.play(seat, rng.choice(list(m.legal_actions(seat))))
    save_match(m, path)


async def test_notices_show_file_names_never_server_paths(make_server, client_key):
    server = await make_server(child_command=None)
    home = server.keyed_home("key:" + fingerprint(client_key))
    (home / "data" / "games").mkdir(parents=True)
    a_finished_record(home / "data" / "games" / "virus-fight-20260101-000000-abcdef.cellwars.json")
    term = await open_terminal(server.port, key=client_key, username="ann", cols=120, rows=36)
    try:
        await term.wait_for("o Online")
        term.send("p")  # Replays: the record is the first row
        await term.wait_for("Virus Fight")
        await term.wait_for("unfinished")
        term.send("\r")
        await term.wait_for("Export")  # the replay viewer's keys
        term.send("e")
        await term.wait_for("a file in your exports folder")
        term.send("\r")  # the offered name
        await term.wait_for("Move list written to exports/")
        assert str(server.home) not in term.everything()
        assert list((home / "data" / "exports").glob("*.txt"))
    finally:
        await term.close()


@pytest.mark.parametrize("options", ['command="ls -la"', "no-pty", "restrict"])
async def test_allow_list_keys_restricted_to_a_command_or_without_a_terminal_are_refused(
        make_server, client_key, tmp_path, options, caplog):
    ok_key = asyncssh.generate_private_key("ssh-ed25519")
    allow = tmp_path / "authorized_keys"
    allow.write_text(f"{options} {client_key.export_public_key().decode()}"
                     f"restrict,pty {ok_key.export_public_key().decode()}")
    server = await make_server(allow_file=allow)
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(server.port, key=client_key)
    assert any("refused" in r.getMessage() for r in caplog.records)
    term = await open_terminal(server.port, key=ok_key)  # restrict with pty plays
    await term.wait_for("SIZE")
    await term.close()


def test_an_allow_list_that_is_a_fifo_or_a_device_is_refused_at_once(tmp_path):
    from cellwars_tui.core.errors import CellwarsError
    from cellwars_tui.ssh.server import load_allow_list

    fifo = tmp_path / "keys"
    __import__("os").mkfifo(fifo)
    for path in (fifo, Path("/dev/zero")):
        with pytest.raises(CellwarsError, match="not a regular file"):
            load_allow_list(path)
