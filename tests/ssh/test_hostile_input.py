"""No input ends a session (issue 28, point 4): random and hostile escape sequences, fed to a
long-lived session on each front (SSH and browser), never stop it answering.

Once ``ESC[11111111u`` (a "key" past U+10FFFF: ValueError in Textual's parser) and
``ESC[999999999999;9999999~`` (OverflowError) ended an SSH session, and the first froze a
browser tab without a word. The sessions here run a bare Textual app (``textual_probe_app.py``:
Textual's own parser, no key that quits) behind the real fronts; one more test sends the
issue's sequences to the real app over SSH. After each example the test types a random word
and waits for the app to show it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import string
import sys
from pathlib import Path

import aiohttp
import asyncssh
import pyte
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from textual._xterm_parser import XTermParser

from cellwars_tui.ssh.input_filter import InputFilter, safe_sequence
from cellwars_tui.ssh.limits import Limits
from cellwars_tui.ssh.server import CellwarsServer
from cellwars_tui.ssh.web import WebServer

from .conftest import open_terminal

PROBE = Path(__file__).with_name("textual_probe_app.py")
ISSUE_SEQUENCES = ["\x1b[11111111u", "\x1b[999999999999;9999999~"]

# -- what a hostile client sends ------------------------------------------------------------------
_numbers = st.one_of(
    st.text("0123456789", max_size=14),
    st.sampled_from(["1114111", "1114112", "55296", "9999999", "11111111", "999999999999", "0"]),
)
_fields = st.lists(st.one_of(_numbers, st.lists(_numbers, min_size=2, max_size=3).map(":".join)),
                   max_size=5).map(";".join)
_csi = st.builds(lambda marker, fields, middle, final: f"\x1b[{marker}{fields}{middle}{final}",
                 st.sampled_from(["", "", "<", "?", ">", "="]), _fields,
                 st.sampled_from(["", "", " ", "$", "!"]), st.sampled_from(list("u~ABCDHPQRSMmtRIOny")))
_known = st.sampled_from([
    *ISSUE_SEQUENCES, "\x1b[97:65;5u", "\x1b[48;9999999;9999999;0;0t", "\x1b[48;0;0;0;0t",
    "\x1b[200~", "\x1b[201~", "\x1b[?2048;1$y", "\x1b[<0;9999999;1M", "\x1b", "\x1bO", "\x1b]",
    "\x1b[", "\x1b[1;", "\x1b[I", "\x1b[O",
])
_text = st.text(st.characters(exclude_categories=("Cs",)), max_size=8)
HOSTILE = st.lists(st.one_of(_csi, _known, _text), min_size=1, max_size=10).map("".join)


def word() -> str:
    """What the test types after an example: no example can have typed it first."""
    return "".join(random.SystemRandom().choices(string.ascii_letters, k=10))


# -- the filter alone: whatever arrives, in whatever pieces, Textual's parser takes ----------------
@settings(max_examples=150)
@given(st.lists(HOSTILE, min_size=1, max_size=4))
def test_whatever_arrives_in_whatever_pieces_textuals_parser_takes_what_the_filter_lets_through(
        pieces):
    keys, parser = InputFilter(), XTermParser()
    for piece in pieces:
        text = keys.feed(piece)
        if text:  # (feeding nothing is how the parser is told the input has ended)
            for _event in parser.feed(text):
                pass


@pytest.mark.parametrize("sequence", ISSUE_SEQUENCES + ["\x1b[97:65;5u", "\x1b[9999999;5A"])
def test_the_sequences_that_broke_textuals_parser_break_it_without_the_filter(sequence):
    with pytest.raises((ValueError, OverflowError)):
        list(XTermParser().feed(sequence))
    assert InputFilter().feed(sequence) == ""


@pytest.mark.parametrize("sequence", [
    "\x1b[A", "\x1b[1;5A", "\x1b[97;5u", "\x1b[13u", "\x1b[3~", "\x1b[<0;10;5M", "\x1b[<35;1;2m",
    "\x1b[200~pasted\x1b[201~", "\x1b[I", "\x1b[O", "\x1b[?2048;2$y", "\x1b[12;40R", "\x1bOP",
    "\x1b[48;50;100;500;1000t",
])
def test_what_terminals_send_passes_unchanged_even_cut_anywhere(sequence):
    assert InputFilter().feed(sequence) == sequence
    for cut in range(1, len(sequence)):
        keys = InputFilter()
        assert keys.feed(sequence[:cut]) + keys.feed(sequence[cut:]) == sequence


def test_a_lone_escape_key_is_not_held_and_an_in_band_resize_is_clamped():
    keys = InputFilter()
    assert keys.feed("\x1b") == "\x1b"  # the Escape key, at once
    assert keys.feed("[48;9999999;0;0;0t") == "[48;1000;1;1;1t"  # its ESC went on already
    assert safe_sequence("\x1b[48;0;5000;0:1;7t") == "\x1b[48;1;1000;1;7t"


# -- both fronts, one long-lived session each ----------------------------------------------------
class Session:
    """A session seen through a pyte screen, driven from a test's own event loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop, send, cols: int = 80, rows: int = 24) -> None:
        self.loop = loop
        self.send = send
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.closed = False
        self.sent: list[str] = []  # every example so far (the session is the same throughout)

    def show(self, data: bytes) -> None:
        self.stream.feed(data)

    async def wait_for(self, needle: str, timeout: float = 60.0) -> None:
        deadline = self.loop.time() + timeout
        while not any(line.rstrip().endswith(needle) for line in self.screen.display):
            seen = "\n".join(line.rstrip() for line in self.screen.display).strip()
            assert not self.closed, f"the session ended after {self.sent!r}:\n{seen}"
            assert self.loop.time() < deadline, f"{needle!r} not seen after {self.sent!r}:\n{seen}"
            await asyncio.sleep(0.02)

    def still_answers(self, hostile: str) -> None:
        typed = word()

        async def probe() -> None:
            self.sent.append(hostile)
            await self.send(hostile)
            # The end of a bracketed paste left open (its ESC also ends any sequence left
            # unfinished), and an in-band resize back to the test's size (a hostile one may
            # have made the app a column wide: a client may resize its own app, within bounds).
            await self.send(f"\x1b[201~\x1b[48;{self.screen.lines};{self.screen.columns};480;800t"
                            + typed)
            await self.wait_for(typed)

        self.loop.run_until_complete(probe())


