"""The bench's yardstick (bench/ssh_bare_floor.py): a one-line Textual app started as sessions are."""

import json
import subprocess
import sys


def test_bare_floor_reports_cpu_seconds_for_each_run():
    out = subprocess.run([sys.executable, "-m", "cellwars_tui.bench.ssh_bare_floor", "1"],
                         capture_output=True, text=True, timeout=120, check=True)
    runs = json.loads(out.stdout)
    assert set(runs) == {"bare", "footer"}
    for seconds in runs["bare"] + runs["footer"]:
        assert 0 < seconds < 60
