"""What the browser tests share: headless Chromium (Debian's ``chromium`` and ``chromium-driver``,
driven by Selenium) that records its page's websockets, and :class:`Tab`, what the page's
terminal shows.

The terminal draws on a canvas, so what it shows is read from what it was sent: the page's
websockets are recorded (a script run before the page's own) and replayed into a pyte screen at
the terminal's size.
"""

from __future__ import annotations

import base64
import contextlib
import shutil
import struct
import time
from pathlib import Path

import pyte
import pytest

from selenium import webdriver  # pip install -e '.[test,browser]'
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
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


@contextlib.contextmanager
def chromium(profile: Path, window: tuple[int, int]):
    """A headless Chromium of ``window`` pixels whose pages record their websockets; quit after."""
    binary, driver_path = _browser_or_fail()
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--window-size={window[0]},{window[1]}")
    options.add_argument(f"--user-data-dir={profile}")
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_SOCKETS})
        yield driver
    finally:
        driver.quit()


class Tab:
    """What the browser's terminal shows, from what its websocket received (``raw``: every
    byte, in order)."""

    def __init__(self, driver) -> None:
        self.driver = driver
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()

    def _catch_up(self) -> None:
        for event in self.driver.execute_script("return window.__cw.events.splice(0)"):
            if "size" in event:
                cols, rows = event["size"]
                self.screen.resize(rows, cols)
            else:
                data = base64.b64decode(event["data"])
                self.raw += data
                self.stream.feed(data)

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

    def is_closed(self) -> bool:
        """The page says its session ended."""
        return self.driver.execute_script("return document.body.classList.contains('-closed')")


def png_size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", png[16:24])
