"""The lobby's lists word seats as every other list does (ui/naming.py's seat_text)."""

from __future__ import annotations

from cellwars_tui.ssh import protocol as p
from cellwars_tui.ssh.lobby import seat_line, table_line

SEATS = (
    p.SeatInfo(kind="human", name="ann", connected=True),
    p.SeatInfo(kind="bot", name="Yellow", bot="mcts"),
    p.SeatInfo(kind="bot", name="ben", bot="random"),
    p.SeatInfo(kind="human", name="cat", connected=False),
    p.SeatInfo(),
)


def test_the_lobby_names_seats_the_way_every_list_does():
    lines = [seat_line(i, s, you=0) for i, s in enumerate(SEATS)]
    assert lines == ["1. ann  ← you", "2. Yellow (search bot)", "3. ben (random bot)",
                     "4. cat (away)", "5. (free)"]
    info = p.TableInfo(code="ABCD", game="toy-race", title="Toy race", seats=SEATS)
    assert table_line(info).endswith(
        "ann, Yellow (search bot), ben (random bot), cat, free")
    assert "(bot)" not in " ".join(lines) + table_line(info)
