"""One child process per session on its own PTY, bridged to an SSH channel.

The child runs the same app as local play. It is started in a new session (``setsid``) with the
PTY's slave side as its controlling terminal, so that:

* a resize is one ``TIOCSWINSZ`` on the master side: the kernel then sends SIGWINCH to the child's
  foreground process group (asyncssh's own ``redirect`` does not forward resizes);
* ending a session is ``killpg`` of that group (SIGHUP, then SIGKILL after a grace period), and the
  child is always reaped, so no process outlives its connection.

The bridge pumps bytes both ways with back-pressure: input is capped in bytes per second by a
:class:`~.limits.TokenBucket`, and output is read from the PTY no faster than the client takes it.
Input reaches the app as UTF-8 whatever the client sends: a byte that is not UTF-8 (a Latin-1
terminal's é) becomes U+FFFD here, so no client can break its app's input decoder (a sequence
cut between two packets is kept until its end arrives); and control sequences the app's parser
cannot take (a "key" past U+10FFFF, a twelve-digit number) are dropped (:mod:`.input_filter`).

Only a few sessions start at once (:class:`~.limits.StartGate`): a session waits in line, its
channel open and nothing written to it, until a place among the starting ones is free; then its
child is started with the write end of a pipe, and the place is given on when the child writes
its byte there (its first frame is out: the session app does so on Textual's Ready), when the
child exits (end of file), when the session ends, or after ``Limits.start_timeout``. A command
that knows nothing of the pipe (anything but the session app, e.g. the tests' stand-in, which
does write it) thus holds its place until it exits or that timeout passes. A client that leaves
while in line leaves the line; no child is started for it.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import errno
import fcntl
import os
import pty
import signal
import struct
import termios
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import asyncssh

from .input_filter import InputFilter
from .limits import (
    ENV_READY_FD, Limits, StartGate, StartSlot, TokenBucket, cancel_and_wait, starting_message,
)

# Sent to the client when the server ends a child itself (idle, shutdown, crash): leave the
# alternate screen, stop mouse reporting and bracketed paste, show the cursor, reset colours.
TERMINAL_RESET = (
    b"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l\x1b[?2004l\x1b[?1004l"
    b"\x1b[?1049l\x1b[?25h\x1b[0m\r\n"
)


def set_winsize(fd: int, rows: int, cols: int, xpixel: int = 0, ypixel: int = 0) -> None:
    """Set a terminal's size (on the master side this signals the child's foreground group)."""
    rows = max(1, min(int(rows), 1000))
    cols = max(1, min(int(cols), 1000))
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, xpixel, ypixel))


def get_winsize(fd: int) -> tuple[int, int]:
    """(rows, cols) of a terminal."""
    rows, cols, _, _ = struct.unpack("HHHH", fcntl.ioctl(fd, termios.TIOCGWINSZ, b"\0" * 8))
    return rows, cols


def _become_terminal_leader() -> None:  # runs in the child between fork and exec
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


async def _wait_fd(fd: int, *, write: bool = False) -> None:
    loop = asyncio.get_running_loop()
    fut = loop.create_future()
    add, remove = (loop.add_writer, loop.remove_writer) if write else (loop.add_reader, loop.remove_reader)

    def ready() -> None:
        if not fut.done():
            fut.set_result(None)

    add(fd, ready)
    try:
        await fut
    finally:
        remove(fd)


async def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        try:
            n = os.write(fd, view)
        except BlockingIOError:
            await _wait_fd(fd, write=True)
            continue
        view = view[n:]


class ExecChild:
    """A child started by fork+exec of ``command`` (asyncio reaps it)."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.pid = proc.pid

    @property
    def returncode(self) -> int | None:
        return self.proc.returncode

    async def wait(self) -> int:
        return await self.proc.wait()


