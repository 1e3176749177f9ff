"""Kill -9 the server mid-game, start it again: both guests come back to their seats and finish
their games, and nothing played before the kill is lost (issue 17, point 5).

The server runs as ``cellwars serve`` in its own process; two guests play over SSH (asyncssh
plus a pyte screen) a Virus Fight table and an Infection table. The test reads the server's
table store (a file) only to pick sensible moves and to see what was saved.
"""

from __future__ import annotations

import random
import signal
import sqlite3
import time
from pathlib import Path

import msgspec
import pytest

from cellwars_tui.core import CHANCE
from cellwars_tui.core.match import Match
from cellwars_tui.record.format import decode_record, record_to_match
from cellwars_tui.online.store import StoredTable

from .conftest import Terminal, cellwars_cli, open_terminal
from .guests import ROOM, come_back, guest_in_lobby, make_table, screen_match
from .test_play import latest_for, pick_move, until
from .test_server_hygiene import started_port
from .test_session import click_at

pytestmark = pytest.mark.slow


class Store:
    """The server's table store, read the way any other program may read it."""

    def __init__(self, home: Path) -> None:
        self.path = home / "data" / "ssh" / "tables.sqlite3"

    def table(self, code: str) -> StoredTable:
        db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
        try:
            (data,) = db.execute("SELECT data FROM tables WHERE code = ?", (code,)).fetchone()
        finally:
            db.close()
        return msgspec.msgpack.decode(data, type=StoredTable)

    def match(self, code: str) -> Match:
        return record_to_match(decode_record(self.table(code).record), code)

    def steps(self, code: str) -> list[tuple[int, str]]:
        m = self.match(code)
        return [(s.seat, m.game.action_to_str(s.action)) for s in m.history]


def lines_with(term: Terminal, text: str) -> int:
    """How many lines of the screen show ``text``."""
    return sum(1 for line in term.screen.display if text in line)


def click_last(term: Terminal, text: str) -> None:
    """Click the last place ``text`` shows on the screen."""
    hits = [y for y, line in enumerate(term.screen.display) if text in line]
    assert hits, f"{text!r} not on screen:\n{term.text()}"
    click_at(term, text, nth=len(hits) - 1)


async def play_virus_fight_move(store: Store, code: str, terms: dict[int, Terminal],
                                rng: random.Random) -> None:
    """The next Virus Fight move, typed in the Moves picker of the seat to act."""
    m = store.match(code)
    seat = next(s for s in m.to_act() if s != CHANCE)
    legal = m.legal_actions(seat)
    move = pick_move(m.game, legal, rng)
    term, before = terms[seat], m.cursor
    try:
        for text in latest_for(m, seat):
            await term.wait_for(text)
        term.send("m")
        await term.wait_for(f"Moves ({len(legal)})")
        term.send(move)
        await until(lambda: term.text().count(move) >= 2, 60, f"the filter to show {move!r}")
        term.send("\r")
        await until(lambda: store.match(code).cursor > before, 60, f"{move!r} to be saved")
        await until(lambda: "type to filter" not in term.text(), 60, "the picker to close")
    except AssertionError as exc:
        raise AssertionError(f"{exc}; screen:\n{term.text()}") from None


async def rest_until_the_round_ends(store: Store, code: str, rnd: int,
                                    terms: dict[int, Terminal]) -> None:
    """Each seat of the Infection table that is not resting presses ``.`` (rest) until the
    store shows it resting: when every seat rests, round ``rnd`` ends. (A key pressed while the
    screen shows its "Roll!" cue at a round's start may be taken as nothing: pressed again, every
    2 s of no rest; the 120 s deadline only guards against a hang.)"""
    for seat, term in terms.items():
        deadline = time.monotonic() + 120
        while True:
            state = store.match(code).state
            if state.round > rnd or state.result or state.seats[seat].stage == "rest":
                break
            if time.monotonic() > deadline:
                raise AssertionError(f"seat {seat} does not rest; screen:\n{term.text()}")
            if f"Round {rnd}" in term.text() or "space: roll" in term.text():
                term.send(".")
            try:
                await until(lambda s=seat: (lambda st: st.round > rnd or bool(st.result)
                                            or st.seats[s].stage == "rest")(
                                                store.match(code).state), 2, "a rest")
            except AssertionError:
                continue
    await until(lambda: store.match(code).state.round > rnd or store.match(code).is_over(), 60,
                f"round {rnd} to end")


# the game screens: Virus Fight's side panel names ann's side (its title has no step number
# while programs are written in secret), Infection's title line
VF, INFECTION = "ann South", "Infection ·"


async def go_to_table(term: Terminal, code: str, screen: str) -> None:
    """From a game's screen to the game of table ``code`` (its ``screen``): back to the table
    (q), leave it for the lobby (escape: a seat in a game that started is kept), then click
    the table's line (its game's screen opens by itself)."""
    term.send("q")
    await term.wait_for("you: seat")
    term.send("\x1b")
    await term.wait_for("online · you are")
    await term.wait_for(code)
    click_at(term, code)
    await term.wait_for(screen)


