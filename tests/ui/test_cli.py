"""``cellwars --version``, ``--help`` and ``cellwars play``: absurd input is one line on stderr, exit 2."""

from __future__ import annotations

import pytest

from cellwars_tui import __version__
from cellwars_tui.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse's --version / --help / usage errors
        code = exc.code if isinstance(exc.code, int) else 2
    out = capsys.readouterr()
    return code, out.out, out.err


def test_version_prints_the_package_version(capsys):
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.strip() == f"cellwars {__version__}"


def test_help_names_every_command_and_the_play_example(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for command in ("play", "replay", "bench"):
        assert command in out
    assert "cellwars play virus-fight" in " ".join(out.split())


def test_play_help_lists_the_game_ids_and_the_seat_syntax(capsys):
    code, out, _ = run(capsys, "play", "--help")
    assert code == 0
    flat = " ".join(out.split()).replace("- ", "-")
    assert "virus-fight" in flat and "cell-management" in flat
    assert "N=KIND" in flat and "random, easy, normal" in flat and "hard" in flat


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["play", "virus-fight", "--players", "9"], "Virus Fight takes 2 to 4 players, not 9"),
        (["play", "virus-fight", "--players", "0"], "Virus Fight takes 2 to 4 players, not 0"),
        (["play", "virus-fight", "--players", "abc"], "invalid number of players 'abc': expected a whole number"),
        (["play", "virus-fight", "--seat", "7=bot"], "seat 7 does not exist with 2 players"),
        (["play", "virus-fight", "--players", "3", "--seat", "4=random"],
         "seat 4 does not exist with 3 players"),
        (["play", "virus-fight", "--seat", "0=bot"], "seats are numbered from 1, not 0"),
        (["play", "virus-fight", "--seat", "2=alien"],
         "seat 2: unknown bot level 'alien' (levels: random, easy, normal, hard)"),
        (["play", "virus-fight", "--seat", "2=expert"], "unknown bot level 'expert'"),
        (["play", "virus-fight", "--seat", "two"], "expected SEAT=KIND like 2=easy"),
        (["play", "cell-management", "--seat", "1=easy"],
         "Cell Management is a solitaire: it has no bot levels"),
        (["play", "no-such-game"], "unknown game 'no-such-game'"),
        (["play", "virus-fight", "--seed", "abc"], "seed must be a whole number, not 'abc'"),
        (["play", "virus-fight", "--seed", "-5"], "seed must be between 0 and 2**63-1"),
        (["play", "virus-fight", "--think", "0"], "bot thinking time must be more than 0"),
        (["play", "virus-fight", "--think", "soon"], "invalid thinking time 'soon': expected seconds"),
        (["play", "cell-management", "--players", "2"], "Cell Management is for 1 player, not 2"),
        (["play"], "the following arguments are required: game"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
    ],
)
def test_absurd_play_options_are_one_line_errors(capsys, argv, expected):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("cellwars")
    assert expected in lines[0]
    assert "Traceback" not in err


def test_play_starts_the_app_with_a_checked_request(monkeypatch):
    started = {}

    def fake_run_app(start=None, replay=None, resume=None):
        started["request"] = start
        return 0

    monkeypatch.setattr("cellwars_tui.ui.app.run_app", fake_run_app)
    argv = ["play", "virus-fight", "--players", "4", "--seat", "2=random", "--seat", "3=bot",
            "--seat", "4=Easy", "--seed", "42", "--think", "0.5"]
    assert main(argv) == 0
    request = started["request"]
    assert request.game_id == "virus-fight" and request.seed == 42
    assert request.options.players == 4
    seats = request.seats
    assert not seats[0].is_bot
    assert seats[1].bot == "random"
    assert seats[2].bot == "normal" and seats[2].think == 0.5  # bot: the older word for normal
    assert seats[3].bot == "easy"


def test_play_without_seats_faces_normal_bots_and_mcts_means_hard(monkeypatch):
    started = {}
    monkeypatch.setattr("cellwars_tui.ui.app.run_app",
                        lambda start=None, **kw: started.setdefault("request", start) and 0)
    assert main(["play", "virus-fight", "--players", "3"]) == 0
    seats = started.pop("request").seats
    assert [s.bot for s in seats] == ["", "normal", "normal"] and not seats[0].is_bot
    assert seats[1].think == 10.0  # the levels' guard, not a budget
    assert main(["play", "virus-fight", "--seat", "2=mcts"]) == 0
    assert started["request"].seats[1].bot == "hard"


