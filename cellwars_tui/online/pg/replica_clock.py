"""A real-time table's round clock across servers: its owner runs the timer; every other server
showing the table (a replica: no clock of its own) shows the owner's, as the owner last announced
it (``c`` notifications, a few dozen bytes: seconds left, running or not, why paused), counted
down locally between announcements, as a player's session does between the hub's states.

The owner announces when what it shows changes (start, pause, play on, a new round) and, asked
(``k CODE``: a server that just set the table up), at once; the announcement is small and carries
no table state, so the replica's countdown matches the owner's within the NOTIFY latency."""

from __future__ import annotations

import base64
import time
from dataclasses import dataclass

import msgspec

DRIFT = 0.25  # seconds: an owner's clock further than this from what it announced is announced


class ClockNote(msgspec.Struct, frozen=True, array_like=True):
    code: str
    server: str
    left: float  # seconds left in the round (-1: no timer)
    running: bool
    paused: str  # why the game waits ("" when it runs)


_decode = msgspec.msgpack.Decoder(ClockNote).decode
_encode = msgspec.msgpack.Encoder().encode


def packed(note: ClockNote) -> str:
    return "c " + base64.b64encode(_encode(note)).decode("ascii")


def unpacked(payload: str) -> ClockNote:
    return _decode(base64.b64decode(payload))


@dataclass
class Shown:
    """A round clock as announced, and when (this server's monotonic clock)."""

    left: float
    running: bool
    paused: str
    at: float

    def now(self, clock: float | None = None) -> float:
        if self.left < 0 or not self.running:
            return self.left
        elapsed = (time.monotonic() if clock is None else clock) - self.at
        return max(0.0, self.left - elapsed)

    def differs(self, left: float, running: bool, paused: str) -> bool:
        return running != self.running or paused != self.paused \
            or abs(left - self.now()) > DRIFT


def shown(note: ClockNote) -> Shown:
    return Shown(note.left, note.running, note.paused, time.monotonic())
