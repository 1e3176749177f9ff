"""A front end that is not a Textual screen gets bots, saving and real time for free (issue 30):
whole online games between headless clients of the hub, in a process of their own that never
imports a UI library (tests/online/headless_game.py plays them and reports)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_two_headless_clients_play_whole_games_with_bots_and_a_spectator_and_no_ui():
    done = subprocess.run([sys.executable, "-m", "tests.online.headless_game"], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["ui_modules"] == []  # no textual, rich or asyncssh in that process
    assert report["match_played_by"] == ["cellwars_tui.table.authority"]  # one owner, at run time
    for game in ("virus-fight", "infection"):  # turn-based, then real time
        played = report[game]
        assert played["over"] and played["spectator_saw"], (game, played)
        assert played["players_saw"] == [played["spectator_saw"]], (game, played)  # one ending
        assert played["bot_moves"] > 0 and played["people_moves"] > 0, (game, played)
        # every step told is in the store, at the table's last version
        assert played["stored_steps"] == played["steps"], (game, played)
        assert played["stored_version"] == played["saver_version"] > 0, (game, played)
    assert "(" in report["virus-fight"]["spectator_saw"]  # the ending explains itself