async def test_kill_9_mid_game_then_both_guests_come_back_and_finish_both_games(tmp_path):
    home = tmp_path / "cellwars"
    store = Store(home)
    rng = random.Random(17)
    with cellwars_cli(home, "serve", "--port", "0") as server:
        port = started_port(server)
        ann = await open_terminal(port, guest=True, username="x", cols=120, rows=40)
        ben = await open_terminal(port, guest=True, username="x", cols=120, rows=40)
        try:
            ann_code = await guest_in_lobby(ann, "ann")
            ben_code = await guest_in_lobby(ben, "ben")
            vf = await make_table(ann, ben, "ben")  # Virus Fight: ann hosts, ben sits
            ann.send("s")
            await ann.wait_for("Secret programs")
            await ben.wait_for("Secret programs")
            for _ in range(3):
                await play_virus_fight_move(store, vf, {0: ann, 1: ben}, rng)
            # ben leaves for the lobby (his seat waits) and makes an Infection table
            ben.send("q")
            await ben.wait_for("you: seat 2")
            ben.send("\x1b")
            await ben.wait_for("online · you are ben")
            # the game picker, below the tables, opens with a click, once the lobby lists the
            # tables (the list filling in moves what is below it); again if the first click
            # came while the screen was still settling (each try waits 10 s: a click that opens
            # the picker late must not be followed by one that closes it)
            await ben.wait_for(vf)
            for _ in range(5):
                # the table's own line names its game too (a click there would join the table):
                # click only once the picker shows below it
                await until(lambda: lines_with(ben, "Virus Fight") >= 2, what="the picker")
                click_last(ben, "Virus Fight")
                try:
                    await ben.wait_for("Infection", timeout=10)
                    break
                except AssertionError:
                    continue
            click_last(ben, "Infection")
            await until(lambda: "Infection" in ben.text() and "Virus Fight  " not in
                        ben.text().splitlines()[-3], 60, "Infection to be picked")
            click_last(ben, "New table")
            await ben.wait_for("1. ben  ← you")
            inf = await screen_match(ben, ROOM)
            assert inf != vf
            term = ann  # from Virus Fight to the Infection table, not started yet
            term.send("q")
            await term.wait_for("you: seat")
            term.send("\x1b")
            await term.wait_for("online · you are")
            await term.wait_for(inf)
            click_at(term, inf)
            await term.wait_for(f"Table {inf}")
            click_at(ann, "2. (free)")
            await ben.wait_for("2. ann")
            ben.send("s")
            await ben.wait_for("Rest")  # the Infection screen's keys
            await ann.wait_for("Rest")
            started = len(store.steps(inf))
            ann.send(".")  # ann rests for the round: a move of hers, saved
            await until(lambda: any(s == 1 and a == "rest" for s, a in store.steps(inf)[started:]),
                        60, "ann's rest to be saved")
            before = {vf: store.steps(vf), inf: store.steps(inf)}
            hub_dir = Path((home / "data" / "ssh" / "run" / "hub-dir").read_text())
            server.send_signal(signal.SIGKILL)
            server.wait(60)
            await ann.wait_closed()
            await ben.wait_closed()
        finally:
            await ann.close()
            await ben.close()

    with cellwars_cli(home, "serve", "--port", "0") as server:
        port = started_port(server)
        assert not hub_dir.exists()  # what the killed server left is swept
        for code in (vf, inf):  # nothing played before the kill is lost
            assert store.steps(code)[:len(before[code])] == before[code]
        # ann comes back with her code as the SSH user name, ben types his in the lobby
        ann = await open_terminal(port, guest=True, username=ann_code, cols=120, rows=40)
        ben = await open_terminal(port, guest=True, username="x", cols=120, rows=40)
        try:
            await come_back(ben, ben_code)
            for term in (ben, ann):  # straight back to a game of theirs
                await until(lambda t=term: VF in t.text() or INFECTION in t.text(), 60,
                            "a game screen")
            # Infection waits, paused, until a seated player plays on
            if INFECTION not in ben.text():
                await go_to_table(ben, inf, INFECTION)
            await ben.wait_for("server restarted")
            ben.send("p")
            if INFECTION not in ann.text():
                await go_to_table(ann, inf, INFECTION)
            # both rest in every round: the rounds end at once, the third ends the game
            await until(lambda: "PAUSED" not in ann.text() and "PAUSED" not in ben.text(), 60,
                        "the game to play on")
            for rnd in (1, 2, 3):
                await rest_until_the_round_ends(store, inf, rnd, {0: ben, 1: ann})
            assert store.match(inf).is_over()
            await ann.wait_for("Team loses")
            # then Virus Fight, to the end
            await go_to_table(ann, vf, VF)
            await go_to_table(ben, vf, VF)
            deadline = time.monotonic() + 300
            while not store.match(vf).is_over():
                assert time.monotonic() < deadline, "Virus Fight should have ended"
                await play_virus_fight_move(store, vf, {0: ann, 1: ben}, rng)
            outcome = store.match(vf).outcome()
            for term in (ann, ben):
                await term.wait_for(outcome.termination)
            assert store.steps(vf)[:len(before[vf])] == before[vf]
        finally:
            await ann.close()
            await ben.close()
        server.send_signal(signal.SIGTERM)
        assert server.wait(30) == 0
