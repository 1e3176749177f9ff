"""A move is durable before it is acknowledged (issue 30, designed for issue 32): the store is
written off the hub's event loop, one table's saves in order and versioned, nobody hears of a
move before the store holds it, and a store that fails refuses moves in one line until it is
back, when play resumes by itself."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time

import msgspec
import pytest

from cellwars_tui.online import protocol as p
from cellwars_tui.online.hub import Hub
from cellwars_tui.online.saving import TableSaver
from cellwars_tui.online.store import (
    MemoryTableStore, SqliteTableStore, StaleTable, StoredSlot, StoredTable, StoreError,
)
from cellwars_tui.table.authority import NOT_SAVED

from .test_hub import SECRET, join, table_where, two_at_a_table


class HeldStore(MemoryTableStore):
    """A store whose writes wait at a gate (a threading.Event, in a thread as a real store's
    do), or fail while ``failing`` says why."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = threading.Event()
        self.gate.set()
        self.failing = ""
        self.started = 0  # writes begun

    async def save(self, table: StoredTable) -> None:
        self.started += 1
        await asyncio.get_running_loop().run_in_executor(None, self.gate.wait, 60)
        if self.failing:
            raise StoreError(self.failing)
        await super().save(table)

    def table(self, code: str) -> StoredTable:
        return msgspec.msgpack.decode(self.tables[code], type=StoredTable)


def stored(code: str = "ABCD", version: int = 0) -> StoredTable:
    return StoredTable(code=code, game="toy-race", options={"players": 2}, think=1.0,
                       host_identity="key:ann", host_name="ann",
                       slots=(StoredSlot(), StoredSlot()), version=version)


# -- the store and the saver ---------------------------------------------------------------------
async def test_a_store_keeps_a_table_only_over_the_version_before_it(tmp_path):
    for store in (MemoryTableStore(), SqliteTableStore(tmp_path / "t.sqlite3")):
        await store.save(stored(version=1))
        await store.save(stored(version=2))
        with pytest.raises(StaleTable):  # two servers saved version 2: the second is refused
            await store.save(stored(version=2))
        tables, problems = await store.load()
        assert [t.version for t in tables] == [2] and not problems
        await store.delete("ABCD")
        await store.save(stored(version=7))  # (none stored: any version starts it)
        await store.close()


async def test_a_store_made_before_versions_is_brought_up_to_date_once(tmp_path):
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE tables (code TEXT PRIMARY KEY, data BLOB NOT NULL, "
               "updated REAL NOT NULL)")
    db.execute("INSERT INTO tables VALUES (?, ?, 0)", ("ABCD", msgspec.msgpack.encode(stored())))
    db.execute("PRAGMA user_version=1")
    db.commit()
    db.close()
    store = SqliteTableStore(path)
    tables, _ = await store.load()
    assert [(t.code, t.version) for t in tables] == [("ABCD", 0)]
    await store.save(stored(version=1))
    await store.close()
    again = SqliteTableStore(path)  # opened again: nothing to change
    assert [t.version for t in (await again.load())[0]] == [1]
    await again.close()


async def test_one_tables_saves_are_written_in_order_and_the_newest_waiting_one_only():
    store = HeldStore()
    n = 0

    def snapshot() -> StoredTable:
        return msgspec.structs.replace(stored(), host_name=f"save {n}")

    saver = TableSaver("ABCD", snapshot, store)
    store.gate.clear()
    first = saver.save()
    await until(lambda: store.started == 1)
    n = 1
    second = saver.save()
    n = 2
    third = saver.save()  # waits with the second: only the newest of them is written
    assert not first.done() and not second.done()
    store.gate.set()
    await asyncio.gather(first, second, third)
    assert store.started == 2 and saver.version == 2
    assert store.table("ABCD").host_name == "save 2" and store.versions["ABCD"] == 2


# -- the hub ---------------------------------------------------------------------------------------
async def hub_with(tmp_path, store) -> Hub:
    hub = Hub(tmp_path / "tables", store=store, sweep_interval=3600)
    await hub.start()
    return hub


async def test_nobody_hears_of_a_move_before_the_store_holds_it_and_the_hub_goes_on_meanwhile(
        tmp_path):
    store = HeldStore()
    hub = await hub_with(tmp_path, store)
    try:
        ann, ben, code = await two_at_a_table(hub, "secret-pick")
        ann.send(p.Start())
        state = await table_where(ann, lambda t: bool(t.legal))
        store.gate.clear()  # the next save waits (a database far away, a slow disk)
        ann.send(p.Play(step=state.step, action="pick2", seq=1))
        await until(lambda: hub.tables[code].authority is not None
                    and hub.tables[code].authority.busy)
        # the save waits in its thread: the hub's loop answers everyone meanwhile, and another
        # table is made, joined and saved (its own saves do not wait for this table's)
        ben.send(p.Leave())
        await ben.next(p.Left)
        ben.send(p.CreateTable(game="toy-race", players=2))
        other = await table_where(ben, lambda t: t.you == 0)
        assert other.info.code != code and store.started >= 2
        # ann's move is played here but told to nobody, not even ann, until it is saved
        assert hub.tables[code].match.cursor == state.step + 1
        assert ann.table.played == 0 and ann.table.step == state.step
        ann.send(p.Play(step=state.step, action="pick1", seq=2))  # waits its turn, then refused
        store.gate.set()
        told = await table_where(ann, lambda t: t.played == 1)
        assert told.step == state.step + 1 and store.table(code).version >= 3
        assert (await ann.next(p.Error)).seq == 2
        for c in (ann, ben):
            await c.close()
    finally:
        store.gate.set()
        await hub.close()


