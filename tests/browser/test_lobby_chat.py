"""The online lobby in a real browser, with an SSH player in it: ``cellwars serve --web`` (one
process, one hub) on 127.0.0.1, headless Chromium in a window of about 80x24 cells, and a keyed
SSH player (asyncssh, a pyte screen).

What a browser player meets there: the lobby the SSH player is in; the lobby's chat so far on
arrival, a line from the SSH side as it is said and a line typed in the tab read on the SSH side;
the leaderboard (``l``) and the profile key (``y``, a guest is told why they have none) and back;
a player's profile from their seat at a table (``i``) and back; and hostile chat lines (escape
sequences, control and bidi characters, pasted over SSH) shown cleaned, no sequence of theirs
sent to the browser. Every step waits for what the other side shows; Selenium's calls block, so
they run in a thread while the SSH client reads.
"""

from __future__ import annotations

import asyncio
import re

import asyncssh
import pytest

from tests.ssh.conftest import cellwars_cli, interrupt_leaving_no_process, open_terminal

from selenium.webdriver.common.keys import Keys

from .conftest import Tab, chromium

ESCAPE, HOME = Keys.ESCAPE, Keys.HOME

WINDOW = (740, 720)  # pixels: about 82x27 cells in the page's terminal
# Pasted over SSH (a terminal's bracketed paste: the only way a player's terminal puts control
# characters in a text box): 8-bit CSI and OSC sequences, BEL, a bidi override, a zero-width
# space, DEL and SOH, all removed by the hub; then 7-bit escape sequences (set the title, write
# the clipboard, clear the screen), which Textual's parser turns into visible text ("^]0;...")
# before the hub even sees them: either way no sequence of them reaches the browser.
HOSTILE = "hi \x9b2J\x9d0;pwned\x9c\x07web\u202e\u200b\x7f\x01!"
CLEANED = "hi web!"
HOSTILE_7BIT = "\x1b]0;owned\x07\x1b]52;c;ZXZpbA==\x07\x1b[2Jbye"
PASTE = "\x1b[200~{}\x1b[201~\r"


@pytest.fixture
def lobby_server(tmp_path):
    """A real ``cellwars serve --web`` (its own home and data dir): (SSH port, browser address)."""
    home = tmp_path / "serve-home"
    with cellwars_cli(home, "serve", "--port", "0", "--web", "--web-port", "0") as proc:
        ssh = re.match(r"cellwars: serving on 127\.0\.0\.1 port (\d+);", proc.stdout.readline())
        proc.stdout.readline()  # how to connect
        web = re.match(r"cellwars: and with a browser at (http://127\.0\.0\.1:\d+/)$",
                       proc.stdout.readline().strip())
        assert ssh and web, proc.stderr.read()
        yield int(ssh.group(1)), web.group(1)
        interrupt_leaving_no_process(proc)


async def shows(tab: Tab, needle: str) -> list[str]:
    return await asyncio.to_thread(tab.wait_for, needle)


async def press(tab: Tab, *keys: str) -> None:
    await asyncio.to_thread(tab.press, *keys)


def typing_in_a_box(lines: list[str]) -> bool:
    """A text box has the focus: the footer no longer offers the lobby's letter keys.

    (Focus moves after the key that asks for it has been handled, so letters typed in the same
    burst would still be the lobby's keys: a player sees the box take the focus, and so does
    this test, before typing.)"""
    footer = lines[-1]
    return "palette" in footer and "Leaderboard" not in footer


