"""A hub table's game: the table authority with the store's saver, the bot pool and seat identities.

:class:`OnlineGame` is the :class:`~cellwars_tui.table.authority.TableAuthority` of one table of
the hub (:class:`~.tables.HubTable`): every move (a player's, a bot's, the round clock's) is
checked, played, logged, saved and answered there, as at a local table. What is the hub's:

* the saver is the table's :class:`~.saving.TableSaver` (durable: nobody hears of a move before
  the store holds it; a failed save takes it back);
* bots think in the hub's worker processes (:class:`PoolThinker` over :mod:`.botpool`), each
  choice seeded from the table's own RNG;
* seats are the table's slots: a seat's name is its player's (or the bot's), the bots are the
  slots a bot holds, and the game waits while a seated player is away, one of them paused it, or
  it came back after a restart and nobody has played on (:meth:`HubTable.paused`);
* the log is the table's (kept with it in the store): each step's lines are added to it, and
  taken out again if the step is taken back.

A :class:`MoveTicket` is a player's move on its way: checked once more when its turn comes (the
view it was made on must still stand), and answered to that player's session alone.
"""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

from ..ai.levels import seat_bot
from ..core.api import Action, Event, Game
from ..core.errors import IllegalAction
from ..core.match import Match
from ..table.authority import TableAuthority
from ..table.log import step_entries
from ..table.ports import BotTurn, Saver
from ..table.realtime import AWAY, PLAYER
from . import protocol as p
from .botpool import BotPool

if TYPE_CHECKING:
    from .hub import Client
    from .tables import HubTable

RESTORED = "restored"  # the round session's pause reason after a restart (nobody played on yet)


class PoolThinker:
    """Bots think in the hub's worker processes (a search never holds up the event loop)."""

    def __init__(self, pool: BotPool) -> None:
        self.pool = pool

    def choose(self, turn: BotTurn) -> Awaitable[Action]:
        return self._choose(turn)

    async def _choose(self, turn: BotTurn) -> Action:
        seed = turn.seed if isinstance(turn.seed, int) else int.from_bytes(
            hashlib.sha256(str(turn.seed).encode()).digest()[:8], "big")
        action, _pid = await self.pool.choose(turn.game, turn.view, turn.seat,
                                              seat_bot(turn.spec), seed, turn.budget)
        return action


class OnlineGame(TableAuthority):
    """The game of one table of the hub (see the module's docstring)."""

    def __init__(self, table: HubTable, match: Match, *, saver: Saver, thinker: PoolThinker
                 ) -> None:
        super().__init__(match, saver=saver, thinker=thinker)
        self.table = table
        self.humans: frozenset[int] = frozenset()  # nobody plays at the server's own terminal

    def seat_title(self, seat: int) -> str:
        return self.table.slots[seat].name

    def bot_seats(self) -> list[int]:
        return [i for i, slot in enumerate(self.table.slots) if slot.kind == "bot"]

    def waits(self) -> str:
        return self.table.paused()

    def pause_reasons(self) -> dict[str, bool]:
        table = self.table
        return {AWAY: bool(table.away()), PLAYER: bool(table.paused_by),
                RESTORED: table.restored}

    def bot_seed(self, seat: int) -> int:
        return self.table.rng.getrandbits(64)  # the bot's RNG: random.Random(seed), in a worker

    def note(self, text: str, seat: int | None = None) -> None:
        self.table.note(text, seat)

    def log_step(self, seat: int, action: Action, events: tuple[Event, ...]) -> list[Any]:
        name = self.seat_title(seat) if seat >= 0 else ""
        lines = step_entries(self.game, self.match.cursor, seat, action, events, name)
        self.table.log.extend(lines)
        return list(lines)

    def unlog(self, logged: list[Any]) -> None:
        kept = [line for line in self.table.log if not any(line is x for x in logged)]
        self.table.log.clear()
        self.table.log.extend(kept)


class MoveTicket:
    """A player's move on its way to the table's game."""

    def __init__(self, client: Client, table: HubTable, seat: int, step: int, seq: int) -> None:
        self.client = client
        self.table = table
        self.seat = seat
        self.step = step  # the step the player saw
        self.seq = seq

    def check(self) -> None:
        m = self.table.match
        if m is None:
            raise IllegalAction("the game has not started")
        if self.step != m.cursor and not only_time_passed(m, self.step) \
                and not unseen_by(self.table.game, m, self.step, self.seat):
            raise IllegalAction("the table moved on before your move arrived; look again")

    def accepted(self) -> None:
        self.client.played = self.seq  # the states sent next tell the session its move went through

    def refused(self, reason: str) -> None:
        self.client.send(p.Error(message=self.reason(reason), seq=self.seq))

    def reason(self, why: str) -> str:
        """Why the move is refused, as its player reads it: a move made on a view that no
        longer stands is refused because the table moved on (two moves racing, from two
        sessions or two servers: the second is told so, whatever else it breaks)."""
        try:
            self.check()
        except IllegalAction as stale:
            return str(stale)
        return why


def only_time_passed(m: Match, step: int) -> bool:
    """The steps since ``step`` changed nothing but the recorded time (a real-time game's clock
    steps): a move made on the state a player saw at ``step`` still stands."""
    return 0 <= step < m.cursor and all(m.states[i] == m.state for i in range(step, m.cursor))


def unseen_by(game: Game, m: Match, step: int, seat: int) -> bool:
    """Nothing ``seat`` may see changed since ``step``: its view then is its view now and no
    event since is one it may read (other seats' secret moves, such as instructions added to a
    program written in secret). A move made on that view still stands: the seat knew all it
    could, and is never told that the others moved (the hub sends it no state for that)."""
    if not 0 <= step < m.cursor or game.view(m.states[step], seat) != m.view(seat):
        return False
    return all(game.view_event(e, seat) is None for evs in m.events[step:m.cursor] for e in evs)
