"""Browser tabs get the SSH server's limits: caps, idle timeout, input rate, login timeout,
keepalive, a clear word to a browser that is turned away, and garbage that hurts nobody else.

Tabs run a stand-in app (fake_web_app.py) behind the real textual-serve front end on 127.0.0.1,
except the last test, which runs the real ``cellwars web``.
"""

from __future__ import annotations

import asyncio
import base64
import inspect
import json
import os
import re
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("textual_serve")
aiohttp = pytest.importorskip("aiohttp")

from cellwars_tui.ssh.limits import SESSION_FAILED, Limits  # noqa: E402
from cellwars_tui.ssh.web import MAX_MESSAGE, WebServer, _app_process  # noqa: E402

from .conftest import cellwars_cli, interrupt_leaving_no_process, open_terminal  # noqa: E402
from .test_server import _gone  # noqa: E402
from .test_web import get, read_until  # noqa: E402

FAKE_WEB_APP = f"exec {sys.executable} {Path(__file__).with_name('fake_web_app.py')}"


class Busy:
    """Another front end (the SSH server under ``serve --web``) with ``sessions`` players in and
    ``connections`` from every address."""

    def __init__(self, sessions: int = 0, connections: int = 0) -> None:
        self.sessions, self.connections = sessions, connections

    def sessions_in_use(self) -> int:
        return self.sessions

    def connections_from(self, address: str) -> int:
        return self.connections

    def connections_open(self) -> int:
        return self.connections


@pytest.fixture
async def make_web():
    made: list[WebServer] = []

    async def make(**kw) -> WebServer:
        kw.setdefault("limits", Limits(kill_grace=1.0))
        web = WebServer("127.0.0.1", 0, command=FAKE_WEB_APP, **kw)
        await web.start()
        made.append(web)
        return web

    yield make
    for web in made:
        await web.close()


def ws_url(web: WebServer, width: int = 80, height: int = 24) -> str:
    return web.url.replace("http", "ws") + f"ws?width={width}&height={height}"


def app_pid(seen: str) -> int:
    return int(re.search(r"PID=(\d+)", seen).group(1))


async def closed(ws, timeout: float = 10.0) -> None:
    """Read until the server closes the websocket."""
    while True:
        msg = await ws.receive(timeout=timeout)
        if msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED,
                        aiohttp.WSMsgType.CLOSING, aiohttp.WSMsgType.ERROR):
            return


