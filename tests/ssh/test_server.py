"""The SSH server against a real client: sessions, resizes, refusals, limits, no orphans."""

from __future__ import annotations

import asyncio
import os
import time

import asyncssh
import pytest

from cellwars_tui.core.errors import CellwarsError
from cellwars_tui.ssh.limits import Limits, TokenBucket
from cellwars_tui.ssh.server import CellwarsServer, fingerprint, load_or_create_host_key

from .conftest import connect, open_terminal


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def _gone(pid: int, timeout: float = 60.0) -> bool:
    deadline = time.monotonic() + timeout
    while _alive(pid):
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.02)
    return True


async def test_a_session_runs_the_app_at_the_client_terminal_size(make_server, client_key):
    server = await make_server()
    term = await open_terminal(server.port, cols=100, rows=30, key=client_key)
    try:
        await term.wait_for("SIZE 100x30")
        seen = term.everything()
        assert "TERM=xterm-256color" in seen
        assert "COLORTERM=truecolor" in seen  # OpenSSH sends none: a 256-colour TERM gets truecolor
        assert f"ID=key:{fingerprint(client_key)}" in seen
        assert "NAME=alice" in seen
        assert "CTTY=True" in seen  # the PTY is the child's controlling terminal
    finally:
        await term.close()


async def test_a_resize_reaches_the_app(make_server, client_key):
    server = await make_server()
    term = await open_terminal(server.port, cols=80, rows=24, key=client_key)
    try:
        await term.wait_for("SIZE 80x24")
        term.resize(120, 40)
        await term.wait_for("SIZE 120x40", raw=True)
    finally:
        await term.close()


async def test_keys_typed_reach_the_app_and_quitting_ends_the_session(make_server, client_key):
    server = await make_server()
    term = await open_terminal(server.port, key=client_key)
    await term.wait_for("SIZE")
    term.send("x")
    await term.wait_for("got: b'x'")
    term.send("q")
    await term.wait_closed()
    assert term.process.exit_status == 0
    await term.close()


async def test_exec_requests_are_refused_with_a_message(make_server, client_key):
    server = await make_server()
    async with await connect(server.port, key=client_key) as conn:
        result = await conn.run("ls /", timeout=60)
    assert result.exit_status == 1
    assert "runs no commands" in result.stdout
    assert not server.children


async def test_a_session_without_a_terminal_is_told_why(make_server, client_key):
    server = await make_server()
    async with await connect(server.port, key=client_key) as conn:
        result = await conn.run(timeout=60)  # a shell request with no PTY, like `ssh -T`
    assert result.exit_status == 1
    assert "needs a terminal" in result.stdout


async def test_subsystems_like_sftp_are_refused(make_server, client_key):
    server = await make_server()
    async with await connect(server.port, key=client_key) as conn:
        with pytest.raises((asyncssh.SFTPError, asyncssh.ChannelOpenError, asyncssh.Error)):
            async with conn.start_sftp_client():
                pass


async def test_port_forwarding_is_refused(make_server, client_key):
    server = await make_server()
    async with await connect(server.port, key=client_key) as conn:
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.open_connection("127.0.0.1", server.port)
        with pytest.raises((asyncssh.ChannelListenError, asyncssh.Error)):
            await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 9)


async def test_a_guest_without_a_key_gets_in(make_server):
    server = await make_server()
    term = await open_terminal(server.port, guest=True, username="bob")
    try:
        await term.wait_for("SIZE")
        assert "ID=guest NAME=bob" in term.everything()
    finally:
        await term.close()


async def test_a_key_not_on_the_allow_list_is_rejected(make_server, client_key, tmp_path):
    allowed = asyncssh.generate_private_key("ssh-ed25519")
    allow = tmp_path / "allow"
    allow.write_bytes(allowed.export_public_key())
    server = await make_server(allow_file=allow)
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(server.port, key=client_key)
    with pytest.raises(asyncssh.PermissionDenied):  # and no guests on an allow-listed server
        await connect(server.port, guest=True)
    term = await open_terminal(server.port, key=allowed)
    try:
        await term.wait_for(f"ID=key:{fingerprint(allowed)}", raw=True)
    finally:
        await term.close()


async def test_an_unreadable_allow_list_is_a_one_line_error(tmp_path):
    with pytest.raises(CellwarsError, match="cannot read the allow list"):
        CellwarsServer("127.0.0.1", 0, allow_file=tmp_path / "missing", home=tmp_path)
    (tmp_path / "bad").write_text("not a key\n")
    with pytest.raises(CellwarsError, match="authorized_keys format"):
        CellwarsServer("127.0.0.1", 0, allow_file=tmp_path / "bad", home=tmp_path)


async def test_the_session_cap_turns_a_client_away_with_a_message(make_server, client_key):
    server = await make_server(limits=Limits(max_sessions=1, kill_grace=1.0))
    first = await open_terminal(server.port, key=client_key)
    try:
        await first.wait_for("SIZE")
        second = await open_terminal(server.port, key=client_key)
        await second.wait_closed()
        assert "the server is full (1 players)" in second.everything()
        assert second.process.exit_status == 1
        await second.close()
    finally:
        await first.close()


async def test_the_per_address_cap_turns_a_client_away_with_a_message(make_server, client_key):
    server = await make_server(limits=Limits(per_address=1, kill_grace=1.0))
    first = await open_terminal(server.port, key=client_key)
    try:
        await first.wait_for("SIZE")
        second = await open_terminal(server.port, key=client_key)
        await second.wait_closed()
        assert "too many connections from your address" in second.everything()
        await second.close()
    finally:
        await first.close()


