"""A confined session (``cellwars serve`` / ``cellwars web`` started it for a player) analyses in
its own process, with no pool of its own, on a thread at a lower priority: a server's sessions
never each start a process per core."""

from __future__ import annotations

import os
import threading

import pytest

from cellwars_tui.analysis import analyse, run
from cellwars_tui.locations import ENV_CONFINED
from cellwars_tui.replay import Replay
from tests.replay.helpers import save_toy


def test_a_confined_session_analyses_in_process_on_a_lowered_thread(tmp_path, monkeypatch):
    _, path = save_toy(tmp_path, moves=10)
    replay = Replay.open(path)
    assert run.default_workers() >= 1
    monkeypatch.setenv(ENV_CONFINED, "1")
    assert run.default_workers() == 1

    def no_pool(*args, **kwargs):
        raise AssertionError("a confined session started a process pool")

    monkeypatch.setattr(run.cf, "ProcessPoolExecutor", no_pool)
    niceness: list[tuple[int, int]] = []
    found = []

    def worker() -> None:  # as the replay viewer's thread worker calls it
        tid = threading.get_native_id()
        before = os.getpriority(os.PRIO_PROCESS, tid)

        def progress(done: int, total: int) -> None:
            niceness.append((before, os.getpriority(os.PRIO_PROCESS, tid)))

        found.append(analyse(replay, budget=4, progress=progress))

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    assert found and found[0].decisions
    before, during = niceness[-1]
    assert during == min(19, before + run.CONFINED_NICE)
    main = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    assert main == niceness[0][0]  # (the session's own thread is not lowered)


def test_outside_a_session_the_pool_is_per_core(monkeypatch):
    monkeypatch.delenv(ENV_CONFINED, raising=False)
    monkeypatch.delenv("CELLWARS_SSH_HUB", raising=False)
    if (os.cpu_count() or 1) < 2:
        pytest.skip("one core: one worker either way")
    assert run.default_workers() == min(os.cpu_count() or 1, 8)
