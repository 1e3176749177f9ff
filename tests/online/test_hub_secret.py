"""The hub and moves made in secret: another seat's secret move (an instruction added to a
Virus Fight program being written) sends the other seats nothing, and their own moves made on
a view that has not changed since still stand (refused, they would tell that someone moved)."""

from __future__ import annotations

from cellwars_tui.core.registry import get_game
from cellwars_tui.online import protocol as p

from .test_hub import hub, table_where, two_at_a_table  # noqa: F401  (hub: the fixture)

VF = get_game("virus-fight")


async def test_a_secret_move_sends_the_others_nothing_and_their_moves_on_that_view_stand(
        hub):  # noqa: F811
    ann, ben, code = await two_at_a_table(hub, "virus-fight")
    ann.send(p.Start())
    a = await table_where(ann, lambda t: bool(t.view))
    b = await table_where(ben, lambda t: bool(t.view))
    for piece in ("M1", "W2"):  # ann writes two instructions in secret
        ann.send(p.Play(step=a.step, action=f"add {piece}"))
        a = await table_where(ann, lambda t, s=a.step: t.step > s)
    assert len(VF.decode_state(a.view).programs[0]) == 2 and a.step == b.step + 2
    # ben, who saw none of it, adds one on the view he has (two steps old): it stands, and the
    # first state he is sent since the start is the one with his own instruction
    ben.send(p.Play(step=b.step, action="add J1", seq=1))
    mine = await ben.next((p.TableState, p.Error))
    assert isinstance(mine, p.TableState), mine
    assert VF.decode_state(mine.view).programs[1] == (VF.action_from_str("add J1").piece,)
    assert mine.step == a.step + 1 and mine.played == 1
    # ann is sent ben's move no more than he was sent hers: her next state is her own move's
    ann.send(p.Play(step=a.step, action="mark 1"))
    marked = await ann.next((p.TableState, p.Error))
    assert isinstance(marked, p.TableState) and VF.decode_state(marked.view).marks[0] == 0
    ann.send(p.Play(step=marked.step, action="ready"))
    # ann's ready is public: ben is sent it, and a move on the view before it is refused
    ready = await ben.next(p.TableState)
    assert VF.decode_state(ready.view).ready == (True, False)
    ben.send(p.Play(step=mine.step, action="mark 1"))
    assert "moved on" in (await ben.next(p.Error)).message
    await ann.close()
    await ben.close()
