"""The rules core and every game's rules never import textual or rich (checked in a fresh process).

Besides each game's registered rules module, every module of a game package that holds rules or
what plays them (engine, board, cards, clarifications, notation, geometry, types, state, setups,
moves, effects, bots, solvers, simulations, command-line tools, the pick and decision state
machines the screens drive) is imported too, so a UI import anywhere in that chain is caught."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import cellwars_tui.games
from cellwars_tui.core.registry import game_modules

RULES_PARTS = frozenset({
    "rules", "engine", "board", "cards", "clarifications", "notation", "geometry", "bot", "solver",
    "types", "state", "work", "effects", "setups", "moves", "daily", "tools", "simulate", "picks",
    "decisions", "labels",
})


def _game_rule_modules() -> list[str]:
    out = []
    for package in pkgutil.iter_modules(cellwars_tui.games.__path__):
        if not package.ispkg:
            continue
        path = [f"{cellwars_tui.games.__path__[0]}/{package.name}"]
        for module in pkgutil.iter_modules(path):
            if module.name in RULES_PARTS:
                out.append(f"cellwars_tui.games.{package.name}.{module.name}")
    return out


HEADLESS = [
    "cellwars_tui.core",
    "cellwars_tui.record",
    "cellwars_tui.ai",
    *game_modules(),
    *_game_rule_modules(),
]


def test_every_games_engine_notation_and_bot_modules_are_checked():
    assert {"cellwars_tui.games.virus_fight.engine", "cellwars_tui.games.virus_fight.notation",
            "cellwars_tui.games.virus_fight.bot"} <= set(HEADLESS)
    assert not any(name.endswith(".screen") for name in HEADLESS)


def test_headless_modules_never_import_ui_libraries():
    code = (
        "import importlib, sys\n"
        f"for name in {HEADLESS!r}:\n"
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except ModuleNotFoundError as exc:\n"
        "        if not name.startswith(exc.name or '?'): raise\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def _package_modules(package: str) -> list[str]:
    module = __import__(package, fromlist=["__path__"])
    return [package, *(f"{package}.{m.name}" for m in pkgutil.iter_modules(module.__path__))]


def test_the_table_layer_and_the_replays_import_neither_ui_libraries_nor_the_front_ends():
    """table/ sits below every front end, replay/ below the screens and the lessons' model
    (learn/, with the settings file it keeps progress in) beside the tables: none pulls
    textual, rich, ``cellwars_tui.ui`` or ``cellwars_tui.ssh`` in."""
    names = (_package_modules("cellwars_tui.table") + _package_modules("cellwars_tui.replay")
             + _package_modules("cellwars_tui.analysis")
             + _package_modules("cellwars_tui.learn") + ["cellwars_tui.settings"])
    assert "cellwars_tui.learn.table" in names
    assert "cellwars_tui.table.realtime" in names and "cellwars_tui.replay.model" in names
    assert "cellwars_tui.analysis.run" in names and "cellwars_tui.analysis.cli" in names
    code = (
        "import importlib, sys\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')\n"
        "             or m.startswith(('cellwars_tui.ui', 'cellwars_tui.ssh')))\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def _all_modules(package: str) -> list[str]:
    module = __import__(package, fromlist=["__path__"])
    return [package, *(m.name for m in pkgutil.walk_packages(module.__path__, f"{package}."))]


def test_the_online_service_imports_no_transport_and_the_table_layer_no_online():
    """online/ (hub, tables, store, protocol, remote table, bot pool, hub client) imports no
    transport: no textual, rich, asyncssh nor ``cellwars_tui.ssh``; and table/ sits below it."""
    online = _all_modules("cellwars_tui.online")  # with its subpackages (pg/)
    table = _all_modules("cellwars_tui.table")
    assert {"cellwars_tui.online.hub", "cellwars_tui.online.remote", "cellwars_tui.online.seat",
            "cellwars_tui.online.pg.store"} <= set(online)
    code = (
        "import importlib, sys\n"
        f"for name in {table!r}:\n"
        "    importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m.startswith('cellwars_tui.online'))\n"
        "assert not bad, bad\n"
        f"for name in {online!r}:\n"
        "    importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich', 'asyncssh')\n"
        "             or m.startswith(('cellwars_tui.ui', 'cellwars_tui.ssh')))\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
