"""Chat across servers (cluster.py: ``h`` notifications): a lobby line said at one server is
read in the lobby of the other; a table's line said at a server that does not own the table is
read by its players at the owner (and the other way), cleaned as everywhere, and kept with the
table by its owner. Real PostgreSQL (tests/postgres.py)."""

from __future__ import annotations

import asyncio

import pytest

from cellwars_tui.online import protocol as p

from ..test_hub import join, table_where
from ..test_league_chat import chat
from .test_cluster import ann_and_ben, play_to_end, share_table, two_hubs  # noqa: F401
from .test_node import until_true


async def _two(kept) -> bool:
    return len(await kept()) >= 2


def said(text: str):
    return lambda c: bool(c.lines) and c.lines[-1].text == text


async def test_lobby_and_table_chat_reach_the_players_of_both_servers(two_hubs):
    a, b = two_hubs
    ann = await join(a, "key:ann", "ann")
    ben = await join(b, "key:ben", "ben")
    ann.send(p.Say(text="hello \x1b[31mlobby"))
    line = (await chat(ben, "lobby", said("hello lobby"))).lines[-1]
    assert line.name == "ann" and line.seat is None
    ben.send(p.Say(text="hi ann"))
    await chat(ann, "lobby", said("hi ann"))
    code = await share_table(ann, ben)
    ben.send(p.Say(text="good luck\x00"))  # at b, for a's table
    line = (await chat(ann, code, said("good luck"))).lines[-1]
    assert (line.name, line.seat) == ("ben", 1)
    ann.send(p.Say(text="you too"))
    seen = await chat(ben, code, said("you too"))
    assert [x.text for x in seen.lines] == ["good luck", "you too"]
    ben.send(p.Say(text="y" * 201))  # the limits hold at every server
    assert "this one has 201" in (await ben.next(p.Error)).message
    async def kept() -> list[str]:
        stored = await a.cluster.store.fetch(code)
        return [x.text for x in stored.league.chat] if stored.league is not None else []

    await until_true(lambda: _two(kept))  # the owner keeps both lines with the table
    assert await kept() == ["good luck", "you too"]
    for c in (ann, ben):
        await c.close()


@pytest.mark.parametrize("new_table_late", [False, True])
async def test_a_rematch_offered_at_one_server_is_accepted_at_the_other(
        two_hubs, monkeypatch, new_table_late):
    # (new_table_late: the finished table naming its rematch reaches the store before the
    # rematch's own table, so server b cannot read the rematch yet; ben once stayed behind)
    a, b = two_hubs
    ann, ben, code = await ann_and_ben(a, b)
    ann.send(p.Start())
    await play_to_end(ann, ben, await table_where(ann, lambda t: t.step > 0))
    if ben.table.outcome is None:  # (ben may have read the last state already: his move)
        await table_where(ben, lambda t: t.outcome is not None)
    ben.send(p.Rematch())  # at b, for a's table: a (its owner) keeps the offer
    await table_where(ann, lambda t: t.rematch == (1,))
    await table_where(ben, lambda t: t.rematch == (1,))
    if new_table_late:
        save = a.store.save

        async def late(table):
            if table.code != code:
                await asyncio.sleep(0.5)
            return await save(table)

        monkeypatch.setattr(a.store, "save", late)
    ann.send(p.Rematch())  # accepted: the new table is made at a; both players go to it
    new = await table_where(ann, lambda t: t.info.code != code)
    assert new.you == 1 and new.step > 0  # (everyone moved one seat on)
    there = await table_where(ben, lambda t: t.info.code == new.info.code)
    assert there.you == 0
    assert new.info.code in a.cluster.node.owned
    for c in (ann, ben):
        await c.close()
