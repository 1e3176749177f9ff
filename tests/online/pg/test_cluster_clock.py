"""A real-time table seen from a server that does not own it (cluster.py, pg/replica_clock.py):
its players there see the owner's round clock, running and paused as the owner's. Real
PostgreSQL (tests/postgres.py)."""

from __future__ import annotations

from cellwars_tui.online import protocol as p

from ..test_hub import join, table_where
from .test_cluster import ann_and_ben, two_hubs  # noqa: F401


async def test_a_player_at_another_server_sees_the_owners_round_clock(two_hubs):
    a, b = two_hubs
    ann, ben, code = await ann_and_ben(a, b, "infection")
    await table_where(ann, lambda t: t.info.seats[1].connected)
    ann.send(p.Start())
    owner = await table_where(ann, lambda t: t.clock >= 0 and t.clock_running)
    there = await table_where(ben, lambda t: t.clock >= 0 and t.clock_running)
    assert not there.paused
    assert abs(there.clock - owner.clock) < 5  # (the same round: the owner's countdown)
    assert code not in b.cluster.node.owned and code in a.cluster.node.owned
    ben.send(p.Pause())  # at b, for a's table: everybody's clock stops
    stopped = await table_where(ann, lambda t: not t.clock_running and "paused" in t.paused)
    seen = await table_where(ben, lambda t: not t.clock_running and t.paused == stopped.paused)
    assert abs(seen.clock - stopped.clock) < 0.5 and "ben" in seen.paused
    assert not seen.legal  # (nothing to play while it waits)
    ann.send(p.Pause(on=False))
    await table_where(ben, lambda t: t.clock_running and not t.paused)
    # ann connecting at b too sees the same running clock at her seat
    ann2 = await join(b, "key:ann", "ann")
    late = await table_where(ann2, lambda t: t.you == 0 and t.clock_running)
    assert late.clock > 0
    for c in (ann, ben, ann2):
        await c.close()
