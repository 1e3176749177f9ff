"""Only a few sessions start at once (Limits.max_starting); the rest wait in line, first come
first served, and a place is given on when a child reports its first frame, exits, or takes too
long. The stand-in app (fake_app.py) reports its first frame as the session app does; the SSH
users ``silent...`` and ``crash...`` make it never report, or exit before reporting."""

from __future__ import annotations

import asyncio
import time

from cellwars_tui.ssh.limits import Limits, StartGate, default_max_starting

from .conftest import open_terminal


def record(server) -> list[tuple[str, int]]:
    """("start", pid) and ("ready", pid), in the order the server saw them."""
    events: list[tuple[str, int]] = []
    server.on_child_start = lambda pid: events.append(("start", pid))
    server.on_child_ready = lambda pid: events.append(("ready", pid))
    return events


async def until(pred, what: str, timeout: float = 30.0) -> None:
    """Wait for a condition; the timeout only guards against a hang."""
    deadline = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


async def test_with_one_start_at_a_time_the_second_child_starts_after_the_first_reports_ready(
        make_server, client_key):
    server = await make_server(limits=Limits(max_starting=1, start_timeout=600, kill_grace=1.0))
    events = record(server)
    terms = await asyncio.gather(*(open_terminal(server.port, key=client_key) for _ in range(2)))
    try:
        for term in terms:
            await term.wait_for("FAKE APP")
        await until(lambda: len(events) == 4, "both ready")
        first, second = events[0][1], events[2][1]
        assert events == [("start", first), ("ready", first), ("start", second), ("ready", second)]
        assert server.start_gate.starting == 0 and server.start_gate.waiting == 0
    finally:
        for term in terms:
            await term.close()


async def test_a_child_that_exits_before_reporting_ready_frees_its_place(make_server, client_key):
    server = await make_server(limits=Limits(max_starting=1, start_timeout=600, kill_grace=1.0))
    events = record(server)
    crashing = await open_terminal(server.port, key=client_key, username="crash")
    await crashing.wait_closed()
    term = await open_terminal(server.port, key=client_key)
    try:
        await term.wait_for("FAKE APP")
        await until(lambda: len(events) == 3, "the second ready")
        assert [e for e, _ in events] == ["start", "start", "ready"]
        assert events[1][1] == events[2][1]  # the one that reported is the second
    finally:
        await term.close()
        await crashing.close()


async def test_a_child_that_never_reports_ready_frees_its_place_after_the_start_timeout(
        make_server, client_key):
    server = await make_server(limits=Limits(max_starting=1, start_timeout=0.3, kill_grace=1.0))
    events = record(server)
    silent = await open_terminal(server.port, key=client_key, username="silent")
    await silent.wait_for("FAKE APP")
    term = await open_terminal(server.port, key=client_key)
    try:
        await term.wait_for("FAKE APP")  # started although the first never reported
        # its first frame can reach the terminal before its ready byte reaches the server
        await until(lambda: len(events) == 3, "the second ready")
        assert [e for e, _ in events] == ["start", "start", "ready"]
    finally:
        await term.close()
        await silent.close()


async def test_a_client_that_leaves_while_in_line_leaves_the_line_and_gets_no_child(
        make_server, client_key):
    server = await make_server(limits=Limits(max_starting=1, start_timeout=600, kill_grace=1.0))
    events = record(server)
    silent = await open_terminal(server.port, key=client_key, username="silent")
    await silent.wait_for("FAKE APP")  # holds the only place: it never reports
    waiting = await open_terminal(server.port, key=client_key)
    await until(lambda: server.start_gate.waiting == 1, "the second in line")
    # a session in line is told at once why nothing else shows yet
    await waiting.wait_for("cellwars: starting your table... (1 player starting before you)")
    await waiting.close()
    await until(lambda: server.start_gate.waiting == 0 and len(server.sessions) == 1,
                "the line to empty")
    silent.send("q")  # the first ends: its place is free
    await silent.wait_closed()
    third = await open_terminal(server.port, key=client_key)
    try:
        await third.wait_for("FAKE APP")
        await until(lambda: len(events) == 3, "the third ready")  # it can lag the first frame
        assert [e for e, _ in events] == ["start", "start", "ready"]  # none for the one that left
        await until(lambda: server.start_gate.starting == 0, "the place to be free")
    finally:
        await third.close()
        await silent.close()


