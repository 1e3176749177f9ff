"""The lobby's chat and a keyed player's mutes kept in the store (online/hub_league.py): a restart
loses neither; lines read back (the lobby's, a table's, a finished game's) are cleaned again
and cut to 200 characters; a lobby line the store cannot keep is refused
in one line, not shown. SQLite store (the PostgreSQL cluster's: tests/online/pg)."""

from __future__ import annotations

import msgspec

from cellwars_tui.online import protocol as p
from cellwars_tui.online.chat import ChatLine
from cellwars_tui.online.hub_league import TableLeague
from cellwars_tui.online.league import StoredLeague
from cellwars_tui.online.store_errors import StoreError

from .test_hub import join, table_where, watch_then_sit
from .test_league_chat import chat
from .test_league_hub import a_hub, next_of
from .test_league_store import result


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


HOSTILE = ChatLine(1.0, 3, "ev\x1b[2Jil", "\x1b]0;pwned\x07gg\x00 " + "z" * 300, 0)


def test_a_tables_stored_chat_is_cleaned_when_the_table_is_set_up():
    league = TableLeague.from_stored(StoredLeague(chat=(HOSTILE, ChatLine(2.0, 3, "x", "\x07"))))
    (line,) = league.chat  # (a line with nothing left is left out)
    assert line.name == "evil" and line.text.startswith("gg z") and len(line.text) == 200


async def test_a_finished_games_stored_chat_is_cleaned_when_it_is_sent(tmp_path):
    hub = a_hub(tmp_path)
    await hub.start()
    kept = msgspec.structs.replace(result(1), chat=(HOSTILE,))
    await hub.store.record_result(kept)
    ann = await join(hub, "key:ann", "ann")
    ann.send(p.AskGame(game_id=kept.game_id))
    (line,) = (await next_of(ann, p.FinishedGame)).result.chat
    assert line.name == "evil" and line.text.startswith("gg z") and len(line.text) == 200
    await ann.close()
    await hub.close()


async def test_a_guests_mutes_come_back_with_their_reconnect_code_and_are_not_stored(tmp_path):
    hub = a_hub(tmp_path)
    await hub.start()
    guest = await join(hub, "guest")
    guest.send(p.SetName(name="Zed"))
    welcome = await next_of(guest, p.Welcome)
    guest.send(p.CreateTable(game="secret-pick", players=2))  # a game: the code brings the
    code = (await table_where(guest, lambda t: t.you == 0)).info.code  # guest back to it
    ann = await join(hub, "key:ann", "ann")
    await watch_then_sit(ann, code, 1)
    await table_where(guest, lambda t: t.info.seats[1].kind == "human")
    guest.send(p.Start())
    await table_where(guest, lambda t: t.info.status == "playing")
    guest.send(p.Say(text="/mute ann"))
    await next_of(guest, p.Notice)
    await guest.close()
    again = await join(hub, "guest", welcome.code)  # ``ssh CODE@host``: the same guest
    again.send(p.Say(text="/mute"))
    assert (await next_of(again, p.Notice)).message == "You mute: ann"
    await hub.league.close()
    assert await hub.store.mutes_of(welcome.identity) == ()  # (never written)
    for c in (again, ann):
        await c.close()
    await hub.close()
