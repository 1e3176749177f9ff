"""Saves off the event loop: the writer thread writes the newest save of each file, keeps a failed
write as a problem, flushes on demand and when the app quits, and a process killed between (or
during) saves leaves a valid record."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

from cellwars_tui.record import writer as record_writer
from cellwars_tui.record.format import read_record_file, record_to_match, write_atomic
from cellwars_tui.record.writer import SaveWriter


def test_saves_piling_up_while_one_is_written_are_coalesced_to_the_newest(tmp_path):
    started, gate = threading.Event(), threading.Event()
    written: list[tuple[Path, bytes]] = []

    def write(path: Path, data: bytes) -> None:
        started.set()
        gate.wait(60)
        written.append((path, data))

    writer = SaveWriter(write)
    a, b = tmp_path / "a", tmp_path / "b"
    writer.put(a, b"1")
    assert started.wait(60)  # the thread is busy with a's first save
    for data in (b"2", b"3", b"4"):
        writer.put(a, data)
    writer.put(b, b"x")
    assert not writer.flush(timeout=0)  # not written yet
    gate.set()
    assert writer.flush(timeout=60)
    assert written == [(a, b"1"), (a, b"4"), (b, b"x")] and writer.writes == 3


def test_a_failed_write_is_a_problem_until_one_works(tmp_path):
    fail = [True]

    def write(path: Path, data: bytes) -> None:
        if fail[0]:
            raise PermissionError(13, "Permission denied")
        write_atomic(path, data)

    writer = SaveWriter(write)
    path = tmp_path / "game.cellwars.json"
    writer.put(path, b"{}")
    assert writer.flush(60)
    assert writer.problem(path) == "could not save the game: Permission denied"
    fail[0] = False
    writer.put(path, b"{}")
    assert writer.flush(60)
    assert writer.problem(path) is None and path.read_bytes() == b"{}"


async def test_a_save_asked_for_just_before_quitting_is_complete(monkeypatch):
    """The writer is held back until the app flushes on its way out: what is on disk after
    quitting is every step played."""
    from cellwars_tui.ui.app import CellwarsApp
    from tests.ui.helpers import settle, toy_match

    gate = threading.Event()

    def slow_write(path: Path, data: bytes) -> None:
        gate.wait(60)
        write_atomic(path, data)

    writer = SaveWriter(slow_write)
    real_flush = writer.flush

    def flush(timeout: float | None = None) -> bool:
        gate.set()  # the app waits for the writer from here on
        return real_flush(timeout)

    monkeypatch.setattr(writer, "flush", flush)
    monkeypatch.setattr(record_writer, "_writer", writer)
    app = CellwarsApp(match=toy_match(seed=5))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        table = app.screen.table
        for _ in range(3):
            await pilot.press("enter")  # roll (the bot answers)
            await settle(pilot)
        match = table.match
        assert match.path is not None and not gate.is_set()  # nothing written yet
        await pilot.press("ctrl+q")
    saved = read_record_file(match.path)
    assert len(saved.steps) == match.cursor > 3


CHILD = textwrap.dedent("""
    import sys
    from cellwars_tui.core.match import Match, Seat
    from cellwars_tui.record.writer import flush
    from cellwars_tui.table.local import LocalTable
    from tests.toy_game import TOY, Hold, Roll

    match = Match(TOY, TOY.options_type(players=2), [Seat(name="A"), Seat(name="B")], 1)
    table = LocalTable(match, humans=[0, 1])
    table.save()
    assert flush(60)  # on disk (60 s: a guard against a hang, not a pace)
    print(match.path, flush=True)
    n = 0
    while True:
        if match.is_over():
            match.seek(1)  # and play on from there: every save differs
        seat = match.to_act()[0]
        table.submit(seat, Hold() if n % 3 == 2 else Roll())
        n += 1
        if n == 50:
            assert flush(60)
            print("saving", flush=True)
""")


def test_a_process_killed_while_saving_leaves_a_valid_record(tmp_path):
    for attempt in range(3):  # killed at three different moments
        child = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE,
                                 text=True, cwd=Path(__file__).resolve().parents[2])
        assert child.stdout is not None
        path = Path(child.stdout.readline().strip())
        assert child.stdout.readline().strip() == "saving"  # 50 actions in, still saving
        for _ in range(attempt * 200):
            read_record_file(path)  # (let it save a while longer: a different moment)
        child.send_signal(signal.SIGKILL)
        child.wait(60)
        record = read_record_file(path)  # the old file or the new one, never half of one
        match = record_to_match(record)
        assert match.cursor == len(record.steps) >= 1
