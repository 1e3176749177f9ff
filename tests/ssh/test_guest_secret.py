"""Guests' identities are keyed with a server secret (issue 28, point 3).

A guest's identity was a hash of the reconnect code with a fixed salt: from a copy of the table
store, the 50-bit codes that give the seats back could be searched offline. Now it is an HMAC
keyed with a secret the server keeps beside its host key (owner-only, made once), never in the
store; a seat stored under the old hash is given back to its code, and then held under the new.
"""

from __future__ import annotations

import stat

import pytest

from cellwars_tui.core.errors import CellwarsError
from cellwars_tui.online import protocol as p
from cellwars_tui.online.hub import Hub
from cellwars_tui.ssh.server import GUEST_SECRET_NAME, load_or_create_guest_secret
from cellwars_tui.online.store import MemoryTableStore
from cellwars_tui.online.tables import guest_identity, legacy_guest_identity

from tests.online.test_hub import join, table_where
from tests.online.test_sweep import leave_all, with_a_guest

CODE = "ABCDE-FGH23"


def test_the_identity_is_keyed_by_the_servers_secret_not_a_fixed_salt():
    one, two = b"1" * 32, b"2" * 32
    assert guest_identity(CODE, one) == guest_identity("abcde fgh23", one)  # as typed
    assert guest_identity(CODE, one) != guest_identity(CODE, two)
    assert guest_identity(CODE, one) != legacy_guest_identity(CODE)
    assert guest_identity(CODE, one).startswith("guest:")


def test_the_secret_is_made_once_owner_only_and_kept(tmp_path):
    path = tmp_path / GUEST_SECRET_NAME
    secret = load_or_create_guest_secret(path)
    assert len(secret) == 32 and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_or_create_guest_secret(path) == secret  # never made again
    path.write_bytes(b"short")
    with pytest.raises(CellwarsError, match="damaged"):
        load_or_create_guest_secret(path)


def test_the_server_gives_its_hub_the_secret_beside_the_host_key(tmp_path):
    from cellwars_tui.ssh.server import CellwarsServer

    server = CellwarsServer(port=0, home=tmp_path)
    assert server.guest_secret == (tmp_path / GUEST_SECRET_NAME).read_bytes()
    assert CellwarsServer(port=0, home=tmp_path).guest_secret == server.guest_secret


async def test_a_seat_stored_under_the_old_hash_comes_back_with_its_code_and_is_rekeyed(tmp_path):
    store = MemoryTableStore()
    old = Hub(tmp_path / "tables", store=store, sweep_interval=3600)
    await old.start()
    ann, cat, code, cat_code = await with_a_guest(old)
    # as an older version stored it: cat's seat under the fixed-salt hash of the code
    table = old.tables[code]
    table.slots[1].identity = legacy_guest_identity(cat_code)
    table.save()
    await leave_all(old, ann, cat)
    await old.close()

    hub = Hub(tmp_path / "tables", store=store, sweep_interval=3600, guest_secret=b"s" * 32)
    await hub.start()
    try:
        cat = await join(hub, "guest", "x")
        cat.send(p.SetName(name="", code=cat_code))
        back = await table_where(cat, lambda t: t.you == 1)
        assert back.legal and back.info.code == code
        new = guest_identity(cat_code, b"s" * 32)
        await hub.tables[code].saver.settled()  # (the store is written off the event loop)
        assert [s.identity for s in (await store.fetch(code)).slots] == ["key:ann", new]
        assert hub.tables[code].match.seats[1].identity == new
        await leave_all(hub, cat)
    finally:
        await hub.close()
