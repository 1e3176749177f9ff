"""``cellwars serve --store postgresql://...`` (and CELLWARS_STORE): a wrong URL, a database that
cannot be reached, a schema from a newer cellwars or a name a live server holds is one line at
start, exit 2, and nothing is written (no data dir, no host key); ``--status`` shows the servers
alive, the tables each owns and the players connected."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys

import psycopg
import pytest

from cellwars_tui.online.pg.node import ClusterNode
from cellwars_tui.online.pg.store import PostgresTableStore
from cellwars_tui.ssh.server import main as serve_main

from ..test_store_contract import a_table


def serve(capsys, *argv: str) -> tuple[int, list[str]]:
    code = serve_main(["--port", "0", *argv])
    return code, capsys.readouterr().err.strip().splitlines()


def nothing_written() -> bool:
    return not os.path.exists(os.environ["CELLWARS_HOME"])


@pytest.mark.parametrize("url, says", [
    ("mysql://ann@127.0.0.1/db", "not a PostgreSQL URL"),
    ("postgresql://ann@127.0.0.1/db?nonsense=1", "not a PostgreSQL URL"),
    ("postgresql://postgres@/cellwars?host=/nonexistent", "cannot connect to the database"),
])
def test_a_wrong_or_unreachable_store_is_one_line_exit_2_and_nothing_written(capsys, url, says):
    code, err = serve(capsys, "--store", url)
    assert code == 2 and len(err) == 1 and err[0].startswith("cellwars: ") and says in err[0]
    assert nothing_written()


def test_the_store_comes_from_the_environment_too(capsys, monkeypatch):
    monkeypatch.setenv("CELLWARS_STORE", "postgresql://postgres@/x?host=/nonexistent")
    code, err = serve(capsys)
    assert code == 2 and "cannot connect to the database" in err[0] and nothing_written()


def test_a_newer_schema_is_refused_at_start(capsys, pg_url):
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE cellwars_schema (version integer NOT NULL)")
        conn.execute("INSERT INTO cellwars_schema VALUES (7)")
    code, err = serve(capsys, "--store", pg_url)
    assert code == 2 and len(err) == 1 and "newer than this cellwars knows" in err[0]
    assert nothing_written()


def test_a_name_a_live_server_holds_is_refused_at_start(capsys, pg_url):
    async def hold():
        await (await PostgresTableStore.open(pg_url)).close()
        node = ClusterNode(pg_url, "north")
        await node.start()
        try:
            return await asyncio.to_thread(serve, capsys, "--store", pg_url, "--name", "north")
        finally:
            await node.close()

    code, err = asyncio.run(hold())
    assert code == 2 and "a server named 'north' is already running" in err[0]
    assert nothing_written()


def test_status_shows_servers_their_tables_and_players(capsys, pg_url):
    async def run():
        store = await PostgresTableStore.open(pg_url)
        await store.save(a_table("ABCD"))
        await store.save(a_table("EFGH", status="open"))
        node = ClusterNode(pg_url, "north")
        await node.start()
        await node.own("ABCD")
        await store.save(a_table("IJKL", status="over"))
        await node.own("IJKL")  # (a finished table has an owner too: it keeps its result)
        node.players = 2
        await node._on_lock("UPDATE cellwars_servers SET players = 2")
        try:
            return await asyncio.to_thread(serve_main, ["--store", pg_url, "--status"])
        finally:
            await node.close()
            await store.close()

    assert asyncio.run(run()) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith(": 1 server alive") and "@socket " in out[0]
    assert out[1].startswith("  north (on ") and out[1].endswith(
        "2 players connected, owns 2 tables: ABCD IJKL")
    assert out[2] == "tables: 3 (1 playing, 1 open, 1 over)"


def test_status_needs_a_store(capsys):
    code, err = serve(capsys, "--status")
    assert code == 2 and "--status needs --store URL" in err[0]


def test_without_the_driver_the_store_is_one_line(tmp_path):
    """A wheel installed without the postgres extra says what to install."""
    script = ("import sys; sys.modules['psycopg'] = None; "
              "from cellwars_tui.ssh.server import main; "
              "sys.exit(main(['--store', 'postgresql://a@/b']))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 2
    assert done.stderr.strip() == ("cellwars: the PostgreSQL store needs psycopg: pip install "
                                   "'cellwars-tui[postgres]'")


def test_every_server_of_a_store_has_one_host_key_and_guest_secret(pg_url):
    from cellwars_tui.online.pg.shared import SharedStore
    from cellwars_tui.online.store import StoreError

    async def run():
        one = await SharedStore.open(pg_url, "one")
        two = await SharedStore.open(pg_url, "two")
        try:
            await one.check_identity("SHA256:aaa", b"s" * 32)
            await two.check_identity("SHA256:aaa", b"s" * 32)  # the same: welcome
            with pytest.raises(StoreError, match=r"host key \(SHA256:bbb\) is not the one of "
                                                 r"the servers sharing this store \(SHA256:aaa"):
                await two.check_identity("SHA256:bbb", b"s" * 32)
            with pytest.raises(StoreError, match="guest secret is not the one"):
                await two.check_identity("SHA256:aaa", b"t" * 32)
        finally:
            await one.close()
            await two.close()

    asyncio.run(run())
