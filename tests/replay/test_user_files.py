"""Paths a player names for the replay code: only regular files of a sane size are read.

``cellwars replay /dev/zero`` (or a directory, or a FIFO) and Replays > i (import a move list) with
such a path used to read without end; now each is one line, before anything is read."""

from __future__ import annotations

import os

import pytest

from cellwars_tui.cli import main
from cellwars_tui.core.errors import RecordError
from cellwars_tui.record.format import MAX_RECORD_BYTES
from cellwars_tui.replay import Replay
from cellwars_tui.ui.replay import (
    MAX_MOVE_LIST_BYTES,
    check_user_file,
    import_move_list,
    read_user_file,
)
from tests.replay.helpers import save_toy


@pytest.fixture
def fifo(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return path


def _sparse(path, size):
    with open(path, "wb") as fh:
        fh.truncate(size)  # sparse: no disk used, nothing written
    return path


def test_import_refuses_a_fifo_without_waiting_for_a_writer(fifo):
    with pytest.raises(RecordError, match="not a regular file"):
        import_move_list(fifo)
    with pytest.raises(RecordError, match="not a regular file"):
        check_user_file(fifo)


def test_import_refuses_a_directory(tmp_path):
    with pytest.raises(RecordError, match=r"not a regular file \(a directory\)"):
        import_move_list(tmp_path)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_import_refuses_a_device_such_as_dev_zero():
    with pytest.raises(RecordError, match="^/dev/zero: not a regular file$"):
        import_move_list(__import__("pathlib").Path("/dev/zero"))


def test_import_refuses_a_file_above_the_cap_without_reading_it(tmp_path):
    big = _sparse(tmp_path / "huge.txt", MAX_MOVE_LIST_BYTES + 1)
    with pytest.raises(RecordError, match=r"too big \(8388609 bytes; the limit is 8 MB\)"):
        import_move_list(big)
    with pytest.raises(RecordError, match="too big"):
        read_user_file(big)


def test_a_move_list_at_the_cap_is_read_and_a_missing_one_is_no_such_file(tmp_path):
    ok = _sparse(tmp_path / "edge.bin", 1000)
    assert read_user_file(ok, limit=1000) == b"\0" * 1000
    with pytest.raises(RecordError, match="no such file"):
        import_move_list(tmp_path / "missing.txt")


def test_a_move_list_that_is_not_utf8_is_one_line(tmp_path):
    bad = tmp_path / "latin.txt"
    bad.write_bytes(b"# cellwars move list \xff\xfe\n")
    with pytest.raises(RecordError, match="not UTF-8"):
        import_move_list(bad)


def test_a_good_move_list_still_imports(tmp_path):
    match, path = save_toy(tmp_path, moves=12)
    moves = tmp_path / "moves.txt"
    moves.write_text(Replay.open(path).export_text())
    replay = import_move_list(moves)
    assert replay.state == match.state and replay.path is not None and replay.path.is_file()


@pytest.mark.parametrize("export", [False, True])
def test_cellwars_replay_of_a_directory_or_fifo_says_not_a_regular_file(
        tmp_path, fifo, capsys, export):
    extra = ["--export", str(tmp_path / "out.txt")] if export else []
    for target in (tmp_path, fifo):
        assert main(["replay", str(target), *extra]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"cellwars: {target}: not a regular file")
        assert "no such file" not in err
        assert err.count("\n") == 1


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_cellwars_replay_dev_zero_is_one_line_and_reads_nothing(capsys):
    assert main(["replay", "/dev/zero", "--export", "-"]) == 2
    assert capsys.readouterr().err == "cellwars: /dev/zero: not a regular file\n"


def test_cellwars_replay_of_a_too_big_or_missing_file(tmp_path, capsys):
    big = _sparse(tmp_path / "huge.cellwars.json", MAX_RECORD_BYTES + 1)
    assert main(["replay", str(big)]) == 2
    assert "too big" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "nothing.json")]) == 2
    assert "no such file" in capsys.readouterr().err
