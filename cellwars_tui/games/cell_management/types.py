"""Cell Management's types: phases, options, actions, events and the state (a setup's
``Setup`` action is in :mod:`.setups`)."""

from __future__ import annotations

from typing import Annotated, Literal, Union

import msgspec

from ...core import Action, Event, Options
from .clarifications import DEFAULT_MAX_ROUNDS
from .setups import Setup, number_text

# Phases of a state.
SETUP, START, RETURN, WON, GAVE_UP, OUT_OF_ROUNDS = (
    "setup", "start", "return", "won", "gave-up", "out-of-rounds")


def rounds_text(n: int) -> str:
    return "1 round" if n == 1 else f"{n} rounds"


OVER = frozenset({WON, GAVE_UP, OUT_OF_ROUNDS})


class CMOptions(Options, frozen=True, kw_only=True):
    players: int = 1
    species: Literal[4, 5, 6] = 6
    # "shuffle": a fresh random ship; "daily": today's puzzle (the same for everyone on a date);
    # "number": the puzzle with this number (see :func:`setup_from_number`), shareable.
    puzzle: Literal["shuffle", "daily", "number"] = "shuffle"
    number: int = 1
    # a setup code or "#number"; when set it wins over ``puzzle``
    code: Annotated[str, msgspec.Meta(
        description="empty: the puzzle above; else a code or #number")] = ""
    max_rounds: int = DEFAULT_MAX_ROUNDS


class Start(Action, frozen=True, tag="start"):
    """The cell (named by its species) that attracts the guards this round."""

    cell: int


class Return(Action, frozen=True, tag="return"):
    """Send the escaped captive of this species back to its hideout."""

    species: int


class Done(Action, frozen=True, tag="done"):
    """Send nobody back this round."""


class GiveUp(Action, frozen=True, tag="give-up"):
    pass


CMAction = Union[Setup, Start, Return, Done, GiveUp]


class SetUp(Event, frozen=True, tag="set-up"):
    code: str
    daily: str = ""


class Arrive(Event, frozen=True, tag="arrive"):
    round: int
    cell: int
    position: int


class Examine(Event, frozen=True, tag="examine"):
    position: int
    cell: int
    hideout: int
    hostile: bool
    occupied: bool
    attempt: bool


class Escape(Event, frozen=True, tag="escape"):
    species: int
    to: str  # "hideout" | "center" | "nobody" (the cell was empty)


class Search(Event, frozen=True, tag="search"):
    position: int
    hideout: int
    found: bool


class Leave(Event, frozen=True, tag="leave"):
    round: int


class Returned(Event, frozen=True, tag="returned"):
    species: int


class Kept(Event, frozen=True, tag="kept"):
    """``done`` at a return to prison: nobody is sent back (the log says so; the record keeps
    only the action, so older games replay with this sentence too)."""


class Won(Event, frozen=True, tag="won"):
    rounds: int


class Ended(Event, frozen=True, tag="ended"):
    why: str  # "gave-up" | "out-of-rounds"


CMEvent = Union[SetUp, Arrive, Examine, Escape, Search, Leave, Returned, Kept, Won, Ended]


def guard_position(event: Event) -> int | None:
    """Where the guards stand at ``event``: the events of a walk that carry a position (arrive,
    examine, search); None for the others."""
    return event.position if isinstance(event, (Arrive, Examine, Search)) else None


class CMState(msgspec.Struct, frozen=True, kw_only=True):
    players: int = 1
    species: int = 6
    max_rounds: int = DEFAULT_MAX_ROUNDS
    code: str = ""  # the requested setup (empty: any shuffle)
    daily: bool = False  # the daily puzzle was requested (the date comes with the setup)
    date: str = ""  # the daily puzzle's date, once set up
    phase: str = SETUP
    hideouts: tuple[int, ...] = ()
    hostile: tuple[int, ...] = ()
    cells: tuple[int, ...] = ()
    in_cell: tuple[int, ...] = ()
    in_hideout: tuple[bool, ...] = ()
    in_center: tuple[bool, ...] = ()
    round: int = 0  # walks completed

    # -- reading helpers ---------------------------------------------------------------------
    def position_of_cell(self, species: int) -> int:
        return self.cells.index(species)

    def position_of_hideout(self, species: int) -> int:
        return self.hideouts.index(species)

    def escaped(self) -> tuple[int, ...]:
        return tuple(s for s in range(self.species) if self.in_center[s])

    def returnable(self) -> tuple[int, ...]:
        """Escaped species that may go back (their hideout is empty)."""
        return tuple(s for s in range(self.species) if self.in_center[s] and not self.in_hideout[s])

    @property
    def setup(self) -> Setup:
        return Setup(self.hideouts, self.hostile, self.cells)

    @property
    def number(self) -> str:
        """The shareable puzzle number, e.g. "#1234" or "4#12" (empty before the setup)."""
        return number_text(self.setup) if self.cells else ""
