"""The app in a browser: ``cellwars web`` and ``cellwars serve --web`` (textual-serve on loopback)."""

from __future__ import annotations

import asyncio
import json
import re
import argparse
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("textual_serve")
aiohttp = pytest.importorskip("aiohttp")

from cellwars_tui.core.errors import CellwarsError  # noqa: E402
from cellwars_tui.ssh.server import serve  # noqa: E402
from cellwars_tui.ssh.web import ENV_WEB_TOKEN, given_token, session_command  # noqa: E402

from .conftest import cellwars_cli, interrupt_leaving_no_process  # noqa: E402


def get(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=60) as response:
        return response.status, response.read().decode("utf-8", "replace")


def test_the_session_command_adds_its_environment_safely():
    cmd = session_command({"CELLWARS_HOME": "/tmp/a b", "X": "1;rm -rf /"})
    assert cmd.startswith("exec env CELLWARS_HOME='/tmp/a b' X='1;rm -rf /' ")
    assert cmd.endswith("-m cellwars_tui.ssh.session_app")


def test_cellwars_web_serves_the_page_on_loopback_and_stops_cleanly(tmp_path):
    with cellwars_cli(tmp_path, "web", "--port", "0") as proc:
        line = proc.stdout.readline()
        match = re.match(r"cellwars: serving the app to browsers at "
                         r"(http://127\.0\.0\.1:\d+/\?token=\S+)", line)  # the token's address
        assert match, line + proc.stderr.read()
        status, page = get(match.group(1))
        assert status == 200 and "<html" in page.lower() and "/ws" in page
        interrupt_leaving_no_process(proc)


async def read_until(ws, needle: str, timeout: float = 60.0) -> str:
    """Everything the browser tab received until ``needle`` shows up in it (the timeout only
    guards against a hang)."""
    seen = ""
    deadline = time.monotonic() + timeout
    while needle not in seen:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"{needle!r} not seen; got {seen[-2000:]!r}")
        msg = await ws.receive(timeout=left)
        if msg.type == aiohttp.WSMsgType.BINARY:
            seen += msg.data.decode("utf-8", "replace")
        elif msg.type == aiohttp.WSMsgType.TEXT:
            seen += msg.data
        else:
            raise AssertionError(f"the websocket ended ({msg.type}) before {needle!r}")
    return seen


async def test_serve_web_puts_browser_players_in_the_ssh_lobby(tmp_path):
    stop = asyncio.Event()
    ready: asyncio.Future = asyncio.get_running_loop().create_future()
    task = asyncio.create_task(serve("127.0.0.1", 0, stop=stop, web_port=0, home=tmp_path,
                                     ready=ready.set_result))
    try:
        server = await asyncio.wait_for(ready, 60)
        assert server.web is not None and server.web.port > 0
        status, page = await asyncio.to_thread(get, server.web.url)
        assert status == 200 and "/ws" in page
        # a browser tab: the whole app, and o takes it to the lobby the SSH players share
        async with aiohttp.ClientSession() as http:
            url = server.web.url.replace("http", "ws") + "ws?width=100&height=30"
            async with http.ws_connect(url) as ws:
                await read_until(ws, "Cellwars")
                await ws.send_str(json.dumps(["stdin", "o"]))
                await read_until(ws, "pick a nickname")
                await ws.send_str(json.dumps(["stdin", "Webby\r"]))
                await read_until(ws, "you are Webby")
                assert "Webby" in {c.name for c in server.hub.clients}
    finally:
        stop.set()
        await asyncio.wait_for(task, 30)


def test_cellwars_web_takes_its_token_from_a_file_and_the_process_list_never_shows_it(tmp_path):
    token_file = tmp_path / "token"
    token_file.write_text("from-a-file-9f3k2\n")
    token_file.chmod(0o600)
    with cellwars_cli(tmp_path, "web", "--port", "0", "--token-file", str(token_file)) as proc:
        line = proc.stdout.readline()
        match = re.match(r"cellwars: serving the app to browsers at (\S+)", line)
        assert match and match.group(1).endswith("?token=from-a-file-9f3k2"), line
        assert get(match.group(1))[0] == 200
        with pytest.raises(urllib.error.HTTPError, match="403"):
            get(match.group(1).replace("from-a-file", "from-b-file"))
        argv = Path(f"/proc/{proc.pid}/cmdline").read_bytes()
        assert b"from-a-file" not in argv  # `ps` shows the file's name, never the token
        interrupt_leaving_no_process(proc)


def test_the_token_comes_from_the_option_the_file_or_the_environment_in_that_order(tmp_path):
    token_file = tmp_path / "token"
    token_file.write_text("in-the-file-123\nsecond line\n")
    token_file.chmod(0o640)
    env = {ENV_WEB_TOKEN: "in-the-environment"}

    def args(token=None, token_file=None) -> argparse.Namespace:
        return argparse.Namespace(token=token, token_file=token_file)

    assert given_token(args("on-the-line"), env) == ("on-the-line", "")
    token, warning = given_token(args(token_file=token_file), env)
    assert token == "in-the-file-123" and "may be read by other users" in warning
    assert given_token(args(), env) == ("in-the-environment", "")
    assert given_token(args(), {}) == (None, "")  # a new random one
    for bad, said in [(args("x", token_file), "--token or --token-file, not both"),
                      (args(token_file=tmp_path / "none"), "cannot read the token file"),
                      (args(token_file=tmp_path), "not a regular file")]:
        with pytest.raises(CellwarsError, match=said):
            given_token(bad, env)
    with pytest.raises(CellwarsError, match="CELLWARS_WEB_TOKEN must be at least 8"):
        given_token(args(), {ENV_WEB_TOKEN: "short"})
