"""Table chat and lobby chat through the hub (online/hub_league.py, online/chat.py): the limits
(one line of at most 200 characters, 3 messages in 3 seconds), escape sequences and control
characters removed before anyone reads a line, /mute, a chat closed while a game's secret is
written, and a table's chat kept with it and with its finished game."""

from __future__ import annotations

import msgspec

from cellwars_tui.core import register
from cellwars_tui.online import protocol as p
from cellwars_tui.online.client import HubClient

from .test_hub import Secret, join, table_where
from .test_league_hub import ANN, BEN, a_hub, next_of, play_secret, rated_pair, refused


class QuietSecret(Secret):
    """Secret pick whose chat is closed while a pick is to be made (as Virus Fight's)."""

    meta = msgspec.structs.replace(Secret.meta, id="secret-quiet", title="Secret, quiet")

    def chat_closed(self, s):
        return "numbers are being picked in secret" if self.to_act(s) else ""


register(QuietSecret())


async def chat(client: HubClient, where: str, pred=lambda c: True) -> p.ChatLines:
    return await next_of(client, p.ChatLines, lambda c: c.where == where and pred(c))


async def test_table_chat_is_cleaned_limited_and_kept_with_the_game(tmp_path):
    hub = a_hub(tmp_path)
    now = [100.0]
    hub.league.clock = lambda: now[0]
    await hub.start()
    ann, ben, code = await rated_pair(hub)
    ann.send(p.Say(text="\x1b]0;owned\x07hi \x1b[31mben\x1b[0m\x00!\u202e"))
    line = (await chat(ben, code, lambda c: bool(c.lines))).lines[-1]
    assert (line.name, line.text, line.seat) == ("ann", "hi ben!", 0)
    ann.send(p.Say(text="x" * 10_000))
    assert "at most 200 characters" in await refused(ann)
    ann.send(p.Say(text="y" * 201))
    assert "this one has 201" in await refused(ann)
    ann.send(p.Say(text="\x1b[2J\x07"))
    assert "nothing to say" in await refused(ann)
    ann.send(p.Say(text="two"))
    ann.send(p.Say(text="three"))
    ann.send(p.Say(text="four"))  # the fourth in 3 seconds
    assert "slow down: at most 3 messages in 3 seconds" in await refused(ann)
    now[0] += 3.0
    ann.send(p.Say(text="four"))
    seen = await chat(ben, code, lambda c: c.lines[-1].text == "four")
    assert [x.text for x in seen.lines] == ["hi ben!", "two", "three", "four"]
    # /mute is for the one who asks: ben no longer reads ann; others still do
    ben.send(p.Say(text="/mute ANN"))
    assert "ANN is muted for you" in (await next_of(ben, p.Notice)).message
    assert "ann" not in [x.name for x in (await chat(ben, code)).lines]
    now[0] += 3.0
    ann.send(p.Say(text="muted?"))
    ben.send(p.Say(text="/unmute ann"))
    back = await chat(ben, code, lambda c: any(x.name == "ann" for x in c.lines))
    assert back.lines[-1].text == "muted?"
    ann.send(p.Say(text="/shout"))
    assert "not a chat command" in await refused(ann)
    await play_secret(ann, ben)  # secret-pick's chat never closes
    over = await table_where(ann, lambda t: bool(t.changes))
    await hub.league.close()
    kept = await hub.store.finished_game(over.game_id)
    assert [x.text for x in kept.chat] == ["hi ben!", "two", "three", "four", "muted?"]
    stored = await hub.store.fetch(code)
    assert [x.text for x in stored.league.chat] == [x.text for x in kept.chat]
    for c in (ann, ben):
        await c.close()
    await hub.close()


async def test_the_chat_closes_while_a_secret_is_written_and_says_why(tmp_path):
    hub = a_hub(tmp_path)
    await hub.start()
    ann, ben, code = await rated_pair(hub, game="secret-quiet", rated=False)
    ann.send(p.Start())
    closed = await table_where(ben, lambda t: bool(t.chat_closed))
    assert closed.chat_closed == "numbers are being picked in secret"
    ann.send(p.Say(text="pick 0, I pick 2"))
    assert await refused(ann) == "the chat is closed: numbers are being picked in secret"
    ann.send(p.Play(step=0, action="pick2"))
    state = await table_where(ben, lambda t: bool(t.legal))
    ben.send(p.Play(step=state.step, action="pick1"))
    await table_where(ben, lambda t: t.outcome is not None and not t.chat_closed)  # open again
    ben.send(p.Say(text="gg"))
    await chat(ann, code, lambda c: bool(c.lines) and c.lines[-1].text == "gg")
    for c in (ann, ben):
        await c.close()
    await hub.close()


async def test_the_lobby_chat_reaches_the_lobby_only(tmp_path):
    hub = a_hub(tmp_path)
    await hub.start()
    ann = await join(hub, ANN, "ann")
    ben = await join(hub, BEN, "ben")
    ann.send(p.Say(text="anyone for cellulis?"))
    heard = await chat(ben, "lobby", lambda c: bool(c.lines))
    assert [(x.name, x.text, x.seat) for x in heard.lines] == [("ann", "anyone for cellulis?",
                                                                None)]
    ben.send(p.CreateTable(game="secret-pick", players=2))
    at_table = await next_of(ben, p.ChatLines, lambda c: c.where != "lobby")
    assert at_table.lines == ()  # at a table: its own chat
    ann.send(p.Say(text="still here"))
    await chat(ann, "lobby", lambda c: len(c.lines) == 2)
    ben.send(p.Leave())
    back = await chat(ben, "lobby")
    assert [x.text for x in back.lines] == ["anyone for cellulis?", "still here"]
    guest = await join(hub, "guest")
    guest.send(p.Say(text="hello"))
    assert "pick a nickname first" in await refused(guest)
    guest.send(p.SetName(name="Zed"))  # named now: the lobby's chat so far, as a keyed arrival
    arrived = await chat(guest, "lobby")
    assert [x.text for x in arrived.lines] == ["anyone for cellulis?", "still here"]
    for c in (ann, ben, guest):
        await c.close()
    await hub.close()
