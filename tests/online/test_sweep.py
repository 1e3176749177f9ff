"""No unfinished game is ever deleted (issue 28, point 1).

The hub's sweep once deleted, from memory and from the store, every table nobody had watched for
ten minutes: a game in progress whose two players' connections dropped was gone for good, with
no log line and no record kept. Now a started, unfinished game with a person's seat goes to
sleep (out of memory, kept in the store) and comes back when one of its players does; only open
tables, finished ones (their record kept) and games of bots only are deleted, each deletion
logged with its reason; ``archive_after`` writes every seated player's record before deleting.
The hub's clock is a fake one here: nothing waits ten minutes.
"""

from __future__ import annotations

import logging

import pytest

from cellwars_tui.record.format import load_match
from cellwars_tui.online import protocol as p
from cellwars_tui.online.hub import Hub
from cellwars_tui.online.store import MemoryTableStore

from tests.ssh.test_play import until

from .test_hub import homes_in, join, table_where, two_at_a_table

DAY = 86400.0


class FakeTime:
    """The hub's clock: seconds since the epoch, moved on by hand."""

    def __init__(self) -> None:
        self.t = 1_800_000_000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
async def hub(tmp_path):
    hub = Hub(tmp_path / "tables", home_for=homes_in(tmp_path / "homes"), sweep_interval=3600,
              store=MemoryTableStore())
    hub.clock = FakeTime()
    await hub.start()
    yield hub
    await hub.close()


async def leave_all(hub: Hub, *clients) -> None:
    """Close these clients' connections and wait until the hub has seen them go."""
    staying = len(hub.clients) - len(clients)
    for client in clients:
        await client.close()
    await until(lambda: len(hub.clients) <= staying, what="the hub to see them go")


async def sweep_later(hub: Hub, seconds: float) -> None:
    """Move the hub's clock on, sweep, and wait until the tables swept are saved or deleted
    (the store is written off the event loop)."""
    hub.clock.t += seconds
    hub.sweep(now=hub.clock())
    await hub.settled()


async def a_game_half_played(hub: Hub):
    """ann and ben at a secret-pick table: started, ann has picked, ben not yet."""
    ann, ben, code = await two_at_a_table(hub, "secret-pick")
    ann.send(p.Start())
    await table_where(ben, lambda t: bool(t.view))
    ann.send(p.Play(step=0, action="pick2"))
    await table_where(ben, lambda t: t.step == 1)
    return ann, ben, code


async def with_a_guest(hub: Hub):
    """ann (keyed) and the guest cat at a secret-pick table, started: (ann, cat, the room code,
    cat's reconnect code)."""
    ann = await join(hub, "key:ann", "ann")
    cat = await join(hub, "guest", "x")
    cat.send(p.SetName(name="cat"))
    cat_code = (await cat.next(p.Welcome)).code
    ann.send(p.CreateTable(game="secret-pick", players=2))
    code = (await table_where(ann, lambda t: t.you == 0)).info.code
    cat.send(p.Join(code=code))
    cat.send(p.Sit(seat=1))
    await table_where(cat, lambda t: t.you == 1)
    ann.send(p.Start())
    await table_where(cat, lambda t: bool(t.legal))
    return ann, cat, code, cat_code


def deletions(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if "deleted from the table store" in r.getMessage()]


async def test_an_unfinished_game_nobody_watches_sleeps_in_the_store_and_comes_back(hub, caplog):
    ann, ben, code = await a_game_half_played(hub)
    cat = await join(hub, "key:cat", "cat")  # in the lobby: the table is listed
    await leave_all(hub, ann, ben)  # both connections drop
    await sweep_later(hub, hub.idle_table_seconds + 1)
    assert code not in hub.tables  # out of memory...
    assert code in hub.store.tables  # ...never out of the store
    while code in [t.code for t in (await cat.next(p.Lobby)).tables]:
        pass  # and no longer listed for others
    await sweep_later(hub, 30 * DAY)  # a month later, still there (no --archive-after)
    assert (await hub.store.fetch(code)) is not None and not deletions(caplog)
    ann = await join(hub, "key:ann", "ann")
    back = await table_where(ann, lambda t: t.you == 0)  # straight back to the seat
    assert back.step == 1 and back.info.code == code
    ben = await join(hub, "key:ben", "ben")
    state = await table_where(ben, lambda t: t.you == 1 and bool(t.legal))
    ben.send(p.Play(step=state.step, action="pick1"))
    end = await table_where(ann, lambda t: t.outcome is not None and bool(t.record))
    assert end.outcome.winners == (0,) and (hub.tables_dir / end.record).is_file()
    await leave_all(hub, ann, ben, cat)


async def test_a_game_stays_in_memory_while_one_of_its_players_is_connected(hub):
    ann, ben, code = await a_game_half_played(hub)
    ann.send(p.Leave())  # ann is in the lobby, ben gone
    await ann.next(p.Left)
    await leave_all(hub, ben)
    await sweep_later(hub, hub.idle_table_seconds + 1)
    assert code in hub.tables
    lobby = await ann.next(p.Lobby)
    assert code in lobby.mine
    await ann.close()


