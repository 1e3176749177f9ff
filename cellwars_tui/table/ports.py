"""The table authority's ports, and the ones a game played in this terminal uses.

The authority (:mod:`.authority`) owns every step of a game; what it needs from outside goes
through three small ports, so the same loop runs a local game and a table of the online hub:

* a :class:`Saver` keeps the game after every step. Locally :class:`RecordSaver`: the record is
  encoded here and written by the record writer's thread, soon (a key press never waits for
  the disk). Online, the table store's saver (:mod:`cellwars_tui.online.saving`): *durable*
  saves, ordered, written off the event loop; the authority tells nobody of a step until its
  save is durable, and takes the step back if it fails.
* a :class:`Thinker` chooses a bot's move for a :class:`BotTurn`. Locally
  :class:`ThreadThinker`: a turn-based bot thinks in a thread (an awaitable), a real-time bot a
  moment in place; online, the hub's worker processes (:mod:`cellwars_tui.online.botpool`).
* a Clock (:class:`cellwars_tui.timer.Clock`) runs a real-time game's rounds.

No textual or rich here.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from ..ai.bots import Bot
from ..ai.levels import make_bot, seat_bot
from ..core.api import Action, Game
from ..core.errors import CellwarsError
from ..core.match import Match, Seat


class SaveFailed(CellwarsError):
    """A durable save could not be made (one line: the store is down, the disk is full)."""


class Saver(Protocol):
    """Where a table keeps its game after every step."""

    @property
    def durable(self) -> bool:
        """True: ``save`` returns an awaitable done once the save is durable, and nobody hears
        of a step before; False: saves are queued and written soon, a step is told at once."""
        ...

    def save(self) -> Awaitable[None] | None:
        """Keep the table as it is now (the snapshot is taken here, on the caller's loop). A
        durable saver's awaitable raises :class:`SaveFailed` when the save could not be made."""
        ...

    @property
    def down(self) -> str:
        """Why saves fail now, while a durable saver waits for its store to come back ("":
        they work). The authority refuses moves meanwhile."""
        ...

    @property
    def problem(self) -> str | None:
        """A line for the status line: why the last queued save failed (None: it did not)."""
        ...

    def flush(self) -> None:
        """Wait until every queued save is written (leaving a local game, quitting)."""
        ...


@dataclass(frozen=True)
class BotTurn:
    """One decision a bot is asked for."""

    game: Game
    view: Any  # what the bot's seat may see
    seat: int
    spec: Seat  # the seat (its level, or the timed search from before levels)
    seed: int | str  # random.Random(seed) is the bot's RNG for this decision
    budget: float  # seconds it may think
    real_time: bool  # a real-time game's bot (a moment's thought, at its pace)


class Thinker(Protocol):
    """Chooses bots' moves."""

    def choose(self, turn: BotTurn) -> Action | Awaitable[Action]:
        """The bot's choice, or an awaitable one (thought elsewhere); raises (or the awaitable
        does) when the bot could not choose."""
        ...


class RecordSaver:
    """A local game's record: encoded on the caller's thread (one consistent match), written by
    the record writer's thread (:mod:`cellwars_tui.record.writer`) soon after."""

    durable = False
    down = ""

    def __init__(self, match: Callable[[], Match]) -> None:
        self._match = match
        self.problem: str | None = None

    def save(self) -> None:
        from ..record.format import encode_match
        from ..record.store import record_path
        from ..record.writer import saves

        match = self._match()
        try:
            path = record_path(match)
            data = encode_match(match)
        except OSError as exc:  # (the saved-games folder cannot be made)
            self.problem = f"could not save the game: {exc.strerror or exc}"
            return None
        writer = saves()
        writer.put(path, data)
        self.problem = writer.problem(path)  # a failed earlier write, told until one works
        return None

    def flush(self) -> None:
        from ..record.writer import saves

        saves().flush(10.0)
        path = self._match().path
        self.problem = saves().problem(path) if path is not None else None


class ThreadThinker:
    """Bots of a game played here: each seat's bot made once; a turn-based decision thinks in a
    thread of the event loop's executor (the screen keeps drawing), a real-time one a moment in
    place (its budget is a few milliseconds, on the round clock)."""

    def __init__(self) -> None:
        self._bots: dict[tuple[int, str], Bot] = {}

    def bot(self, seat: int, spec: Seat) -> Bot:
        key = (seat, seat_bot(spec))
        found = self._bots.get(key)
        if found is None:
            found = self._bots[key] = make_bot(key[1])
        return found

    def choose_now(self, turn: BotTurn) -> Action:
        """The choice, thought on this thread (blocking)."""
        bot = self.bot(turn.seat, turn.spec)
        return bot.choose(turn.game, turn.view, turn.seat, random.Random(turn.seed), turn.budget)

    def choose(self, turn: BotTurn) -> Action | Awaitable[Action]:
        if turn.real_time:
            return self.choose_now(turn)
        self.bot(turn.seat, turn.spec)  # made here, not in the thread
        return asyncio.get_running_loop().run_in_executor(None, self.choose_now, turn)
