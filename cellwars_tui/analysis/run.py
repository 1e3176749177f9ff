"""Analyse a replay: every decision step weighed (in a process pool over the machine's cores; in a
confined SSH or browser session in its own process, at a lower priority, once one of the
server's analysis slots is free: see slots.py), then the chart's values, the judgments and each
player's accuracy.

Deterministic: decision ``i`` is weighed with ``random.Random(f"analysis/{seed}/{i}")`` at a
fixed budget of playouts (never seconds), so the same record gives the same numbers whatever the
machine, its load or the number of workers. ``stop`` (polled between decisions) and Ctrl+C end
the run with :class:`Stopped` and nothing returned: a caller never sees half an analysis.
"""

from __future__ import annotations

import concurrent.futures as cf
import hashlib
import importlib
import multiprocessing
import os
import random
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from ..core.api import CHANCE, Action
from ..core.errors import CellwarsError
from ..core.registry import get_game
from ..locations import confined
from ..record.files import read_user_file
from ..record.format import MAX_RECORD_BYTES
from ..replay.model import Replay
from . import slots
from .evaluators import context_of, default_budget, weigh
from .judge import BLUNDER, INACCURACY, MISTAKE, judgment, move_accuracy
from .limits import MAX_BUDGET
from .model import Analysis, Decision, PlayerSummary
from .search import Verdict, win_percent

CONFINED_NICE = 10  # what a confined session's analysis thread yields (see _in_process)


class AnalysisError(CellwarsError):
    """A record that cannot be analysed (newer rules, no valid step): one line."""


class Stopped(CellwarsError):
    """The analysis was stopped (Ctrl+C, the viewer left): nothing was kept."""


# (game module, game id, step index, seat, state, move played, budget, seed, context)
Task = tuple[str, str, int, int, Any, Action, int, int, dict[str, float]]


def _weigh_task(task: Task) -> tuple[int, Verdict]:
    module, game_id, index, seat, state, played, budget, seed, context = task
    importlib.import_module(module)  # (a worker process registers the game by importing it)
    game = get_game(game_id)
    rng = random.Random(f"analysis/{seed}/{index}")
    return index, weigh(game, state, seat, played, budget, rng, context)


def _quiet_worker() -> None:
    """A worker leaves Ctrl+C to the process that started it and yields the CPU to the UI."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        os.nice(5)
    except OSError:
        pass


def default_workers() -> int:
    """A process per core (at most 8); in a confined session (``cellwars serve`` or ``cellwars
    web`` started it for a player) one, in the session's own process: a server's sessions must
    not each start a pool over every core (see ``_in_process``)."""
    if confined():
        return 1
    return max(1, min(os.cpu_count() or 1, 8))


def _in_process() -> None:
    """A confined session analyses in its own process (no pool), on the thread the viewer gave
    it, at a lower priority (``CONFINED_NICE`` more: the session's own screen, the server and
    the other sessions come first). Only a thread of its own is lowered: a thread's niceness
    cannot be raised back, and the main thread is the session's screen."""
    if not confined() or threading.current_thread() is threading.main_thread():
        return
    try:
        tid = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, tid, os.getpriority(os.PRIO_PROCESS, tid) + CONFINED_NICE)
    except (AttributeError, OSError):  # (not on this system: the analysis runs all the same)
        pass


def file_key(path: Path) -> str:
    """blake2b of a record file's bytes: what its sidecar is keyed by."""
    data = read_user_file(path, limit=MAX_RECORD_BYTES)
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def record_key(replay: Replay) -> str:
    """What the sidecar belongs to: the record file's key (for a replay without a file, or one
    gone meanwhile, the key of its move list)."""
    if replay.path is not None:
        try:
            return file_key(replay.path)
        except CellwarsError:
            pass
    return hashlib.blake2b(replay.export_text().encode(), digest_size=16).hexdigest()


