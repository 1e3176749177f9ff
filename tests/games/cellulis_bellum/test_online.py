"""Over SSH a new Cellulis Bellum table is on the 72-point board: the lobby sends no options, and
the hub makes them from the game's defaults, as the New game dialog and ``cellwars play`` do."""

from __future__ import annotations

import asyncio

import pytest

from cellwars_tui.games.cellulis_bellum import rules as R
from cellwars_tui.online import protocol as p
from cellwars_tui.online.client import HubClient
from cellwars_tui.online.hub import Hub
from cellwars_tui.ui.request import new_game_request


@pytest.fixture
async def hub(tmp_path):
    hub = Hub(tmp_path / "tables", sweep_interval=3600)
    await hub.start()
    yield hub
    await hub.close()


async def _client(hub: Hub, identity: str) -> HubClient:
    token = f"token-{identity}"
    hub.admit(token, identity, identity.split(":")[-1])
    client = HubClient(str(hub.socket_path), token)
    await client.connect()
    await client.next(p.Welcome)
    await client.next(p.Lobby)
    return client


async def test_a_table_made_in_the_lobby_plays_on_72_points(hub):
    ann = await _client(hub, "guest:ann")
    ann.send(p.CreateTable(game="cellulis-bellum", players=2))  # what the lobby sends

    async def seated() -> p.TableState:
        while True:
            msg = await ann.next((p.TableState, p.Error), 10.0)
            assert not isinstance(msg, p.Error), msg
            if msg.you == 0:
                return msg

    state = await asyncio.wait_for(seated(), 10.0)
    table = hub.tables[state.info.code]
    assert table.options.board == "72 points" and table.options.new_virus == "acts at once"
    assert len(R.GAME.initial_state(table.options).board) == 72


def test_the_app_and_the_command_line_default_to_72_points_and_name_the_old_board():
    request = new_game_request("cellulis-bellum")
    assert request.options.board == "72 points"
    old = new_game_request("cellulis-bellum", options={"board": "corners only (42 points)"})
    assert len(R.GAME.initial_state(old.options).board) == 42
