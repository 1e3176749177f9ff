"""CELLWARS_SESSION_PROFILE: a forked session profiles itself and writes its CPU seconds at its
first frame (a tool for finding what a session's start costs; off in normal use)."""

from __future__ import annotations

import os

from cellwars_tui.ssh import session_app
from cellwars_tui.ssh.session_app import OnlineApp


async def test_a_profiled_session_writes_its_cpu_seconds_and_statistics_at_its_first_frame(
        tmp_path, monkeypatch):
    monkeypatch.setenv("CELLWARS_HOME", str(tmp_path / "home"))
    for folder in (tmp_path / "stats", tmp_path / "only-cpu"):
        folder.mkdir()
        app = OnlineApp(online=False)
        stop = session_app._profile(app, folder)
        try:
            async with app.run_test(size=(100, 30)) as pilot:
                for _ in range(6000):  # (60 s: a guard against a hang, not a pace)
                    await pilot.pause(0.01)
                    if (folder / f"{os.getpid()}.cpu").exists():
                        break
        finally:
            stop()
        marks = dict(line.split() for line in
                     (folder / f"{os.getpid()}.cpu").read_text().splitlines())
        assert {"start", "frame", "first"} <= set(marks)
        assert float(marks["start"]) <= float(marks["frame"]) <= float(marks["first"])
        stats = (folder / f"{os.getpid()}-first.prof").exists()
        assert stats == (not folder.name.endswith("-cpu"))
