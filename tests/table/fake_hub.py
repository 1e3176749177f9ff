"""A stand-in for the SSH hub in-process: it keeps the match and answers a RemoteTable's moves with
the new table state, when the test says so (as the real hub answers a little later)."""

from __future__ import annotations

from collections.abc import Callable

from cellwars_tui.core.match import Match
from cellwars_tui.online import protocol as p
from cellwars_tui.online.remote import RemoteTable


class FakeHub:
    """One seat (``you``; None: a spectator) at a table whose match this object keeps."""

    def __init__(self, match: Match, you: int | None = 0,
                 now: Callable[[], float] | None = None) -> None:
        self.match = match
        self.you = you
        self.pending: list[p.Msg] = []
        self.clock: dict[str, object] = {}  # a real-time table's clock fields for every state
        kw = {"clock": now} if now is not None else {}
        self.table = RemoteTable(self.state(), self.pending.append, match.game, **kw)

    def state(self, played: int = 0) -> p.TableState:
        m, game = self.match, self.match.game
        seats = tuple(p.SeatInfo(kind="human", name=s.name, connected=True) for s in m.seats)
        info = p.TableInfo(code="ABCD", game=game.id, title=game.title, seats=seats,
                           status="over" if m.is_over() else "playing")
        legal: tuple[str, ...] = ()
        if self.you is not None and self.you in m.to_act():
            legal = tuple(game.action_to_str(a) for a in m.legal_actions(self.you))
        log = tuple(p.LogLine(i + 1, s.seat if s.seat >= 0 else None,
                              game.action_to_str(s.action))
                    for i, s in enumerate(m.history))
        return p.TableState(info=info, you=self.you, step=m.cursor,
                            view=game.encode_state(m.view(self.you)), to_act=m.to_act(),
                            outcome=m.outcome(), log=log[-30:], legal=legal, played=played,
                            **self.clock)

    def answer(self) -> None:
        """Apply the moves sent so far and send the new state back."""
        sent, self.pending[:] = list(self.pending), []
        for msg in sent:
            if isinstance(msg, p.Play) and self.you is not None:
                self.match.play(self.you, self.match.game.action_from_str(msg.action))
                self.table.update(self.state(played=msg.seq))
