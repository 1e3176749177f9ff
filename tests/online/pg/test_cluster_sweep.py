"""The idle sweep among several servers (hub_cluster.py, cluster.py): an open table watched only
at another server is not closed by its owner's sweep; an open table whose owner stopped while
its seated player was connected to it (``kill -9``) is taken over and swept by the rules of a lone server, and a started
game is never deleted. Real PostgreSQL (tests/postgres.py)."""

from __future__ import annotations

import signal

from cellwars_tui.online import protocol as p
from cellwars_tui.online.hub_cluster import ClusterHub

from ..test_hub import table_where
from .test_cluster import ann_and_ben, two_hubs  # noqa: F401
from .test_node import until, until_true
from .test_takeover import ann_at, server_a, server_b, started_with_a_bot  # noqa: F401


async def test_an_open_table_watched_at_another_server_is_not_swept_by_its_owner(two_hubs):
    a, b = two_hubs
    ann, ben, code = await ann_and_ben(a, b, sit=False)  # ben watches it at b
    ann.send(p.Leave())
    await until(lambda: not a.tables[code].watchers)
    a.tables[code].last_watched = 0.0  # nobody at a has watched it for long
    b.sweep()  # b tells a that ben watches it
    await until(lambda: a.tables[code].last_watched > 0)
    a.sweep()
    assert code in a.tables and code in a.cluster.node.owned
    ben.send(p.Leave())  # nobody watches it anywhere now: it closes as on a lone server
    await until(lambda: not b.tables.get(code) or not b.tables[code].watchers)
    b.sweep()
    a.tables[code].last_watched = 0.0
    a.sweep()
    await until_true(lambda: _gone(a, code))
    for c in (ann, ben):
        await c.close()


async def _gone(hub: ClusterHub, code: str) -> bool:
    return await hub.cluster.store.fetch(code) is None


async def test_an_orphaned_open_table_is_swept_by_its_new_owner_and_a_started_game_kept(
        server_a, server_b):
    socket_a, proc = server_a
    b = server_b
    ann = await ann_at(socket_a)
    game_code = await started_with_a_bot(ann, "toy-race")
    await table_where(ann, lambda t: t.step > 0)
    ann.send(p.Leave())
    ann.send(p.CreateTable(game="toy-race", players=2))
    open_code = (await table_where(ann, lambda t: t.you == 0 and t.info.code != game_code)
                 ).info.code
    await until(lambda: {game_code, open_code} <= set(b.cluster.summaries))
    proc.send_signal(signal.SIGKILL)  # the owner dies with ann at her open table: she is gone
    await ann.close()
    await until(lambda: open_code in b.cluster.node.owned and open_code in b.tables
                and not b.cluster.is_replica(b.tables[open_code]), timeout=30)  # taken over
    b.sweep(now=b.clock() + b.idle_table_seconds + 1)  # then swept as by its first owner
    await until_true(lambda: _gone(b, open_code))
    assert game_code not in b.tables  # a started game waits in the store for its player
    stored = await b.cluster.store.fetch(game_code)
    assert stored is not None and stored.status == "playing"
