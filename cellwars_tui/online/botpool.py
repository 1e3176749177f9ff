"""Bots of the hub's tables think in worker processes, not in the server process.

The server process runs the SSH server, every session's PTY pump and the hub; a search bot
thinking there (even in a thread: the GIL) would make every other player's keys and frames wait.
:class:`BotPool` keeps a few worker processes (``python -m cellwars_tui.online.botpool``: a fresh
interpreter that shares nothing with the server but what a job carries, and never runs the
server's main module again as multiprocessing's spawn would), started on the first bot move and
ended when the hub closes.

A job is plain data (:class:`BotJob`, length-prefixed msgpack on the worker's stdin): the game's
id (and the module that registers it, for a game the worker does not know yet), the view the
bot's seat may see, encoded by the game, the seat, the bot's id, its seed and its thinking budget.
The answer (on the worker's stdout) is the chosen action, encoded by the game. The worker builds
``random.Random(seed)`` from the seed the table's own seeded RNG drew, so a bot chooses exactly
what it would choose in the server process.

A worker that crashes, hangs past its budget or cannot think raises :class:`BotFailed` for that
move (the caller plays a legal random move instead); the pool starts a fresh worker for the next.
Workers run at a lower priority (``os.nice``) so the players' sessions come first, and each one
exits when its stdin closes: no orphans, even when the server is killed.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import os
import random
import signal
import struct
import sys
from typing import Any

import msgspec

from ..core.api import Action, Game
from ..core.errors import CellwarsError

WORKERS = 2  # worker processes at most (the hub's tables share them)
GRACE = 15.0  # seconds a worker may take beyond a bot's budget (its first job starts Python)
NICE = 10  # workers yield the CPU to the sessions
ENV_PATH = "CELLWARS_BOTPOOL_PATH"  # the server's sys.path (json), for games outside the package
MAX_MESSAGE = 16 << 20
_LEN = struct.Struct(">I")


class BotJob(msgspec.Struct, frozen=True, kw_only=True):
    game: str  # the game's id
    module: str = ""  # the module that registers the game, imported if the worker lacks it
    view: bytes  # game.encode_state(the seat's view)
    seat: int
    bot: str  # a level ("random", "easy", "normal", "hard") or "mcts" (before levels)
    seed: int  # random.Random(seed) is the bot's RNG
    budget: float  # seconds to think


class BotAnswer(msgspec.Struct, frozen=True, kw_only=True):
    action: bytes = b""  # game.encode_action(the choice)
    error: str = ""  # why the bot could not choose ("" when it did)
    pid: int = 0  # the worker that thought


class BotFailed(CellwarsError):
    """The worker crashed, took too long or its bot could not choose a move."""


_encode = msgspec.msgpack.Encoder().encode
_jobs = msgspec.msgpack.Decoder(BotJob)
_answers = msgspec.msgpack.Decoder(BotAnswer)


def job_for(game: Game, view: Any, seat: int, bot: str, seed: int, budget: float) -> BotJob:
    return BotJob(game=game.id, module=type(game).__module__, view=game.encode_state(view),
                  seat=seat, bot=bot, seed=seed, budget=budget)


def think(job: BotJob) -> BotAnswer:
    """Run one job here (in a worker: the pool calls this)."""
    from ..ai.levels import make_bot
    from ..core.registry import get_game

    try:
        try:
            game = get_game(job.game)
        except CellwarsError:
            if not job.module:
                raise
            importlib.import_module(job.module)
            game = get_game(job.game)
        view = game.decode_state(job.view)
        action = make_bot(job.bot).choose(game, view, job.seat, random.Random(job.seed), job.budget)
        return BotAnswer(action=game.encode_action(action), pid=os.getpid())
    except Exception as exc:  # told to the hub, which plays on without this bot's choice
        return BotAnswer(error=f"{type(exc).__name__}: {exc}", pid=os.getpid())


def _read_exactly(fd: int, size: int) -> bytes | None:
    chunks, left = [], size
    while left:
        chunk = os.read(fd, left)
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def serve(fd_in: int = 0, fd_out: int = 1) -> None:
    """A worker's life: answer jobs until the server closes our stdin."""
    out = os.fdopen(os.dup(fd_out), "wb", buffering=0)
    os.dup2(2, fd_out)  # whatever a game prints goes to stderr, not into the answers
    sys.stdout = sys.stderr
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C at the server's terminal: it closes us
    with contextlib.suppress(OSError):
        os.nice(NICE)
    while True:
        head = _read_exactly(fd_in, _LEN.size)
        if head is None:
            return
        (size,) = _LEN.unpack(head)
        data = _read_exactly(fd_in, size) if size <= MAX_MESSAGE else None
        if data is None:
            return
        try:
            answer = think(_jobs.decode(data))
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            answer = BotAnswer(error=f"not a job: {exc}", pid=os.getpid())
        body = _encode(answer)
        try:
            out.write(_LEN.pack(len(body)) + body)
        except OSError:
            return


