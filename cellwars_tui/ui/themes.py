"""Theme files (shipped ``themes/*.toml`` and the user's ``<config>/themes/*.toml``); the
settings file's functions live in :mod:`cellwars_tui.settings` and are imported from here too.

A theme file names Textual's base colours and a ``[variables]`` table of semantic colours that
TCSS uses as ``$seat-1``, ``$board`` ... and screens read with ``GameScreen.colour(name)``.
Files are validated and turned into Textual themes; a bad file gives a one-line problem, never a
crash (posting's user themes work the same way).
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

from textual.color import Color, ColorParseError
from textual.theme import Theme

from ..core.errors import CellwarsError
from ..locations import shipped_themes_dir, user_themes_dir
from ..settings import load_settings, save_settings  # noqa: F401 (their first home)

DEFAULT_THEME = "cellwars-dark"

BASE_COLOURS = (
    "primary", "secondary", "accent", "background", "surface", "panel", "foreground",
    "warning", "error", "success",
)
SEMANTIC = (
    "seat-1", "seat-2", "seat-3", "seat-4", "seat-5", "seat-6", "board", "board-line",
    "highlight", "target", "danger", "immune", "cancer", "tissue-normal", "tissue-cancer",
    "tissue-solid", "muted",
)

# Used when a theme leaves a semantic colour out (and for Textual's own themes).
FALLBACK_VARIABLES = {
    "seat-1": "#E45757", "seat-2": "#4C9BE8", "seat-3": "#5CC46A", "seat-4": "#E8C84C",
    "seat-5": "#B084E0", "seat-6": "#F08A3C", "board": "#12262A", "board-line": "#3A5A5E",
    "highlight": "#F2E863", "target": "#FF9F43", "danger": "#E85D5D", "immune": "#7FD1F2",
    "cancer": "#D04BA8", "tissue-normal": "#E8A0A0", "tissue-cancer": "#9B3178",
    "tissue-solid": "#9AA5A8", "muted": "#7A8C8E",
}


class ThemeError(CellwarsError):
    """A theme file that cannot be used."""


def _colour(path: Path, key: str, value: Any) -> str:
    if not isinstance(value, str):
        raise ThemeError(f"{path.name}: {key} must be a colour string, not {value!r}")
    try:
        Color.parse(value)
    except ColorParseError:
        raise ThemeError(f"{path.name}: {key} = {value!r} is not a colour") from None
    return value


def parse_theme(path: Path) -> Theme:
    """Read one theme file; ThemeError with a one-line message when it is unusable."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ThemeError(f"{path.name}: cannot read ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise ThemeError(f"{path.name}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise ThemeError(f"{path.name}: not valid TOML ({exc})") from None
    name = data.get("name", path.stem.removesuffix(".theme"))
    if not isinstance(name, str) or not name.strip():
        raise ThemeError(f"{path.name}: name must be a non-empty string")
    dark = data.get("dark", True)
    if not isinstance(dark, bool):
        raise ThemeError(f"{path.name}: dark must be true or false")
    if "primary" not in data:
        raise ThemeError(f"{path.name}: primary colour missing")
    base: dict[str, Any] = {k: _colour(path, k, data[k]) for k in BASE_COLOURS if k in data}
    variables = data.get("variables", {})
    if not isinstance(variables, dict):
        raise ThemeError(f"{path.name}: [variables] must be a table")
    checked = dict(FALLBACK_VARIABLES)
    for key, value in variables.items():
        checked[str(key)] = _colour(path, f"variables.{key}", value)
    return Theme(name=name.strip(), dark=dark, variables=checked, **base)


def theme_files() -> list[Path]:
    files: list[Path] = []
    for folder in (shipped_themes_dir(), user_themes_dir()):
        if folder.is_dir():
            files.extend(sorted(folder.glob("*.toml")))
    return files


def load_theme_files() -> tuple[list[tuple[Path, Theme]], list[str]]:
    """(file, theme) for every usable theme file (shipped first, then the user's; a user file
    with a shipped theme's name replaces it) and a one-line problem per bad file."""
    found: dict[str, tuple[Path, Theme]] = {}
    problems: list[str] = []
    for path in theme_files():
        try:
            theme = parse_theme(path)
        except ThemeError as exc:
            problems.append(f"theme {exc}")
            continue
        found.pop(theme.name, None)
        found[theme.name] = (path, theme)
    return list(found.values()), problems


def load_themes() -> tuple[list[Theme], list[str]]:
    """Every usable theme (shipped first, then the user's) and a one-line problem per bad file."""
    files, problems = load_theme_files()
    return [theme for _, theme in files], problems


def is_user_theme(path: Path) -> bool:
    try:
        return path.resolve().parent == user_themes_dir().resolve()
    except OSError:
        return False


def theme_to_toml(theme: Theme, name: str) -> str:
    """A theme file for ``theme`` under a new ``name`` (the picker's "copy to edit")."""
    lines = [
        f"# {name}: a copy of {theme.name}. Edit the colours, keep the file in this folder,",
        "# then pick it with Ctrl+T (or the command palette: Theme).",
        f"name = {json.dumps(name)}",
        f"dark = {'true' if theme.dark else 'false'}",
    ]
    for key in BASE_COLOURS:
        value = getattr(theme, key, None)
        if value:
            lines.append(f"{key} = {json.dumps(str(value))}")
    lines.append("")
    lines.append("[variables]")
    variables = dict(FALLBACK_VARIABLES)
    variables.update(theme.variables or {})
    for key in SEMANTIC:
        lines.append(f"{key} = {json.dumps(variables[key])}")
    return "\n".join(lines) + "\n"


def copy_theme(theme: Theme) -> Path:
    """Write an editable copy of ``theme`` into the user's themes folder (never overwrites)."""
    from ..record.format import write_atomic

    base = theme.name.removesuffix("-copy") + "-copy"
    folder = user_themes_dir()
    name, n = base, 1
    while (folder / f"{name}.toml").exists():
        n += 1
        name = f"{base}-{n}"
    path = folder / f"{name}.toml"
    write_atomic(path, theme_to_toml(theme, name).encode())
    return path
