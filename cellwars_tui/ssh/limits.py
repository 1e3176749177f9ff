"""The server's limits, the words a turned-away client gets, a token bucket that caps a
session's input bytes per second, and the gate that lets only a few sessions start at once. The
SSH server (:mod:`.server`) and the browser front end (:mod:`.web`) share the first three."""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import time
from collections import deque
from collections.abc import Callable

import msgspec

from ..core.errors import CellwarsError


class Limits(msgspec.Struct, frozen=True, kw_only=True):
    """Everything that bounds what clients may cost the server."""

    max_sessions: int = 50
    """Sessions (each one child process) at once; one more is turned away with a message."""
    per_address: int = 8
    """Open connections from one client address at once, counted from the moment a connection is
    accepted (before it logs in). One more is told why inside its session; any beyond that is
    closed at once."""
    sessions_per_connection: int = 1
    """Sessions (terminals) one SSH connection may open: more would let one connection carry
    many players' worth of processes past the per-address cap (``ssh -M`` then ``ssh -S``)."""
    max_unauthenticated: int = 64
    """Connections not yet logged in, from every address together (the login queue, see
    :mod:`.logins`): when it is full a newcomer evicts the oldest connection of the network
    holding the most places, if that network holds more than the newcomer's would; otherwise
    the newcomer is refused. Never is an honest handshake pushed out by a crowd."""
    logins_per_network: int = 16
    """Places in the login queue one network (a /24 for IPv4, a /64 for IPv6) may hold."""
    max_connections: int = 0
    """Connections at once (logged in or not, SSH connections and browser tabs together); one
    more is closed at once. 0: ``default_max_connections``, below the process's file limit."""
    login_timeout: float = 30.0
    """Seconds a client has to finish the handshake and authentication, and then to open its
    session: a connection with no session open that long is closed."""
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
    max_starting: int = 0
    """Sessions starting at once (child started, first frame not yet out); the others wait in
    line, first come first served. 0: ``default_max_starting()``."""
    max_analyses: int = 0
    """Replay analyses the sessions run at once on the machine (a session's own process each,
    see ``..analysis.slots``); another waits for a free slot, and says so. 0: one per core."""
    start_timeout: float = 10.0
    """Seconds a starting session may take to report its first frame before its place among
    the starting ones goes to the next in line (a child that exits gives it up at once)."""

    @property
    def starting_limit(self) -> int:
        return self.max_starting or default_max_starting()

    @property
    def analyses_limit(self) -> int:
        from ..analysis.slots import default_count

        return self.max_analyses or default_count()

    @property
    def connection_limit(self) -> int:
        return self.max_connections or default_max_connections(self.max_sessions)

    def check(self) -> None:
        """Raise CellwarsError (one line, naming the option) for a value that makes no sense."""
        if self.max_sessions < 1:
            raise CellwarsError(f"--max-sessions must be at least 1, not {self.max_sessions}")
        if self.max_sessions > MAX_SESSIONS:
            raise CellwarsError(f"--max-sessions must be at most {MAX_SESSIONS}, not "
                                f"{self.max_sessions}")
        if self.per_address < 1:
            raise CellwarsError("the per-address connection cap must be at least 1")
        if self.sessions_per_connection < 1:
            raise CellwarsError("the sessions per connection must be at least 1")
        if self.max_unauthenticated < 1:
            raise CellwarsError("the cap on connections logging in must be at least 1")
        if self.logins_per_network < 1:
            raise CellwarsError("the login queue's places per network must be at least 1")
        most = connections_the_file_limit_allows(self.max_sessions)
        if most < self.max_sessions:
            raise CellwarsError(
                f"--max-sessions {self.max_sessions} needs more open files than this process may "
                f"have ({file_limit()}, ulimit -n): raise that limit or lower --max-sessions")
        if not 0 <= self.max_connections <= most:
            raise CellwarsError(f"the connection cap must be 0 (from the file limit) or up to "
                                f"{most}, not {self.max_connections}")
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
        if not 0 <= self.max_starting <= MAX_SESSIONS:
            raise CellwarsError(f"--max-starting must be 0 (two per core) or a number of sessions "
                                f"up to {MAX_SESSIONS}, not {self.max_starting}")
        if not 0 <= self.max_analyses <= MAX_ANALYSES:
            raise CellwarsError(f"--analyses must be 0 (one per core) or a number of analyses "
                                f"up to {MAX_ANALYSES}, not {self.max_analyses}")
        if not (math.isfinite(self.start_timeout) and self.start_timeout > 0):
            raise CellwarsError("the start timeout must be a positive number of seconds")


MAX_SESSIONS = 10_000
MAX_ANALYSES = 1024  # (analysis.slots.MAX_SLOTS)

# Sessions starting at once, by default: two per core. A session's start is about 0.1 s of CPU
# (forked from the zygote to its first frame). Fifty started together share the cores and all
# finish late together (measured on 2 cores: the median first frame as late as the slowest,
# 4-5 s); a few at a time keep the cores busy (two per core: one can run while another waits
# on the PTY or the hub) and first frames then come one after another at the machine's full
# rate. CELLWARS_SSH_MAX_STARTING in the server's environment, or Limits.max_starting, overrides.
ENV_MAX_STARTING = "CELLWARS_SSH_MAX_STARTING"
STARTING_PER_CORE = 2
MIN_STARTING = 2


