"""Bots of the hub's tables think in worker processes, not in the server process.

The server process runs the SSH server, every session's PTY pump and the hub; a search bot
thinking there (even in a thread: the GIL) would make every other player's keys and frames wait.
:class:`BotPool` keeps a few worker processes (started with ``spawn``, so they share nothing with
the server but what a job carries), started on the first bot move and ended when the hub closes.

A job is plain data (:class:`BotJob`, msgpack over a pipe): the game's id (and the module that
registers it, for a game the worker does not know yet), the view the bot's seat may see, encoded
by the game, the seat, the bot's id, its seed and its thinking budget. The answer is the chosen
action, encoded by the game. The worker builds ``random.Random(seed)`` from the seed the table's
own seeded RNG drew, so a bot chooses exactly what it would choose in the server process.

A worker that crashes, hangs past its budget or cannot think raises :class:`BotFailed` for that
move (the caller plays a legal random move instead); the pool starts a fresh worker for the next.
Workers run at a lower priority (``os.nice``) so the players' sessions come first, and each one
exits when its pipe to the server closes: no orphans, even when the server is killed.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import multiprocessing
import os
import random
import signal
from typing import Any

import msgspec

from ..core.api import Action, Game
from ..core.errors import CellwarsError

WORKERS = 2  # worker processes at most (the hub's tables share them)
GRACE = 15.0  # seconds a worker may take beyond a bot's budget (its first job starts Python)
NICE = 10  # workers yield the CPU to the sessions


class BotJob(msgspec.Struct, frozen=True, kw_only=True):
    game: str  # the game's id
    module: str = ""  # the module that registers the game, imported if the worker lacks it
    view: bytes  # game.encode_state(the seat's view)
    seat: int
    bot: str  # "random", "mcts", ...
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
    from ..ai.bots import make_bot
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


def _serve(conn) -> None:
    """A worker's life: answer jobs until the server's end of the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C at the server's terminal: it closes us
    with contextlib.suppress(OSError):
        os.nice(NICE)
    while True:
        try:
            data = conn.recv_bytes()
        except (EOFError, OSError):
            return
        try:
            answer = think(_jobs.decode(data))
        except msgspec.DecodeError as exc:
            answer = BotAnswer(error=f"not a job: {exc}", pid=os.getpid())
        try:
            conn.send_bytes(_encode(answer))
        except OSError:
            return


class _Worker:
    """One worker process and the server's end of its pipe."""

    def __init__(self, ctx) -> None:
        self.conn, child = ctx.Pipe(duplex=True)
        self.process = ctx.Process(target=_serve, args=(child,), name="cellwars-bot", daemon=True)
        self.process.start()
        child.close()  # the worker holds the only other end: its death reads as the end of stream
        self._stopping: asyncio.Future | None = None

    @property
    def pid(self) -> int | None:
        return self.process.pid

    async def ask(self, data: bytes, timeout: float) -> bytes:
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[bytes] = loop.create_future()
        fd = self.conn.fileno()

        def readable() -> None:
            if answer.done():
                return
            try:
                answer.set_result(self.conn.recv_bytes())
            except (EOFError, OSError) as exc:
                answer.set_exception(BotFailed(f"the bot's worker process ended ({exc or 'crash'})"))

        try:
            self.conn.send_bytes(data)
        except OSError as exc:
            raise BotFailed(f"the bot's worker process is gone ({exc})") from None
        loop.add_reader(fd, readable)
        try:
            return await asyncio.wait_for(answer, timeout)
        except asyncio.TimeoutError:
            raise BotFailed(f"the bot's worker took over {timeout:g} s") from None
        finally:
            loop.remove_reader(fd)

    async def stop(self) -> None:
        """End the process and reap it (callers at the same time share one stop)."""
        if self._stopping is None:
            self._stopping = asyncio.ensure_future(self._stop())
        await asyncio.shield(self._stopping)

    async def _stop(self) -> None:
        with contextlib.suppress(OSError):
            self.conn.close()
        proc = self.process
        if proc.is_alive():
            proc.terminate()
        await asyncio.to_thread(proc.join, 2)
        if proc.is_alive():
            proc.kill()
            await asyncio.to_thread(proc.join, 2)
        proc.close()


class BotPool:
    """A few worker processes that run bots' moves (see the module's docstring)."""

    def __init__(self, workers: int = WORKERS, *, grace: float = GRACE,
                 start_method: str = "spawn") -> None:
        self.size = max(1, workers)
        self.grace = grace
        self._ctx = multiprocessing.get_context(start_method)
        self._workers: list[_Worker] = []  # alive, idle or busy
        self._idle: list[_Worker] = []
        self._free: asyncio.Semaphore | None = None  # made in the loop that uses the pool
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
            worker = self._idle.pop() if self._idle else self._start()
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

    def _start(self) -> _Worker:
        worker = _Worker(self._ctx)
        self._workers.append(worker)
        return worker

    async def _drop(self, worker: _Worker) -> None:
        if worker in self._workers:
            self._workers.remove(worker)
        with contextlib.suppress(ValueError):
            self._idle.remove(worker)
        await worker.stop()

    async def close(self) -> None:
        """End every worker (a move being thought is abandoned) and wait for them to exit."""
        self._closed = True
        workers, self._workers, self._idle = self._workers, [], []
        await asyncio.gather(*(w.stop() for w in workers), return_exceptions=True)
