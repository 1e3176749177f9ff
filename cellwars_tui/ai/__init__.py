"""Game-agnostic bots (random, greedy, MCTS) over the core API, and the bot levels (random,
easy, normal, hard) a seat plays at (:mod:`.levels`)."""

from .bots import Bot, GreedyBot, MCTSBot, RandomBot
from .levels import BOTS, DEFAULT_LEVEL, LEVEL_NAMES, LEVELS, LevelBot, UnknownLevel, make_bot

__all__ = ["BOTS", "Bot", "DEFAULT_LEVEL", "GreedyBot", "LEVEL_NAMES", "LEVELS", "LevelBot",
           "MCTSBot", "RandomBot", "UnknownLevel", "make_bot"]