def tasks_of(replay: Replay, budget: int, seed: int) -> tuple[list[Task], dict[int, Decision]]:
    """The decisions to weigh (one task each) and the forced ones (decided already)."""
    game = replay.game
    tasks: list[Task] = []
    forced: dict[int, Decision] = {}
    state = replay.state_at(0)
    for i, step in enumerate(replay.steps):
        if step.seat != CHANCE:
            text = game.action_to_str(step.action)
            if len(game.legal_actions(state, step.seat)) <= 1:
                forced[i] = Decision(step=i + 1, seat=step.seat, played=text, forced=True)
            else:
                tasks.append((type(game).__module__, game.id, i, step.seat, state,
                              step.action, budget, seed, context_of(game, replay, i)))
        state = game._apply(state, step.seat, step.action)[0]
    return tasks, forced


def notes_of(replay: Replay) -> list[str]:
    game = replay.game
    recorded = replay.rules_version
    if recorded > game.rules_version:
        raise AnalysisError(f"cannot analyse a record made with newer {game.title} rules "
                            f"(version {recorded}; these are version {game.rules_version})")
    notes = []
    if recorded < game.rules_version:
        notes.append(f"played under {game.title} rules version {recorded} (these are version "
                     f"{game.rules_version}): analysed under the rules it was played with")
    if replay.problem:
        notes.append(f"damaged record: analysed the {len(replay)} valid steps "
                     f"({replay.problem})")
    if game.hidden_information:
        notes.append("the analysis sees every hidden program and hand the record holds")
    return notes


def analyse(replay: Replay, *, budget: int | None = None, seed: int = 0,
            workers: int | None = None, progress: Callable[[int, int], None] | None = None,
            stop: Callable[[], bool] | None = None,
            waiting: Callable[[int, int], None] | None = None) -> Analysis:
    """Weigh every decision of ``replay`` and sum it up (see the module docstring). In a
    confined session it first takes one of the server's analysis slots (:mod:`.slots`),
    waiting in line for one to free if need be (``waiting(running, ahead)`` says so; ``stop``
    ends the wait with :class:`Stopped`)."""
    game = replay.game
    budget = default_budget(game) if budget is None else budget
    if not 1 <= budget <= MAX_BUDGET:
        raise AnalysisError(f"the budget must be 1 to {MAX_BUDGET} playouts, not {budget}")
    notes = notes_of(replay)
    if not len(replay):
        raise AnalysisError("the record has no valid step to analyse")
    with slots.held(slots.Slots.from_env() if confined() else None, stop, waiting) as holding:
        if not holding:
            raise Stopped("analysis stopped")
        return _analyse(replay, budget, seed, workers, notes, progress, stop)


def _analyse(replay: Replay, budget: int, seed: int, workers: int | None, notes: list[str],
             progress: Callable[[int, int], None] | None,
             stop: Callable[[], bool] | None) -> Analysis:
    t0 = time.perf_counter()
    tasks, decided = tasks_of(replay, budget, seed)
    total = len(tasks)
    verdicts: dict[int, Verdict] = {}
    if progress:
        progress(0, total)
    workers = default_workers() if workers is None else max(1, workers)
    if workers <= 1 or total <= 1:
        _in_process()
        for task in tasks:
            if stop is not None and stop():
                raise Stopped("analysis stopped")
            index, found = _weigh_task(task)
            verdicts[index] = found
            if progress:
                progress(len(verdicts), total)
    else:
        _run_pool(tasks, verdicts, workers, progress, stop)
    return summarise(replay, budget, seed, tasks, verdicts, decided, notes,
                     time.perf_counter() - t0)


def _tracker_running() -> None:
    """Start multiprocessing's resource tracker while ``sys.stderr`` has a file descriptor: a
    Textual app replaces it with one that has none, and the tracker would refuse to start."""
    from multiprocessing import resource_tracker

    try:
        sys.stderr.fileno()
    except (AttributeError, OSError, ValueError):
        pass
    else:
        if sys.stderr.fileno() >= 0:
            resource_tracker.ensure_running()
            return
    saved = sys.stderr
    with open(os.devnull, "w") as quiet:
        sys.stderr = quiet
        try:
            resource_tracker.ensure_running()
        finally:
            sys.stderr = saved