class ExecSpawner:
    """Runs ``command`` for each session (the plain design: one interpreter start per session)."""

    def __init__(self, command: Sequence[str]) -> None:
        self.command = list(command)

    async def spawn(self, slave: int, env: Mapping[str, str],
                    ready_fd: int | None = None) -> ExecChild:
        env = dict(env)
        pass_fds: tuple[int, ...] = ()
        if ready_fd is not None:  # the child says when its first frame is out (limits.ENV_READY_FD)
            env[ENV_READY_FD] = str(ready_fd)
            pass_fds = (ready_fd,)
        proc = await asyncio.create_subprocess_exec(
            *self.command, stdin=slave, stdout=slave, stderr=slave, env=env,
            start_new_session=True, preexec_fn=_become_terminal_leader, close_fds=True,
            pass_fds=pass_fds,
        )
        return ExecChild(proc)

    async def close(self) -> None:
        pass


class ChildSession:
    """A child process on a PTY, bridged to one SSH server process (channel)."""

    def __init__(
        self,
        process: asyncssh.SSHServerProcess,
        spawner: ExecSpawner | Any,
        env: Mapping[str, str],
        limits: Limits,
        *,
        size: tuple[int, int] = (24, 80),
        on_start: Callable[[int], None] | None = None,
        on_ready: Callable[[int], None] | None = None,
        gate: StartGate | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.process = process
        self.spawner = spawner
        self.env = dict(env)
        self.limits = limits
        self.size = size
        self.on_start = on_start
        self.on_ready = on_ready  # the child reported its first frame (called with its pid)
        self.gate = gate
        self._ready_watch: tuple[int, asyncio.TimerHandle] | None = None
        self.clock = clock
        self.proc: ExecChild | Any = None
        self.master = -1
        self.last_input = clock()
        self.ended_by_server = ""  # why the server ended the child ("" if it ended by itself)

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None

    async def run(self) -> int:
        """Run the child until it exits or the client goes away; returns the exit status.

        With a gate, first wait in line for a place among the sessions starting at once (a
        client that leaves meanwhile gets no child: 1 is returned)."""
        slot = None
        if self.gate is not None:
            slot = await self._wait_in_line()
            if slot is None:
                return 1
            with contextlib.suppress(Exception):  # the client may have resized while in line
                width, height, _, _ = self.process.get_terminal_size()
                if width and height:
                    self.size = (height, width)
        ready_r = -1
        try:
            master, slave = pty.openpty()
            self.master = master
            try:
                set_winsize(master, *self.size)
                os.set_blocking(master, False)
                ready_r, ready_w = os.pipe()
                try:
                    self.proc = await self.spawner.spawn(slave, self.env, ready_fd=ready_w)
                finally:
                    os.close(slave)
                    os.close(ready_w)
                # the idle timeout counts from the child's start, not from the time in line
                self.last_input = self.clock()
                if self.on_start is not None:
                    self.on_start(self.proc.pid)
                self._watch_ready(ready_r, slot)
                ready_r = -1  # closed by the watch
                return await self._bridge()
            finally:
                await self.kill()
                os.close(master)
                self.master = -1
        finally:
            self._stop_watching_ready()
            if ready_r >= 0:
                os.close(ready_r)
            if slot is not None:
                slot.release()

    async def _wait_in_line(self) -> StartSlot | None:
        """A place among the starting sessions, or None if the client went away first."""
        assert self.gate is not None
        if self.gate.busy:  # a line: say so at once (the app's first frame clears it)
            with contextlib.suppress(Exception):
                ahead = self.gate.waiting + self.gate.starting
                self.process.stdout.write(starting_message(ahead).encode() + b"\r\n")
        turn = asyncio.ensure_future(self.gate.acquire())
        gone = asyncio.ensure_future(self.process.channel.wait_closed())
        try:
            await asyncio.wait({turn, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            gone.cancel()
            if not turn.done():
                turn.cancel()  # leaves the line (or gives the place on, if handed it just now)
        await asyncio.wait({turn, gone})  # their cancellations run to the end (raises nothing)
        if turn.cancelled() or turn.exception() is not None:
            return None
        slot = turn.result()
        if self.process.channel.is_closing():  # gone the moment its turn came
            slot.release()
            return None
        return slot

    def _watch_ready(self, fd: int, slot: StartSlot | None) -> None:
        """Give the slot on at the child's ready byte, its end of file, or the start timeout;
        the ready byte is told to ``on_ready``. Takes ``fd`` (the pipe's read end) over."""
        loop = asyncio.get_running_loop()
        pid = self.proc.pid

        def done(ready: bool) -> None:
            self._stop_watching_ready()
            if slot is not None:
                slot.release()
            if ready and self.on_ready is not None:
                self.on_ready(pid)

        def readable() -> None:
            try:
                data = os.read(fd, 16)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            done(bool(data))

        os.set_blocking(fd, False)
        loop.add_reader(fd, readable)
        self._ready_watch = (fd, loop.call_later(self.limits.start_timeout, done, False))

    def _stop_watching_ready(self) -> None:
        watch, self._ready_watch = self._ready_watch, None
        if watch is not None:
            fd, timer = watch
            timer.cancel()
            asyncio.get_running_loop().remove_reader(fd)
            os.close(fd)

    async def _bridge(self) -> int:
        out_task = asyncio.create_task(self._pump_out())
        in_task = asyncio.create_task(self._pump_in())
        tasks = {out_task, in_task}
        idle_task = None
        if self.limits.idle_timeout > 0:
            idle_task = asyncio.create_task(self._watch_idle())
            tasks.add(idle_task)
        try:
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            if out_task in done:
                # The child closed its terminal: it is exiting. Give it a moment to be reaped.
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(self.proc.wait(), self.limits.kill_grace)
            elif idle_task is not None and idle_task in done:
                self.ended_by_server = (
                    f"cellwars: closed after {_duration(self.limits.idle_timeout)} without input."
                )
        finally:
            await cancel_and_wait(tasks)
        if self.proc.returncode is None:
            await self.kill()
            return 0 if not self.ended_by_server else 1
        return self.proc.returncode if self.proc.returncode >= 0 else 1

    async def _pump_out(self) -> None:
        """PTY -> client, at the client's pace."""
        stdout = self.process.stdout
        while True:
            try:
                data = os.read(self.master, 65536)
            except BlockingIOError:
                await _wait_fd(self.master)
                continue
            except OSError as exc:  # EIO: every slave fd is closed (the child exited)
                if exc.errno in (errno.EIO, errno.EBADF):
                    return
                raise
            if not data:
                return
            stdout.write(data)
            await stdout.drain()

    async def _pump_in(self) -> None:
        """Client -> PTY, with resizes forwarded and input capped in bytes per second."""
        bucket = TokenBucket(self.limits.input_rate, self.clock)
        utf8 = codecs.getincrementaldecoder("utf-8")(errors="replace")
        keys = InputFilter()  # what the app's terminal parser could not take is dropped
        stdin = self.process.stdin
        while True:
            try:
                data = await stdin.read(4096)
            except asyncssh.TerminalSizeChanged as exc:
                self.size = (exc.height, exc.width)
                set_winsize(self.master, exc.height, exc.width, exc.pixwidth, exc.pixheight)
                continue
            except (asyncssh.BreakReceived, asyncssh.SignalReceived):
                continue
            except (asyncssh.Error, OSError):
                return
            if not data:
                return  # the client closed its side
            self.last_input = self.clock()
            await bucket.take(len(data))
            text = keys.feed(utf8.decode(data))
            if text:
                await _write_all(self.master, text.encode("utf-8"))

    async def _watch_idle(self) -> None:
        limit = self.limits.idle_timeout
        while True:
            left = self.last_input + limit - self.clock()
            if left <= 0:
                return
            await asyncio.sleep(min(left, 30.0))

    async def kill(self) -> None:
        """End the child's whole process group (SIGHUP, then SIGKILL) and reap the child."""
        proc = self.proc
        if proc is None:
            return
        if proc.returncode is None:
            _killpg(proc.pid, signal.SIGHUP)
            try:
                await asyncio.wait_for(proc.wait(), self.limits.kill_grace)
            except asyncio.TimeoutError:
                _killpg(proc.pid, signal.SIGKILL)
                await proc.wait()
        # No killpg after the reap: the group id could belong to a new session by then. The child
        # leads its session, so when it exits the kernel hangs up on its terminal's whole group.


def _killpg(pgid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def _duration(seconds: float) -> str:
    if seconds >= 120:
        return f"{seconds / 60:g} minutes"
    return f"{seconds:g} seconds"
