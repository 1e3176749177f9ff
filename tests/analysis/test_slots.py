"""A server's sessions share N analysis slots (``cellwars serve --analyses N``): at most N analyses
run at once on the machine, a slot frees itself when its holder dies (``kill -9`` included),
another analysis waits for one and can be stopped while it waits; ``cellwars analyse`` and a
local app are not capped."""

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
slot = Slots(Path(sys.argv[1]), int(sys.argv[2])).try_take()
print(-1 if slot is None else slot.index, flush=True)
sys.stdin.read()  # (holds the slot until killed)
"""


def until(condition, what: str, timeout: float = 60.0) -> None:
    """Wait for ``condition()`` (the timeout only guards against a hang)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.01)


def holder(folder, count: int) -> tuple[subprocess.Popen, int]:
    """Another process holding a slot (as another session's analysis): it and its slot's index."""
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(folder), str(count)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    return proc, int(proc.stdout.readline())


def test_n_slots_cap_other_processes_and_a_killed_holder_frees_its_slot(tmp_path):
    folder = tmp_path / "run" / "analyses"
    env = session_env(folder, 2)
    assert folder.stat().st_mode & 0o777 == 0o700
    slots = Slots.from_env(env)
    assert slots is not None and slots.count == 2
    first, a = holder(folder, 2)
    second, b = holder(folder, 2)
    try:
        assert sorted((a, b)) == [0, 1]  # (each took its own)
        assert slots.running() == 2 and slots.try_take() is None  # the third waits
        said: list[int] = []
        got = []
        waiter = threading.Thread(target=lambda: got.append(slots.take(waiting=said.append,
                                                                      poll=0.02)))
        waiter.start()
        until(lambda: said, "the third to say it waits")
        assert said == [2] and not got
        first.send_signal(signal.SIGKILL)  # its analysis never ends cleanly
        first.wait()
        waiter.join(60)
        assert got and got[0] is not None and got[0].index == a  # the slot it held, freed
        assert (folder / "slot-0").stat().st_mode & 0o777 == 0o600
        got[0].release()
        assert slots.running() == 1
    finally:
        for proc in (first, second):
            proc.kill()
            proc.wait()
            proc.stdin.close()
            proc.stdout.close()
    assert slots.running() == 0


def test_a_wait_for_a_slot_stops_when_told(tmp_path):
    slots = Slots(tmp_path, 1)
    taken = slots.try_take()
    assert taken is not None
    stop = threading.Event()
    said: list[int] = []
    got = []
    waiter = threading.Thread(target=lambda: got.append(slots.take(stop.is_set, said.append,
                                                                  poll=0.02)))
    waiter.start()
    until(lambda: said, "the wait")
    stop.set()
    waiter.join(60)
    assert got == [None] and said == [1]
    taken.release()
    assert slots.running() == 0


def test_words_fit_an_80_column_line():
    assert waiting_words(1) == ("Waiting for a free analysis slot: 1 analysis is running on "
                                "this server")
    assert len(waiting_words(1024)) <= 76  # (the panel's padding within 80 columns)


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
    said: list[int] = []
    outcome: list[object] = []

    def run() -> None:
        try:
            outcome.append(analyse(replay, budget=2, stop=stop.is_set, waiting=said.append))
        except Stopped as exc:
            outcome.append(exc)

    worker = threading.Thread(target=run)
    worker.start()
    until(lambda: said, "the analysis to wait")
    stop.set()
    worker.join(60)
    assert said == [1] and len(outcome) == 1 and isinstance(outcome[0], Stopped)
    taken.release()
    found = analyse(replay, budget=2, waiting=said.append)  # a free slot: no wait
    assert found.decisions and said == [1] and session.running() == 0  # (and it let go)


def test_cellwars_analyse_and_a_local_app_are_not_capped(tmp_path, session, monkeypatch):
    monkeypatch.delenv(ENV_CONFINED)
    monkeypatch.delenv("CELLWARS_SSH_HUB", raising=False)
    _, path = save_toy(tmp_path, moves=6)
    with session.try_take():  # every slot taken
        found = analyse(Replay.open(path), budget=2, workers=1,
                        waiting=lambda n: pytest.fail("an uncapped analysis waited"))
    assert found.decisions


def test_slots_from_a_broken_environment_cap_nothing(tmp_path):
    assert Slots.from_env({}) is None
    assert Slots.from_env({ENV_SLOTS: str(tmp_path), ENV_COUNT: "two"}) is None
    assert Slots.from_env({ENV_SLOTS: str(tmp_path), ENV_COUNT: "0"}).count == 1
