"""The server's limits, the words a turned-away client gets, and a token bucket that caps a
session's input bytes per second. The SSH server (:mod:`.server`) and the browser front end
(:mod:`.web`) share all three."""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable

import msgspec

from ..core.errors import CellwarsError


class Limits(msgspec.Struct, frozen=True, kw_only=True):
    """Everything that bounds what clients may cost the server."""

    max_sessions: int = 50
    """Sessions (each one child process) at once; one more is turned away with a message."""
    per_address: int = 8
    """Open connections from one client address at once."""
    login_timeout: float = 30.0
    """Seconds a client has to finish the handshake and authentication."""
    idle_timeout: float = 3600.0
    """Seconds without any input before a session is closed (0: never)."""
    keepalive_interval: float = 30.0
    """Seconds of silence from the client before the server probes it (0: never)."""
    keepalive_count_max: int = 4
    """Unanswered probes before the connection is dropped."""
    input_rate: int = 64 * 1024
    """Input bytes per second a session may send (bursts of one second's worth allowed)."""
    kill_grace: float = 2.0
    """Seconds a child gets to exit after SIGHUP before SIGKILL."""

    def check(self) -> None:
        """Raise CellwarsError (one line, naming the option) for a value that makes no sense."""
        if self.max_sessions < 1:
            raise CellwarsError(f"--max-sessions must be at least 1, not {self.max_sessions}")
        if self.max_sessions > MAX_SESSIONS:
            raise CellwarsError(f"--max-sessions must be at most {MAX_SESSIONS}, not "
                                f"{self.max_sessions}")
        if self.per_address < 1:
            raise CellwarsError("the per-address connection cap must be at least 1")
        check_seconds("--idle-timeout", self.idle_timeout, MAX_TIMEOUT, zero="never")
        check_seconds("--keepalive", self.keepalive_interval, MAX_KEEPALIVE, zero="never")
        if self.keepalive_count_max < 1:
            raise CellwarsError("the keepalive probe count must be at least 1")
        if not (math.isfinite(self.login_timeout) and 0 < self.login_timeout <= MAX_TIMEOUT):
            raise CellwarsError("the login timeout must be a positive number of seconds")
        if self.input_rate < 64:
            raise CellwarsError("the input rate must be at least 64 bytes a second")
        if not (math.isfinite(self.kill_grace) and self.kill_grace >= 0):
            raise CellwarsError("the kill grace must be 0 or more seconds")


MAX_SESSIONS = 10_000
MAX_TIMEOUT = 7 * 24 * 3600.0  # a week: longer is "never", which 0 says
MAX_KEEPALIVE = 24 * 3600.0


def check_seconds(option: str, value: float, most: float, *, zero: str = "") -> None:
    """A number of seconds from the command line: finite, not negative, at most ``most``; 0 is
    allowed only when it means something (``zero``: what it means, e.g. "never")."""
    if not (math.isfinite(value) and 0 <= value <= most and (value > 0 or zero)):
        what = f"0 ({zero}) or a number of seconds" if zero else "a number of seconds"
        raise CellwarsError(f"{option} must be {what} up to {most:g}, not {value:g}")


def check_port(option: str, value: int) -> None:
    """A TCP port from the command line (0: any free port, which the server then prints)."""
    if not 0 <= value <= 65535:
        raise CellwarsError(f"{option} must be between 0 and 65535, not {value} "
                            "(0: any free port)")


# -- what a turned-away client is told (SSH session or browser tab alike) -----------------------
def full_message(max_sessions: int) -> str:
    return f"cellwars: the server is full ({max_sessions} players); please try again later."


def too_many_message(per_address: int) -> str:
    return (f"cellwars: too many connections from your address ({per_address} at most); "
            "close one and try again.")


def idle_message(seconds: float) -> str:
    when = f"{seconds / 60:g} minutes" if seconds >= 120 else f"{seconds:g} seconds"
    return f"cellwars: closed after {when} without input."


class TokenBucket:
    """``take(n)`` waits until ``n`` bytes fit under ``rate`` bytes/s (burst: one second's worth)."""

    def __init__(self, rate: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = float(rate)
        self.capacity = float(rate)
        self.tokens = float(rate)
        self._clock = clock
        self._last = clock()

    def _refill(self) -> None:
        now = self._clock()
        self.tokens = min(self.capacity, self.tokens + (now - self._last) * self.rate)
        self._last = now

    def delay_for(self, n: int) -> float:
        """Take ``n`` tokens (going into debt) and return how long to wait before using them."""
        self._refill()
        self.tokens -= n
        return 0.0 if self.tokens >= 0 else -self.tokens / self.rate

    async def take(self, n: int) -> None:
        delay = self.delay_for(n)
        if delay > 0:
            await asyncio.sleep(delay)