def _run_pool(tasks: list[Task], verdicts: dict[int, Verdict], workers: int,
              progress: Callable[[int, int], None] | None,
              stop: Callable[[], bool] | None) -> None:
    ctx = multiprocessing.get_context("spawn")  # never fork a process that runs threads (the UI)
    _tracker_running()
    pool = cf.ProcessPoolExecutor(min(workers, len(tasks)), mp_context=ctx,
                                  initializer=_quiet_worker)
    try:
        pending = {pool.submit(_weigh_task, task) for task in tasks}
        while pending:
            done, pending = cf.wait(pending, timeout=0.2, return_when=cf.FIRST_COMPLETED)
            for future in done:
                index, found = future.result()
                verdicts[index] = found
            if done and progress:
                progress(len(verdicts), len(tasks))
            if stop is not None and stop():
                raise Stopped("analysis stopped")
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def summarise(replay: Replay, budget: int, seed: int, tasks: list[Task],
              verdicts: dict[int, Verdict], decided: dict[int, Decision], notes: list[str],
              seconds: float) -> Analysis:
    game = replay.game
    players = replay.players
    decisions = dict(decided)
    for task in tasks:
        _, _, i, seat, _, played, *_ = task
        v = verdicts[i]
        decision = Decision(
            step=i + 1, seat=seat, played=game.action_to_str(played),
            best=game.action_to_str(v.best), before=v.best_values, after=v.played_values,
            exact=v.exact, note=v.note, margin=v.margin)
        if v.best != played:
            decision = msgspec.structs.replace(decision, judgment=judgment(decision.drop))
        decisions[i] = decision
    ordered = tuple(decisions[i] for i in sorted(decisions))
    names = tuple(replay.seat_names())
    team = game.meta.cooperative and players > 1
    final = replay.final_outcome()
    end = win_percent(final.returns(players)) if final is not None else None
    seat_values = _values(len(replay), players, ordered, end)
    values: tuple[tuple[float, ...], ...]
    if team:
        lines: tuple[str, ...] = ("Team", "Virus")
        values = tuple((v[0], round(100.0 - v[0], 1)) for v in seat_values)
    else:
        lines, values = names, seat_values
    return Analysis(
        record_key=record_key(replay), game=game.id,
        rules_version=replay.rules_version, budget=budget,
        seed=seed, steps=len(replay), names=names, lines=lines, values=values,
        decisions=ordered, players=_players(names, ordered), notes=tuple(notes),
        seconds=round(seconds, 2))


def _values(length: int, players: int, decisions: tuple[Decision, ...],
            end: tuple[float, ...] | None) -> tuple[tuple[float, ...], ...]:
    """Each seat's Win% at every cursor: the position before a decision is worth its best move,
    the position after it what the move played is worth, the end its result; between them
    (chance steps, forced moves) the last known value carries on."""
    known: dict[int, tuple[float, ...]] = {}
    for d in decisions:
        if d.forced:
            continue
        known[d.step - 1] = d.before  # (over the previous decision's "after": the same position)
        known[d.step] = d.after
    if end is not None:
        known[length] = end
    first = next((known[n] for n in sorted(known)), (round(100.0 / max(1, players), 1),) * players)
    out = []
    last = first
    for n in range(length + 1):
        last = known.get(n, last)
        out.append(last)
    return tuple(out)


def _players(names: tuple[str, ...], decisions: tuple[Decision, ...]) -> tuple[PlayerSummary, ...]:
    out = []
    for seat, name in enumerate(names):
        mine = [d for d in decisions if d.seat == seat and d.judged]
        accuracy = (sum(move_accuracy(d.drop) for d in mine) / len(mine)) if mine else None
        out.append(PlayerSummary(
            seat=seat, name=name, accuracy=None if accuracy is None else round(accuracy, 1),
            decisions=len(mine),
            inaccuracies=sum(d.judgment == INACCURACY for d in mine),
            mistakes=sum(d.judgment == MISTAKE for d in mine),
            blunders=sum(d.judgment == BLUNDER for d in mine)))
    return tuple(out)
