"""Any byte from a client is safe, and a session that fails says one line without a path.

Issue 17, point 6: one byte that is not UTF-8 (a Latin-1 terminal's é, 0xE9) killed the
session's app with a Textual traceback showing the server's paths."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from .conftest import open_terminal
from .test_play import until
from .test_session import online

CRASHING_APP = [sys.executable, str(Path(__file__).with_name("crashing_app.py"))]


@pytest.fixture
async def server(make_server):
    return await make_server(child_command=None)  # the real app, forked from the zygote


@pytest.mark.parametrize("garbage", [b"\xe9", b"\xff\xfe", b"\xc3", b"\xed\xa0\x80"],
                         ids=["latin-1", "never-utf-8", "cut-short", "surrogate"])
async def test_bytes_that_are_not_utf8_are_replaced_and_the_session_plays_on(
        server, client_key, garbage):
    term = await open_terminal(server.port, key=client_key, username="ann", cols=100, rows=30)
    try:
        await term.wait_for("o Online")
        term.send(garbage)
        term.send("o")  # the app still reads its keys: the lobby opens
        await online(term, "ann")
        assert len(server.sessions) == 1 and not term.closed.is_set()
        assert "Traceback" not in term.everything()
    finally:
        await term.close()


async def test_a_failing_session_shows_one_line_without_paths_and_the_server_logs_why(
        make_server, client_key):
    server = await make_server(child_command=CRASHING_APP)
    term = await open_terminal(server.port, key=client_key, username="ann", cols=100, rows=30)
    try:
        await term.wait_for("o Online")
        term.send("o")
        await term.wait_closed()
        seen = term.everything()
        assert "this session failed; the server's log says why." in seen
        assert term.process.exit_status == 1
        assert "/srv/secret" not in seen and "Traceback" not in seen
        assert "cellwars_tui" not in seen  # no file of the server's either
        log = server.session_log
        await until(lambda: log.exists() and "/srv/secret" in log.read_text(), 60,
                    "the session log to say why")
        assert "RuntimeError" in log.read_text()
    finally:
        await term.close()
