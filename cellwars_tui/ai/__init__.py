"""Game-agnostic bots (random, MCTS) over the core API."""

from .bots import BOTS, Bot, MCTSBot, RandomBot, make_bot

__all__ = ["BOTS", "Bot", "MCTSBot", "RandomBot", "make_bot"]
