"""Online tables survive a restart (issue 17, point 5): every table is in the store after every
action and set up again when the server starts; players come back to their seats; a real-time
game waits, paused, until a seated player plays on.

Once the lobby was empty after any restart (SIGTERM or kill -9), although the record in the
server's data dir was intact to the last move.
"""

from __future__ import annotations

from cellwars_tui.online import protocol as p
from cellwars_tui.online.hub import Hub
from cellwars_tui.online.store import SqliteTableStore, StoredSlot, StoredTable
from cellwars_tui.online.tables import RESTORED_PAUSE

from . import test_realtime  # noqa: F401  (registers live-rounds)
from .test_hub import SECRET, join, table_where, two_at_a_table


def a_hub(tmp_path) -> Hub:
    return Hub(tmp_path / "tables", store=SqliteTableStore(tmp_path / "tables.sqlite3"),
               sweep_interval=3600)


async def test_a_restarted_hub_gives_every_player_their_table_back(tmp_path):
    hub = a_hub(tmp_path)
    await hub.start()
    ann, ben, code = await two_at_a_table(hub, "secret-pick")
    ann.send(p.Start())
    await table_where(ben, lambda t: bool(t.view))
    ann.send(p.Play(step=0, action="pick2"))
    before = await table_where(ann, lambda t: t.step == 1)
    cat = await join(hub, "key:cat", "cat")  # an open table with a bot: it stays open
    cat.send(p.CreateTable(game="toy-race", players=2))
    open_code = (await table_where(cat, lambda t: t.you == 0)).info.code
    cat.send(p.SetBot(seat=1, bot="random"))
    await table_where(cat, lambda t: t.info.seats[1].kind == "bot")
    for c in (ann, ben, cat):
        await c.close()
    await hub.close()

    again = a_hub(tmp_path)
    await again.start()
    try:
        assert set(again.tables) == {code, open_code}
        reopened = again.tables[open_code]
        assert [s.kind for s in reopened.slots] == ["free", "bot"]  # cat left when it stopped
        ann = await join(again, "key:ann", "ann")
        back = await table_where(ann, lambda t: t.you == 0)  # straight back, no Join
        assert back.step == before.step and back.view == before.view
        lines = [line.text for line in back.log]
        assert lines[-3:] == ["ann picks 2", "the server restarted.", "ann is back."]
        ben = await join(again, "key:ben", "ben")
        state = await table_where(ben, lambda t: t.you == 1 and bool(t.legal))
        assert SECRET.decode_state(state.view).picks == (-2, -1)  # still hidden from ben
        ben.send(p.Play(step=state.step, action="pick1"))
        end = await table_where(ann, lambda t: t.outcome is not None and bool(t.record))
        assert end.outcome.winners == (0,)  # (the record is named once it is written)
        assert (again.tables_dir / end.record).is_file()
        await ann.close()
        await ben.close()
    finally:
        await again.close()


async def test_a_restored_real_time_game_waits_until_a_seated_player_plays_on(tmp_path):
    hub = a_hub(tmp_path)
    await hub.start()
    ann, ben, code = await two_at_a_table(hub, "live-rounds")
    ann.send(p.Start())
    await table_where(ann, lambda t: bool(t.view) and not t.paused)
    ann.send(p.Play(step=(await table_where(ann, lambda t: bool(t.legal))).step, action="tap"))
    tapped = await table_where(ann, lambda t: t.step >= 1 and bool(t.legal))
    for c in (ann, ben):
        await c.close()
    await hub.close()  # (kill -9 keeps what the last action saved: test_restart_kill)

    again = a_hub(tmp_path)
    await again.start()
    try:
        ann = await join(again, "key:ann", "ann")
        ben = await join(again, "key:ben", "ben")
        state = await table_where(ann, lambda t: t.you == 0 and t.info.seats[1].connected)
        assert state.paused == RESTORED_PAUSE and state.legal == ()
        assert state.step == tapped.step and not state.clock_running
        ann.send(p.Play(step=state.step, action="tap"))
        assert "paused" in (await ann.next(p.Error)).message
        ben.send(p.Pause(on=False))  # any seated player plays on
        state = await table_where(ann, lambda t: not t.paused and bool(t.legal))
        assert state.clock_running
        ann.send(p.Play(step=state.step, action="tap"))
        await table_where(ann, lambda t, s=state.step: t.step > s)
        await ann.close()
        await ben.close()
    finally:
        await again.close()


async def test_a_damaged_store_or_table_is_one_log_line_and_the_rest_comes_back(
        tmp_path, caplog):
    (tmp_path / "tables.sqlite3").write_bytes(b"not a database at all" * 100)
    hub = a_hub(tmp_path)  # a damaged store is kept aside and a new one started
    await hub.start()
    ann, ben, code = await two_at_a_table(hub, "secret-pick")
    await hub.store.save(StoredTable(code="ZZZZ", game="chess", options={}, think=1.0,
                               host_identity="", host_name="", slots=()))
    await hub.store.save(StoredTable(code="YYYY", game="toy-race", options={"players": 2}, think=1.0,
                               host_identity="", host_name="",
                               slots=(StoredSlot(kind="bot", name="A", bot="expert"),
                                      StoredSlot(kind="bot", name="B", bot="mcts"))))
    for c in (ann, ben):
        await c.close()
    await hub.close()
    assert any(tmp_path.glob("tables.sqlite3.damaged-*"))
    again = a_hub(tmp_path)
    await again.start()
    try:
        assert set(again.tables) == {code}
        assert any("ZZZZ" in r.getMessage() and "unknown game" in r.getMessage()
                   for r in caplog.records)
        assert any("YYYY" in r.getMessage() and "unknown bot level 'expert'" in r.getMessage()
                   for r in caplog.records)
    finally:
        await again.close()
