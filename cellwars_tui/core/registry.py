"""The registry of games. Each game's rules module registers its singleton at import.

Games are found, not listed: every package under ``cellwars_tui/games/`` with a ``rules`` module
is a game (:func:`game_modules`). The launcher order is each game's ``meta.order``.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any, TypeVar

from .api import Game
from .errors import CellwarsError

G = TypeVar("G", bound="Game[Any, Any]")  # a game registered keeps its own type

GAMES_PACKAGE = "cellwars_tui.games"
RULES_MODULE = "rules"  # the module of a game package that registers the game

_GAMES: dict[str, Game] = {}


@cache
def game_modules() -> tuple[str, ...]:
    """The rules module of every game package (sorted by name; nothing is imported)."""
    spec = importlib.util.find_spec(GAMES_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return ()
    out = []
    for package in pkgutil.iter_modules(list(spec.submodule_search_locations)):
        if not package.ispkg:
            continue
        inner = [f"{location}/{package.name}" for location in spec.submodule_search_locations]
        if any(m.name == RULES_MODULE for m in pkgutil.iter_modules(inner)):
            out.append(f"{GAMES_PACKAGE}.{package.name}.{RULES_MODULE}")
    return tuple(sorted(out))


def game_package_ids() -> list[str]:
    """The ids of the games found, as written on the command line (no game is imported)."""
    return [m.split(".")[2].replace("_", "-") for m in game_modules()]


def register(game: G) -> G:
    _GAMES[game.id] = game
    return game


def unregister(game_id: str) -> Game | None:
    """Take a game out of the registry (the game, or None when none had that id)."""
    return _GAMES.pop(game_id, None)


@contextmanager
def registered(*games: Game) -> Iterator[None]:
    """Register ``games`` for the ``with`` block only (a test's stand-ins): on leaving, each id
    holds what it held before, or nothing."""
    before = {g.id: _GAMES.get(g.id) for g in games}
    for game in games:
        register(game)
    try:
        yield
    finally:
        for game_id, old in before.items():
            if old is None:
                unregister(game_id)
            else:
                _GAMES[game_id] = old


def _load_all(strict: bool = True) -> list[str]:
    """Import every game's rules module. ``strict``: the first failure raises; else each one
    is a line of the list returned ("virus_fight: cannot load (...)")."""
    problems = []
    for name in game_modules():
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is None or not name.startswith(exc.name):
                if strict:
                    raise
                problems.append(f"{name.split('.')[2]}: cannot load ({exc})")
        except Exception as exc:
            if strict:
                raise
            problems.append(f"{name.split('.')[2]}: cannot load ({type(exc).__name__}: {exc})")
    return problems


def _ordered() -> list[Game]:
    return sorted(_GAMES.values(), key=lambda g: (g.meta.order, g.title))


def all_games() -> list[Game]:
    """Every registered game, in launcher order."""
    _load_all()
    return _ordered()


def playable_games() -> tuple[list[Game], list[str]]:
    """Every game that loads, in launcher order, and a one-line problem for each that does not
    (one broken game must not hide the others)."""
    problems = _load_all(strict=False)
    return _ordered(), problems


def get_game(game_id: str) -> Game:
    _load_all()
    try:
        return _GAMES[game_id]
    except KeyError:
        known = ", ".join(sorted(_GAMES)) or "none"
        raise CellwarsError(f"unknown game {game_id!r} (known: {known})") from None
