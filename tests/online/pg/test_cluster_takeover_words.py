"""What the players and the operator read when a game's server dies and another takes it over
(cluster.py ``_take_over``): one line in the table's log naming the new server, never "the
server restarted" (no server restarted), and one line in the new owner's log."""

from __future__ import annotations

import logging

from cellwars_tui.online import protocol as p

from ..test_hub import table_where
from .test_cluster import ann_and_ben, two_hubs  # noqa: F401
from .test_cluster_finished import die


async def test_a_game_taken_over_says_so_once_in_words(two_hubs, caplog):  # noqa: F811
    caplog.set_level(logging.WARNING, logger="cellwars_tui.online.cluster")
    a, b = two_hubs
    ann, ben, code = await ann_and_ben(a, b)  # a owns the table; ben plays from b
    ann.send(p.Start())
    state = await table_where(ben, lambda t: t.step > 0)
    await die(a)
    told = await table_where(
        ben, lambda t: any("goes on at server b" in line.text for line in t.log))
    texts = [line.text for line in told.log]
    assert not any("restarted" in text for text in texts), texts
    assert told.step >= state.step  # (nothing lost)
    taken = [r.getMessage() for r in caplog.records if f"table {code} taken over" in r.getMessage()]
    assert len(taken) == 1 and "(its server is gone)" in taken[0]
    await ann.close()
    await ben.close()