async def raw_websocket(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, bytes]:
    """A websocket opened by hand (so a test can cut a frame in half): the reader, the writer and
    what came after the handshake's answer."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write((f"GET /ws?width=80&height=24 HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                  "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
    assert head.startswith(b"HTTP/1.1 101"), head
    return reader, writer, b""


async def raw_read_until(reader: asyncio.StreamReader, needle: bytes, seen: bytes = b"") -> bytes:
    while needle not in seen:
        chunk = await asyncio.wait_for(reader.read(65536), 20)
        if not chunk:
            raise AssertionError(f"closed before {needle!r}; got {seen!r}")
        seen += chunk
    return seen


def test_textual_serve_still_has_what_the_web_server_uses():
    """web.py drives textual-serve through these names (one of them private: ``_make_app``). If
    this fails, textual-serve changed: fix web.py before anything else."""
    import textual_serve.server as ts
    from textual_serve.app_service import AppService

    assert inspect.iscoroutinefunction(ts.Server._make_app)
    for name in ("handle_index", "handle_websocket", "on_startup"):
        assert inspect.iscoroutinefunction(getattr(ts.Server, name)), name
    params = inspect.signature(AppService.__init__).parameters
    for name in ("command", "write_bytes", "write_str", "close", "download_manager"):
        assert name in params, name
    for name in ("start", "stop", "send_bytes", "set_terminal_size", "blur", "focus"):
        assert inspect.iscoroutinefunction(getattr(AppService, name)), name
    assert ts.to_int("7", 1) == 7

    async def routes():
        app = await ts.Server("true", port=0)._make_app()
        return {r.name: r.resource.canonical for r in app.router.routes() if r.name}

    names = asyncio.run(routes())
    assert names["index"] == "/" and names["websocket"] == "/ws" and "static" in names
    assert ts.Server("true").download_manager is not None

    async def app_process():
        async def nothing(*_):
            return None

        service = AppService(FAKE_WEB_APP, write_bytes=nothing, write_str=nothing, close=nothing,
                             download_manager=ts.Server("true").download_manager)
        await service.start(80, 24)
        proc = _app_process(service)
        await service.stop()
        service.stdin.close()
        return proc is not None and await proc.wait() == 0

    assert asyncio.run(app_process())


async def tabs_become(web, count: int, timeout: float = 10.0) -> bool:
    """A tab is counted out once its app has ended and its socket is closed (a moment after
    the app's pid is gone): wait for the count rather than race it."""
    for _ in range(int(timeout / 0.02)):
        if web.tabs == count:
            return True
        await asyncio.sleep(0.02)
    return web.tabs == count


async def test_a_browser_tab_runs_the_app_at_its_size_and_gets_its_keys(make_web):
    web = await make_web()
    async with aiohttp.ClientSession() as http, http.ws_connect(ws_url(web, 100, 30)) as ws:
        await read_until(ws, "SIZE 100x30")
        await ws.send_str(json.dumps(["stdin", "k"]))
        await read_until(ws, "got: b'k'")
        await ws.send_str(json.dumps(["resize", {"width": 120, "height": 40}]))
        await read_until(ws, "SIZE 120x40")
        assert web.tabs == 1
        assert web.sessions_in_use() == 1  # what the SSH server counts (ssh/fronts.py)


async def test_the_page_tells_a_browser_the_server_is_full(make_web):
    web = await make_web(limits=Limits(max_sessions=2), others=Busy(sessions=2))
    async with aiohttp.ClientSession() as http, http.get(web.url) as response:
        assert response.status == 503
        assert response.content_type == "text/html"
        assert "the server is full (2 players); please try again later." in await response.text()


async def test_a_tab_beyond_the_session_cap_is_told_in_its_terminal(make_web):
    web = await make_web(limits=Limits(max_sessions=1))
    async with aiohttp.ClientSession() as http, http.ws_connect(ws_url(web)) as first:
        await read_until(first, "FAKE WEB APP")
        async with http.ws_connect(ws_url(web)) as second:
            seen = await read_until(second, "the server is full (1 players)")
            assert "FAKE WEB APP" not in seen  # no app was started for it
        async with http.get(web.url + "ws") as plain:  # not even a websocket: a plain answer
            assert plain.status == 503 and "the server is full" in await plain.text()
        await first.send_str(json.dumps(["stdin", "k"]))  # the player in goes on
        await read_until(first, "got: b'k'")
        assert web.tabs == 1


async def test_the_per_address_cap_counts_browser_tabs(make_web):
    web = await make_web(limits=Limits(per_address=1))
    async with aiohttp.ClientSession() as http, http.ws_connect(ws_url(web)) as first:
        await read_until(first, "FAKE WEB APP")
        async with http.get(web.url) as response:
            assert response.status == 503
            assert "too many connections from your address (1 at most)" in await response.text()
        async with http.ws_connect(ws_url(web)) as second:
            await read_until(second, "too many connections from your address")


async def test_ssh_players_and_browser_tabs_share_one_session_cap(make_server, make_web,
                                                                  client_key):
    server = await make_server(limits=Limits(max_sessions=2, kill_grace=1.0))
    web = await make_web(limits=server.limits, others=server)
    server.web = web
    term = await open_terminal(server.port, key=client_key)
    try:
        await term.wait_for("SIZE")
        async with aiohttp.ClientSession() as http, http.ws_connect(ws_url(web)) as tab:
            await read_until(tab, "FAKE WEB APP")
            async with http.get(web.url) as response:  # one SSH player + one tab = 2: full
                assert response.status == 503
            late = await open_terminal(server.port, key=client_key)
            await late.wait_closed()
            assert "the server is full (2 players)" in late.everything()
            await late.close()
    finally:
        server.web = None
        await term.close()


async def test_an_idle_tab_is_closed_with_a_message_and_its_app_ends(make_web):
    web = await make_web(limits=Limits(idle_timeout=0.5))
    async with aiohttp.ClientSession() as http, http.ws_connect(ws_url(web)) as ws:
        pid = app_pid(await read_until(ws, "SIZE"))
        await read_until(ws, "closed after 0.5 seconds without input.")
        assert await _gone(pid)
    assert await tabs_become(web, 0)


async def test_a_tab_whose_app_fails_is_told_in_one_line_as_an_ssh_player_is(make_web):
    web = await make_web()
    async with aiohttp.ClientSession() as http, http.ws_connect(ws_url(web)) as ws:
        pid = app_pid(await read_until(ws, "SIZE"))
        await ws.send_str(json.dumps(["stdin", "!"]))  # the app fails (and exits with 1)
        await read_until(ws, SESSION_FAILED)
        assert await _gone(pid)
    assert await tabs_become(web, 0)


async def test_a_tab_whose_app_ends_by_itself_closes_without_a_word(make_web):
    web = await make_web()
    async with aiohttp.ClientSession() as http, http.ws_connect(ws_url(web)) as ws:
        await read_until(ws, "SIZE")
        await ws.send_str(json.dumps(["stdin", "q"]))
        seen = ""
        async for msg in ws:  # until the server closes it
            if msg.type == aiohttp.WSMsgType.BINARY:
                seen += msg.data.decode("utf-8", "replace")
        assert "cellwars:" not in seen
    assert await tabs_become(web, 0)


async def test_a_tabs_input_is_capped_in_bytes_per_second(make_web):
    """With the clock stopped, every byte past the first second's worth waits its turn: the tab
    waits (rate - burst) / rate seconds before the app gets the key."""
    web = await make_web(limits=Limits(input_rate=100), clock=lambda: 0.0)
    waits: list[float] = []

    async def throttle(delay: float) -> None:
        waits.append(delay)

    web.throttle = throttle
    first = json.dumps(["stdin", "a" * 50])  # 63 bytes: within the burst
    second = json.dumps(["stdin", "b" * 137])  # 150 bytes: 113 over the 100-byte second
    assert (len(first), len(second)) == (63, 150)
    async with aiohttp.ClientSession() as http, http.ws_connect(ws_url(web)) as ws:
        await read_until(ws, "FAKE WEB APP")
        await ws.send_str(first)
        await read_until(ws, "got: b'aaaa")
        assert waits == []
        await ws.send_str(second)
        await read_until(ws, "got: b'bbbb")
    assert waits == [pytest.approx(113 / 100)]


async def test_garbage_from_a_tab_is_dropped_and_hurts_nobody(make_web):
    web = await make_web()
    async with aiohttp.ClientSession() as http, http.ws_connect(ws_url(web)) as other, \
            http.ws_connect(ws_url(web), max_msg_size=0) as rude:
        await read_until(other, "FAKE WEB APP")
        pid = app_pid(await read_until(rude, "FAKE WEB APP"))
        for junk in ("not json", "[]", "{}", "[1, 2]", '["stdin", 5]', '["stdin"]',
                     '["resize", {"width": "x", "height": 3}]', '["resize", 7]',
                     '["ping", {"a": 1}]', '["nonsense", 1]', json.dumps(["stdin", "\ud800"])):
            await rude.send_str(junk)
        await rude.send_bytes(b"\x00\xff binary")
        await rude.send_str(json.dumps(["resize", {"width": 10**9, "height": -5}]))
        await read_until(rude, "SIZE 1000x1")  # sizes are clamped
        await rude.send_str(json.dumps(["stdin", "k"]))
        await read_until(rude, "got: b'k'")  # the rude tab itself goes on
        await rude.send_str(json.dumps(["stdin", "x" * MAX_MESSAGE]))  # too big: the tab ends
        await closed(rude)
        assert await _gone(pid)
        await other.send_str(json.dumps(["stdin", "k"]))
        await read_until(other, "got: b'k'")
        assert await tabs_become(web, 1)


async def test_a_tab_that_vanishes_mid_frame_ends_its_own_app_only(make_web):
    web = await make_web()
    async with aiohttp.ClientSession() as http, http.ws_connect(ws_url(web)) as other:
        await read_until(other, "FAKE WEB APP")
        reader, writer, _ = await raw_websocket(web.port)
        seen = await raw_read_until(reader, b"SIZE")
        pid = app_pid(seen.decode("latin-1"))
        # a masked text frame that says 256 bytes follow, then 10 of them, then nothing
        writer.write(b"\x81\xfe\x01\x00" + b"\x01\x02\x03\x04" + b"0123456789")
        await writer.drain()
        writer.transport.abort()
        assert await _gone(pid)
        await other.send_str(json.dumps(["stdin", "k"]))
        await read_until(other, "got: b'k'")
        assert await tabs_become(web, 1)


async def test_a_tab_that_stops_answering_is_dropped_by_the_keepalive(make_web):
    web = await make_web(limits=Limits(keepalive_interval=0.2))
    reader, writer, _ = await raw_websocket(web.port)
    seen = await raw_read_until(reader, b"SIZE")
    pid = app_pid(seen.decode("latin-1"))
    # it reads (so the server's pings go out) but never answers one with a pong
    while chunk := await asyncio.wait_for(reader.read(65536), 20):
        seen += chunk
    assert await _gone(pid)
    assert await tabs_become(web, 0)
    writer.close()


async def test_a_connection_that_never_finishes_its_request_is_dropped(make_web):
    web = await make_web(limits=Limits(login_timeout=0.3))
    reader, writer = await asyncio.open_connection("127.0.0.1", web.port)
    writer.write(b"GET / HTT")  # half a request line, then silence
    await writer.drain()
    assert await asyncio.wait_for(reader.read(), 20) == b""  # the server hangs up
    writer.close()
    async with aiohttp.ClientSession() as http, http.get(web.url) as response:
        assert response.status == 200  # and others are served meanwhile


async def test_closing_the_web_server_ends_every_tab_and_says_why(make_web):
    web = await make_web()
    async with aiohttp.ClientSession() as http, http.ws_connect(ws_url(web)) as a, \
            http.ws_connect(ws_url(web)) as b:
        pids = [app_pid(await read_until(ws, "SIZE")) for ws in (a, b)]
        closing = asyncio.create_task(web.close())
        await read_until(a, "the server is shutting down")
        await read_until(b, "the server is shutting down")

        async def until_closed(ws) -> None:  # a browser answers the close at once
            async for _ in ws:
                pass

        await asyncio.wait_for(asyncio.gather(closing, until_closed(a), until_closed(b)), 30)
        for pid in pids:
            assert await _gone(pid)


def free_again(url: str, timeout: float = 20.0) -> bool:
    """The page is served again (a closed tab's app takes a moment to quit)."""
    import urllib.error

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            return get(url)[0] == 200
        except urllib.error.HTTPError as exc:
            if exc.code != 503:
                raise
        time.sleep(0.05)
    return False


def test_cellwars_web_with_max_sessions_tells_the_next_browser_it_is_full(tmp_path):
    with cellwars_cli(tmp_path, "web", "--port", "0", "--max-sessions", "1") as proc:
        line = proc.stdout.readline()
        match = re.match(r"cellwars: serving the app to browsers at "
                         r"(http://127\.0\.0\.1:\d+/)(\?token=\S+)", line)
        assert match, line + proc.stderr.read()
        url = match.group(1) + match.group(2)  # the page wants its token

        async def two_browsers() -> tuple[int, str]:
            async with aiohttp.ClientSession() as http:
                async with http.ws_connect(match.group(1).replace("http", "ws") + "ws"
                                           + match.group(2)) as ws:
                    await read_until(ws, "Cellwars")
                    async with http.get(url) as response:
                        return response.status, await response.text()

        status, page = asyncio.run(two_browsers())
        assert status == 503 and "the server is full (1 players)" in page
        assert free_again(url)  # the tab closed: its seat is free again
        interrupt_leaving_no_process(proc)


@pytest.mark.parametrize(("host", "expected"), [
    ("games.example:8000", "ws://games.example:8000/ws"),
    ("192.0.2.7:8000", "ws://192.0.2.7:8000/ws"),
    ("[2001:db8::1]:8000", "ws://[2001:db8::1]:8000/ws"),
    ('evil"><script>', None),  # not a host: the server's own address
])
async def test_the_page_points_the_browser_at_the_address_it_used(make_web, host, expected):
    web = await make_web()
    async with aiohttp.ClientSession() as http, \
            http.get(web.url, headers={"Host": host}) as response:
        page = await response.text()
    assert response.status == 200
    assert (expected or ws_url(web).split("?")[0]) in page
    assert 'evil"' not in page
