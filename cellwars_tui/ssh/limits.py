"""The server's limits, and a token bucket that caps a session's input bytes per second."""

from __future__ import annotations

import asyncio
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
        if self.max_sessions < 1:
            raise CellwarsError("--max-sessions must be at least 1")
        if self.per_address < 1:
            raise CellwarsError("the per-address connection cap must be at least 1")
        if self.idle_timeout < 0:
            raise CellwarsError("--idle-timeout must be 0 (never) or a number of seconds")
        if self.login_timeout <= 0 or self.input_rate < 64:
            raise CellwarsError("login timeout and input rate must be positive")


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
