"""Cellulis Bellum's actions (what a player does, with a plain-text notation in
:mod:`.notation`) and events (what an action did, for the log and the screen)."""

from __future__ import annotations

import msgspec

from ...core import Action, Event


# -- actions ---------------------------------------------------------------------------------------
class Apoptosis(Action, frozen=True, tag="apo"):
    """Sacrifice a rhombus of four cells, named as ``Board.rhombi4`` keys it: on the full board by
    the two corners joined by the grid line it straddles (``apo d2-d3``); with corners only by the
    point at its centre (``apo d3``, ``to`` -1). (``at`` is stored as "centre", its first name.)"""

    at: int = msgspec.field(name="centre")
    to: int = -1

    @property
    def key(self) -> tuple[int, int]:
        return (self.at, self.to)


class Generate(Action, frozen=True, tag="gen"):
    centre: int  # centre of the eight-piece rhombus, where the virus appears


class Spawn(Action, frozen=True, tag="spawn"):
    to: int


class Burst(Action, frozen=True, tag="burst"):
    src: int
    dst: int


class Done(Action, frozen=True, tag="done"):
    """End a spawn or a burst."""


class VirusMove(Action, frozen=True, tag="virus"):
    to: int


class VirusShot(Action, frozen=True, tag="shoot"):
    direction: int  # index into geometry.DIRECTIONS


class NucleusMove(Action, frozen=True, tag="nucleus"):
    to: int


class Pass(Action, frozen=True, tag="pass"):
    pass


CBAction = (Apoptosis | Generate | Spawn | Burst | Done | VirusMove | VirusShot | NucleusMove
            | Pass)
MAIN_ACTIONS = (Spawn, Burst, VirusMove, VirusShot, NucleusMove, Pass)


# -- events ----------------------------------------------------------------------------------------
class Apoptosed(Event, frozen=True, tag="apoptosis"):
    seat: int
    rhombus: tuple[int, int]  # the Apoptosis key
    sacrificed: tuple[int, ...]
    destroyed: tuple[int, ...]


class Generated(Event, frozen=True, tag="generated"):
    seat: int
    centre: int
    sacrificed: tuple[int, ...]


class Spawned(Event, frozen=True, tag="spawned"):
    seat: int
    at: int


class BurstMoved(Event, frozen=True, tag="burst"):
    seat: int
    src: int
    dst: int


class VirusMoved(Event, frozen=True, tag="virus-moved"):
    seat: int
    src: int
    dst: int
    uses_left: int


class VirusFired(Event, frozen=True, tag="virus-shot"):
    seat: int
    src: int
    direction: int
    destroyed: tuple[int, ...]
    nuclei: tuple[int, ...]  # seats whose nucleus died
    uses_left: int


class NucleusMoved(Event, frozen=True, tag="nucleus-moved"):
    seat: int
    src: int
    dst: int


class Passed(Event, frozen=True, tag="passed"):
    seat: int


class Stopped(Event, frozen=True, tag="stopped"):
    """``done``: the seat ends its spawn or burst before it had to (the log says so; the record
    keeps only the action, so older games replay with this sentence too)."""

    seat: int
    phase: str  # "spawn" or "burst"
    count: int  # cells spawned this turn, or cells of the colony that did not move


class Phagocytosis(Event, frozen=True, tag="phagocytosis"):
    turned: tuple[int, ...]  # points whose cell changed colour
    removed: tuple[int, ...] = ()  # flanked cells removed (the new owner had no cell left)


class GameOver(Event, frozen=True, tag="over"):
    winners: tuple[int, ...]
    termination: str
    territories: tuple[int, ...]


CBEvent = (Apoptosed | Generated | Spawned | BurstMoved | VirusMoved | VirusFired | NucleusMoved
           | Passed | Stopped | Phagocytosis | GameOver)
