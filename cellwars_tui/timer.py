"""The shared asyncio timer service for real-time games (a sand timer that never drifts).

A :class:`Timer` counts one period down (an Infection round, for instance) against an injectable
:class:`Clock` (``MonotonicClock`` by default; tests use :class:`FakeClock`, which never sleeps for
real). It can be started, paused, resumed and stopped; it tells subscribers at a steady tick rate
how much time is left, fires its expiry callbacks (and sets an :class:`asyncio.Event`) when the
time runs out, and runs one-shot callbacks after a number of *play* seconds (paused time does not
count), which is how bot teammates keep their pace and stop when the game is paused.

No drift: every tick is scheduled against the deadline on the monotonic clock (tick ``k`` is due
when ``k * interval`` seconds of the period have been played), never by adding up sleep lengths,
so a late wake-up delays that one tick and nothing after it.

This module imports neither textual nor rich: any front end (a Textual screen, an SSH session, a
headless simulation) drives it from its own event loop.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import math
import time
from collections.abc import Callable
from typing import Protocol

import msgspec

IDLE, RUNNING, PAUSED, EXPIRED = "idle", "running", "paused", "expired"


class Clock(Protocol):
    """What the timer needs from a clock: a monotonic reading and a way to wait."""

    def now(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...


class MonotonicClock:
    """The real clock: ``time.monotonic`` and ``asyncio.sleep``."""

    def now(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))


class FakeClock:
    """A clock for tests: time moves only when :meth:`advance` is awaited; nothing sleeps for real.

    ``lateness`` wakes every sleeper that many seconds after its due time (to show that late
    wake-ups do not accumulate into drift).
    """

    def __init__(self, start: float = 0.0, *, lateness: float = 0.0) -> None:
        self.t = start
        self.lateness = lateness
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._seq = itertools.count()

    def now(self) -> float:
        return self.t

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self.t + seconds, next(self._seq), fut))
        await fut

    async def advance(self, seconds: float) -> None:
        """Move time forward by ``seconds``, waking sleepers in due order and letting them run."""
        target = self.t + seconds
        while True:
            await _settle()
            if not (self._sleepers and self._sleepers[0][0] + self.lateness <= target):
                break
            due, _, fut = heapq.heappop(self._sleepers)
            if fut.done():
                continue
            self.t = max(self.t, due + self.lateness)
            fut.set_result(None)
        self.t = max(self.t, target)
        await _settle()


async def _settle(rounds: int = 20) -> None:
    for _ in range(rounds):
        await asyncio.sleep(0)


class Tick(msgspec.Struct, frozen=True):
    """One tick sent to subscribers."""

    index: int  # tick k is due once k * interval seconds of the period have been played
    remaining: float  # seconds left in the period (0.0 at expiry)
    late: float  # how far after its due moment on the monotonic clock this tick ran (drift)


class _Later(msgspec.Struct):
    due: float  # in play seconds of the timer's life (paused time excluded)
    fn: Callable[[], object]
    cancelled: bool = False

    def cancel(self) -> None:
        self.cancelled = True


class Timer:
    """A pausable countdown with ticks, expiry callbacks and play-time callbacks.

    Use it inside a running event loop: ``start`` creates one task that sleeps until the next
    tick, callback or deadline, whichever comes first.
    """

    def __init__(self, duration: float, *, interval: float = 0.1, clock: Clock | None = None) -> None:
        if not duration > 0 or not interval > 0:
            raise ValueError("a timer needs a positive duration and tick interval")
        self.duration = float(duration)
        self.interval = float(interval)
        self.clock: Clock = clock or MonotonicClock()
        self.state = IDLE
        self.expired = asyncio.Event()
        self.max_late = 0.0  # the worst tick lateness seen since start (drift check)
        self._deadline = 0.0  # monotonic deadline while running
        self._left = self.duration  # seconds left while idle or paused
        self._tick_index = 0  # the next tick to send
        self._subscribers: list[Callable[[Tick], object]] = []
        self._on_expire: list[Callable[[], object]] = []
        self._later: list[tuple[float, int, _Later]] = []
        self._seq = itertools.count()
        self._born = self.clock.now()
        self._paused_total = 0.0
        self._paused_at: float | None = self._born  # play time starts with the first start()
        self._task: asyncio.Task[None] | None = None
        self._wake: asyncio.Event | None = None

    # -- reading ---------------------------------------------------------------------------
    def remaining(self) -> float:
        if self.state == RUNNING:
            return max(0.0, self._deadline - self.clock.now())
        return 0.0 if self.state == EXPIRED else self._left

    def elapsed(self) -> float:
        """Seconds of the current period played so far."""
        return self.duration - self.remaining()

    def play_time(self) -> float:
        """Seconds this timer has been running (over every period; paused and idle time excluded).
        Pass ``timer.play_time`` as a Match clock to record each action's time in play seconds."""
        now = self.clock.now()
        stopped = self._paused_total + (now - self._paused_at if self._paused_at is not None else 0)
        return now - self._born - stopped

    @property
    def running(self) -> bool:
        return self.state == RUNNING

    # -- subscribing -----------------------------------------------------------------------
    def subscribe(self, fn: Callable[[Tick], object]) -> Callable[[], None]:
        """Call ``fn(tick)`` at every tick; returns a function that unsubscribes."""
        self._subscribers.append(fn)
        return lambda: self._subscribers.remove(fn) if fn in self._subscribers else None

    def on_expire(self, fn: Callable[[], object]) -> Callable[[], None]:
        self._on_expire.append(fn)
        return lambda: self._on_expire.remove(fn) if fn in self._on_expire else None

    def after(self, seconds: float, fn: Callable[[], object]) -> _Later:
        """Call ``fn()`` once after ``seconds`` of play time (pauses stop the wait).
        Returns a handle with ``cancel()``."""
        item = _Later(self.play_time() + max(0.0, seconds), fn)
        heapq.heappush(self._later, (item.due, next(self._seq), item))
        self._poke()
        return item

    # -- controlling -----------------------------------------------------------------------
    def start(self, duration: float | None = None) -> None:
        """Start (or restart) a period of ``duration`` seconds (the timer's own by default)."""
        if duration is not None:
            if not duration > 0:
                raise ValueError("a timer needs a positive duration")
            self.duration = float(duration)
        now = self.clock.now()
        self._resume_play(now)
        self.state = RUNNING
        self.expired.clear()
        self.max_late = 0.0
        self._tick_index = 0
        self._left = self.duration
        self._deadline = now + self.duration
        self._ensure_task()

    def pause(self) -> None:
        if self.state != RUNNING:
            return
        now = self.clock.now()
        self._left = max(0.0, self._deadline - now)
        self.state = PAUSED
        self._paused_at = now
        self._poke()

    def resume(self) -> None:
        if self.state != PAUSED:
            return
        now = self.clock.now()
        self._resume_play(now)
        self._deadline = now + self._left
        self.state = RUNNING
        self._ensure_task()

    def cut(self, left: float) -> None:
        """Leave at most ``left`` seconds in the current period (a lesson winds the sand on);
        play time is not touched."""
        left = max(0.0, float(left))
        if self.state == RUNNING:
            self._deadline = min(self._deadline, self.clock.now() + left)
            self._poke()
        elif self.state in (PAUSED, IDLE):
            self._left = min(self._left, left)

    def stop(self) -> None:
        """Stop the period without expiring (back to idle; play-time callbacks wait)."""
        if self.state == RUNNING:
            self._paused_at = self.clock.now()
        self._left = self.remaining() if self.state != EXPIRED else 0.0
        self.state = IDLE
        self._poke()

    def close(self) -> None:
        """Stop and drop the background task (call when the screen goes away)."""
        self.stop()
        self._later.clear()
        if self._task is not None:
            self._task.cancel()
            self._task = None

    # -- internals -------------------------------------------------------------------------
    def _resume_play(self, now: float) -> None:
        if self._paused_at is not None:
            self._paused_total += now - self._paused_at
            self._paused_at = None

    def _poke(self) -> None:
        if self._wake is not None:
            self._wake.set()

    def _ensure_task(self) -> None:
        self._poke()
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())

    def _tick_due(self, k: int) -> float:
        """Monotonic moment tick ``k`` is due (only meaningful while running)."""
        return self._deadline - self.duration + k * self.interval

    async def _run(self) -> None:
        self._wake = asyncio.Event()
        try:
            while True:
                self._wake.clear()
                now = self.clock.now()
                waits: list[float] = []
                if self.state == RUNNING:
                    self._fire_ticks(now)
                    if self.state == RUNNING:
                        waits.append(min(self._tick_due(self._tick_index), self._deadline) - now)
                if self._later and self._paused_at is None:
                    self._fire_later()
                    if self._later:
                        waits.append(self._later[0][0] - self.play_time())
                if self.state != RUNNING and not (self._later and self._paused_at is None):
                    await self._wake.wait()  # idle, paused or expired: nothing runs
                    continue
                if not waits:
                    continue
                delay = max(0.0, min(waits))
                sleeper = asyncio.ensure_future(self.clock.sleep(delay))
                waker = asyncio.ensure_future(self._wake.wait())
                try:
                    await asyncio.wait({sleeper, waker}, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    sleeper.cancel()
                    waker.cancel()
        except asyncio.CancelledError:
            pass

    def _fire_ticks(self, now: float) -> None:
        expired = now >= self._deadline
        # ticks that are due; a late wake-up sends only the latest one (no bursts of stale ticks)
        last_due = min(math.floor((now - self._tick_due(0)) / self.interval + 1e-9),
                       math.floor(self.duration / self.interval + 1e-9))
        if last_due >= self._tick_index:
            late = max(0.0, now - self._tick_due(last_due))
            self.max_late = max(self.max_late, late)
            self._tick_index = last_due + 1
            if not expired:
                self._send(Tick(last_due, max(0.0, self._deadline - now), late))
        if expired:
            self.max_late = max(self.max_late, now - self._deadline)
            self._left = 0.0
            self.state = EXPIRED
            self._paused_at = now
            self._send(Tick(round(self.duration / self.interval), 0.0, now - self._deadline))
            self.expired.set()
            for fn in list(self._on_expire):
                fn()

    def _send(self, tick: Tick) -> None:
        for fn in list(self._subscribers):
            fn(tick)

    def _fire_later(self) -> None:
        played = self.play_time()
        while self._later and self._later[0][0] <= played + 1e-9:
            _, _, item = heapq.heappop(self._later)
            if not item.cancelled:
                item.fn()


def format_clock(seconds: float) -> str:
    """``m:ss`` for a countdown (rounded up, so 0:00 only when time is really out)."""
    whole = max(0, math.ceil(seconds - 1e-9))
    return f"{whole // 60}:{whole % 60:02d}"
