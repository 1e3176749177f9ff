"""Caps that hold (issue 17, point 4): one session per connection, connections per address
counted from the moment they are accepted, a cap on connections still logging in (see
test_login_queue.py for who is refused or evicted), and a log that says a repeated error once a second, not thousands of times.

Once, one connection carried any number of sessions (``ssh -M`` then 12 x ``ssh -S``), and
connections that never finished the handshake were held for the whole login timeout however
many there were: 1,100 silent sockets used up the server's file descriptors, and the log grew
17 MB in 25 s of repeated tracebacks.
"""

from __future__ import annotations

import asyncio
import io
import logging

from cellwars_tui.ssh.limits import Limits
from cellwars_tui.ssh.logs import RepeatLimiter

from .conftest import Terminal, connect, open_terminal
from .test_play import until


async def silent_socket() -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", PORT[0])


PORT = [0]


# The tests that count on the server closing a connection give the login timeout an hour: a
# connection closed at all was closed by the cap under test, however slow the machine.
NO_LOGIN_TIMEOUT = 3600.0


async def hung_up(reader: asyncio.StreamReader, timeout: float = 60.0) -> bool:
    """Whether the server closes this connection (it sends at most its version line first); the
    timeout only guards against a hang."""
    try:
        await asyncio.wait_for(reader.read(), timeout)
    except asyncio.TimeoutError:
        return False
    except ConnectionError:
        return True
    return True


async def test_one_connection_carries_one_session(make_server, client_key):
    server = await make_server()
    conn = await connect(server.port, key=client_key)
    first = Terminal(conn, await conn.create_process(term_type="xterm", encoding=None), 80, 24)
    try:
        await first.wait_for("SIZE")
        process = await conn.create_process(term_type="xterm", encoding=None)
        second = Terminal(conn, process, 80, 24)
        await second.wait_closed()
        assert "one game per connection" in second.everything()
        assert "FAKE APP" not in second.everything()
        assert len(server.sessions) == 1
        first.send("k")  # the first plays on
        await first.wait_for("got: b'k'")
    finally:
        await first.close()


async def test_connections_count_from_accept_and_a_flood_from_one_address_is_closed(
        make_server, client_key):
    server = await make_server(limits=Limits(per_address=2, kill_grace=1.0,
                                             login_timeout=NO_LOGIN_TIMEOUT))
    PORT[0] = server.port
    held = [await silent_socket() for _ in range(2)]  # the address's cap, never logging in
    flood = [await silent_socket() for _ in range(6)]
    try:
        # closed by the cap, not by the (hour-long) login timeout: all but one (which would be
        # told why if it logged in)
        waits = [asyncio.create_task(hung_up(reader)) for reader, _ in flood]
        pending = set(waits)
        while len(pending) > 1:
            done, pending = await asyncio.wait(pending, timeout=60,
                                               return_when=asyncio.FIRST_COMPLETED)
            assert done, "the flood is held open"
            assert all(task.result() for task in done)
        for task in pending:
            task.cancel()
        assert len(server.connections) <= 3
    finally:
        for _, writer in flood:
            writer.close()
    await until(lambda: len(server.connections) == 2, 60, "only the two held ones")
    told = await open_terminal(server.port, key=client_key)  # one more: told why, in words
    try:
        await told.wait_closed()
        assert "too many connections from your address" in told.everything()
    finally:
        await told.close()
        for _, writer in held:
            writer.close()
    await until(lambda: not server.connections, 60, "the silent ones to be forgotten")
    term = await open_terminal(server.port, key=client_key)  # a player gets in again
    await term.wait_for("SIZE")
    await term.close()


async def test_connections_still_logging_in_are_capped_and_a_logged_in_player_is_not_among_them(
        make_server, client_key):
    server = await make_server(limits=Limits(max_unauthenticated=3, kill_grace=1.0,
                                             login_timeout=NO_LOGIN_TIMEOUT))
    PORT[0] = server.port
    silent = [await silent_socket() for _ in range(3)]
    await until(lambda: len(server.logging_in) == 3, 60, "three connections logging in")
    # a fourth, from another network: 127.0.0.0/24 holds the most places, its oldest goes
    term = await open_terminal(server.port, key=client_key, local_addr=("127.9.0.1", 0))
    try:
        assert await hung_up(silent[0][0])
        await term.wait_for("SIZE")  # the player is in
        more = [await silent_socket() for _ in range(3)]
        silent += more
        for reader, _ in more[1:]:  # the player is in: one more fits, then the queue is full
            assert await hung_up(reader)
        assert len(server.logging_in) == 3
        term.send("k")  # the player, logged in, is never dropped for them
        await term.wait_for("got: b'k'")
    finally:
        for _, writer in silent:
            writer.close()
        await term.close()


def test_a_repeated_error_is_logged_once_a_second_with_one_summary_line():
    now = [0.0]
    out = io.StringIO()
    target = logging.StreamHandler(out)
    target.setFormatter(logging.Formatter("%(message)s"))
    limiter = RepeatLimiter(target, clock=lambda: now[0], burst=5)
    log = logging.getLogger("cellwars.test.flood")
    log.propagate = False
    log.addHandler(limiter)
    try:
        for i in range(10_000):  # the same error, with a different address each time
            log.error("socket.accept() out of system resource from %s", f"10.0.0.{i % 250}")
        log.warning("another kind of problem")
        assert out.getvalue().count("\n") == 2  # the first of each kind
        for i in range(30):  # 30 kinds in the same second: only the burst's worth
            log.error(f"kind {i}")
        assert out.getvalue().count("\n") == 5
        now[0] += 1.0
        log.error("socket.accept() out of system resource from %s", "10.0.0.1")
        lines = out.getvalue().splitlines()
        assert lines[-2] == "10026 more log lines like the ones above left out"
        assert lines[-1].startswith("socket.accept() out of system resource")
        assert len(lines) == 7
    finally:
        log.removeHandler(limiter)
