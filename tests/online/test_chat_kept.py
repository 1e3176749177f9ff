"""The lobby's chat and a keyed player's mutes kept in the store (online/hub_league.py): a restart
loses neither; lines read back are cleaned again; a lobby line the store cannot keep is refused
in one line, not shown. SQLite store (the PostgreSQL cluster's: tests/online/pg)."""

from __future__ import annotations

from cellwars_tui.online import protocol as p
from cellwars_tui.online.chat import ChatLine
from cellwars_tui.online.store_errors import StoreError

from .test_hub import join
from .test_league_chat import chat
from .test_league_hub import a_hub, next_of


async def test_the_lobby_chat_and_a_keyed_players_mutes_survive_a_restart(tmp_path):
    hub = a_hub(tmp_path)
    await hub.start()
    ann = await join(hub, "key:ann", "ann")
    ben = await join(hub, "key:ben", "ben")
    ann.send(p.Say(text="hello"))
    await chat(ben, "lobby", lambda c: [x.text for x in c.lines] == ["hello"])
    ann.send(p.Say(text="/mute BEN"))
    await next_of(ann, p.Notice)
    ben.send(p.Say(text="hi"))
    await chat(ann, "lobby", lambda c: [x.text for x in c.lines] == ["hello"])  # (muted)
    for c in (ann, ben):
        await c.close()
    await hub.close()

    hub = a_hub(tmp_path)  # the server restarts on the same store
    await hub.store.keep_lobby_line(ChatLine(2e9, 0, "ev\x1b[2Jil", "\x1b]0;x\x07boo\x00"))
    await hub.start()
    cy = await join(hub, "key:cy", "cy")
    seen = await chat(cy, "lobby")
    assert [(x.name, x.text) for x in seen.lines] == [
        ("ann", "hello"), ("ben", "hi"), ("evil", "boo")]  # (the stored line cleaned)
    ann = await join(hub, "key:ann", "ann")
    seen = await chat(ann, "lobby")  # her mutes came back before the chat did
    assert [x.text for x in seen.lines] == ["hello", "boo"]
    ann.send(p.Say(text="/mute"))
    assert (await next_of(ann, p.Notice)).message == "You mute: ben"

    async def away(line):
        raise StoreError("the disk is full")

    hub.store.keep_lobby_line = away  # the store cannot keep a line: it is not shown
    cy.send(p.Say(text="lost?"))
    refused = await next_of(cy, p.Error)
    assert "the lobby's chat cannot be kept now" in refused.message
    assert "lost?" not in [x.text for x in hub.league.lobby_chat]
    for c in (ann, cy):
        await c.close()
    await hub.close()
