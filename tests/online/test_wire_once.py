"""An online move crosses the wire once each way and is read once at each end (issue 30).

Before, a move was turned into text and back four times (the hub wrote the legal moves, the
session read them, wrote the chosen one back to check and send it, the hub read it again). Now
the session reads each state's legal list once, sends the chosen move as the hub wrote it, and
the hub reads that text once; nothing re-reads the legal list on a submit."""

from __future__ import annotations

import sys
from collections import Counter

from cellwars_tui.online import protocol as p
from cellwars_tui.online.remote import RemoteTable

from .test_hub import Pick, Secret, hub, table_where, two_at_a_table  # noqa: F401


def count_notation(monkeypatch) -> Counter[tuple[str, str]]:
    """Count the stand-in game's notation calls by (which way, calling module)."""
    calls: Counter[tuple[str, str]] = Counter()
    to_str, from_str = Secret.action_to_str, Secret.action_from_str

    def counted(way, real):
        def call(self, value):
            calls[(way, sys._getframe(1).f_globals["__name__"])] += 1
            return real(self, value)
        return call

    monkeypatch.setattr(Secret, "action_to_str", counted("write", to_str))
    monkeypatch.setattr(Secret, "action_from_str", counted("read", from_str))
    return calls


async def test_a_move_is_read_once_by_the_hub_and_never_written_again_by_the_session(
        hub, monkeypatch):  # noqa: F811
    ann, ben, code = await two_at_a_table(hub, "secret-pick")
    ann.send(p.Start())
    calls = count_notation(monkeypatch)
    state = await table_where(ann, lambda t: bool(t.legal))
    a = RemoteTable(state, ann.send)
    read_on_arrival = calls[("read", "cellwars_tui.online.remote")]
    assert read_on_arrival == len(state.legal) == 3  # the legal list, read once, on arrival
    assert a.legal(0) == [Pick(0), Pick(1), Pick(2)]
    a.legal(0)
    assert calls[("read", "cellwars_tui.online.remote")] == read_on_arrival  # not on each ask

    calls.clear()
    a.submit(0, Pick(2))
    assert not calls  # checked against the list read on arrival, sent as the hub wrote it
    answer = await table_where(ann, lambda t: t.played == 1)
    hub_reads = {m: n for (way, m), n in calls.items() if way == "read"}
    assert hub_reads == {"cellwars_tui.online.hub_play": 1}  # the move's text, read once
    # the hub writes each seat's legal moves once per state it sends (ann has none left now)
    writes = {m for (way, m), n in calls.items() if way == "write"}
    assert writes <= {"cellwars_tui.online.tables"} and answer.legal == ()

    calls.clear()
    a.update(answer)
    assert not calls  # nothing left to read: ann has no legal move
    assert a.view().picks[0] == 2 and a.moves_on_their_way() == 0
    await ann.close()
    await ben.close()
