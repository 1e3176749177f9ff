"""The chat's rules (online/chat.py): cleaning, limits, floods, commands, closed chat."""

from __future__ import annotations

import time
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cellwars_tui.core.match import Match, Seat
from cellwars_tui.core.registry import get_game
from cellwars_tui.online import chat as C
from cellwars_tui.online.chat import ChatLine, ChatRefused, FloodGuard, Mute, Say

HOSTILE = [
    ("hi \x1b[31mred\x1b[0m", "hi red"),
    ("a\x1b]0;new title\x07b", "ab"),  # OSC ended by BEL
    ("x\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\y", "xlinky"),  # OSC 8 hyperlink, ended by ST
    ("\x1bP+q544e\x1b\\dcs", "dcs"),  # DCS
    ("\x9b2J8-bit CSI", "8-bit CSI"),  # C1 CSI
    ("\x9d0;t\x9cok", "ok"),  # C1 OSC ended by C1 ST
    ("cut short \x1b[1;", "cut short"),
    ("esc\x1bc reset", "esc reset"),  # RIS
    ("n\x00u\x00l\x00", "nul"),
    ("bell\x07\x08\x7f", "bell"),
    ("\u202eevil\u202c \u2066iso\u2069", "evil iso"),  # bidi override and isolate
    ("a\u200bb\ufeffc\u200ed", "abcd"),  # zero width, BOM, LRM
    ("one\ntwo\r\nthree\u2028four", "one two three four"),
    ("z\u0301\u0302\u0303\u0304\u0305\u0306", "\u017a\u0302\u0303"),  # at most 2 marks a letter
    ("[bold red]markup stays text[/]", "[bold red]markup stays text[/]"),
    ("ünïcödé 日本語 😀", "ünïcödé 日本語 😀"),
]


@pytest.mark.parametrize("raw, clean", HOSTILE)
def test_escape_sequences_and_control_characters_are_removed(raw, clean):
    assert C.clean_text(raw) == clean


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=40)
       | st.lists(st.sampled_from(["\x1b", "[", "]", "\x07", "\\", "P", "\x9b", "\x9c", "\x9d",
                                   "1", ";", "m", "a", "\x00", "\u202e", "\n"]),
                  max_size=40).map("".join))
def test_no_text_reaches_a_terminal_raw(text):
    out = C.clean_text(text)
    assert "\x1b" not in out and "\n" not in out
    assert not any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Cn", "Zl", "Zp")
                   for ch in out)
    assert C.clean_text(out) == out  # cleaning twice changes nothing


def test_one_line_of_at_most_200_characters():
    assert C.clean_line("x" * 200) == "x" * 200
    with pytest.raises(ChatRefused, match="at most 200"):
        C.clean_line("x" * 201)
    started = time.perf_counter()
    with pytest.raises(ChatRefused, match="at most 200"):
        C.clean_line("y" * 10_240)  # a 10 KB line: refused before it is even cleaned
    assert time.perf_counter() - started < 0.5
    with pytest.raises(ChatRefused, match="empty"):
        C.clean_line("\x00\x1b[2J\u202e  ")
    # escape sequences do not count against the length: what is shown does
    assert C.clean_line("\x1b[31m" + "z" * 200 + "\x1b[0m") == "z" * 200


def test_three_messages_in_three_seconds_a_player():
    guard = FloodGuard()
    for t in (0.0, 0.5, 1.0):
        guard.check("ann", t)
    guard.check("ben", 1.0)  # each player has their own three
    with pytest.raises(ChatRefused, match="at most 3 messages in 3 seconds"):
        guard.check("ann", 1.5)
    with pytest.raises(ChatRefused):
        guard.check("ann", 2.9)  # a refused message does not count...
    guard.check("ann", 3.0)  # ...so the first one's three seconds free a place
    flood = FloodGuard()
    sent = 0
    for i in range(1000):  # a flood: 1,000 messages in one second
        try:
            flood.check("cy", i / 1000)
            sent += 1
        except ChatRefused:
            pass
    assert sent == 3
    flood.forget(older_than=10.0)
    assert flood.sent == {}


def test_commands():
    assert C.parse("hello") == Say("hello")
    assert C.parse("/mute ann") == Mute("ann", True)
    assert C.parse("/MUTE  Ann Lee ") == Mute("Ann Lee", True)
    assert C.parse("/mute") == Mute("", True)
    assert C.parse("/unmute ann") == Mute("ann", False)
    with pytest.raises(ChatRefused, match="unmute whom"):
        C.parse("/unmute")
    with pytest.raises(ChatRefused, match="not a chat command"):
        C.parse("/kick ben")


def test_muted_names_are_left_out():
    lines = tuple(ChatLine(float(i), 0, name, f"line {i}") for i, name in
                  enumerate(["ann", "ben", "Ann", "cy"] * 10))
    shown = C.visible(lines, {"ann"}, key=str.casefold)
    assert {line.name for line in shown} == {"ben", "cy"} and len(shown) == 20
    assert len(C.visible(lines, set())) == C.SENT


def test_virus_fight_closes_the_chat_while_programs_are_written():
    vf = get_game("virus-fight")
    match = Match(vf, vf.options_type(players=2), [Seat(name="a"), Seat(name="b")], 1)
    assert "written in secret" in vf.chat_closed(match.state)
    for game_id in ("cell-wars", "cellulis-bellum", "infection"):
        game = get_game(game_id)
        state = game.initial_state(game.options_type(players=2))
        assert game.chat_closed(state) == ""
