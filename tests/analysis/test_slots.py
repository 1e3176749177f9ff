"""A server's sessions share N analysis slots (``cellwars serve --analyses N``): at most N analyses
run at once on the machine, a slot frees itself when its holder dies (``kill -9`` included),
another analysis waits in line for one (first come, first served; a waiter killed leaves the
line) and can be stopped while it waits; ``cellwars analyse`` and a local app are not capped."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time

import pytest

from cellwars_tui.analysis import Stopped, analyse
from cellwars_tui.analysis.slots import ENV_COUNT, ENV_SLOTS, Slots, session_env, waiting_words
from cellwars_tui.locations import ENV_CONFINED
from cellwars_tui.replay import Replay
from tests.replay.helpers import save_toy

HOLDER = """
import sys
from pathlib import Path
from cellwars_tui.analysis.slots import Slots
said = lambda running, ahead: print(f"waiting {running} {ahead}", flush=True)
slot = Slots(Path(sys.argv[1]), int(sys.argv[2])).take(waiting=said, poll=0.02)
print(f"slot {slot.index}", flush=True)
sys.stdin.read()  # (holds the slot until killed)
"""


def until(condition, what: str, timeout: float = 60.0) -> None:
    """Wait for ``condition()`` (the timeout only guards against a hang)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.01)


def holder(folder, count: int) -> tuple[subprocess.Popen, str]:
    """Another process taking a slot (as another session's analysis): it, and its first line
    ("slot I" once it holds slot I, "waiting R A" while it waits in line)."""
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(folder), str(count)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    return proc, proc.stdout.readline().strip()


def waiter(slots: Slots, stop=None) -> tuple[threading.Thread, list, list]:
    """A thread taking a slot: it, what it said while waiting, and what it got."""
    said: list[tuple[int, int]] = []
    got: list = []
    thread = threading.Thread(target=lambda: got.append(slots.take(
        stop, lambda running, ahead: said.append((running, ahead)), poll=0.02)))
    thread.start()
    return thread, said, got


def test_n_slots_cap_other_processes_and_killed_holders_and_waiters_leave(tmp_path):
    folder = tmp_path / "run" / "analyses"
    env = session_env(folder, 2)
    assert folder.stat().st_mode & 0o777 == 0o700
    slots = Slots.from_env(env)
    assert slots is not None and slots.count == 2
    procs = []
    try:
        first, a = holder(folder, 2)
        second, b = holder(folder, 2)
        third, c = holder(folder, 2)
        procs = [first, second, third]
        assert sorted((a, b)) == ["slot 0", "slot 1"] and c == "waiting 2 0"  # N+1: one waits
        assert slots.running() == 2 and slots.try_take() is None
        thread, said, got = waiter(slots)
        until(lambda: said, "the fourth to wait")
        assert said == [(2, 1)]  # two running, the third before it in line
        third.send_signal(signal.SIGKILL)  # killed while it waited: it leaves the line
        third.wait()
        until(lambda: len(said) == 2, "the fourth to be first in line")
        assert said[-1] == (2, 0) and not got
        first.send_signal(signal.SIGKILL)  # killed while its analysis ran: its slot frees
        first.wait()
        thread.join(60)
        assert got and got[0] is not None and f"slot {got[0].index}" == a
        assert (folder / "slot-0").stat().st_mode & 0o777 == 0o600
        assert slots.running() == 2
        got[0].release()
        assert slots.running() == 1
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()
            proc.stdin.close()
            proc.stdout.close()
    assert slots.running() == 0 and not list(folder.glob("wait-*"))


def test_first_come_first_served_and_a_wait_stops_when_told(tmp_path):
    slots = Slots(tmp_path, 1)
    taken = slots.try_take()
    assert taken is not None
    early, early_said, early_got = waiter(slots)
    until(lambda: early_said, "the first wait")
    stop = threading.Event()
    late, late_said, late_got = waiter(slots, stop.is_set)
    until(lambda: late_said, "the second wait")
    assert (early_said, late_said) == ([(1, 0)], [(1, 1)])
    taken.release()
    early.join(60)  # the first in line gets it, never the later one
    assert early_got[0] is not None and not late_got
    stop.set()  # the later one gives up waiting
    late.join(60)
    assert late_got == [None]
    early_got[0].release()
    assert slots.running() == 0 and not list(tmp_path.glob("wait-*"))


def test_words_fit_an_80_column_line():
    assert waiting_words(1) == ("Waiting for a free analysis slot: 1 analysis is running on "
                                "this server")
    assert waiting_words(2, 3) == ("Waiting for a free analysis slot: 2 analyses running, 3 "
                                   "ahead of you")
    assert len(waiting_words(1024, 999)) <= 78  # (the panel's padding within 80 columns)


@pytest.fixture
def session(tmp_path, monkeypatch):
    """A confined session of a server that allows one analysis at once."""
    folder = tmp_path / "slots"
    for name, value in session_env(folder, 1).items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv(ENV_CONFINED, "1")
    return Slots(folder, 1)


def test_a_sessions_analysis_waits_for_the_slot_and_stops_while_waiting(tmp_path, session):
    _, path = save_toy(tmp_path, moves=8)
    replay = Replay.open(path)
    taken = session.try_take()  # another session's analysis runs
    stop = threading.Event()
    said: list[tuple[int, int]] = []
    outcome: list[object] = []

    def run() -> None:
        try:
            outcome.append(analyse(replay, budget=2, stop=stop.is_set,
                                   waiting=lambda *now: said.append(now)))
        except Stopped as exc:
            outcome.append(exc)

    worker = threading.Thread(target=run)
    worker.start()
    until(lambda: said, "the analysis to wait")
    stop.set()
    worker.join(60)
    assert said == [(1, 0)] and len(outcome) == 1 and isinstance(outcome[0], Stopped)
    taken.release()
    found = analyse(replay, budget=2, waiting=lambda *now: said.append(now))  # no wait now
    assert found.decisions and said == [(1, 0)] and session.running() == 0  # (and it let go)


def test_cellwars_analyse_and_a_local_app_are_not_capped(tmp_path, session, monkeypatch):
    monkeypatch.delenv(ENV_CONFINED)
    monkeypatch.delenv("CELLWARS_SSH_HUB", raising=False)
    _, path = save_toy(tmp_path, moves=6)
    with session.try_take():  # every slot taken
        found = analyse(Replay.open(path), budget=2, workers=1,
                        waiting=lambda *n: pytest.fail("an uncapped analysis waited"))
    assert found.decisions


def test_slots_from_a_broken_environment_cap_nothing(tmp_path):
    assert Slots.from_env({}) is None
    assert Slots.from_env({ENV_SLOTS: str(tmp_path), ENV_COUNT: "two"}) is None
    assert Slots.from_env({ENV_SLOTS: str(tmp_path), ENV_COUNT: "0"}).count == 1
