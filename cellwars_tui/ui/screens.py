"""Finding a game's screen: ``cellwars_tui/games/<pkg>/screen.py`` defines ``SCREEN``."""

from __future__ import annotations

import importlib
import logging

from ..core.api import Game
from .game_screen import GameScreen
from .generic_screen import GenericScreen

log = logging.getLogger(__name__)


def screen_module_name(game: Game) -> str | None:
    """The module that holds ``game``'s screen: its rules module with ``.rules`` -> ``.screen``."""
    module = type(game).__module__
    if module.endswith(".rules"):
        return module[: -len(".rules")] + ".screen"
    return None


def screen_class(game: Game) -> type[GameScreen]:
    """The game's own screen class, or GenericScreen (text view + moves list) without one."""
    name = screen_module_name(game)
    if name is None:
        return GenericScreen
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and name.startswith(exc.name):
            return GenericScreen
        log.exception("screen module %s failed to import", name)
        return GenericScreen
    except Exception:  # a broken screen must not take the table down: play it generically
        log.exception("screen module %s failed to import", name)
        return GenericScreen
    cls = getattr(module, "SCREEN", None)
    if isinstance(cls, type) and issubclass(cls, GameScreen):
        return cls
    return GenericScreen