def default_max_starting() -> int:
    try:
        value = int(os.environ.get(ENV_MAX_STARTING, ""))
    except ValueError:
        value = 0
    if value > 0:
        return value
    return max(MIN_STARTING, STARTING_PER_CORE * (os.cpu_count() or 1))


# -- connections at once, below the file limit ---------------------------------------------------
# Every connection (an SSH connection, a browser tab) holds one file descriptor of the server;
# a session holds a few more (its PTY or its app's pipes, the ready pipe, the child watcher).
# A reserve is kept for the store, the logs, the hub's socket and listening sockets. More
# connections than the file limit allows would make accept() fail for everyone.
FDS_PER_SESSION = 4
FD_RESERVE = 128
MAX_CONNECTIONS = 4096  # the default's ceiling, whatever the file limit


def file_limit() -> int:
    """The process's soft limit on open files (``ulimit -n``)."""
    import resource

    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


def raise_file_limit() -> None:
    """Raise the soft limit on open files to the hard limit (``cellwars serve`` and ``web`` do
    this at start, as most servers do: the soft limit is often 1024)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):
            pass


def connections_the_file_limit_allows(max_sessions: int) -> int:
    return file_limit() - FD_RESERVE - FDS_PER_SESSION * max_sessions


def default_max_connections(max_sessions: int) -> int:
    """Connections at once by default: what the file limit leaves once every session has its
    descriptors and the reserve is kept, at most MAX_CONNECTIONS."""
    return max(1, min(MAX_CONNECTIONS, connections_the_file_limit_allows(max_sessions)))


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


def busy_message() -> str:
    """What a browser tab beyond the cap on connections at once is told."""
    return "cellwars: the server has too many connections right now; please try again later."


def starting_message(ahead: int) -> str:
    """What a session waiting in line to start sees until its app's first frame replaces it."""
    who = "1 player" if ahead == 1 else f"{ahead} players"
    return f"cellwars: starting your table... ({who} starting before you)"


def too_many_message(per_address: int) -> str:
    return (f"cellwars: too many connections from your address ({per_address} at most); "
            "close one and try again.")


SESSION_FAILED = "cellwars: this session failed; the server's log says why."


def one_session_message(most: int) -> str:
    what = "one game" if most == 1 else f"{most} games"
    return (f"cellwars: {what} per connection: open another connection (another ssh) "
            "to play another.")


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


# -- sessions starting at once ------------------------------------------------------------------
# A started child tells the server its first frame is out by writing one byte to this file
# descriptor (named in its environment when it is exec'd; the zygote hands it to a forked child
# directly), then closes it. Its end of file (the child exited) says the same for the gate.
ENV_READY_FD = "CELLWARS_SSH_READY_FD"


class StartSlot:
    """A place among the sessions starting at once; ``release()`` (any number of times) gives it
    to the next in line."""

    __slots__ = ("_gate", "released")

    def __init__(self, gate: StartGate) -> None:
        self._gate = gate
        self.released = False

    def release(self) -> None:
        if not self.released:
            self.released = True
            self._gate._pass_on()


class StartGate:
    """At most ``limit`` sessions starting at once; the rest wait in line, first come first
    served (``await gate.acquire()`` gives a :class:`StartSlot`). A waiter that is cancelled
    leaves the line, and gives the slot on if it was handed one as it was cancelled."""

    def __init__(self, limit: int) -> None:
        self.limit = max(1, int(limit))
        self.starting = 0  # slots held
        self.closed = False
        self._line: deque[asyncio.Future[None]] = deque()

    def close(self) -> None:
        """The server is closing: everyone in line is sent away (their ``acquire`` raises
        ConnectionError), and so is anyone who comes later."""
        self.closed = True
        while self._line:
            fut = self._line.popleft()
            if not fut.done():
                fut.set_exception(ConnectionError("the server is closing"))

    @property
    def busy(self) -> bool:
        """Whether a session asking now would wait in line."""
        return self.starting >= self.limit or bool(self.waiting)

    @property
    def waiting(self) -> int:
        return sum(1 for fut in self._line if not fut.done())

    async def acquire(self) -> StartSlot:
        if self.closed:
            raise ConnectionError("the server is closing")
        if self.starting < self.limit and not self.waiting:
            self.starting += 1
            return StartSlot(self)
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._line.append(fut)
        try:
            await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled() and fut.exception() is None:
                self._pass_on()  # it was handed the slot as it was cancelled
            else:
                try:
                    self._line.remove(fut)
                except ValueError:
                    pass
            raise
        return StartSlot(self)  # handed on by _pass_on: ``starting`` already counts it

    def _pass_on(self) -> None:
        while self._line:
            fut = self._line.popleft()
            if not fut.done():
                fut.set_result(None)
                return
        self.starting = max(0, self.starting - 1)


async def cancel_and_wait(tasks) -> None:
    """End a session's helper tasks (pumps, watchers): cancel each, then wait for each to finish,
    whatever it raised (the SSH and the browser front ends end a session this way)."""
    for task in tasks:
        task.cancel()
    for task in tasks:
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
