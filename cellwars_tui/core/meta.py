"""What a game is, as values: its metadata (:class:`GameType`) and its command-line tools.

Like OpenSpiel's ``GameType``, a game's fixed facts are one frozen value, declared once on the
game's class (``meta = GameType(...)``) and read by the registry (launcher order), the launcher
(its list, the cache it shows before the games are imported) and the command line. A game's own
commands (``cellwars perft virus-fight``, ``cellwars solve cell-management``) are
:class:`GameTool` values the game returns from ``Game.tools()``, so the command line knows no
game's vocabulary.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass

import msgspec


class GameType(msgspec.Struct, frozen=True, kw_only=True):
    """A game's fixed metadata."""

    id: str  # the game's id on the command line and in records: "virus-fight"
    title: str  # "Virus Fight"
    blurb: str  # one or two sentences for the launcher
    min_players: int
    max_players: int
    order: int = 100  # the launcher lists games by this, then by title
    rules_version: int = 1  # goes up when the rules change (see Game.upgrade_options)
    has_chance: bool = False  # dice, shuffles or draws (recorded chance steps)
    chance_text: str = ""  # how luck enters the game, in the launcher's words ("" for none)
    hidden_information: bool = False  # a seat may not see everything (secret programs, hands)
    real_time: bool = False  # seats act at once against a clock
    # every seat gets the same result, as one team (OpenSpiel's IDENTICAL utility): a result
    # reads "Team wins" / "Team loses", never a tie (Outcome.text)
    cooperative: bool = False


@dataclass(frozen=True)
class GameTool:
    """A command a game adds to ``cellwars``: ``cellwars NAME GAME [arguments]``.

    ``add_arguments`` declares the tool's own arguments on its parser; ``run`` gets the parsed
    arguments and returns the exit status (a :class:`~cellwars_tui.core.errors.CellwarsError` is
    a one-line error, exit status 2, as everywhere on the command line)."""

    name: str  # "perft", "solve", "study"
    help: str  # one line for ``cellwars --help``
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
