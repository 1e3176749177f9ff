"""Seats belong to a secret, not a name (issue 17, point 3), and a player who leaves an open
table is no longer shown seated there (point 9).

A guest's seat was once taken by anyone who typed the same nickname while the guest was away:
the taker saw that seat's hidden program and the real player was locked out ("nickname in
use"). Now a guest is given a reconnect code with their nickname; only that code (typed in the
lobby, or as the SSH user name) gives the seat back.
"""

from __future__ import annotations

import asyncssh
import pytest

from cellwars_tui.online import protocol as p
from cellwars_tui.online.hub import MAX_WRONG_CODES

from .conftest import open_terminal
from .guests import come_back, guest_in_lobby, make_table
from ..online.test_hub import hub, join, table_where  # noqa: F401
from .test_play import until
from .test_session import online


@pytest.fixture
async def server(make_server):
    return await make_server(child_command=None)  # the real app, forked from the zygote


async def test_a_nickname_never_takes_an_away_guests_seat_and_the_code_gives_it_back(server):
    ann = await open_terminal(server.port, guest=True, username="x", cols=110, rows=36)
    ben = await open_terminal(server.port, guest=True, username="x", cols=110, rows=36)
    mallory = None
    try:
        await guest_in_lobby(ann, "ann")
        ben_code = await guest_in_lobby(ben, "ben")
        code = await make_table(ann, ben, "ben")
        ann.send("s")
        await ben.wait_for("ben's secret program")  # ben sees his own program
        table = server.hub.tables[code]
        ben.conn.abort()
        await until(lambda: table.away() == ["ben"], 60, "ben to be away")
        await ben.close()
        # mallory types ben's nickname: refused; she gets no seat and sees no hidden program
        mallory = await open_terminal(server.port, guest=True, username="x", cols=110, rows=36)
        await mallory.wait_for("o Online")
        mallory.send("o")
        await mallory.wait_for("pick a nickname")
        mallory.send("ben\r")
        await mallory.wait_for("is held by a player at a table")
        assert table.away() == ["ben"]
        assert "ben's secret program" not in mallory.everything()
        # ben comes back with his code, to his seat and his program
        ben = await open_terminal(server.port, guest=True, username="x", cols=110, rows=36)
        await come_back(ben, ben_code)
        await ben.wait_for("ben's secret program")
        await until(lambda: not table.away(), 60, "ben to be back")
        assert table.seat_of(next(c.identity for c in server.hub.clients if c.name == "ben")) == 1
    finally:
        for term in (ann, ben, mallory):
            if term is not None:
                await term.close()


async def test_a_guest_comes_straight_back_with_the_code_as_ssh_user_name(server):
    ann = await open_terminal(server.port, guest=True, username="x", cols=110, rows=36)
    ben = await open_terminal(server.port, guest=True, username="x", cols=110, rows=36)
    try:
        await guest_in_lobby(ann, "ann")
        ben_code = await guest_in_lobby(ben, "ben")
        code = await make_table(ann, ben, "ben")
        ann.send("s")
        await ben.wait_for("ben's secret program")
        ben.conn.abort()
        table = server.hub.tables[code]
        await until(lambda: table.away() == ["ben"], 60, "ben to be away")
        await ben.close()
        ben = await open_terminal(server.port, guest=True, username=ben_code, cols=110, rows=36)
        await ben.wait_for("ben's secret program")  # no nickname, no lobby
    finally:
        await ann.close()
        await ben.close()


async def test_a_player_who_drops_from_an_open_table_is_shown_gone_to_the_host(
        server, client_key):
    ann = await open_terminal(server.port, key=client_key, username="ann", cols=110, rows=36)
    ben = await open_terminal(server.port, key=asyncssh.generate_private_key("ssh-ed25519"),
                              username="ben", cols=110, rows=36)
    try:
        await online(ann, "ann")
        await online(ben, "ben")
        await make_table(ann, ben, "ben")
        ben.conn.abort()
        await ann.wait_for("2. (free)")  # not "2. ben"; start would say why
    finally:
        await ann.close()
        await ben.close()


async def test_only_the_code_reclaims_and_wrong_codes_run_out(hub):  # noqa: F811
    ann = await join(hub, "key:ann", "ann")
    ben = await join(hub, "guest")
    ben.send(p.SetName(name="Ben"))
    welcome = await ben.next(p.Welcome)
    assert welcome.code and welcome.identity != "guest:ben"
    ann.send(p.CreateTable(game="secret-pick", players=2))
    state = await table_where(ann, lambda t: t.you == 0)
    ben.send(p.Join(code=state.info.code))
    await table_where(ben, lambda t: t.you is None)
    ben.send(p.Sit(seat=1))
    assert welcome.code in (await ben.next(p.Notice)).message  # told when they sit
    ann.send(p.Start())
    await table_where(ben, lambda t: t.you == 1 and bool(t.view))
    await ben.close()
    await table_where(ann, lambda t: not t.info.seats[1].connected)
    thief = await join(hub, "guest")
    thief.send(p.SetName(name="ben"))  # the name, in any case: held
    assert "held by a player" in (await thief.next(p.Error)).message
    for _ in range(MAX_WRONG_CODES):
        thief.send(p.SetName(name="", code="AAAAA-AAAAA"))
        assert "no seat" in (await thief.next(p.Error)).message
    thief.send(p.SetName(name="", code=welcome.code))  # even the right one, now
    assert "too many wrong codes" in (await thief.next(p.Error)).message
    keyed = await join(hub, "key:cat", "cat")
    keyed.send(p.SetName(name="", code=welcome.code))
    assert "key" in (await keyed.next(p.Error)).message
    back = await join(hub, "guest")
    back.send(p.SetName(name="", code=welcome.code.lower().replace("-", " ")))
    again = await back.next(p.Welcome)
    assert (again.identity, again.name) == (welcome.identity, "Ben")
    state = await table_where(back, lambda t: t.you == 1)  # straight back to the game
    assert state.legal
    for c in (ann, thief, keyed, back):
        await c.close()
