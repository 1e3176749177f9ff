"""``cellwars serve`` from the command line: it listens, says where, and stops cleanly."""

from __future__ import annotations

import re

from cellwars_tui.cli import main

from .conftest import cellwars_cli, interrupt_leaving_no_process


def test_serve_listens_says_where_and_stops_on_interrupt_leaving_no_process(tmp_path):
    with cellwars_cli(tmp_path, "serve", "--port", "0", "--max-sessions", "3") as proc:
        first = proc.stdout.readline()
        second = proc.stdout.readline()
        assert re.match(r"cellwars: serving on 127\.0\.0\.1 port \d+; host key SHA256:", first), first
        assert "ssh -p" in second
        assert (tmp_path / "data" / "ssh_host_ed25519_key").exists()
        interrupt_leaving_no_process(proc)


def test_serve_options_that_make_no_sense_are_one_line_errors(capsys, tmp_path):
    assert main(["serve", "--port", "70000"]) == 2
    assert "--port must be between" in capsys.readouterr().err
    assert main(["serve", "--max-sessions", "0"]) == 2
    assert "--max-sessions must be at least 1" in capsys.readouterr().err
    assert main(["serve", "--allow", str(tmp_path / "nope")]) == 2
    assert "cannot read the allow list" in capsys.readouterr().err
    allow = tmp_path / "allowed"
    allow.write_text("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHc2qUVsI6WSjb0VTbzLn3Gd2pNZx2LKMPPMPJ9kM0c1 a\n")
    assert main(["serve", "--allow", str(allow), "--web"]) == 2
    assert "cannot be combined with --allow" in capsys.readouterr().err
