"""``cellwars web`` wants its token, and browser tabs are confined like SSH sessions (issue 17,
points 1 and 8).

Once, any browser reaching ``cellwars web`` got the operator's own app without a word of
authentication: a replay's Export wrote any path the operator could write, Import probed which
files existed; ``serve --web`` tabs all shared one data folder (a stranger saw and resumed
another tab's games); and the page loaded its font from the internet.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

pytest.importorskip("textual_serve")
aiohttp = pytest.importorskip("aiohttp")

from cellwars_tui.ssh.server import serve  # noqa: E402
from cellwars_tui.ssh.web import TOKEN_REFUSAL, run_web  # noqa: E402

from .test_play import until  # noqa: E402
from .test_web import read_until  # noqa: E402

TOKEN = "s3cret-token-for-tests"


@pytest.fixture
async def web(tmp_path):
    """``cellwars web`` (the real app) with its token, its data dir in tmp_path."""
    stop = asyncio.Event()
    ready: asyncio.Future = asyncio.get_running_loop().create_future()
    task = asyncio.create_task(run_web("127.0.0.1", 0, ready=ready.set_result, stop=stop,
                                       token=TOKEN, home=tmp_path))
    server = await asyncio.wait_for(ready, 60)
    yield server
    stop.set()
    await asyncio.wait_for(task, 30)


def ws_url(server, query: str = "") -> str:
    return server.url.replace("http", "ws") + "ws?width=100&height=30" + query


def app_environments(root: Path) -> list[dict[str, str]]:
    """The environment of every process whose CELLWARS_HOME is under ``root`` (a tab's app is
    exec'd, so /proc/PID/environ is what it got)."""
    found = []
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            raw = (proc / "environ").read_bytes()
        except OSError:
            continue
        env = dict(x.split("=", 1) for x in raw.decode("utf-8", "replace").split("\0") if "=" in x)
        if env.get("CELLWARS_HOME", "").startswith(str(root)):
            found.append(env)
    return found


async def test_the_page_wants_the_token_and_loads_nothing_from_the_internet(web):
    async with aiohttp.ClientSession() as http:
        for url in (web.url, web.url + "?token=wrong-token"):
            async with http.get(url) as response:
                assert response.status == 403
                assert "needs its token" in await response.text()
        async with http.get(web.token_url) as response:
            page = await response.text()
            assert response.status == 200 and "/ws" in page
            assert response.cookies[web.cookie].value == TOKEN  # the tab's websocket shows it
        assert "googleapis" not in page and "https://" not in page
        async with http.get(web.url + "static/fonts/RobotoMono-VariableFont_wght.ttf") as font:
            assert font.status == 200  # the page's font comes from here


async def test_a_tab_without_the_token_or_from_another_site_gets_no_app(web, tmp_path):
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(ws_url(web)) as ws:
            said = await read_until(ws, "needs its token")
            assert TOKEN_REFUSAL.split(":")[0] in said
        async with http.ws_connect(ws_url(web, f"&token={TOKEN}"),
                                   headers={"Origin": "http://evil.example"}) as ws:
            await read_until(ws, "only played from its own page")
    assert app_environments(tmp_path / "web") == []  # no app was started for either


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="reads /proc")
async def test_a_tab_is_confined_to_its_own_folder_and_names_files_inside_it(web, tmp_path):
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        async with http.get(web.token_url) as response:  # the page: its cookie, then the tab
            assert response.status == 200
        async with http.ws_connect(ws_url(web)) as ws:
            await read_until(ws, "Cellwars")
            (env,) = app_environments(tmp_path / "web")
            sessions = tmp_path / "web" / "sessions"
            assert Path(env["HOME"]).is_relative_to(sessions)
            assert Path(env["CELLWARS_HOME"]).is_relative_to(sessions)
            assert env["CELLWARS_CONFINED"] == "1"
            assert env["CELLWARS_ANALYSIS_SLOTS"] == str(tmp_path / "run" / "analyses")
            assert env["CELLWARS_ANALYSES"] == str(web.limits.analyses_limit)
            # Import from a path outside the data dir: only its name is used, in the exports
            await ws.send_str(json.dumps(["stdin", "p"]))
            await read_until(ws, "Import move list")
            await ws.send_str(json.dumps(["stdin", "i"]))
            await read_until(ws, "a file in your exports folder")
            await ws.send_str(json.dumps(["stdin", "/etc/passwd\r"]))
            seen = await read_until(ws, "no such file")  # exports/passwd: there is none
            assert "passwd: no such file" in seen and "/etc/passwd:" not in seen
            assert str(tmp_path) not in seen  # the notice names the file, not the folder
        folder = Path(env["HOME"]).parent
        await until(lambda: not folder.exists(), 60, "the tab's folder to go with it")


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="reads /proc")
async def test_serve_web_tabs_each_get_their_own_data_folder(tmp_path):
    stop = asyncio.Event()
    ready: asyncio.Future = asyncio.get_running_loop().create_future()
    task = asyncio.create_task(serve("127.0.0.1", 0, stop=stop, web_port=0, home=tmp_path,
                                     ready=ready.set_result))
    try:
        server = await asyncio.wait_for(ready, 60)
        url = server.web.url.replace("http", "ws") + "ws?width=100&height=30"
        async with aiohttp.ClientSession() as http, http.ws_connect(url) as a, \
                http.ws_connect(url) as b:
            await read_until(a, "Cellwars")
            await read_until(b, "Cellwars")
            homes = {env["CELLWARS_HOME"] for env in app_environments(tmp_path / "ssh")}
            assert len(homes) == 2  # one each, never one shared
            for home in homes:
                assert Path(home).is_relative_to(tmp_path / "ssh" / "sessions")
        await until(lambda: not any(Path(h).exists() for h in homes), 60,
                    "the tabs' folders to go")
    finally:
        stop.set()
        await asyncio.wait_for(task, 30)
