"""The browser front in a real browser: headless Chromium (Debian's ``chromium`` and
``chromium-driver``, driven by Selenium) through a real ``cellwars web`` process.

Not part of the default suite (it needs the system browser): ``.ci/run`` installs the browser
and runs ``CELLWARS_BROWSER_TESTS=1 python -m pytest -q tests/browser`` after the suite.

What a browser player meets: without the token the page refuses and no app starts; with it
the launcher appears in xterm.js at the page's size; a Cell Management move is played by keys;
the screenshot is the window's size and the terminal fills it; and a hostile escape sequence
sent over the tab's own websocket does not freeze the tab. How the page's terminal is read:
``conftest.py``.
"""

from __future__ import annotations

import re

import pytest

from tests.ssh.conftest import cellwars_cli, interrupt_leaving_no_process

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from .conftest import Tab, chromium, png_size

TOKEN = "browser-test-token-7f3k"
WINDOW = (1280, 900)


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
    with chromium(tmp_path_factory.mktemp("chromium-profile"), WINDOW) as driver:
        yield driver


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
    assert not tab.is_closed(), "the page says Session ended"
    (tmp_path / "after.png").write_bytes(browser.get_screenshot_as_png())
