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
    assert "N=KIND" in flat and "(default 1)" in flat


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["play", "virus-fight", "--players", "9"], "Virus Fight takes 2 to 4 players, not 9"),
        (["play", "virus-fight", "--players", "0"], "Virus Fight takes 2 to 4 players, not 0"),
        (["play", "virus-fight", "--players", "abc"], "players must be a whole number, not 'abc'"),
        (["play", "virus-fight", "--seat", "7=bot"], "seat 7 does not exist with 2 players"),
        (["play", "virus-fight", "--players", "3", "--seat", "4=random"],
         "seat 4 does not exist with 3 players"),
        (["play", "virus-fight", "--seat", "0=bot"], "seats are numbered from 1, not 0"),
        (["play", "virus-fight", "--seat", "2=alien"], "seat kind must be human, bot, mcts or random"),
        (["play", "virus-fight", "--seat", "two"], "expected SEAT=KIND like 2=bot"),
        (["play", "no-such-game"], "unknown game 'no-such-game'"),
        (["play", "virus-fight", "--seed", "abc"], "seed must be a whole number, not 'abc'"),
        (["play", "virus-fight", "--seed", "-5"], "seed must be between 0 and 2**63-1"),
        (["play", "virus-fight", "--think", "0"], "bot thinking time must be more than 0"),
        (["play", "virus-fight", "--think", "soon"], "thinking time must be seconds, not 'soon'"),
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
    argv = ["play", "virus-fight", "--players", "3", "--seat", "2=random", "--seat", "3=bot",
            "--seed", "42", "--think", "0.5"]
    assert main(argv) == 0
    request = started["request"]
    assert request.game_id == "virus-fight" and request.seed == 42
    assert request.options.players == 3
    seats = request.seats
    assert not seats[0].is_bot
    assert seats[1].bot == "random"
    assert seats[2].bot == "mcts" and seats[2].think == 0.5


def test_no_command_opens_the_launcher(monkeypatch):
    called = []
    monkeypatch.setattr("cellwars_tui.ui.app.run_app", lambda **kw: called.append(kw) or 0)
    assert main([]) == 0
    assert called == [{}]