class _Worker:
    """One worker process and its pipes."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.pid = proc.pid
        self._stopping: asyncio.Future | None = None

    @classmethod
    async def start(cls) -> _Worker:
        env = {**os.environ, ENV_PATH: json.dumps(sys.path)}
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", __name__, stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, env=env)
        return cls(proc)

    async def ask(self, data: bytes, timeout: float) -> bytes:
        stdin, stdout = self.proc.stdin, self.proc.stdout
        assert stdin is not None and stdout is not None

        async def exchange() -> bytes:
            stdin.write(_LEN.pack(len(data)) + data)
            await stdin.drain()
            (size,) = _LEN.unpack(await stdout.readexactly(_LEN.size))
            if size > MAX_MESSAGE:
                raise BotFailed(f"the bot's worker sent {size} bytes")
            return await stdout.readexactly(size)

        try:
            return await asyncio.wait_for(exchange(), timeout)
        except asyncio.TimeoutError:
            raise BotFailed(f"the bot's worker took over {timeout:g} s") from None
        except (asyncio.IncompleteReadError, ConnectionError, OSError) as exc:
            code = self.proc.returncode
            why = f"exit status {code}" if code is not None else (str(exc) or type(exc).__name__)
            raise BotFailed(f"the bot's worker process ended ({why})") from None

    async def stop(self) -> None:
        """End the process and reap it (callers at the same time share one stop)."""
        if self._stopping is None:
            self._stopping = asyncio.ensure_future(self._stop())
        await asyncio.shield(self._stopping)

    async def _stop(self) -> None:
        proc = self.proc
        if proc.stdin is not None:
            proc.stdin.close()  # an idle worker ends on its own
        for end in (proc.terminate, proc.kill):
            try:
                await asyncio.wait_for(proc.wait(), 2)
                return
            except asyncio.TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    end()
        await proc.wait()


class BotPool:
    """A few worker processes that run bots' moves (see the module's docstring)."""

    def __init__(self, workers: int = WORKERS, *, grace: float = GRACE) -> None:
        self.size = max(1, workers)
        self.grace = grace
        self._workers: list[_Worker] = []  # alive, idle or busy
        self._idle: list[_Worker] = []
        self._free: asyncio.Semaphore | None = None  # made in the loop that uses the pool
        self._starting: set[asyncio.Future[_Worker]] = set()  # workers being started
        self._closed = False

    def pids(self) -> list[int]:
        """The worker processes running now."""
        return [w.pid for w in self._workers if w.pid is not None]

    async def choose(self, game: Game, view: Any, seat: int, bot: str, seed: int,
                     budget: float) -> tuple[Action, int]:
        """The bot's action for ``seat`` in ``view`` and the pid of the worker that chose it."""
        job = job_for(game, view, seat, bot, seed, budget)
        answer = await self.run(job)
        try:
            return game.decode_action(answer.action), answer.pid
        except CellwarsError as exc:
            raise BotFailed(str(exc)) from None

    async def run(self, job: BotJob) -> BotAnswer:
        if self._closed:
            raise BotFailed("the bots' pool is closed")
        if self._free is None:
            self._free = asyncio.Semaphore(self.size)
        async with self._free:
            if self._closed:
                raise BotFailed("the bots' pool is closed")
            worker = await self._worker()
            try:
                data = await worker.ask(_encode(job), job.budget + self.grace)
            except BaseException:
                # crashed, hung, or the hub stopped waiting (cancelled) mid-thought: the worker's
                # state is unknown, so it goes; the next move starts a fresh one
                await self._drop(worker)
                raise
            if self._closed:
                raise BotFailed("the bots' pool is closed")
            self._idle.append(worker)
        try:
            answer = _answers.decode(data)
        except msgspec.DecodeError as exc:
            raise BotFailed(f"the bot's worker answered nonsense: {exc}") from None
        if answer.error:
            raise BotFailed(answer.error)
        return answer

    async def _worker(self) -> _Worker:
        """An idle worker still alive, or a new one."""
        while self._idle:
            worker = self._idle.pop()
            if worker.proc.returncode is None:
                return worker
            await self._drop(worker)  # died while idle (killed from outside)
        return await self._start()

    async def _start(self) -> _Worker:
        """A new worker. Its start is shielded: a move abandoned meanwhile (the hub closing a
        table) still leaves the process in the pool, which ends it when it closes."""
        starting = asyncio.ensure_future(_Worker.start())
        self._starting.add(starting)
        try:
            worker = await asyncio.shield(starting)
        except OSError as exc:
            raise BotFailed(f"no worker process for the bot ({exc.strerror or exc})") from None
        except asyncio.CancelledError:
            starting.add_done_callback(self._adopt)
            raise
        finally:
            self._starting.discard(starting)
        self._workers.append(worker)
        return worker

    def _adopt(self, starting: asyncio.Future[_Worker]) -> None:
        """A worker whose move was abandoned while it started: idle in the pool (or ended, when
        the pool has closed meanwhile)."""
        if starting.cancelled() or starting.exception() is not None:
            return
        worker = starting.result()
        if self._closed:
            asyncio.ensure_future(worker.stop())
            return
        self._workers.append(worker)
        self._idle.append(worker)

    async def _drop(self, worker: _Worker) -> None:
        if worker in self._workers:
            self._workers.remove(worker)
        with contextlib.suppress(ValueError):
            self._idle.remove(worker)
        await worker.stop()

    async def close(self) -> None:
        """End every worker (a move being thought is abandoned) and wait for them to exit."""
        self._closed = True
        started = await asyncio.gather(*self._starting, return_exceptions=True)
        workers, self._workers, self._idle = self._workers, [], []
        workers += [w for w in started if isinstance(w, _Worker) and w not in workers]
        await asyncio.gather(*(w.stop() for w in workers), return_exceptions=True)


def _main() -> None:
    extra = json.loads(os.environ.pop(ENV_PATH, "[]"))
    sys.path[:0] = [entry for entry in extra if entry not in sys.path]
    serve()


if __name__ == "__main__":
    _main()
