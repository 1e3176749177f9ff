"""``kill -9`` of the server that owns a table (a real process, tests/online/pg/hub_process.py):
another server takes the table over within 5 s and the game goes on from its last committed move
(no acknowledged move lost); a real-time round comes back paused. Real PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cellwars_tui.online import protocol as p
from cellwars_tui.online.client import HubClient
from cellwars_tui.online.hub_cluster import ClusterHub
from cellwars_tui.online.pg.shared import SharedStore
from cellwars_tui.online.pg.status import status_text
from cellwars_tui.online.pg.store import PostgresTableStore
from cellwars_tui.record.format import decode_record

from ..test_hub import join, table_where, watch_then_sit
from .test_cluster import lobby_with

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
async def server_a(pg_url):
    """Server ``a`` as a process of its own (ann's session is admitted there): (socket, pid)."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.online.pg.hub_process", pg_url, "a", "key:ann=token-ann",
        cwd=ROOT, stdout=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        line = await asyncio.wait_for(proc.stdout.readline(), 60)
        yield json.loads(line)["socket"], proc
    finally:
        if proc.returncode is None:
            proc.kill()
        await proc.wait()


@pytest.fixture
async def server_b(pg_url, tmp_path):
    shared = await SharedStore.open(pg_url, "b")
    hub = ClusterHub(tmp_path / "b" / "tables", shared=shared, sweep_interval=3600)
    await hub.start()
    yield hub
    await hub.close()


async def ann_at(socket: str) -> HubClient:
    """ann connected to the server process listening at ``socket`` (it admits her)."""
    ann = HubClient(socket, "token-ann")
    await ann.connect()
    await ann.next(p.Welcome)
    return ann


async def started_with_a_bot(ann: HubClient, game: str) -> str:
    """ann makes a two-seat table of ``game``, puts an easy bot in seat 2 and starts: its
    code."""
    ann.send(p.CreateTable(game=game, players=2))
    code = (await table_where(ann, lambda t: t.you == 0)).info.code
    ann.send(p.SetBot(seat=1, bot="easy"))
    await table_where(ann, lambda t: t.info.seats[1].kind == "bot")
    ann.send(p.Start())
    return code


async def test_kill_9_of_the_owner_another_server_takes_over_and_no_move_is_lost(
        server_a, server_b, pg_url):
    socket_a, proc = server_a
    b = server_b
    ann = await ann_at(socket_a)
    ben = await join(b, "key:ben", "ben")
    ann.send(p.CreateTable(game="toy-race", players=2))
    code = (await table_where(ann, lambda t: t.you == 0)).info.code
    await lobby_with(ben, code)
    await watch_then_sit(ben, code, 1)
    await table_where(ben, lambda t: t.you == 1)
    ann.send(p.Start())
    state = await table_where(ann, lambda t: t.step > 0)
    clients = {0: ann, 1: ben}
    acknowledged = 0
    seq = 0
    while acknowledged < 4 and state.outcome is None:  # a few moves, half of them via b
        (seat,) = state.to_act
        me = clients[seat]
        seen = me.table if me.table.step == state.step else await table_where(
            me, lambda t, s=state.step: t.step == s)
        seq += 1
        me.send(p.Play(step=seen.step, action="hold" if acknowledged % 2 else "roll", seq=seq))
        told = await table_where(me, lambda t, q=seq: t.played == q)
        acknowledged += 1
        state = told if me is ann else await table_where(ann, lambda t, s=told.step: t.step >= s)
    last_step = state.step
    before = await status_text(pg_url)  # the operator's view
    assert f"owns 1 table: {code}" in [x for x in before.splitlines() if x.startswith("  a (")][0]
    proc.send_signal(signal.SIGKILL)  # the owner dies, with no word to anyone
    killed = time.monotonic()
    await proc.wait()
    taken = await table_where(ben, lambda t: code in [c for c, _ in b.cluster.takeovers]
                              and t.step >= last_step, timeout=30)
    took = time.monotonic() - killed
    assert took <= 5, f"taken over after {took:.1f} s"
    assert code in b.tables and not b.cluster.is_replica(b.tables[code])
    assert taken.step == last_step  # the game goes on from its last committed move
    text = await status_text(pg_url)
    assert f"owns 1 table: {code}" in text and "  a (" not in text  # a is gone
    store = await PostgresTableStore.open(pg_url)
    try:
        stored = await store.fetch(code)
    finally:
        await store.close()
    assert stored is not None
    moves = [s for s in decode_record(stored.record, "t").steps if s.seat >= 0]
    assert len(moves) == acknowledged  # every acknowledged move is in the store, no other
    ann = await join(b, "key:ann", "ann")  # ann comes back through server b
    mine = await table_where(ann, lambda t: t.you == 0 and t.step == last_step)
    (seat,) = mine.to_act
    me = {0: ann, 1: ben}[seat]
    me.send(p.Play(step=last_step, action="roll", seq=99))  # and the game goes on
    await table_where(me, lambda t: t.played == 99 and t.step > last_step)
    for c in (ann, ben):
        await c.close()


async def test_a_real_time_game_taken_over_comes_back_paused(server_a, server_b):
    socket_a, proc = server_a
    b = server_b
    ann = await ann_at(socket_a)
    code = await started_with_a_bot(ann, "infection")
    await table_where(ann, lambda t: t.info.status == "playing")
    ann_b = await join(b, "key:ann", "ann")  # ann is at server b too
    await table_where(ann_b, lambda t: t.you == 0 and t.info.status == "playing")
    proc.send_signal(signal.SIGKILL)
    await proc.wait()
    back = await table_where(ann_b, lambda t: code in [c for c, _ in b.cluster.takeovers]
                             and bool(t.paused), timeout=30)
    assert "restarted" in back.paused and not back.clock_running
    ann_b.send(p.Pause(on=False))  # a seated player plays on
    await table_where(ann_b, lambda t: not t.paused)
    await ann_b.close()
