"""Whole games over the real server: two SSH clients at one Virus Fight table, reconnecting.

Each client is asyncssh plus a pyte screen running the real session app (forked from the zygote).
The moves go in through the game screen's own Moves picker (``m``, type the move, Enter), which
every game screen inherits from GameScreen; the test reads the hub only to pick a sensible move.
"""

from __future__ import annotations

import asyncio
import random
import re
import time

import asyncssh
import pytest

from cellwars_tui.core import CHANCE
from cellwars_tui.core.match import Match
from cellwars_tui.games.virus_fight import clarifications as C
from cellwars_tui.games.virus_fight.rules import BUILD, piece_name

from .conftest import Terminal, open_terminal
from .test_session import click_at, online


@pytest.fixture
async def server(make_server):
    return await make_server(child_command=None)


async def until(pred, timeout: float = 60.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or pred}")
        await asyncio.sleep(0.03)


async def virus_fight_table(server, ann: Terminal, ben: Terminal) -> str:
    """ann makes a Virus Fight table (the lobby's first game), ben sits, ann starts."""
    await online(ann, "ann")
    await online(ben, "ben")
    click_at(ann, "New table")
    await ann.wait_for("1. ann  ← you")
    await ann.wait_for("Table ")  # the title may be painted a frame after the seat list
    found = None
    for _ in range(100):
        found = re.search(r"Table ([A-Z]{4})", ann.text())
        if found:
            break
        await asyncio.sleep(0.05)
    assert found, f"no room code on ann's screen:\n{ann.text()}"
    code = found.group(1)
    assert "Virus Fight" in ann.text()
    await ben.wait_for(code)
    # a click focuses the code field at once ("j" focuses it a moment later: the code typed
    # right after could go before it)
    click_at(ben, "room code")
    ben.send(code + "\r")
    await ben.wait_for("you: watching")
    click_at(ben, "2. (free)")
    await ann.wait_for("2. ben")
    ann.send("s")
    await ann.wait_for("Secret programs")  # the game's own screen, in both
    await ben.wait_for("Secret programs")
    await ann.wait_for("ben North")
    # a person at another terminal is not called a bot (the panel once said "ben North (bot)")
    assert "(bot)" not in ann.text() and "(bot)" not in ben.text()
    return code


def pick_move(game, legal, rng: random.Random) -> str:
    """A random legal move whose notation the picker's filter finds first (so Enter plays it).
    Programs of one instruction, marked and declared ready at once, make games of ~10 moves."""
    texts = [game.action_to_str(a) for a in legal]
    unique = [t for t in texts if next(x for x in texts if t.lower() in x.lower()) == t]
    for eager in ("ready", "mark 1"):
        if eager in unique:
            return eager
    adds = [t for t in unique if t.startswith("add ")]
    return rng.choice(adds or unique)


def latest_for(m: Match, seat: int) -> list[str]:
    """What ``seat``'s own screen shows once it has the hub's latest state for that seat, in
    words that tell nothing secret: while programs are written in secret, the seat's own program
    (how long, which instruction is marked: nothing else its view holds can change before it
    is ready but the others' ready flags, which change no move of its own); after the reveal,
    the step number (public then)."""
    s = m.state
    if s.phase != BUILD:
        return [f"· step {m.cursor} ·"]
    prog, mark = s.programs[seat], s.marks[seat]
    shown = [f"{m.seats[seat].name}'s secret program ({len(prog)}/{C.MAX_PROGRAM})"]
    if mark >= 0:
        shown.append("▼" + piece_name(prog[mark]))
    return shown


async def play_one(term: Terminal, move: str, match, seat: int, legal: int) -> None:
    """``move`` through the Moves picker, once the terminal shows the hub's latest state for
    ``seat`` (see ``latest_for``)."""
    before = match.cursor
    try:
        for text in latest_for(match, seat):
            await term.wait_for(text)
        term.send("m")
        await term.wait_for(f"Moves ({legal})")
        term.send(move)
        # Enter once the list is filtered: the move shows in the filter and as the first option
        await until(lambda: term.text().count(move) >= 2, 10, f"the filter to show {move!r}")
        term.send("\r")
        await until(lambda: match.cursor > before, 10, f"{move!r} to be played")
        await until(lambda: "type to filter" not in term.text(), 10, "the picker to close")
    except AssertionError as exc:
        raise AssertionError(f"{exc}; screen:\n{term.text()}") from None


