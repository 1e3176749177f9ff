"""A cap on the open tables one player hosts (issue 28, point 7): one guest made 66 tables in
106 s, and only the server-wide cap (200) stopped one player from filling the lobby."""

from __future__ import annotations

from cellwars_tui.online import protocol as p
from cellwars_tui.online.hub import MAX_OPEN_PER_PLAYER

from .test_hub import hub, join, table_where  # noqa: F401  (hub: the fixture)


async def test_a_player_hosts_at_most_three_open_tables_and_is_told_so_in_one_line(hub):  # noqa: F811
    ann = await join(hub, "key:ann", "ann")
    codes = []
    for _ in range(MAX_OPEN_PER_PLAYER):
        ann.send(p.CreateTable(game="toy-race", players=2))
        codes.append((await table_where(ann, lambda t, c=tuple(codes): t.info.code not in c
                                        and t.you == 0)).info.code)
        ann.send(p.Leave())
        await ann.next(p.Left)
    ann.send(p.CreateTable(game="toy-race", players=2))
    refused = (await ann.next(p.Error)).message
    assert refused.startswith("you host 3 open tables already") and "\n" not in refused
    assert len(hub.tables) == MAX_OPEN_PER_PLAYER
    ben = await join(hub, "key:ben", "ben")  # another player still may
    ben.send(p.CreateTable(game="toy-race", players=2))
    await table_where(ben, lambda t: t.you == 0)
    # a started game is no longer an open table: ann may open another
    ann.send(p.Join(code=codes[0]))
    await table_where(ann, lambda t: t.info.code == codes[0])
    ann.send(p.SetBot(seat=0, bot="random"))
    ann.send(p.SetBot(seat=1, bot="random"))
    ann.send(p.Start())
    await table_where(ann, lambda t: bool(t.view))
    ann.send(p.CreateTable(game="toy-race", players=2))
    await table_where(ann, lambda t: t.you == 0 and t.info.code not in codes)
    await ann.close()
    await ben.close()
