"""Clients that misbehave before or during the handshake, or vanish mid-packet, are dropped and
hurt nobody else's game."""

from __future__ import annotations

import asyncio

import asyncssh
import pytest

from cellwars_tui.ssh.limits import Limits

from .conftest import open_terminal
from .proxy import Proxy
from .test_server import _alive, _gone


async def hung_up_on(port: int, send: bytes) -> bytes:
    """Connect, send ``send``, and read until the server hangs up: what it said."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(send)
    await writer.drain()
    try:
        return await asyncio.wait_for(reader.read(), 20)
    finally:
        writer.close()


async def no_connections_left(server, timeout: float = 60.0) -> bool:
    """The server forgets a dropped connection a moment after the client sees it go: wait."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while server.connections and loop.time() < deadline:
        await asyncio.sleep(0.02)
    return not server.connections


async def test_a_client_that_sends_nothing_is_dropped_after_the_login_timeout(make_server):
    server = await make_server(limits=Limits(login_timeout=0.3))
    said = await hung_up_on(server.port, b"")
    assert said.startswith(b"SSH-2.0-cellwars")
    assert await no_connections_left(server)


async def test_a_client_that_stops_after_its_version_line_is_dropped(make_server):
    server = await make_server(limits=Limits(login_timeout=0.3))
    assert (await hung_up_on(server.port, b"SSH-2.0-OpenSSH_9.6\r\n")).startswith(b"SSH-2.0-")


class _NeverAuthenticates(asyncssh.SSHClient):
    async def public_key_auth_requested(self):  # the key exchange is done; then nothing
        await asyncio.Event().wait()


async def test_a_client_that_never_authenticates_is_dropped_after_the_login_timeout(make_server):
    server = await make_server(limits=Limits(login_timeout=0.3))
    with pytest.raises((asyncssh.Error, ConnectionError)):
        await asyncio.wait_for(asyncssh.connect(
            "127.0.0.1", server.port, username="x", known_hosts=None, agent_path=None,
            client_keys=[], kbdint_auth=False,
            password_auth=False, gss_host=None, client_factory=_NeverAuthenticates), 20)
    assert await no_connections_left(server)


@pytest.mark.parametrize("garbage", [
    b"GET / HTTP/1.1\r\nHost: example\r\n\r\n",  # a web browser on the SSH port
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(range(256)),  # a TLS hello
    b"x" * 9000,  # a "version line" that never ends
], ids=["http", "tls", "endless-line"])
async def test_garbage_before_the_version_line_is_turned_away_at_once(make_server, garbage):
    server = await make_server()  # the 30 s login timeout is not what ends it
    assert (await hung_up_on(server.port, garbage)).startswith(b"SSH-2.0-cellwars")


async def test_a_player_who_vanishes_mid_packet_leaves_no_process_and_hurts_nobody(
        make_server, client_key):
    server = await make_server()
    started: list[int] = []
    server.on_child_start = started.append
    other = await open_terminal(server.port, key=client_key)
    await other.wait_for("SIZE")
    proxy = Proxy(server.port)
    await proxy.start()
    leaving = await open_terminal(proxy.port, key=client_key)
    try:
        await leaving.wait_for("SIZE")
        other_pid, leaving_pid = started
        proxy.cut(5)  # the next packet's first 5 bytes reach the server, then the line drops
        leaving.send("x")
        assert await _gone(leaving_pid)
        other.send("k")
        await other.wait_for("got: b'k'")
        # the server counts the dropped session out a moment after its child is gone
        for _ in range(3000):  # (60 s: a guard against a hang, not a pace)
            if len(server.sessions) == 1:
                break
            await asyncio.sleep(0.02)
        assert _alive(other_pid) and len(server.sessions) == 1
    finally:
        await other.close()
        await leaving.close()
        await proxy.close()