@pytest.fixture(scope="module")
def ssh_session(tmp_path_factory):
    loop = asyncio.new_event_loop()
    server = CellwarsServer("127.0.0.1", 0, limits=Limits(kill_grace=1.0),
                            child_command=[sys.executable, str(PROBE)],
                            home=tmp_path_factory.mktemp("hostile-ssh"))
    loop.run_until_complete(server.start())
    term = loop.run_until_complete(open_terminal(
        server.port, key=asyncssh.generate_private_key("ssh-ed25519")))

    async def send(text: str) -> None:
        term.send(text)
        await term.process.stdin.drain()

    session = Session(loop, send)
    session.screen = term.screen  # the terminal's own reader feeds it
    session.wait_for_closed = term.closed
    try:
        loop.run_until_complete(session.wait_for("PROBE READY"))
        yield session
    finally:
        loop.run_until_complete(term.close())
        loop.run_until_complete(server.close())
        loop.close()


@pytest.fixture(scope="module")
def web_session():
    loop = asyncio.new_event_loop()
    web = WebServer("127.0.0.1", 0, limits=Limits(kill_grace=1.0),
                    command=f"exec {sys.executable} {PROBE}")
    loop.run_until_complete(web.start())

    async def connect():
        http = aiohttp.ClientSession()
        ws = await http.ws_connect(web.url.replace("http", "ws") + "ws?width=80&height=24")
        return http, ws

    http, ws = loop.run_until_complete(connect())

    async def send(text: str) -> None:
        await ws.send_str(json.dumps(["stdin", text]))

    session = Session(loop, send)

    async def read() -> None:
        async for msg in ws:
            if msg.type == aiohttp.WSMsgType.BINARY:
                session.show(msg.data)
        session.closed = True

    reader = loop.create_task(read())
    try:
        loop.run_until_complete(session.wait_for("PROBE READY"))
        yield session
    finally:
        async def close() -> None:
            reader.cancel()
            with contextlib.suppress(BaseException):
                await reader
            await ws.close()
            await http.close()
            await web.close()

        loop.run_until_complete(close())
        loop.close()


# One session throughout: once it stopped answering every later example would fail too, so
# there is nothing to shrink (the failure names every input sent so far).
FUZZ = settings(max_examples=25, phases=[Phase.explicit, Phase.generate],
                suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(HOSTILE)
def test_an_ssh_session_keeps_answering_whatever_escape_sequences_it_is_sent(ssh_session, hostile):
    assert not ssh_session.wait_for_closed.is_set()
    ssh_session.still_answers(hostile)


@FUZZ
@given(HOSTILE)
def test_a_browser_tab_keeps_answering_whatever_escape_sequences_it_is_sent(web_session, hostile):
    web_session.still_answers(hostile)


async def test_the_issues_sequences_leave_the_real_app_over_ssh_answering(make_server, client_key):
    server = await make_server(child_command=None)  # the real app, forked from the zygote
    term = await open_terminal(server.port, key=client_key)
    try:
        await term.wait_for("o Online")
        for sequence in ISSUE_SEQUENCES:
            term.send(sequence)
        term.send("t")  # the theme picker
        await term.wait_for("cellwars-high-contrast")
        assert not term.closed.is_set()
    finally:
        await term.close()
