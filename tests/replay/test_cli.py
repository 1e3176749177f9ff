"""``cellwars replay FILE --export TEXTFILE`` and opening a move list as a replay."""

from __future__ import annotations

from cellwars_tui.cli import main
from cellwars_tui.replay import Replay
from tests.replay.helpers import save_toy


def test_export_writes_the_move_list_that_opens_back_as_the_same_game(tmp_path, capsys):
    match, path = save_toy(tmp_path, moves=30)
    out = tmp_path / "moves.txt"
    assert main(["replay", str(path), "--export", str(out)]) == 0
    assert f"{len(match.steps)} steps of Toy race written to {out}" in capsys.readouterr().err
    assert out.read_text().startswith("# cellwars move list")
    back = Replay.open(out)  # a move list opens as a replay too
    assert len(back) == len(match.steps) and back.state == match.state and back.problem is None


def test_export_to_the_terminal(tmp_path, capsys):
    match, path = save_toy(tmp_path, moves=10)
    assert main(["replay", str(path), "--export", "-"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("# cellwars move list") and text == Replay.open(path).export_text()


def test_a_damaged_record_exports_as_far_as_valid_and_says_where_it_stopped(tmp_path, capsys):
    match, path = save_toy(tmp_path, moves=40)
    path.write_bytes(path.read_bytes()[:-100])
    out = tmp_path / "moves.txt"
    assert main(["replay", str(path), "--export", str(out)]) == 0
    err = capsys.readouterr().err
    assert "valid up to step" in err and "cut short" in err
    n = len(Replay.open(out))
    assert 0 < n < len(match.steps) and Replay.open(out).state == match.states[n]


def test_an_unreadable_record_is_a_one_line_error(tmp_path, capsys):
    junk = tmp_path / "junk.cellwars.json"
    junk.write_bytes(b"\x00junk")
    assert main(["replay", str(junk), "--export", "-"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cellwars: ") and err.count("\n") == 1