@pytest.mark.slow
async def test_two_clients_play_virus_fight_to_the_end_and_a_dropped_one_gets_its_seat_back(
        server, client_key):
    """Two SSH clients at one Virus Fight table play it to the end through the game screen, each
    seeing only its own secret program; ben's connection drops mid-game and he reconnects with
    the same key to the same seat."""
    ben_key = asyncssh.generate_private_key("ssh-ed25519")
    ann = await open_terminal(server.port, key=client_key, username="ann", cols=110, rows=36)
    ben = await open_terminal(server.port, key=ben_key, username="ben", cols=110, rows=36)
    seen_by_ben = ""
    try:
        code = await virus_fight_table(server, ann, ben)
        table = server.hub.tables[code]
        match, game = table.match, table.game
        rng = random.Random(7)
        dropped = False
        while not match.is_over():
            seat = next(s for s in match.to_act() if s != CHANCE)
            if seat == 1 and not dropped:  # ben's first turn: his connection drops
                dropped = True
                seen_by_ben += ben.everything()
                ben.conn.abort()
                await until(lambda: table.away() == ["ben"], 10, "ben to be away")
                await ben.close()
                assert table.seat_of(table.slots[1].identity) == 1  # the seat waits for him
                ben = await open_terminal(server.port, key=ben_key, username="ben", cols=110,
                                          rows=36)
                await until(lambda: not table.away(), 10, "ben to be back")
                await ben.wait_for("ben's secret program")  # straight back to it
            terms = (ann, ben)
            legal = match.legal_actions(seat)
            move = pick_move(game, legal, rng)
            before = match.cursor
            await play_one(terms[seat], move, match, seat, len(legal))
            assert game.action_to_str(match.steps[before].action) == move  # what was typed
            assert match.cursor < 120, "the game should have ended"
        assert dropped
        outcome = match.outcome()
        for term in (ann, ben):
            await term.wait_for(outcome.termination)
        # The table's record replays from the table (p), for every player at it.
        ann.send("q")  # the game screen goes; the table is under it
        await ann.wait_for("p replays it")
        ann.send("p")
        await ann.wait_for("→/j")  # the replay viewer's step key
        seen_by_ben += ben.everything()
        # Each terminal was shown its own secret program, never the other seat's.
        assert "ann's secret program" in ann.everything()
        assert "ben's secret program" in seen_by_ben
        assert "ben's secret program" not in ann.everything()
        assert "ann's secret program" not in seen_by_ben
    finally:
        await ann.close()
        await ben.close()


async def test_a_host_makes_a_table_with_n_fills_it_with_b_and_starts_with_s(server, client_key):
    """The lobby's keys do what the footer says: n makes a table at once, b seats a bot in the
    first free seat when nothing (or the host's own seat) is highlighted, s starts."""
    ann = await open_terminal(server.port, key=client_key, username="ann", cols=110, rows=36)
    try:
        await online(ann, "ann")
        ann.send("n")
        await ann.wait_for("1. ann  ← you")
        await ann.wait_for("2. (free)")
        ann.send("b")
        await until(lambda: "2. (free)" not in ann.text(), what="a bot in seat 2")
        ann.send("s")
        await ann.wait_for("Secret programs")  # the Virus Fight screen's programs being written
    finally:
        await ann.close()


async def test_while_programs_are_written_a_rivals_terminal_shows_nothing_of_her_instructions(
        server, client_key):
    """Online as at a local table, ben's screen counts none of ann's secret instructions: no
    step number anywhere while programs are written, and nothing on it changes when she adds
    one (not even a message on his status line, which any repaint would take away)."""
    ben_key = asyncssh.generate_private_key("ssh-ed25519")
    ann = await open_terminal(server.port, key=client_key, username="ann", cols=110, rows=36)
    ben = await open_terminal(server.port, key=ben_key, username="ben", cols=110, rows=36)
    try:
        code = await virus_fight_table(server, ann, ben)
        match = server.hub.tables[code].match
        ben.send("y")  # nothing written yet: Ready is refused with a sentence
        await ben.wait_for("Add at least one instruction")
        seen = ben.text()
        sent = next(c for c in server.hub.clients if c.name == "ben").table_sent
        for k in (1, 2, 3):  # ann writes three instructions (the palette's next, each time)
            ann.send("\r")
            await until(lambda k=k: len(match.state.programs[0]) == k, what=f"ann's {k}")
            await ann.wait_for(f"ann's secret program ({k}/5)")
            ann.send("\x1b[C")
        # the hub sent ben nothing of it, so his screen stays as it was
        assert next(c for c in server.hub.clients if c.name == "ben").table_sent is sent
        assert ben.text() == seen
        # ben writes one: once his screen shows it, it has shown all that came before; his move
        # on the view he had (three steps old) stands, with no word that the table moved on
        ben.send("\r")
        await ben.wait_for("ben's secret program (1/5)")
        assert [line for line in ben.text().splitlines() if "ann" in line] == \
            [line for line in seen.splitlines() if "ann" in line]
        for term in (ann, ben):
            assert not re.search(r"step \d", term.everything()), term.text()
        assert "moved on" not in ben.everything()
        title = ben.text().splitlines()[0]
        assert "Virus Fight · ann, ben to act" in title, title
    finally:
        await ann.close()
        await ben.close()
