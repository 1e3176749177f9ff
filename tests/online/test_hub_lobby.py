"""Lobby updates are coalesced: a crowd logging in, or many tables changing at once, sends each
lobby client one lobby, not one per change (hub.LOBBY_INTERVAL)."""

from __future__ import annotations

import asyncio

from cellwars_tui.online import protocol as p
from cellwars_tui.online.hub import Client, Hub

from .. import toy_game  # noqa: F401  (registers toy-race)


class _Transport:
    def get_write_buffer_size(self) -> int:
        return 0


class FakeWriter:
    """What the hub writes to one session, decoded."""

    def __init__(self) -> None:
        self.transport = _Transport()
        self.sent: list[p.Msg] = []

    def is_closing(self) -> bool:
        return False

    def write(self, data: bytes) -> None:
        self.sent.append(p.decode_down(data[4:]))

    def lobbies(self) -> list[p.Lobby]:
        return [m for m in self.sent if isinstance(m, p.Lobby)]


def join(hub: Hub, n: int) -> Client:
    client = Client(hub, FakeWriter())
    hub._welcome(client, f"key:player{n}", f"player{n}")
    return client


async def settled(hub: Hub) -> None:
    """Until the coming lobby broadcast (if any) has gone out."""
    while hub._lobby_due is not None:
        await asyncio.sleep(0.01)


async def test_fifty_logins_in_one_loop_turn_send_each_client_at_most_two_lobbies(tmp_path):
    hub = Hub(tmp_path / "tables")
    clients = [join(hub, i) for i in range(50)]
    await settled(hub)
    counts = [len(c.writer.lobbies()) for c in clients]
    assert max(counts) <= 2, counts  # its welcome's lobby, and at most one broadcast
    assert hub.lobby_broadcasts <= 1
    await hub.close()


async def test_tables_made_in_one_loop_turn_reach_each_lobby_client_as_one_lobby(tmp_path):
    hub = Hub(tmp_path / "tables")
    watchers = [join(hub, i) for i in range(10)]
    hosts = [join(hub, 100 + i) for i in range(20)]
    await settled(hub)
    before = [len(c.writer.lobbies()) for c in watchers]
    for host in hosts:
        hub._create(host, p.CreateTable(game="toy-race", players=2))
    await settled(hub)
    for client, n in zip(watchers, before):
        new = client.writer.lobbies()[n:]
        assert len(new) == 1
        assert len(new[0].tables) == 20  # what is true once the turn is over
    await hub.close()
