"""Bad input to the analysis: a damaged or cut record, newer and older rules, an unknown game, a
damaged sidecar or one of another record: one line each; and ``cellwars analyse`` itself (the
table, --json, the sidecar reused, Ctrl+C writing nothing)."""

from __future__ import annotations

import json

import msgspec
import pytest

from cellwars_tui.analysis import AnalysisError, Stopped, analyse, record_key
from cellwars_tui.analysis import sidecar
from cellwars_tui.cli import main
from cellwars_tui.record.format import decode_record, encode_record
from cellwars_tui.replay import Replay
from tests.replay.helpers import save_toy


def test_a_damaged_sidecar_or_one_of_another_record_is_one_line_and_the_analysis_runs_again(
        tmp_path):
    _, path = save_toy(tmp_path, moves=8)
    replay = Replay.open(path)
    side = sidecar.sidecar_path(path)
    assert side.name == "toy.analysis.json"
    side.write_bytes(b'{"format": 1, "record_key": ')
    with pytest.raises(sidecar.SidecarProblem) as bad:
        sidecar.load(path, record_key(replay))
    assert "damaged analysis file" in str(bad.value) and "\n" not in str(bad.value)
    result = analyse(replay, budget=4, workers=1)
    sidecar.save(path, result)
    assert sidecar.load(path, record_key(replay)) == result
    with pytest.raises(sidecar.SidecarProblem, match="belongs to another record"):
        sidecar.load(path, "0" * 32)
    assert sidecar.peek(path) == result  # (the Replays list's quiet look)
    assert sidecar.load(path, record_key(replay), budget=5) is None  # another budget: none


def test_a_cut_record_is_analysed_as_far_as_it_is_valid_with_a_note(tmp_path):
    _, path = save_toy(tmp_path, moves=12)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) * 2 // 3])
    replay = Replay.open(path)
    assert replay.problem
    result = analyse(replay, budget=4, workers=1)
    assert result.steps == len(replay)
    assert any(n.startswith("damaged record") for n in result.notes)


def _rewrite_header(path, **fields):
    record = decode_record(path.read_bytes())
    record = msgspec.structs.replace(
        record, digest="", header=msgspec.structs.replace(record.header, **fields))
    path.write_bytes(encode_record(record))


def test_newer_rules_are_refused_and_older_rules_are_analysed_with_a_note(tmp_path):
    _, path = save_toy(tmp_path, moves=8)
    _rewrite_header(path, rules_version=99)
    with pytest.raises(AnalysisError, match="newer"):
        analyse(Replay.open(path), budget=4, workers=1)
    replay = Replay.open(path)
    replay.rules_version = 0  # (the toy's rules never changed: an older edition stood in)
    result = analyse(replay, budget=4, workers=1)
    assert any("rules version 0" in n for n in result.notes)


def test_stopping_keeps_nothing(tmp_path):
    _, path = save_toy(tmp_path, moves=12)
    with pytest.raises(Stopped):
        analyse(Replay.open(path), budget=4, workers=1, stop=lambda: True)


def test_cellwars_analyse_prints_the_table_saves_the_sidecar_and_reuses_it(
        tmp_path, capsys, monkeypatch):
    _, path = save_toy(tmp_path, moves=10)
    assert main(["analyse", str(path), "--budget", "4", "--jobs", "1"]) == 0
    out = capsys.readouterr()
    assert "accuracy" in out.out and "Ann" in out.out and "saved" in out.err
    assert sidecar.sidecar_path(path).exists()

    def no_search(*args, **kwargs):
        raise AssertionError("the sidecar should have been read")

    monkeypatch.setattr("cellwars_tui.analysis.run.analyse", no_search)
    assert main(["analyse", str(path), "--budget", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["budget"] == 4 and data["decisions"] and data["players"][0]["name"] == "Ann"


@pytest.mark.parametrize("argv,words", [
    (["--budget", "0"], "--budget must be"),
    (["--jobs", "0"], "--jobs must be"),
])
def test_cellwars_analyse_refuses_bad_options_in_one_line(tmp_path, capsys, argv, words):
    _, path = save_toy(tmp_path, moves=4)
    assert main(["analyse", str(path), *argv]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


def test_cellwars_analyse_of_an_unknown_game_or_no_record_is_one_line(tmp_path, capsys):
    _, path = save_toy(tmp_path, moves=4)
    _rewrite_header(path, game="chess-960")
    assert main(["analyse", str(path)]) == 2
    assert "unknown game" in capsys.readouterr().err
    junk = tmp_path / "junk.cellwars.json"
    junk.write_bytes(b"\x00\xff not a record")
    assert main(["analyse", str(junk)]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_ctrl_c_during_cellwars_analyse_stops_cleanly_and_writes_nothing(
        tmp_path, capsys, monkeypatch):
    _, path = save_toy(tmp_path, moves=6)

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("cellwars_tui.analysis.run.analyse", interrupted)
    assert main(["analyse", str(path)]) == 130
    assert "nothing written" in capsys.readouterr().err
    assert not sidecar.sidecar_path(path).exists()
    assert [p.name for p in tmp_path.iterdir() if p.is_file()] == [path.name]


def test_building_cellwars_parser_does_not_load_the_analysis():
    # (the parser is built at every start: `cellwars analyse`'s options load only its bounds)
    import subprocess
    import sys

    code = ("import sys; from cellwars_tui.cli import build_parser; build_parser(); "
            "print(sorted(m for m in sys.modules if m.startswith('cellwars_tui.analysis.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['cellwars_tui.analysis.cli', 'cellwars_tui.analysis.limits']"