async def test_a_store_that_fails_refuses_moves_in_one_line_and_play_resumes_when_it_is_back(
        tmp_path, caplog, monkeypatch):
    monkeypatch.setattr(TableSaver, "RETRY_FIRST", 0.02)
    monkeypatch.setattr(TableSaver, "RETRY_MAX", 0.05)
    store = HeldStore()
    hub = await hub_with(tmp_path, store)
    try:
        ann, ben, code = await two_at_a_table(hub, "secret-pick")
        ann.send(p.Start())
        state = await table_where(ben, lambda t: bool(t.legal))
        ann.send(p.Play(step=state.step, action="pick2", seq=1))
        await table_where(ann, lambda t: t.played == 1)  # saved, then told
        state = await table_where(ben, lambda t, s=state.step: t.step > s)
        store.failing = "database or disk is full"
        ben.send(p.Play(step=state.step, action="pick1", seq=1))
        refused = await ben.next(p.Error)
        assert refused.seq == 1 and refused.message == NOT_SAVED  # never half-saved
        waiting = await table_where(ben, lambda t: any("could not be saved" in line.text
                                                       for line in t.log))
        assert waiting.step == state.step  # the move was taken back
        ben.send(p.Play(step=waiting.step, action="pick1", seq=2))
        assert "cannot be saved now" in (await ben.next(p.Error)).message
        store.failing = ""  # the store is back: the saver's retry gets through
        back = await table_where(ben, lambda t: any("saved again" in line.text for line in t.log))
        said = [line.text for line in back.log if "could not be saved" in line.text]
        assert len(said) == 1  # one line for the players, not one per try
        logged = [r for r in caplog.records if "could not be saved" in r.getMessage()]
        assert len(logged) == 1 and "disk is full" in logged[0].getMessage()
        ben.send(p.Play(step=back.step, action="pick1", seq=3))
        end = await table_where(ann, lambda t: t.outcome is not None and bool(t.record))
        assert end.outcome.winners == (0,)
        await hub.tables[code].saver.settled()
        kept = store.table(code)  # every move told is in the store
        assert kept.version == hub.tables[code].saver.version and kept.record
        for c in (ann, ben):
            await c.close()
    finally:
        await hub.close()


async def until(condition, timeout: float = 30.0) -> None:
    """Wait for ``condition()`` (the timeout only guards against a hang)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        assert loop.time() < deadline, "the condition never held"
        await asyncio.sleep(0.005)


assert SECRET.id == "secret-pick"  # (the stand-in game these tests play, registered there)


class TickedStore(MemoryTableStore):
    """A store whose every save, in a thread of its own, lasts until the hub's event loop has
    ticked twice meanwhile (and 50 ms at least): a save that held the loop up could never end.
    It records each table's versions in the order they were written."""

    def __init__(self) -> None:
        super().__init__()
        self.ticks = 0
        self.written: dict[str, list[int]] = {}
        self.lock = threading.Lock()

    def _wait(self) -> None:
        start = self.ticks
        deadline = time.monotonic() + 60
        time.sleep(0.05)
        while self.ticks < start + 2:  # (only the event loop moves ticks on)
            assert time.monotonic() < deadline, "the event loop stood still during a save"
            time.sleep(0.001)

    async def save(self, table: StoredTable) -> None:
        await asyncio.get_running_loop().run_in_executor(None, self._wait)
        with self.lock:
            self.written.setdefault(table.code, []).append(table.version)
        await super().save(table)


async def test_fifty_tables_play_while_every_save_lasts_and_the_loop_never_waits_for_one(tmp_path):
    from .test_realtime import InProcessBots

    store = TickedStore()
    hub = Hub(tmp_path / "tables", store=store, sweep_interval=3600, bots=InProcessBots())
    await hub.start()
    stop = asyncio.Event()

    async def tick() -> None:
        while not stop.is_set():
            store.ticks += 1
            await asyncio.sleep(0.002)

    ticker = asyncio.create_task(tick())
    try:
        host = await join(hub, "key:host", "host")
        for _ in range(50):  # fifty tables of bots, each started at once
            host.send(p.CreateTable(game="toy-race", players=2))
            code = (await table_where(host, lambda t: t.you == 0 and not t.view)).info.code
            host.send(p.Stand())
            host.send(p.SetBot(seat=0, bot="random"))
            host.send(p.SetBot(seat=1, bot="random"))
            host.send(p.Start())
            await table_where(host, lambda t, c=code: t.info.code == c and bool(t.view))
            host.send(p.Leave())
            await host.next(p.Left)
        await until(lambda: sum(len(v) for v in store.written.values()) >= 200)
        playing = [t for t in hub.tables.values() if t.match is not None and t.match.cursor > 1]
        assert len(playing) == 50
        for code, versions in store.written.items():  # each table's saves, in order
            assert versions == list(range(versions[0], versions[0] + len(versions))), code
        await host.close()
    finally:
        await hub.close()  # (its last saves need the loop's ticks too)
        stop.set()
        await ticker
