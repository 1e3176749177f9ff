"""Keepalive: a client that goes silent (its network died, it stopped reading) is dropped; a
client that is only idle, and answers the server's probes, stays."""

from __future__ import annotations

import asyncio

from cellwars_tui.ssh.limits import Limits

from .conftest import open_terminal
from .proxy import Proxy
from .test_server import _alive, _gone


async def test_a_client_that_goes_silent_is_dropped_and_an_idle_one_stays(make_server,
                                                                          client_key):
    server = await make_server(limits=Limits(keepalive_interval=0.5, keepalive_count_max=2,
                                             kill_grace=1.0))
    started: list[int] = []
    server.on_child_start = started.append
    idle = await open_terminal(server.port, key=client_key)  # idle, but its client answers
    await idle.wait_for("SIZE")
    proxy = Proxy(server.port)
    await proxy.start()
    silent = await open_terminal(proxy.port, key=client_key)
    try:
        await silent.wait_for("SIZE")
        idle_pid, silent_pid = started
        proxy.freeze()  # from now on the silent client neither reads nor answers
        await asyncio.wait_for(proxy.server_side_closed.wait(), 20)  # the server hung up on it
        assert await _gone(silent_pid)
        # its session is counted out a moment after its child is gone (the server reaps it)
        for _ in range(200):
            if len(server.sessions) == 1:
                break
            await asyncio.sleep(0.05)
        # the idle player has been quiet at least as long, and is still in
        assert _alive(idle_pid) and len(server.sessions) == 1
        idle.send("k")
        await idle.wait_for("got: b'k'")
    finally:
        await idle.close()
        await silent.close()
        await proxy.close()