async def test_a_sleeping_game_wakes_for_a_guest_code_and_for_its_room_code(hub):
    ann, cat, code, cat_code = await with_a_guest(hub)
    await leave_all(hub, ann, cat)
    await sweep_later(hub, hub.idle_table_seconds + 1)
    assert code in hub.asleep
    # the nickname of a guest whose game sleeps is still theirs
    dan = await join(hub, "guest", "x")
    dan.send(p.SetName(name="CAT"))
    assert "held by a player" in (await dan.next(p.Error)).message
    # anyone may watch it by its room code; then the guest comes back with the code
    dan.send(p.SetName(name="dan"))
    await dan.next(p.Welcome)
    dan.send(p.Join(code=code.lower()))
    assert (await table_where(dan, lambda t: t.info.code == code)).you is None
    cat = await join(hub, "guest", "x")
    cat.send(p.SetName(name="", code=cat_code))
    assert (await table_where(cat, lambda t: t.you == 1)).legal
    await leave_all(hub, cat, dan)


async def test_open_bots_only_and_finished_tables_are_deleted_with_a_logged_reason(hub, caplog):
    caplog.set_level(logging.WARNING)
    ann, ben, code = await a_game_half_played(hub)
    ben.send(p.Play(step=1, action="pick0"))
    end = await table_where(ann, lambda t: t.outcome is not None and bool(t.record))  # finished:
    # its record written (named once it is)
    ann.send(p.Leave())
    ben.send(p.Leave())
    ann.send(p.CreateTable(game="toy-race", players=2))  # open, then left
    open_code = (await table_where(ann, lambda t: t.you == 0 and t.info.code != code)).info.code
    ann.send(p.Leave())
    ann.send(p.CreateTable(game="toy-race", players=2))  # bots only: host stands, bots play
    bots = await table_where(ann, lambda t: t.you == 0 and t.info.code not in (code, open_code))
    ann.send(p.Stand())
    ann.send(p.SetBot(seat=0, bot="random"))
    ann.send(p.SetBot(seat=1, bot="random"))
    await table_where(ann, lambda t: [s.kind for s in t.info.seats] == ["bot", "bot"])
    ann.send(p.Start())
    await table_where(ann, lambda t: bool(t.view))
    await leave_all(hub, ann, ben)
    await sweep_later(hub, 0)
    assert {code, open_code, bots.info.code} <= set(hub.tables)  # not yet
    await sweep_later(hub, hub.idle_table_seconds + 1)
    assert not hub.tables and not hub.asleep
    for c in (code, open_code, bots.info.code):
        assert (await hub.store.fetch(c)) is None
    said = " / ".join(deletions(caplog))
    assert f"{open_code} (an open table, nobody at it for 10 minutes)" in said
    assert f"{code} (finished, nobody at it for 10 minutes; its record is kept)" in said
    assert (hub.tables_dir / end.record).is_file()


async def test_archive_after_writes_every_players_record_then_deletes_and_logs(hub, caplog):
    caplog.set_level(logging.WARNING)
    hub.archive_after = 3 * DAY
    ann, cat, code, _ = await with_a_guest(hub)
    ann.send(p.Play(step=0, action="pick1"))
    await table_where(cat, lambda t: t.step == 1)
    await leave_all(hub, ann, cat)
    await sweep_later(hub, hub.idle_table_seconds + 1)
    await sweep_later(hub, 2 * DAY)
    assert (await hub.store.fetch(code)) is not None  # two days: kept
    await sweep_later(hub, 1 * DAY)
    assert (await hub.store.fetch(code)) is None and code not in hub.asleep
    (record,) = hub.tables_dir.glob(f"*{code}*")  # the tables folder's copy...
    (saved,) = (hub.home_for("key:ann") / "data" / "games").glob(f"*{code}*")  # ...and ann's
    match = load_match(saved)
    assert match.cursor == 1 and not match.is_over()  # the game as it was left
    said = " / ".join(r.getMessage() for r in caplog.records)
    assert f"table {code} archived: no move for 3 days; its record {record.name} is written " \
           "for ann, cat" in said
    assert f"{code} (archived after 3 days without a move)" in said


async def test_a_real_time_game_sleeps_with_its_round_clock_and_runs_on_when_both_are_back(hub):
    from .test_realtime import seated_pair

    ann, ben = await seated_pair(hub, "live-rounds", round_seconds=60.0)
    ann.send(p.Start())
    code = (await table_where(ann, lambda t: t.clock_running)).info.code
    table = hub.tables[code]
    await leave_all(hub, ann, ben)
    await until(lambda: not table.session.running, what="the timer to stop")
    left = table.session.remaining()
    await sweep_later(hub, hub.idle_table_seconds + 1)
    assert code in hub.asleep and (await hub.store.fetch(code)).clock_left == pytest.approx(left)
    ann = await join(hub, "key:ann", "ann")
    alone = await table_where(ann, lambda t: t.you == 0)
    assert "waiting for ben" in alone.paused and alone.clock == pytest.approx(left, abs=0.01)
    ben = await join(hub, "key:ben", "ben")
    back = await table_where(ann, lambda t: t.clock_running)  # no "restarted" pause: it runs
    assert not back.paused and back.clock <= round(left, 2)  # (the state rounds to 0.01 s)
    await leave_all(hub, ann, ben)
