"""The login queue is fair (issue 28, point 2): a crowd of connections that never log in, from
a few networks, can neither push an honest handshake out nor keep a newcomer from another
network from logging in; and an IPv6 client's whole /64 counts as one address.

Once the queue (64 places) dropped its oldest member for every newcomer: a reconnect loop from
9 addresses (8 connections each, the per-address cap) evicted every honest handshake. The
clients here come from many loopback addresses (127.0.0.0/8 is all loopback), in different /24s.
"""

from __future__ import annotations

import asyncio
import logging
import socket

import asyncssh

from cellwars_tui.ssh.limits import Limits
from cellwars_tui.ssh.logins import LoginQueue, client_of, network_of
from cellwars_tui.ssh.server import CellwarsServer, _Connection

from .conftest import FAKE_APP, Terminal, _GuestClient
from .test_caps import NO_LOGIN_TIMEOUT, hung_up
from .test_play import until


async def silent_from(port: int, source: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection from ``source`` (a loopback address) that never says a word."""
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))


class Silent:
    """A connection from ``source`` (a loopback address) that never says a word, read to its end
    in the background: ``closed`` once the server has closed it."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 source: str) -> None:
        self.writer, self.source = writer, source
        self.ended = asyncio.create_task(hung_up(reader, NO_LOGIN_TIMEOUT))

    @property
    def closed(self) -> bool:
        return self.ended.done()

    def close(self) -> None:
        self.ended.cancel()
        self.writer.close()

    @classmethod
    async def open(cls, port: int, source: str) -> Silent:
        return cls(*await silent_from(port, source), source)


async def log_in_over(sock: socket.socket, port: int) -> Terminal:
    """A guest's SSH login and session over ``sock`` (connected already), at the fake app."""
    conn = await asyncssh.connect(
        "127.0.0.1", port, sock=sock, username="honest", known_hosts=None, agent_path=None,
        client_keys=None, kbdint_auth=True, password_auth=False, gss_host=None,
        client_factory=_GuestClient)
    process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
    return Terminal(conn, process, 80, 24)


async def connected_from(port: int, source: str) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((source, 0))
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    return sock


async def test_a_flood_from_nine_networks_neither_evicts_an_honest_handshake_nor_locks_a_newcomer_out(
        make_server, caplog):
    caplog.set_level(logging.WARNING, "cellwars_tui.ssh.logins")
    server = await make_server(limits=Limits(kill_grace=1.0, login_timeout=NO_LOGIN_TIMEOUT))
    honest = await connected_from(server.port, "127.200.0.1")  # mid-handshake, the oldest
    await until(lambda: len(server.logging_in) == 1, 60, "the honest handshake queued")
    flood: list[Silent] = []
    try:
        for _round in range(2):  # a reconnect loop: what is closed comes back at once
            flood = [f for f in flood if not f.closed]
            for network in range(1, 10):  # 9 addresses x 8 (the per-address cap) = 72 > 64
                source = f"127.{network}.0.1"
                while sum(1 for f in flood if f.source == source) < 8:
                    flood.append(await Silent.open(server.port, source))
            # 63 places for the flood (the honest handshake holds one): 9 of them are closed
            await until(lambda: sum(not f.closed for f in flood) == 63, 60, "9 closed")
            assert len(server.logging_in) == 64 and honest.fileno() >= 0
        term = await log_in_over(honest, server.port)  # the oldest handshake was never evicted
        try:
            await term.wait_for("SIZE")
            newcomer = await connected_from(server.port, "127.201.0.1")  # the flood holds 63
            later = await connected_from(server.port, "127.202.0.1")  # full: a flooder goes
            second = await log_in_over(newcomer, server.port)
            third = await log_in_over(later, server.port)
            await second.wait_for("SIZE")
            await third.wait_for("SIZE")
            await second.close()
            await third.close()
        finally:
            await term.close()
    finally:
        for f in flood:
            f.close()
    said = [r.getMessage() for r in caplog.records if r.name == "cellwars_tui.ssh.logins"]
    assert len(said) == 1  # at most one warning in 10 s, with the counts
    assert said[0].startswith("login queue: refused a connection from 127.8.0.0/24: the queue "
                              "is full; 64 of 64 places taken (most by network: 127.1.0.0/24 8")


async def test_one_network_holds_at_most_its_share_of_the_queue_and_a_newcomer_evicts_from_the_biggest(
        make_server):
    server = await make_server(limits=Limits(kill_grace=1.0, login_timeout=NO_LOGIN_TIMEOUT,
                                             max_unauthenticated=8, logins_per_network=4))
    one = [await Silent.open(server.port, f"127.1.0.{i}") for i in (1, 2, 3, 4, 5, 6)]
    other = [await Silent.open(server.port, f"127.2.0.{i}") for i in (1, 2, 3, 4)]
    try:
        await until(lambda: one[4].closed and one[5].closed, 60, "past 127.1.0.0/24's share")
        await until(lambda: len(server.logging_in) == 8, 60, "a full queue")
        term = await log_in_over(await connected_from(server.port, "127.9.0.1"), server.port)
        try:
            await term.wait_for("SIZE")
            # the oldest of a network holding the most places made room
            await until(lambda: one[0].closed, 60, "the oldest of 127.1.0.0/24 closed")
            assert not any(f.closed for f in one[1:4] + other)
            assert server.logging_in.held_by("127.1.0.1") == 3
            assert server.logging_in.held_by("127.2.0.1") == 4
        finally:
            await term.close()
    finally:
        for f in one + other:
            f.close()


def test_networks_are_a_slash_24_for_ipv4_and_a_slash_64_for_ipv6():
    assert network_of("192.0.2.77") == "192.0.2.0/24"
    assert network_of("::ffff:192.0.2.77") == "192.0.2.0/24"  # a dual-stack socket's IPv4 client
    assert network_of("2001:db8:1:2:aaaa::1") == "2001:db8:1:2::/64"
    assert network_of("fe80::1%eth0") == "fe80::/64"
    assert network_of("?") == "?"
    assert client_of("192.0.2.77") == "192.0.2.77"
    assert client_of("2001:db8:1:2:aaaa::1") == client_of("2001:db8:1:2:bbbb::2")


def test_the_queue_refuses_rather_than_evict_a_network_holding_no_more_than_the_newcomers():
    now = [0.0]
    queue: LoginQueue[str] = LoginQueue(4, 2, clock=lambda: now[0])
    for name, address in [("a1", "10.0.1.1"), ("b1", "10.0.2.1"), ("c1", "10.0.3.1"),
                          ("d1", "10.0.4.1")]:
        assert queue.admit(name, address) == (True, None)
    assert queue.admit("e1", "10.0.5.1") == (False, None)  # every network holds one: refused
    queue.remove("d1")
    assert queue.admit("a2", "10.0.1.2") == (True, None)  # 10.0.1.0/24 now holds two
    assert queue.admit("a3", "10.0.1.3") == (False, None)  # its share (two) is taken
    assert queue.admit("e1", "10.0.5.1") == (True, "a1")  # it holds the most: its oldest goes
    assert list(queue) == ["b1", "c1", "a2", "e1"]


def test_an_ipv6_clients_whole_slash_64_counts_as_one_address(tmp_path):
    server = CellwarsServer("127.0.0.1", 0, limits=Limits(per_address=3), child_command=FAKE_APP,
                            home=tmp_path)

    def arrive(address: str) -> _Connection:
        c = _Connection(server)
        c.address = address
        server.connection_opened(c)
        return c

    held = [arrive(f"2001:db8:0:1::{i}") for i in (1, 2, 3)]
    told = arrive("2001:db8:0:1:ffff::9")  # another address of the same /64: one too many
    flood = arrive("2001:db8:0:1:eeee::9")
    elsewhere = arrive("2001:db8:0:2::1")
    assert not any(c.turned_away for c in held + [elsewhere])
    assert told.turned_away.startswith("cellwars: too many connections from your address")
    assert flood not in server.connections and elsewhere in server.connections
