"""A wheel (``pip install .``) behaves like the editable install: themes, rules pages, styles and
the licence are inside it. Builds the wheel, installs it into a fresh venv and loads from there."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("virus_fight", "cell_management", "cellulis_bellum", "cell_wars", "infection")
LESSONS = tuple(g for g in GAMES if (ROOT / "cellwars_tui" / "games" / g / "lesson.toml").is_file())

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(out),
         str(ROOT)],
        check=True, capture_output=True, timeout=600,
    )
    (found,) = out.glob("cellwars_tui-*.whl")
    return found


def test_the_wheel_carries_themes_rules_pages_styles_and_the_licence(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for theme in ("cellwars-dark", "cellwars-light", "cellwars-high-contrast"):
        assert f"cellwars_tui/themes/{theme}.toml" in names
    for game in GAMES:
        assert f"cellwars_tui/games/{game}/rules.md" in names
    for game in LESSONS:
        assert f"cellwars_tui/games/{game}/lesson.toml" in names
    assert "cellwars_tui/ui/widgets/lesson_panel.tcss" in names
    assert "cellwars_tui/ui/app.tcss" in names
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
    text = zipfile.ZipFile(wheel).read(metadata).decode()
    assert "License-Expression: MIT" in text


def test_a_fresh_venv_with_the_wheel_loads_the_three_themes_and_every_rules_page(wheel, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True,
                   timeout=120)
    python = venv / "bin" / "python"
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps",
         "--no-index", str(wheel)],
        check=True, capture_output=True, timeout=300,
    )
    probe = """
import json, cellwars_tui
from cellwars_tui.core.registry import all_games
from cellwars_tui.ui.themes import load_theme_files
from cellwars_tui.ui.dialogs import rules_path
from cellwars_tui.learn.lesson import has_lesson
from cellwars_tui.learn.run import checked_lesson
themes, problems = load_theme_files()
print(json.dumps({
    "package": cellwars_tui.__file__,
    "themes": {t.name: str(p) for p, t in themes},
    "problems": problems,
    "rules": {g.id: str(rules_path(g)) for g in all_games()},
    "lessons": {g.id: len(checked_lesson(g).steps) for g in all_games() if has_lesson(g)},
}))
"""
    # The wheel's package comes from the venv; its dependencies (textual, msgspec...) from this
    # test environment, put after the venv's own site-packages.
    env = {**os.environ, "PYTHONPATH": sysconfig.get_paths()["purelib"],
           "CELLWARS_HOME": str(tmp_path / "home")}
    done = subprocess.run([str(python), "-c", probe], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["package"].startswith(str(venv))
    assert sorted(found["themes"]) == ["cellwars-dark", "cellwars-high-contrast", "cellwars-light"]
    assert all(path.startswith(str(venv)) for path in found["themes"].values())
    assert found["problems"] == []
    assert len(found["rules"]) == len(GAMES)
    assert all(path.startswith(str(venv)) for path in found["rules"].values())
    assert len(found["lessons"]) == len(LESSONS) >= 3  # read and played through from the wheel
