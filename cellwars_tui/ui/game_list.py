"""What the launcher lists about each game, cached so the first frame need not import every game.

Importing the five games' rules builds their card decks, boards and tables; the launcher only
needs each game's metadata (its :class:`~cellwars_tui.core.meta.GameType`) and two facts about its
options. After a full import :func:`save_cache` writes those to ``<data>/launcher-games.json``
with a key made of the package version and the size and mtime of every file in each game's
folder; :func:`cached_games` returns them only while that key still matches, so a changed, added
or removed game file means a fresh import. The launcher resolves a :class:`GameInfo` to the real
game (:func:`resolve`) only when one is opened.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from typing import Union

import msgspec

from .. import __version__
from ..core.api import Game
from ..core.meta import GameType
from ..core.registry import game_modules
from ..locations import data_dir

CACHE_VERSION = 3

QUICK_PUZZLES = ("daily", "number")  # values of a solitaire's ``puzzle`` option the launcher offers


def chance_words(game: Entry) -> str:
    """How luck enters ``game`` ("" for none): its own ``chance_text``, else "some luck"."""
    meta = game.meta
    return meta.chance_text or ("some luck" if meta.has_chance else "")


def is_solitaire(game: Entry) -> bool:
    """One seat and nothing to seat: the launcher starts it without the New-game form."""
    return game.meta.min_players == game.meta.max_players == 1


def quick_puzzles(game: Entry) -> tuple[str, ...]:
    """The puzzle kinds (daily, number) a solitaire's ``puzzle`` option offers the launcher."""
    if isinstance(game, GameInfo):
        return game.puzzles
    if not is_solitaire(game):
        return ()
    from .request import literal_choices, option_fields

    for f in option_fields(game):
        if f.name == "puzzle":
            choices = literal_choices(f.type) or ()
            return tuple(k for k in QUICK_PUZZLES if k in choices)
    return ()


def has_options(game: Entry) -> bool:
    """Whether the game's New-game form has anything of the game's own to choose."""
    if isinstance(game, GameInfo):
        return game.options
    from .request import option_fields

    return bool(option_fields(game))


class GameInfo(msgspec.Struct, frozen=True, kw_only=True):
    """A game's launcher entry before its rules are imported: its metadata, and what the
    launcher offers beyond New game and Rules (the derived facts about its options)."""

    meta: GameType
    puzzles: tuple[str, ...] = ()  # see quick_puzzles
    options: bool = False  # see has_options

    @property
    def id(self) -> str:
        return self.meta.id

    @classmethod
    def of(cls, game: Entry) -> GameInfo:
        return cls(meta=game.meta, puzzles=quick_puzzles(game), options=has_options(game))


Entry = Union[Game, GameInfo]  # what the launcher lists: a game, or its cached entry


class _Cache(msgspec.Struct, kw_only=True):
    version: int
    key: str
    games: list[GameInfo]


def cache_file() -> Path:
    return data_dir() / "launcher-games.json"


def _package_dir(module: str) -> Path | None:
    package = module.rsplit(".", 1)[0]
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def cache_key() -> str:
    """Package version, Python version and every game file's size and mtime."""
    parts = [__version__, sys.version.split()[0]]
    for module in game_modules():
        folder = _package_dir(module)
        if folder is None:
            parts.append(f"{module}:missing")
            continue
        try:
            entries = sorted(
                (e.name, e.stat().st_size, e.stat().st_mtime_ns)
                for e in os.scandir(folder) if e.is_file() and not e.name.endswith(".pyc")
            )
        except OSError:
            parts.append(f"{module}:unreadable")
            continue
        parts.append(f"{module}:{entries!r}")
    return str(hash_text("\n".join(parts)))


def hash_text(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode()).hexdigest()


def cached_games() -> list[GameInfo] | None:
    """The cached launcher list, or None if there is none or it may be stale."""
    try:
        data = cache_file().read_bytes()
        cache = msgspec.json.decode(data, type=_Cache)
    except (OSError, msgspec.DecodeError, msgspec.ValidationError):
        return None
    if cache.version != CACHE_VERSION or cache.key != cache_key() or not cache.games:
        return None
    return cache.games


def save_cache(games: list[Game]) -> None:
    """Remember the launcher list of a full, problem-free import (never raises)."""
    from ..record.format import write_atomic

    try:
        cache = _Cache(version=CACHE_VERSION, key=cache_key(),
                       games=[GameInfo.of(g) for g in games])
        write_atomic(cache_file(), msgspec.json.encode(cache))
    except Exception:  # noqa: BLE001 - a cache that cannot be written only costs time
        pass


def resolve(game: Entry) -> Game:
    """The real game for a launcher entry (imports its rules if the entry came from the cache)."""
    if isinstance(game, GameInfo):
        from ..core.registry import get_game

        return get_game(game.id)
    return game