async def test_no_orphan_child_after_a_disconnect(make_server, client_key):
    server = await make_server()
    started: list[int] = []
    server.on_child_start = started.append
    term = await open_terminal(server.port, key=client_key)
    await term.wait_for("SIZE")
    (pid,) = started
    assert _alive(pid)
    term.conn.abort()  # the client vanishes mid-session
    assert await _gone(pid)
    await term.close()
    deadline = time.monotonic() + 60  # (a guard against a hang, not a pace)
    while server.sessions and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
    assert not server.sessions and not server.children


async def test_an_idle_session_is_closed_with_a_message(make_server, client_key):
    server = await make_server(limits=Limits(idle_timeout=0.5, kill_grace=1.0))
    started: list[int] = []
    server.on_child_start = started.append
    term = await open_terminal(server.port, key=client_key)
    await term.wait_for("SIZE")
    await term.wait_closed()
    assert "without input" in term.everything()
    assert "\x1b[?1049l" in term.everything()  # the client's terminal is put back in order
    assert await _gone(started[0])
    await term.close()


async def test_closing_the_server_ends_every_child(client_key, tmp_path):
    from .conftest import FAKE_APP

    server = CellwarsServer("127.0.0.1", 0, child_command=FAKE_APP, home=tmp_path,
                            limits=Limits(kill_grace=1.0))
    started: list[int] = []
    server.on_child_start = started.append
    await server.start()
    terms = [await open_terminal(server.port, key=client_key) for _ in range(3)]
    for t in terms:
        await t.wait_for("SIZE")
    await server.close()
    for pid in started:
        assert await _gone(pid)
    for t in terms:
        await t.close()


def test_the_host_key_is_made_once_and_never_regenerated(tmp_path):
    path = tmp_path / "key"
    first = load_or_create_host_key(path)
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    again = load_or_create_host_key(path)
    assert fingerprint(first) == fingerprint(again)
    path.write_text("garbage")
    with pytest.raises(CellwarsError, match="never overwritten"):
        load_or_create_host_key(path)
    assert path.read_text() == "garbage"


def test_input_is_capped_in_bytes_per_second():
    now = [0.0]
    bucket = TokenBucket(1000, clock=lambda: now[0])
    assert bucket.delay_for(1000) == 0  # a one-second burst passes at once
    assert bucket.delay_for(500) == pytest.approx(0.5)
    now[0] += 0.5
    assert bucket.delay_for(100) == pytest.approx(0.1)


async def test_a_client_that_never_finishes_the_handshake_is_dropped(make_server):
    server = await make_server(limits=Limits(login_timeout=0.5, kill_grace=1.0))
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(b"SSH-2.0-garbage\r\n\x00\x00\x00\x05garbage")
    data = await asyncio.wait_for(reader.read(), 10)  # the server hangs up
    assert data.startswith(b"SSH-2.0-cellwars")
    writer.close()
    # and a well-behaved client is not affected meanwhile
    term = await open_terminal(server.port, guest=True)
    await term.wait_for("SIZE")
    await term.close()


@pytest.mark.parametrize(("term", "sent", "expected"), [
    ("xterm-256color", {}, {"COLORTERM": "truecolor"}),  # what OpenSSH sends from most terminals
    ("tmux-256color", {}, {"COLORTERM": "truecolor"}),
    ("screen-256color", {}, {}),  # GNU screen: 256 colours
    ("xterm-kitty", {}, {"COLORTERM": "truecolor"}),
    ("xterm", {}, {}),  # left to Rich's guess from TERM
    ("linux", {}, {}),
    ("xterm-256color", {"COLORTERM": "256color"}, {"COLORTERM": "256color"}),  # SetEnv opts out
    ("xterm-256color", {"COLORTERM": "$(reboot)"}, {"COLORTERM": "truecolor"}),  # junk ignored
    ("xterm", {"NO_COLOR": ""}, {"NO_COLOR": "1"}),
])
def test_colour_defaults_for_clients_that_send_no_colorterm(term, sent, expected):
    from cellwars_tui.ssh.server import colour_env

    assert colour_env(term, sent) == expected


async def test_garbage_and_half_sent_packets_affect_nobody_else(make_server, client_key):
    # (a long login timeout: the player's own login must not race it on a loaded machine)
    server = await make_server(limits=Limits(login_timeout=30.0, kill_grace=1.0))
    term = await open_terminal(server.port, key=client_key)
    try:
        await term.wait_for("SIZE")
        # a client that sends pure garbage
        r1, w1 = await asyncio.open_connection("127.0.0.1", server.port)
        w1.write(bytes(range(256)) * 16)
        # a client that starts a packet and vanishes in the middle of it
        r2, w2 = await asyncio.open_connection("127.0.0.1", server.port)
        w2.write(b"SSH-2.0-OpenSSH_9.6\r\n\x00\x00\x04\x00\x0a\x14" + b"\x00" * 40)
        await w2.drain()
        w2.transport.abort()
        said = await asyncio.wait_for(r1.read(), 10)  # the server hangs up on it
        assert said.startswith(b"SSH-2.0-cellwars")
        w1.close()
        term.send("k")  # the player's session goes on, untouched
        await term.wait_for("got: b'k'")
        assert len(server.sessions) == 1
    finally:
        await term.close()
