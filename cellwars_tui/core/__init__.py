"""The rules core: game-agnostic API, match history, registry and errors. No UI imports here."""

from .api import CHANCE, Action, Event, Game, Options, Outcome
from .errors import BadNotation, BadOptions, CellwarsError, IllegalAction, RecordError
from .match import Match, Seat, Step, chance_rng
from .meta import BotLevel, GameTool, GameType
from .registry import all_games, get_game, register

__all__ = [
    "CHANCE", "Action", "Event", "Game", "Options", "Outcome", "BadNotation", "BadOptions",
    "CellwarsError", "IllegalAction", "RecordError", "Match", "Seat", "Step", "chance_rng",
    "all_games", "get_game", "register", "BotLevel", "GameTool", "GameType",
]
