"""TableSeat: the session's routing of the hub's messages for one table, outside any screen
(issue 30; the lobby's TableScreen only draws what it answers, a headless client plays on)."""

from __future__ import annotations

import msgspec

from cellwars_tui.online import protocol as p
from cellwars_tui.online.seat import LEFT, REFUSED, STATE, TableSeat

from .test_hub import Pick, hub, join, table_where, two_at_a_table  # noqa: F401


async def test_a_seat_follows_its_table_and_routes_every_answer_of_the_hub(hub):  # noqa: F811
    ann, ben, code = await two_at_a_table(hub, "secret-pick")
    sent: list[p.Msg] = []
    notes: list[str] = []
    seat = TableSeat(code, sent.append, notify=notes.append)
    assert seat.hub_message(ann.table) == STATE and not seat.started  # seats, no game yet
    assert seat.hub_message(ann.lobby) is None  # not about this table
    ann.send(p.Start())
    assert seat.hub_message(await table_where(ann, lambda t: bool(t.view))) == STATE
    remote = seat.remote
    assert seat.started and remote is not None and remote.legal(0) == [Pick(0), Pick(1), Pick(2)]

    remote.submit(0, Pick(1))
    remote.submit(0, Pick(2))  # made before the hub answered: queued
    assert [m.action for m in sent] == ["pick1"]
    refused = p.Error(message="that move came too late", seq=sent[0].seq)
    assert seat.hub_message(refused) == REFUSED
    assert [m.action for m in sent] == ["pick1", "pick2"]  # the queued move went up in its place

    ann.send(sent[-1])  # the hub plays it; the seat's table follows the answer
    answer = await table_where(ann, lambda t: t.played == sent[-1].seq)  # (its answer)
    assert seat.hub_message(answer) == STATE and seat.remote is remote
    assert remote.view().picks[0] == 2 and remote.moves_on_their_way() == 0
    other = msgspec.structs.replace(answer, info=msgspec.structs.replace(answer.info, code="ZZZZ"))
    assert seat.hub_message(other) is None and remote.step() == answer.step
    assert seat.hub_message(p.Left()) == LEFT and seat.left
    assert not notes
    await ann.close()
    await ben.close()


async def test_a_table_of_a_game_this_build_lacks_is_one_notice_not_a_crash(hub):  # noqa: F811
    ann, ben, code = await two_at_a_table(hub, "secret-pick")
    ann.send(p.Start())
    state = await table_where(ann, lambda t: bool(t.view))
    unknown = msgspec.structs.replace(state, info=msgspec.structs.replace(state.info,
                                                                          game="no-such-game"))
    notes: list[str] = []
    seat = TableSeat(code, ann.send, notify=notes.append)
    assert seat.hub_message(unknown) == STATE
    assert not seat.started and seat.problem and notes == [seat.problem]
    assert "\n" not in seat.problem
    await ann.close()
    await ben.close()
