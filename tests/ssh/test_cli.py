"""``cellwars serve`` from the command line: it listens, says where, and stops cleanly."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time

from cellwars_tui.cli import main


def test_serve_listens_says_where_and_stops_on_interrupt_leaving_no_process(tmp_path):
    env = {**os.environ, "CELLWARS_HOME": str(tmp_path)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "cellwars_tui.cli", "serve", "--port", "0", "--max-sessions", "3"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, start_new_session=True,
    )
    try:
        first = proc.stdout.readline()
        second = proc.stdout.readline()
        assert re.match(r"cellwars: serving on 127\.0\.0\.1 port \d+; host key SHA256:", first), first
        assert "ssh -p" in second
        assert (tmp_path / "data" / "ssh_host_ed25519_key").exists()
        proc.send_signal(signal.SIGINT)
        assert proc.wait(15) in (0, 130)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    time.sleep(0.2)
    out = subprocess.run(["ps", "-eo", "pgid,cmd"], capture_output=True, text=True).stdout
    assert not [line for line in out.splitlines() if line.split()[0] == str(proc.pid)]


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