def test_no_command_opens_the_launcher(monkeypatch):
    called = []
    monkeypatch.setattr("cellwars_tui.ui.app.run_app", lambda **kw: called.append(kw) or 0)
    assert main([]) == 0
    assert called == [{}]


def _save_cell_management(seed: int, *, finish: bool = False):
    """A saved Cell Management puzzle (unfinished unless ``finish``); returns its path."""
    from cellwars_tui.core.registry import get_game
    from cellwars_tui.record.store import autosave
    from cellwars_tui.ui.request import new_game_request

    request = new_game_request("cell-management", seed=seed)
    match = request.make_match()
    if finish:
        from cellwars_tui.games.cell_management import rules as R

        match.play(0, R.GiveUp())
        assert match.is_over()
    assert get_game("cell-management").max_players == 1
    return autosave(match)


def _capture_run_app(monkeypatch) -> dict:
    started: dict = {}

    def fake_run_app(start=None, replay=None, resume=None):
        started.update(start=start, replay=replay, resume=resume)
        return 0

    monkeypatch.setattr("cellwars_tui.ui.app.run_app", fake_run_app)
    return started


def test_play_cell_management_resumes_the_newest_unfinished_puzzle(monkeypatch):
    import os
    import time

    older = _save_cell_management(1)
    newer = _save_cell_management(2)
    now = time.time()
    os.utime(older, (now - 100, now - 100))
    os.utime(newer, (now - 10, now - 10))
    started = _capture_run_app(monkeypatch)
    assert main(["play", "cell-management"]) == 0
    assert started["resume"] == newer and started["start"] is None


def test_play_cell_management_ignores_finished_puzzles_and_other_games(monkeypatch):
    from cellwars_tui.record.store import autosave
    from cellwars_tui.ui.request import new_game_request

    _save_cell_management(3, finish=True)
    autosave(new_game_request("virus-fight", seed=4).make_match())
    started = _capture_run_app(monkeypatch)
    assert main(["play", "cell-management"]) == 0
    assert started["resume"] is None
    assert started["start"].game_id == "cell-management"


@pytest.mark.parametrize("extra", [["--seed", "5"], ["-o", "puzzle=daily"], ["-o", "species=4"]])
def test_play_cell_management_with_a_seed_or_option_starts_a_new_puzzle(monkeypatch, extra):
    _save_cell_management(6)
    started = _capture_run_app(monkeypatch)
    assert main(["play", "cell-management", *extra]) == 0
    assert started["resume"] is None and started["start"].game_id == "cell-management"


def test_play_of_a_game_for_several_players_never_resumes(monkeypatch):
    from cellwars_tui.record.store import autosave
    from cellwars_tui.ui.request import new_game_request

    autosave(new_game_request("virus-fight", seed=4).make_match())
    started = _capture_run_app(monkeypatch)
    assert main(["play", "virus-fight"]) == 0
    assert started["resume"] is None and started["start"].game_id == "virus-fight"


@pytest.mark.parametrize("content", [b"not a record at all\n", b"{}", b"\x00\x01garbage"])
def test_replaying_a_file_that_is_no_record_is_a_one_line_error_without_the_app(
        capsys, monkeypatch, tmp_path, content):
    """Issue 19: ``cellwars replay NOT-A-RECORD`` opened the launcher with a toast."""
    started = _capture_run_app(monkeypatch)
    junk = tmp_path / "junk.cellwars.json"
    junk.write_bytes(content)
    code, out, err = run(capsys, "replay", str(junk))
    assert code == 2 and out == "" and not started
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"cellwars: {junk}"), err


def test_replaying_a_record_opens_it_before_the_app_starts(monkeypatch, tmp_path):
    from cellwars_tui.replay import Replay
    from tests.replay.helpers import save_toy

    _, path = save_toy(tmp_path, moves=10)
    started = _capture_run_app(monkeypatch)
    assert main(["replay", str(path)]) == 0
    assert isinstance(started["replay"], Replay) and started["replay"].path == path


def test_every_command_prints_its_help(capsys):
    """argparse formats help with %: a help text with a bare % (Win%) fails only when asked."""
    import argparse

    from cellwars_tui.cli import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    for name in sub.choices:
        code, out, _ = run(capsys, name, "--help")
        assert code == 0 and "usage:" in out, name
