"""The registry of games. Each game's rules module registers its singleton at import."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager

from .api import Game
from .errors import CellwarsError

_GAMES: dict[str, Game] = {}

# Rules modules of every game the table knows, in launcher order. Imported lazily.
GAME_MODULES = (
    "cellwars_tui.games.virus_fight.rules",
    "cellwars_tui.games.cell_management.rules",
    "cellwars_tui.games.cellulis_bellum.rules",
    "cellwars_tui.games.cell_wars.rules",
    "cellwars_tui.games.infection.rules",
)


def register(game: Game) -> Game:
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


def _load_all() -> None:
    for name in GAME_MODULES:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is None or not name.startswith(exc.name):
                raise


def all_games() -> list[Game]:
    """Every registered game, in launcher order."""
    _load_all()
    order = {m.split(".")[2]: i for i, m in enumerate(GAME_MODULES)}
    return sorted(_GAMES.values(), key=lambda g: order.get(g.id.replace("-", "_"), 99))


def get_game(game_id: str) -> Game:
    _load_all()
    try:
        return _GAMES[game_id]
    except KeyError:
        known = ", ".join(sorted(_GAMES)) or "none"
        raise CellwarsError(f"unknown game {game_id!r} (known: {known})") from None
