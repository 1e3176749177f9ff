"""The servers' log: one line per problem, and never a flood.

A server under attack (thousands of connections failing the same way) or out of a resource
(file descriptors, disk) would write the same error, traceback and all, many times a second.
:class:`RepeatLimiter` lets each kind of message through once a second (a kind is its logger,
level and message template, whatever the arguments), and no more than ``burst`` lines a second in
all; what it holds back is counted and said in one summary line, at most once a second.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable

FORMAT = "cellwars: %(levelname)s %(name)s: %(message)s"


class RepeatLimiter(logging.Handler):
    """A handler that passes records on to ``target`` within the limits above."""

    def __init__(self, target: logging.Handler, *, interval: float = 1.0, burst: int = 20,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.target = target
        self.interval = interval
        self.burst = burst
        self.clock = clock
        self._window = float("-inf")  # when the current second began
        self._seen: set[tuple] = set()  # kinds already let through in this second
        self._passed = 0  # lines let through in this second
        self._held = 0  # lines held back since the last summary

    def emit(self, record: logging.LogRecord) -> None:
        now = self.clock()
        if now - self._window >= self.interval:  # a new second: say what the last one held
            self._summarize()
            self._window, self._seen, self._passed = now, set(), 0
        key = (record.name, record.levelno, str(record.msg))
        if key in self._seen or self._passed >= self.burst:
            self._held += 1
            return
        self._seen.add(key)
        self._passed += 1
        self.target.handle(record)

    def _summarize(self) -> None:
        if self._held:
            held, self._held = self._held, 0
            self.target.handle(logging.makeLogRecord({
                "name": "cellwars_tui.ssh.logs", "levelno": logging.WARNING,
                "levelname": "WARNING",
                "msg": f"{held} more log line{'s' if held != 1 else ''} like the ones above "
                       "left out",
            }))

    def flush(self) -> None:
        self.target.flush()

    def close(self) -> None:
        self._summarize()
        self.target.close()
        super().close()


def set_up_logging(level: int = logging.WARNING) -> RepeatLimiter:
    """The server's log on stderr, through a :class:`RepeatLimiter` (``cellwars serve`` and
    ``cellwars web``)."""
    target = logging.StreamHandler(sys.stderr)
    target.setFormatter(logging.Formatter(FORMAT))
    limiter = RepeatLimiter(target)
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h, RepeatLimiter)]:
        root.removeHandler(old)
    root.addHandler(limiter)
    root.setLevel(level)
    return limiter
