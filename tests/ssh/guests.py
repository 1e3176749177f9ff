"""Helpers for tests with guests over SSH: name a guest in the lobby (and read the reconnect code
it is given), make a table and seat a second player, come back with a code."""

from __future__ import annotations

import asyncio
import re

from .conftest import Terminal
from .test_session import click_at

CODE = re.compile(r"reconnect code: ([A-Z2-9]{5}-[A-Z2-9]{5})")
ROOM = re.compile(r"Table ([A-Z]{4})")


async def screen_match(term: Terminal, pattern: re.Pattern, timeout: float = 60.0) -> str:
    """The first group of ``pattern`` once it is on the screen (the timeout only guards against a
    hang)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        found = pattern.search(term.text())
        if found:
            return found.group(1)
        if loop.time() > deadline or term.closed.is_set():
            raise AssertionError(f"{pattern.pattern!r} not on screen:\n{term.text()}")
        await asyncio.sleep(0.03)


async def guest_in_lobby(term: Terminal, nick: str) -> str:
    """From the launcher to the lobby as the guest ``nick``: the reconnect code it is given."""
    await term.wait_for("o Online")
    term.send("o")
    await term.wait_for("pick a nickname")
    term.send(nick + "\r")  # the nickname box has the focus
    await term.wait_for(f"you are {nick}")
    return await screen_match(term, CODE)


async def come_back(term: Terminal, code: str) -> None:
    """A guest at the lobby types their reconnect code (the second box)."""
    await term.wait_for("o Online")
    term.send("o")
    await term.wait_for("Your reconnect code:")
    await term.wait_for("ABCDE-FGH2")  # (the box may be painted a frame after its label)
    click_at(term, "ABCDE-FGH2")  # the code box (its placeholder)
    term.send(code + "\r")


async def make_table(host: Terminal, guest: Terminal, guest_name: str) -> str:
    """``host`` (in the lobby) makes a table of the lobby's first game (Virus Fight) and
    ``guest`` (in the lobby) joins it by its room code and sits in seat 2."""
    host.send("n")
    await host.wait_for("← you")
    code = await screen_match(host, ROOM)
    await guest.wait_for(code)  # the lobby lists the new table
    click_at(guest, code)  # a click on its line joins it
    await guest.wait_for("you: watching")
    click_at(guest, "2. (free)")
    await host.wait_for(f"2. {guest_name}")
    return code
