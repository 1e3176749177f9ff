"""The real session app over SSH: launcher and lobby at the client's size, mouse, guests, no
process left (two terminals at one table: test_play.py)."""

from __future__ import annotations

import asyncio

import pytest

from .conftest import Terminal, open_terminal


def click_at(term: Terminal, text: str, nth: int = 0) -> None:
    """Click (SGR mouse report) on the first character of ``text`` on the screen."""
    hits = [(y, line.index(text)) for y, line in enumerate(term.screen.display) if text in line]
    assert len(hits) > nth, f"{text!r} not on screen:\n{term.text()}"
    y, x = hits[nth]
    term.send(f"\x1b[<0;{x + 2};{y + 1}M\x1b[<0;{x + 2};{y + 1}m")


@pytest.fixture
async def server(make_server):
    return await make_server(child_command=None)  # the real app, forked from the zygote


async def online(term: Terminal, who: str) -> None:
    """From the launcher to the online lobby."""
    await term.wait_for("o Online")
    term.send("o")
    await term.wait_for(f"you are {who}")


async def test_launcher_then_lobby_at_the_client_size_too_small_notice_and_guest_name(
        server, client_key):
    term = await open_terminal(server.port, cols=100, rows=30, key=client_key)
    try:
        await term.wait_for("a table for cell-biology games")  # the launcher
        assert "Virus Fight" in term.text()
        await online(term, "alice")
        await term.wait_for("New table")
        assert "\x1b[?1049h" in term.everything()  # the app took the alternate screen
        assert "\x1b[?1000h" in term.everything() or "\x1b[?1003h" in term.everything()  # mouse on
        border = next(line for line in term.screen.display if line.startswith("╭"))
        assert len(border.rstrip()) == 100
        term.resize(120, 35)
        await term.wait_for("─" * 110)
    finally:
        await term.close()
    # a terminal too small for the layout gets a clear notice until it grows
    small = await open_terminal(server.port, key=client_key, cols=40, rows=12)
    try:
        await small.wait_for("Terminal too small")
        small.resize(100, 30)
        await small.wait_for("a table for cell-biology games")
    finally:
        await small.close()
    # a guest without a key gets in too, and picks a nickname in the app
    guest = await open_terminal(server.port, guest=True, username="whoever")
    try:
        await online(guest, "a guest")
        assert "pick a nickname" in guest.text()
        guest.send("Zed\r")
        await guest.wait_for("you are Zed")
    finally:
        await guest.close()


async def test_sessions_forked_from_the_zygote_leave_no_process_behind(server, client_key):
    import os
    import time

    started: list[int] = []
    server.on_child_start = started.append
    terms = [await open_terminal(server.port, key=client_key) for _ in range(2)]
    for term in terms:
        await term.wait_for("o Online")
    assert len(set(started)) == 2 and os.getpgid(started[0]) == started[0]  # own session
    terms[0].conn.abort()  # one client vanishes; the other keeps playing
    await terms[1].close()
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in started) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert not any(_alive(pid) for pid in started)
    zygote = server.spawner.proc
    await server.close()
    assert zygote.returncode is not None  # the zygote ends with the server


def _alive(pid: int) -> bool:
    import os

    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.parametrize("how", ["forked", "exec'd"])
async def test_the_session_app_reports_its_first_frame_to_the_server(make_server, client_key, how):
    from cellwars_tui.ssh.limits import Limits
    from cellwars_tui.ssh.server import default_child_command

    command = None if how == "forked" else default_child_command()
    server = await make_server(child_command=command,
                               limits=Limits(max_starting=1, start_timeout=600, kill_grace=1.0))
    events: list[tuple[str, int]] = []
    server.on_child_start = lambda pid: events.append(("start", pid))
    ready = asyncio.Event()
    server.on_child_ready = lambda pid: (events.append(("ready", pid)), ready.set())
    term = await open_terminal(server.port, key=client_key)
    try:
        await term.wait_for("o Online")
        await asyncio.wait_for(ready.wait(), 30)
        assert events == [("start", events[0][1]), ("ready", events[0][1])]
        assert server.start_gate.starting == 0  # its place is free for the next
    finally:
        await term.close()
