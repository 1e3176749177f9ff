"""``cellwars serve`` and ``cellwars web`` turn down option values that make no sense with one line
on stderr (exit status 2) before anything listens, and pass sane ones on to the servers."""

from __future__ import annotations

import os

import pytest

from cellwars_tui.cli import build_parser, main
from cellwars_tui.ssh.cli import limits_from_args


@pytest.mark.parametrize(("argv", "says"), [
    (["serve", "--port", "-1"], "--port must be between 0 and 65535, not -1"),
    (["serve", "--port", "65536"], "--port must be between 0 and 65535, not 65536"),
    (["serve", "--web", "--web-port", "-5"], "--web-port must be between 0 and 65535, not -5"),
    (["serve", "--web", "--port", "8000", "--web-port", "8000"],
     "--web-port must differ from --port (both are 8000)"),
    (["serve", "--max-sessions", "0"], "--max-sessions must be at least 1, not 0"),
    (["serve", "--max-sessions", "-3"], "--max-sessions must be at least 1, not -3"),
    (["serve", "--max-sessions", "1000000"], "--max-sessions must be at most 10000, not 1000000"),
    (["serve", "--idle-timeout", "-1"], "--idle-timeout must be 0 (never) or a number of seconds"),
    (["serve", "--idle-timeout", "nan"], "--idle-timeout must be 0 (never) or a number of seconds"),
    (["serve", "--idle-timeout", "inf"], "--idle-timeout must be 0 (never) or a number of seconds"),
    (["serve", "--idle-timeout", "1e9"], "up to 604800, not 1e+09"),
    (["serve", "--keepalive", "-0.5"], "--keepalive must be 0 (never) or a number of seconds"),
    (["serve", "--keepalive", "100000"], "--keepalive must be 0 (never) or a number of seconds "
                                         "up to 86400, not 100000"),
    (["serve", "--max-starting", "-2"], "--max-starting must be 0 (two per core) or a number of "
                                        "sessions up to 10000, not -2"),
    (["serve", "--max-starting", "20000"], "up to 10000, not 20000"),
    (["serve", "--analyses", "-1"], "--analyses must be 0 (one per core) or a number of "
                                    "analyses up to 1024, not -1"),
    (["web", "--analyses", "5000"], "up to 1024, not 5000"),
    (["serve", "--archive-after", "-1"], "--archive-after must be 0 (never) or a number of days "
                                         "up to 3650, not -1"),
    (["serve", "--archive-after", "inf"], "--archive-after must be 0 (never)"),
    (["web", "--port", "-1"], "--port must be between 0 and 65535, not -1"),
    (["web", "--max-sessions", "0"], "--max-sessions must be at least 1, not 0"),
    (["web", "--idle-timeout", "-5"], "--idle-timeout must be 0 (never) or a number of seconds"),
    (["web", "--keepalive", "inf"], "--keepalive must be 0 (never) or a number of seconds"),
])
def test_absurd_serve_and_web_options_are_one_line_errors(argv, says, capsys):
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert err.startswith("cellwars: ") and says in err, err
    assert err.count("\n") == 1 and not out  # one line, and nothing started


@pytest.mark.parametrize("argv", [["serve", "--port", "two"], ["web", "--keepalive", "soon"]])
def test_options_that_are_not_numbers_are_one_line_usage_errors(argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "invalid" in err, err


@pytest.mark.parametrize("command", ["serve", "web"])
def test_the_limit_options_reach_the_server(command):
    args = build_parser().parse_args([command, "--port", "0", "--max-sessions", "3",
                                      "--idle-timeout", "0", "--keepalive", "5",
                                      "--analyses", "2"])
    limits = limits_from_args(args)
    assert (limits.max_sessions, limits.idle_timeout, limits.keepalive_interval) == (3, 0, 5)
    assert limits.analyses_limit == 2


def test_archive_after_reaches_the_hub_in_seconds_and_is_off_by_default(tmp_path):
    from cellwars_tui.ssh.cli import archive_seconds
    from cellwars_tui.ssh.server import CellwarsServer

    assert archive_seconds(build_parser().parse_args(["serve"])) == 0  # never, unless asked
    args = build_parser().parse_args(["serve", "--archive-after", "2.5"])
    assert archive_seconds(args) == 2.5 * 86400
    server = CellwarsServer(port=0, home=tmp_path, archive_after=archive_seconds(args))
    assert server.archive_after == 2.5 * 86400


def test_max_starting_reaches_the_servers_start_gate():
    limits = limits_from_args(build_parser().parse_args(["serve", "--max-starting", "7"]))
    assert limits.starting_limit == 7
    automatic = limits_from_args(build_parser().parse_args(["serve"]))
    assert automatic.max_starting == 0 and automatic.starting_limit >= 2


def test_the_defaults_are_sane():
    limits = limits_from_args(build_parser().parse_args(["serve"]))
    assert (limits.max_sessions, limits.idle_timeout, limits.keepalive_interval) == (50, 3600, 30)
    assert limits.keepalive_count_max * limits.keepalive_interval <= 300  # dead: gone in minutes
    assert limits.max_analyses == 0 and limits.analyses_limit == max(1, len(
        os.sched_getaffinity(0)))  # (one analysis a core)


def test_a_players_dir_that_is_not_a_folder_is_a_one_line_error(tmp_path, capsys):
    taken = tmp_path / "a-file"
    taken.write_text("")
    assert main(["serve", "--players-dir", str(taken / "players")]) == 2
    out, err = capsys.readouterr()
    assert err.startswith("cellwars: --players-dir ") and err.count("\n") == 1 and not out


def test_keyed_players_folders_go_to_the_players_dir(tmp_path):
    # (several servers given one --players-dir: a keyed player's settings and saved games are
    # the same whichever server they reach; a guest's session folder stays the server's)
    from cellwars_tui.ssh.homes import new_session_folder
    from cellwars_tui.ssh.server import CellwarsServer

    shared = tmp_path / "shared-players"
    homes = []
    for name in ("north", "south", "alone"):
        (tmp_path / name).mkdir()
    for name in ("north", "south"):
        server = CellwarsServer(home=tmp_path / name, hub=False, players=shared)
        homes.append(server.keyed_home("key:SHA256:ann"))
        assert server.keyed_home("guest:x") is None
    assert homes[0] == homes[1] and homes[0].parent == shared
    folder = new_session_folder(tmp_path / "north" / "ssh", "key:SHA256:ann", shared)
    assert folder.data == homes[0] and folder.path.parent == tmp_path / "north" / "ssh" / "sessions"
    default = CellwarsServer(home=tmp_path / "alone", hub=False)
    assert default.keyed_home("key:SHA256:ann").parent == tmp_path / "alone" / "ssh" / "players"
