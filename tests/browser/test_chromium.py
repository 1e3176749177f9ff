"""The browser front in a real browser: headless Chromium (Debian's ``chromium`` and
``chromium-driver``, driven by Selenium) through a real ``cellwars web`` process.

Not part of the default suite (it needs the system browser): ``.ci/run`` installs the browser
and runs ``CELLWARS_BROWSER_TESTS=1 python -m pytest -q tests/browser`` after the suite.

What a browser player meets: without the token the page refuses and no app starts; with it
the launcher appears in xterm.js at the page's size; a Cell Management move is played by keys;
the screenshot is the window's size and the terminal fills it; and a hostile escape sequence
sent over the tab's own websocket does not freeze the tab. The terminal draws on a canvas, so
what it shows is read from what it was sent: the page's websockets are recorded (a script run
before the page's own) and replayed into a pyte screen at the terminal's size.
"""

from __future__ import annotations

import base64
import re
import shutil
import struct
import time

import pyte
import pytest

from tests.ssh.conftest import cellwars_cli, interrupt_leaving_no_process

from selenium import webdriver  # pip install -e '.[test,browser]'
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

TOKEN = "browser-test-token-7f3k"
WINDOW = (1280, 900)
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    f"--window-size={WINDOW[0]},{WINDOW[1]}",
]

# Run in the page before its own scripts: every websocket's frames (the terminal's bytes, and
# the sizes the page asks for, in order) are kept for the test to read.
RECORD_SOCKETS = r"""
(() => {
  const Real = window.WebSocket;
  window.__cw = {events: [], sockets: []};
  window.WebSocket = function (url, protocols) {
    const ws = protocols === undefined ? new Real(url) : new Real(url, protocols);
    window.__cw.sockets.push(ws);
    ws.addEventListener("message", (ev) => {
      if (typeof ev.data === "string") return;
      const bytes = new Uint8Array(ev.data);
      let s = "";
      for (let i = 0; i < bytes.length; i += 8192)
        s += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192));
      window.__cw.events.push({data: btoa(s)});
    });
    const send = ws.send.bind(ws);
    ws.send = (data) => {
      try {
        const m = JSON.parse(data);
        if (m[0] === "resize") window.__cw.events.push({size: [m[1].width, m[1].height]});
      } catch (e) {}
      return send(data);
    };
    const u = new URL(url, location.href);
    window.__cw.events.push({size: [+u.searchParams.get("width"), +u.searchParams.get("height")]});
    return ws;
  };
  window.WebSocket.prototype = Real.prototype;
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
})();
"""


def _browser_or_fail() -> tuple[str, str]:
    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if not (chromium and driver):
        pytest.fail("these tests need Debian's chromium and chromium-driver "
                    "(apt-get install chromium chromium-driver)")
    return chromium, driver


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    """A real ``cellwars web``, its token in a file: (base address, address with the token)."""
    home = tmp_path_factory.mktemp("web-home")
    token_file = home / "token"
    token_file.write_text(TOKEN + "\n")
    token_file.chmod(0o600)
    with cellwars_cli(home, "web", "--port", "0", "--token-file", str(token_file)) as proc:
        line = proc.stdout.readline()
        match = re.match(r"cellwars: serving the app to browsers at (\S+)", line)
        assert match, line
        url = match.group(1)
        yield url.split("?")[0], url
        interrupt_leaving_no_process(proc)


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    chromium, driver_path = _browser_or_fail()
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_SOCKETS})
    try:
        yield driver
    finally:
        driver.quit()


class Tab:
    """What the browser's terminal shows, from what its websocket received."""

    def __init__(self, driver) -> None:
        self.driver = driver
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)

    def _catch_up(self) -> None:
        for event in self.driver.execute_script("return window.__cw.events.splice(0)"):
            if "size" in event:
                cols, rows = event["size"]
                self.screen.resize(rows, cols)
            else:
                self.stream.feed(base64.b64decode(event["data"]))

    def lines(self) -> list[str]:
        self._catch_up()
        return [line.rstrip() for line in self.screen.display]

    def wait_for(self, needle: str, timeout: float = 90.0) -> list[str]:
        """The screen, once ``needle`` shows (the timeout only guards against a hang)."""
        deadline = time.monotonic() + timeout
        while True:
            lines = self.lines()
            if any(needle in line for line in lines):
                return lines
            assert time.monotonic() < deadline, f"{needle!r} not seen:\n" + "\n".join(lines)
            time.sleep(0.05)

    def press(self, *keys: str) -> None:
        """Keys typed into the terminal, as a player types them."""
        self.driver.execute_script("document.querySelector('.xterm-helper-textarea').focus()")
        for key in keys:
            ActionChains(self.driver).send_keys(key).perform()

    def press_with_ctrl(self, key: str) -> None:
        self.driver.execute_script("document.querySelector('.xterm-helper-textarea').focus()")
        ActionChains(self.driver).key_down(Keys.CONTROL).send_keys(key).key_up(
            Keys.CONTROL).perform()

    def send_over_its_websocket(self, text: str) -> None:
        """What a hostile page script (or a hand-made client) sends: raw terminal input."""
        self.driver.execute_script(
            "window.__cw.sockets[0].send(JSON.stringify(['stdin', arguments[0]]))", text)


def png_size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", png[16:24])


def test_without_the_token_the_page_refuses_and_no_app_starts(web, browser):
    base, _ = web
    browser.get(base)
    assert "this page needs its token" in browser.find_element(By.TAG_NAME, "body").text
    assert browser.execute_script("return window.__cw.sockets.length") == 0


def test_a_browser_player_plays_cell_management_by_keys_and_a_hostile_sequence_freezes_nothing(
        web, browser, tmp_path):
    _, with_token = web
    browser.get(with_token)
    tab = Tab(browser)
    tab.wait_for("Cell Management  solitaire")
    lines = tab.wait_for("q Quit")  # the keys come just after the first frame
    # the layout: the launcher's title on top, the games' list, the keys at the bottom, at the
    # size the page fitted to its window
    cols, rows = tab.screen.columns, tab.screen.lines
    assert cols >= 100 and rows >= 30, (cols, rows)
    assert lines[0].startswith(" Cellwars  a table for cell-biology games")
    assert any("Virus Fight  2-4 players" in line for line in lines[1:5])
    assert "n New game" in lines[-1] and "q Quit" in lines[-1]
    png = browser.get_screenshot_as_png()
    (tmp_path / "launcher.png").write_bytes(png)
    viewport = browser.execute_script("return [window.innerWidth, window.innerHeight]")
    assert png_size(png) == tuple(viewport)
    box = browser.execute_script(
        "const r = document.querySelector('#terminal').getBoundingClientRect();"
        "return [r.width, r.height]")
    assert box[0] >= 0.9 * viewport[0] and box[1] >= 0.9 * viewport[1]  # the terminal fills it

    tab.press(Keys.ARROW_DOWN, "n")  # Cell Management, New game
    tab.wait_for("New game: Cell Management")
    tab.press_with_ctrl("s")  # start
    tab.wait_for("Cell Management · step 1")
    tab.press("1")  # the guards start from cell 1: a move
    tab.wait_for("Cell Management · step 2")

    for hostile in ("\x1b[11111111u", "\x1b[999999999999;9999999~"):
        tab.send_over_its_websocket(hostile)
    tab.press("u")  # the tab still answers: the move is taken back
    tab.wait_for("Cell Management · step 1")
    assert not browser.execute_script(
        "return document.body.classList.contains('-closed')"), "the page says Session ended"
    (tmp_path / "after.png").write_bytes(browser.get_screenshot_as_png())
