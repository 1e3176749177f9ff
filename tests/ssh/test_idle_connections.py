"""Connections that hold a socket and nothing else (issue 28, point 7): a logged-in connection
with no session open is closed after the login timeout, and connections at once are capped
below the process's file limit.

Once, 64 authenticated connections that opened no session were still open after 60 s, and waves
of them added up to the file limit (then accept() failed for everyone).
"""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from cellwars_tui.core.errors import CellwarsError
from cellwars_tui.ssh import limits as limits_module
from cellwars_tui.ssh.limits import Limits, busy_message, default_max_connections, file_limit
from cellwars_tui.ssh.web import WebServer

from .conftest import Terminal, connect
from .test_caps import NO_LOGIN_TIMEOUT, hung_up
from .test_play import until
from .test_web_limits import Busy

LOGIN_TIMEOUT = 3.0  # long enough for a handshake on a loaded machine


async def test_a_logged_in_connection_with_no_session_open_is_closed_after_the_login_timeout(
        make_server, client_key):
    server = await make_server(limits=Limits(kill_grace=1.0, login_timeout=LOGIN_TIMEOUT))
    idle = await connect(server.port, key=client_key)  # logs in, then opens nothing
    done = await connect(server.port, key=client_key)  # plays, quits, keeps the connection
    term = Terminal(done, await done.create_process(term_type="xterm", encoding=None), 80, 24)
    await term.wait_for("SIZE")
    started = time.monotonic()
    term.send("q")
    await term.wait_closed()
    await asyncio.wait_for(idle.wait_closed(), 60)  # the guard against a hang, not a pace
    await asyncio.wait_for(done.wait_closed(), 60)
    assert time.monotonic() - started >= LOGIN_TIMEOUT - 0.5  # closed by the timer, not at once
    await until(lambda: not server.connections, 60, "the server to forget them")


async def test_a_connection_with_a_session_open_is_never_closed_for_idling(make_server, client_key):
    server = await make_server(limits=Limits(kill_grace=1.0, login_timeout=0.5))
    conn = await connect(server.port, key=client_key)
    term = Terminal(conn, await conn.create_process(term_type="xterm", encoding=None), 80, 24)
    try:
        await term.wait_for("SIZE")
        await asyncio.sleep(1.5)  # three login timeouts
        term.send("k")
        await term.wait_for("got: b'k'")
        assert len(server.connections) == 1
    finally:
        await term.close()


async def test_connections_at_once_are_capped_and_one_more_is_closed_at_once(make_server, caplog):
    caplog.set_level(logging.WARNING, "cellwars_tui.ssh.server")
    server = await make_server(limits=Limits(max_connections=3, kill_grace=1.0,
                                             login_timeout=NO_LOGIN_TIMEOUT))
    held = [await asyncio.open_connection("127.0.0.1", server.port, local_addr=(f"127.{i}.0.1", 0))
            for i in (1, 2, 3)]  # three addresses: the per-address cap is not what closes it
    try:
        await until(lambda: len(server.connections) == 3, 60, "three connections")
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port,
                                                       local_addr=("127.4.0.1", 0))
        assert await hung_up(reader)  # closed by the cap, not by the (hour-long) login timeout
        writer.close()
        assert len(server.connections) == 3
        assert any("3 connections open (the cap, below the file limit)" in r.getMessage()
                   for r in caplog.records)
    finally:
        for _, w in held:
            w.close()


def test_the_default_connection_cap_is_below_the_file_limit(monkeypatch):
    assert default_max_connections(50) < file_limit()
    monkeypatch.setattr(limits_module, "file_limit", lambda: 1024)
    assert Limits().connection_limit == 1024 - 128 - 4 * 50  # a session holds a few descriptors
    with pytest.raises(CellwarsError, match="--max-sessions 300 needs more open files"):
        Limits(max_sessions=300).check()
    with pytest.raises(CellwarsError, match="the connection cap must be 0"):
        Limits(max_connections=5000).check()


def test_browser_tabs_count_toward_the_same_cap_on_connections():
    web = WebServer("127.0.0.1", 0, limits=Limits(max_connections=4), others=Busy(connections=4),
                    command="true")
    assert web.refusal("127.0.0.1") == busy_message()
    web.others = Busy(connections=3)
    assert web.refusal("127.0.0.1") == ""