async def until(predicate, what: str, timeout: float = 60.0) -> None:
    """Wait for ``predicate()`` (the timeout only guards against a hang)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        assert asyncio.get_running_loop().time() < deadline, f"{what}: not seen"
        await asyncio.sleep(0.05)


async def test_a_browser_player_chats_with_an_ssh_player_in_the_lobby(lobby_server, tmp_path):
    ssh_port, url = lobby_server
    sshy = await open_terminal(ssh_port, username="sshy", cols=100, rows=30,
                               key=asyncssh.generate_private_key("ssh-ed25519"))
    try:
        with chromium(tmp_path / "chromium-profile", WINDOW) as driver:
            await _play(sshy, driver, url)
    finally:
        await sshy.close()


async def _play(sshy, driver, url: str) -> None:
    # the SSH player, keyed, goes online and says something before the browser player comes
    await sshy.wait_for("o Online")
    sshy.send("o")
    await sshy.wait_for("you are sshy")
    await sshy.wait_for("l Leaderboard")  # the lobby's keys
    sshy.send("c")
    await until(lambda: typing_in_a_box(sshy.text().splitlines()), "ssh: the chat box")
    sshy.send("hello from ssh\r")
    await sshy.wait_for("sshy: hello from ssh")

    # the browser player: the launcher, then online as a guest with a nickname
    await asyncio.to_thread(driver.get, url)
    title = driver.title
    tab = Tab(driver)
    await shows(tab, "o Online")
    assert tab.screen.columns >= 80 and tab.screen.lines >= 24, (tab.screen.columns,
                                                                 tab.screen.lines)
    await press(tab, "o")
    await shows(tab, "Pick a nickname")
    await until(lambda: typing_in_a_box(tab.lines()), "tab: the nickname box")
    await press(tab, *"Webby", "\n")
    await shows(tab, "you are Webby")
    await shows(tab, "sshy: hello from ssh")  # the lobby's chat so far
    await shows(tab, "l Leaderboard")  # the lobby's keys

    # a line each way
    await press(tab, "c")
    await until(lambda: typing_in_a_box(tab.lines()), "tab: the chat box")
    await press(tab, *"hi from the web", "\n")
    await sshy.wait_for("Webby: hi from the web")
    await shows(tab, "Webby: hi from the web")

    # the leaderboard and the profile key, and back to the lobby
    await press(tab, ESCAPE)  # out of the chat box
    await until(lambda: not typing_in_a_box(tab.lines()), "tab: out of the chat box")
    await press(tab, "l")
    await shows(tab, "Guests play unrated: come back with an SSH key to be rated.")
    await shows(tab, "Leaderboard · Virus Fight · 0 rated players")
    await shows(tab, "none yet: be the first")  # (whole in its column)
    await press(tab, "y")  # a guest is told why there is no profile (a keyed player's: below)
    await shows(tab, "Guests have no profile: come with")  # (a toast: "... an SSH key.")
    await press(tab, ESCAPE)
    await shows(tab, "you are Webby")
    await press(tab, "y")
    await shows(tab, "Guests have no profile: come back")  # (the lobby's own words)

    # a player's profile, from their seat: the SSH player makes a table, the tab joins by code
    sshy.send("\x1b")  # out of the chat box
    await until(lambda: not typing_in_a_box(sshy.text().splitlines()), "ssh: out of the box")
    sshy.send("n")
    await sshy.wait_for(" · Virus Fight · casual · open")  # the table's head line
    code = re.search(r"Table ([A-Z0-9]+) · ", sshy.text()).group(1)
    await press(tab, "j")
    await until(lambda: typing_in_a_box(tab.lines()), "tab: the code box")
    await press(tab, *code, "\n")
    await shows(tab, f"Table {code} · ")
    await press(tab, HOME, "i")  # the first seat (sshy's) highlighted, then its profile
    await shows(tab, "Profile · sshy")
    await press(tab, ESCAPE)
    await shows(tab, f"Table {code} · ")
    await press(tab, ESCAPE)  # leaves the table
    await shows(tab, "you are Webby")

    # hostile lines, pasted over SSH into the lobby's chat: the tab shows them cleaned, and no
    # sequence of theirs reached the tab (last: the SSH player's own screen is garbled by them)
    sshy.send("\x1b")  # leaves the table
    await sshy.wait_for("l Leaderboard")
    sshy.send("c")
    await until(lambda: typing_in_a_box(sshy.text().splitlines()), "ssh: the chat box")
    sshy.send(PASTE.format(HOSTILE))
    lines = await shows(tab, f"sshy: {CLEANED}")  # (said live: the tab was in the lobby)
    said = next(line for line in lines if f"sshy: {CLEANED}" in line)
    assert said.rstrip(" │▂▃▄▅▆▇█").endswith(f"sshy: {CLEANED}"), said
    sshy.send(PASTE.format(HOSTILE_7BIT))
    await shows(tab, "bye")
    for sequence in (b"\x1b]0;owned", b"\x1b]52;", b"\x9b2J", b"\x9d0;pwned", b"\x07web"):
        assert sequence not in tab.raw, sequence
    for character in ("\x9b", "\x9d", "\u202e", "\u200b", "\x01"):
        assert character.encode() not in tab.raw, repr(character)
    assert driver.title == title and not tab.is_closed()