async def test_the_start_gate_serves_its_line_in_order_and_a_cancelled_waiter_passes_its_turn_on():
    gate = StartGate(1)
    first = await gate.acquire()
    order: list[str] = []

    async def wait(name: str):
        slot = await gate.acquire()
        order.append(name)
        return slot

    b, c, d = (asyncio.create_task(wait(n)) for n in "bcd")
    await asyncio.sleep(0)
    assert gate.waiting == 3
    c.cancel()  # leaves the line while waiting
    first.release()  # b's turn: handed the place ...
    b.cancel()  # ... and cancelled before it ran: the place goes on to d
    await asyncio.gather(b, c, return_exceptions=True)
    slot = await d
    assert order == ["d"] and gate.starting == 1 and gate.waiting == 0
    slot.release()
    slot.release()  # a second release gives nothing more
    assert gate.starting == 0


def test_the_default_number_of_sessions_starting_at_once_is_two_per_core_or_from_the_environment(
        monkeypatch):
    import os

    monkeypatch.delenv("CELLWARS_SSH_MAX_STARTING", raising=False)
    assert default_max_starting() == max(2, 2 * (os.cpu_count() or 1))
    monkeypatch.setenv("CELLWARS_SSH_MAX_STARTING", "7")
    assert default_max_starting() == 7
    assert Limits(max_starting=3).starting_limit == 3


async def test_closing_the_server_starts_no_child_for_the_sessions_in_line(make_server, client_key):
    server = await make_server(limits=Limits(max_starting=1, start_timeout=600, kill_grace=1.0))
    events = record(server)
    silent = await open_terminal(server.port, key=client_key, username="silent")
    await silent.wait_for("FAKE APP")
    waiting = await open_terminal(server.port, key=client_key)
    await until(lambda: server.start_gate.waiting == 1, "the second in line")
    await server.close()  # ends the first: its place must not go to the second
    await waiting.wait_closed()
    assert [e for e, _ in events] == ["start"]
    await waiting.close()
    await silent.close()


async def test_time_in_line_does_not_count_toward_the_idle_timeout(make_server, client_key):
    server = await make_server(limits=Limits(max_starting=1, start_timeout=600, idle_timeout=100,
                                             kill_grace=1.0))
    now = [0.0]
    server.clock = lambda: now[0]
    silent = await open_terminal(server.port, key=client_key, username="silent")
    await silent.wait_for("FAKE APP")
    waiting = await open_terminal(server.port, key=client_key)
    await until(lambda: server.start_gate.waiting == 1, "the second in line")
    now[0] = 1000.0  # far past the idle timeout, all of it in line
    silent.send("q")
    try:
        await waiting.wait_for("FAKE APP")
        waiting.send("x")
        await waiting.wait_for("got: b'x'")  # still open: its idle time began at its start
        assert "without input" not in waiting.everything()
    finally:
        await waiting.close()
        await silent.close()


async def test_a_session_resized_while_in_line_starts_at_its_new_size(make_server, client_key):
    from cellwars_tui.ssh.child import get_winsize

    server = await make_server(limits=Limits(max_starting=1, start_timeout=600, kill_grace=1.0))
    sizes: list[tuple[int, int]] = []  # (rows, cols) of each child's terminal as it starts

    def started(pid: int) -> None:
        session = next(s for s in server.sessions.values() if s.pid == pid)
        sizes.append(get_winsize(session.master))

    server.on_child_start = started
    silent = await open_terminal(server.port, key=client_key, username="silent")
    await silent.wait_for("FAKE APP")
    waiting = await open_terminal(server.port, key=client_key, cols=80, rows=24)
    await until(lambda: server.start_gate.waiting == 1, "the second in line")
    waiting.resize(100, 30)
    await until(lambda: any(s.proc is None and s.process.get_terminal_size()[:2] == (100, 30)
                            for s in server.sessions.values()), "the resize to reach the server")
    silent.send("q")
    try:
        await waiting.wait_for("FAKE APP")
        assert sizes == [(24, 80), (30, 100)]
    finally:
        await waiting.close()
        await silent.close()
