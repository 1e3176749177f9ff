"""Finished games among several servers (cluster.py, hub_records.py): a finished table whose
owner died before it kept the result, wrote the records or swept the table is taken over by
another server, which does all three (the result kept once); a game finished at server A is in a
keyed player's saved games at server B, and the table page's Replay works at B. Real PostgreSQL
(tests/postgres.py); each hub is what ``cellwars serve --store`` runs."""

from __future__ import annotations

import asyncio

import pytest

from cellwars_tui.online import protocol as p
from cellwars_tui.online.client import ENV_RECORDS
from cellwars_tui.online.hub_cluster import ClusterHub
from cellwars_tui.online.hub_records import DELIVERED
from cellwars_tui.online.pg.shared import SharedStore
from cellwars_tui.record.format import SUFFIX, load_match, read_record_file
from cellwars_tui.ssh.lobby import finished_record

from ..test_hub import join, table_where
from .test_cluster import ann_and_ben, play_to_end
from .test_node import until, until_true


@pytest.fixture
async def two_homes(pg_url, tmp_path):
    """Servers a and b on one store, each with its own disk: tables folder and players' homes."""
    hubs: list[ClusterHub] = []
    for name in ("a", "b"):
        shared = await SharedStore.open(pg_url, name)
        homes = tmp_path / name / "players"
        hub = ClusterHub(tmp_path / name / "tables", shared=shared, sweep_interval=3600,
                         home_for=lambda identity, homes=homes: homes / identity.split(":")[-1])
        await hub.start()
        hubs.append(hub)
    yield hubs
    for hub in hubs:
        await hub.close()


def games_of(hub: ClusterHub, who: str) -> list:
    folder = hub.home_for(f"key:{who}") / "data" / "games"
    return sorted(folder.glob(f"*{SUFFIX}")) if folder.is_dir() else []


async def die(hub: ClusterHub) -> None:
    """``hub``'s server dies as with ``kill -9``: it does nothing more, and its connections to
    the database end (its tables' locks with them)."""
    await hub.cluster.stop()
    hub.cluster._lost()  # (its tables save nothing more)
    node = hub.cluster.node
    for task in node._tasks:
        task.cancel()
    await asyncio.gather(*node._tasks, return_exceptions=True)
    await node.lock_conn.close()


async def test_a_finished_table_whose_owner_died_is_taken_over_kept_once_and_swept(
        two_homes, monkeypatch):
    a, b = two_homes
    ann, ben, code = await ann_and_ben(a, b)  # a owns the table; ben plays from b
    # a dies right after the last move is committed: before it keeps the result (ratings) and
    # writes the records, and long before its sweep would delete the table
    monkeypatch.setattr(a.league, "game_over", lambda table: None)
    monkeypatch.setattr(a.play, "_write_records", lambda table, m: None)
    ann.send(p.Start())
    end = await play_to_end(ann, ben, await table_where(ann, lambda t: t.step > 0))
    store = b.cluster.store
    stored = await store.fetch(code)
    assert stored.status == "over" and not stored.league.result_kept
    assert not stored.saved_for_players and games_of(a, "ann") == []
    await ann.close()
    await die(a)
    await until(lambda: code in b.cluster.node.owned and code in b.tables
                and not b.cluster.is_replica(b.tables[code]))  # taken over
    taken = b.tables[code]
    await until(lambda: taken.league.result_kept and taken.saved_for_players and
                taken.record_name)
    assert (b.tables_dir / taken.record_name).is_file()
    for who in ("ann", "ben"):  # each keyed player's saved games (on b's disk)
        (saved,) = games_of(b, who)
        assert read_record_file(saved).header.result == end.outcome
    kept = await store.finished_game(end.game_id)
    assert kept is not None and kept.code == code
    assert (await store.profile("key:ann")).records[0].played == 1  # once
    assert not (await store.record_result(kept)).new  # told again: changes nothing
    ben.send(p.Leave())
    await until(lambda: not taken.watchers)
    b.sweep(now=b.clock() + b.idle_table_seconds + 1)  # then deleted as by its first owner

    async def gone() -> bool:
        return await store.fetch(code) is None

    await until_true(gone)
    await until(lambda: code not in b.cluster.summaries)  # in no lobby
    await ben.close()


async def test_a_game_finished_at_one_server_is_in_saved_games_and_replays_at_another(
        two_homes, monkeypatch):
    a, b = two_homes
    ann, ben, code = await ann_and_ben(a, b)  # a owns the table; ben plays from b
    ann.send(p.Start())
    end = await play_to_end(ann, ben, await table_where(ann, lambda t: t.step > 0))
    # the table page's Replay at b: the record's name is told once the file is in b's tables
    # folder (what the session's finished_record opens)
    told = await table_where(ben, lambda t: bool(t.record))
    monkeypatch.setenv(ENV_RECORDS, str(b.tables_dir))
    path = finished_record(told.record)
    assert path is not None and load_match(path).outcome() == end.outcome
    (bens,) = games_of(b, "ben")  # and ben's saved games at b, where he played
    assert bens.name == told.record
    # ann played at a; b wrote her copy too while it showed the table to ben: taken away, as
    # for a game b never showed, it comes from the store when she connects at b, once
    for f in games_of(b, "ann"):
        f.unlink()
    (b.home_for("key:ann") / "data" / "games" / DELIVERED).unlink()
    await ann.close()
    ann_b = await join(b, "key:ann", "ann")
    await until(lambda: games_of(b, "ann"))
    (hers,) = games_of(b, "ann")
    assert read_record_file(hers).header.result == end.outcome
    await until(lambda: not b._delivering)
    again = await join(b, "key:ann", "ann")  # a second login brings no second copy
    await until(lambda: not b._delivering)
    assert games_of(b, "ann") == [hers]
    # a dies with the table (its records written on its disk), and b takes it over from a
    # disk without them: written there again before ben is told the record's name
    path.unlink()
    await die(a)
    await until(lambda: code in b.cluster.node.owned and not b.cluster.is_replica(b.tables[code]))
    back = await table_where(ben, lambda t: bool(t.record)
                             and code in b.cluster.node.owned and path.is_file())
    assert back.record == told.record and load_match(path).outcome() == end.outcome
    for c in (ann_b, again, ben):
        await c.close()
