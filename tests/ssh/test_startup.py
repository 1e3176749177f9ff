"""What makes a session's first frame cheap (see ``cellwars bench``, ssh module, for the figures):
parsed CSS shared from the zygote, the game list listed there, the key footer built just after
the first frame, and (if the operator asks) sessions below the server's CPU priority."""

from __future__ import annotations

import asyncio
import os

import pytest
from textual.css.stylesheet import Stylesheet

from cellwars_tui.ssh import session_app, zygote
from cellwars_tui.ssh.session_app import OnlineApp
from cellwars_tui.ui.footer import Footer

from .conftest import open_terminal

CSS = "Static { color: $text-accent; padding: 0 1; }\n#x { height: 3; }"


def test_shared_css_parses_key_on_every_input_including_the_variables(monkeypatch):
    # put Textual's own method back afterwards (the memo is for the zygote's process only)
    monkeypatch.setattr(Stylesheet, "_parse_rules", Stylesheet._parse_rules)
    zygote.share_css_parses()
    zygote.share_css_parses()  # twice is harmless
    assert getattr(Stylesheet._parse_rules, "_cellwars_shared", False)
    dark = {"text-accent": "#ff0000"}
    one, two, other = (Stylesheet(variables=dict(dark)), Stylesheet(variables=dict(dark)),
                       Stylesheet(variables={"text-accent": "#00ff00"}))
    rules = one._parse_rules(CSS, ("test.tcss", ""))
    assert two._parse_rules(CSS, ("test.tcss", "")) is rules  # another app reuses the parse
    assert other._parse_rules(CSS, ("test.tcss", "")) is not rules  # another theme does not
    assert one._parse_rules(CSS, ("other.tcss", "")) is not rules
    assert one._parse_rules(CSS, ("test.tcss", ""), scope="Screen") is not rules
    # the parsed styles follow each stylesheet's variables
    red = rules[0].styles.color
    green = other._parse_rules(CSS, ("test.tcss", ""))[0].styles.color
    assert red != green


def test_session_nice_from_the_environment(monkeypatch):
    monkeypatch.delenv(zygote.ENV_NICE, raising=False)
    assert zygote.session_nice() == (zygote.SESSION_NICE, zygote.SESSION_NICE_LATER)
    for value, expected in (("0,0", (0, 0)), ("0", (0, 0)), ("3", (3, 0)), ("2,4", (2, 4)),
                            ("30,30", (19, 0)), ("-5,1", (0, 1)),
                            ("bad", (zygote.SESSION_NICE, zygote.SESSION_NICE_LATER))):
        monkeypatch.setenv(zygote.ENV_NICE, value)
        assert zygote.session_nice() == expected, value


async def test_the_footer_keys_follow_the_first_frame_and_preloaded_games(monkeypatch, tmp_path):
    monkeypatch.setenv("CELLWARS_HOME", str(tmp_path))
    monkeypatch.setattr(session_app, "PRELOADED_GAMES", None)
    session_app.preload_games()
    games = session_app.PRELOADED_GAMES
    assert games and all(hasattr(g, "title") for g in games)
    app = OnlineApp(online=False)
    assert app.games == games and app.games is not games  # each session its own list
    assert app.footer_after_first_frame
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(3000):  # (60 s: a guard against a hang, not a pace)
            await pilot.pause(0.02)
            if app.screen.query("FooterKey"):
                break
        assert not app.footer_after_first_frame  # Ready came: the first frame is out
        footer = app.screen.query_one(Footer)
        keys = [k.description for k in footer.query("FooterKey")]
        assert "New game" in keys and "Quit" in keys


def _nice(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[16])


@pytest.fixture
async def server(make_server, monkeypatch):
    monkeypatch.setenv(zygote.ENV_NICE, "2,3")  # the zygote reads it when it starts
    return await make_server(child_command=None)


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="needs /proc")
async def test_a_forked_session_runs_below_the_server_and_lower_after_its_first_frame(
        server, client_key):
    started: list[int] = []
    server.on_child_start = started.append
    term = await open_terminal(server.port, key=client_key)
    try:
        await term.wait_for("o Online")  # the footer's keys: after the first frame
        # the session lowers itself in its Ready handler, which may run just after the footer
        # is painted: wait for it (a loaded machine may take a while) rather than race it
        want = min(_nice(os.getpid()) + 5, 19)
        for _ in range(200):
            if _nice(started[0]) == want:
                break
            await asyncio.sleep(0.05)
        assert _nice(started[0]) == want
    finally:
        await term.close()
