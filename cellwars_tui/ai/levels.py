"""Bot levels: random, easy, normal, hard. The one place they are defined.

A level is a search budget and a share of random moves (:class:`~cellwars_tui.core.meta.BotLevel`):

* ``playouts``: determinised MCTS playouts a decision (:class:`~.bots.MCTSBot`), a count and never
  seconds, so a level plays as strong on a loaded machine as on an idle one; 0 means no search
  (the game's greedy choice, :class:`~.bots.GreedyBot`);
* ``noise``: the share of decisions played at random among the legal actions instead (below
  1.0, never an action that loses the game at once when another does not: :func:`random_move`;
  the random level, 1.0, plays any legal action).

The search is each game's own: :class:`~.bots.MCTSBot` weighs the game's ``bot_actions`` and
scores with its ``random_playout`` and ``heuristic`` (Cell Wars' policy and learned position
value, Cellulis Bellum's pruned moves and territory value), so a level is the search bot of
``cellwars balance --bot search`` at the level's playouts, and no game needs a second bot for its
levels.

The time a bot may take is only a guard for the table (a seat's ``think``; new level seats get
``TIME_CAP``): on any ordinary machine a level stops at its playouts long before. A game whose
search needs other numbers declares them by name in its ``GameType.bot_levels`` (:func:`level_for`
reads them); the ladder each game measures (``cellwars balance GAME --ladder``) is printed on its
rules page.

Seats name their bot by the level's name (``Seat(kind="bot", bot="easy")``). Two older words are
mapped explicitly:

* where a new seat is chosen (``cellwars play --seat 2=bot``, the hub), :data:`ALIASES`:
  ``bot`` is ``normal`` (the default opponent), ``mcts`` is ``hard`` (the search bot at its best);
* in records written before levels, :data:`RECORDED`: a seat whose bot is ``mcts`` (or a bot seat
  with no bot named) keeps the bot it was played with, the search that thinks for the seat's
  ``think`` seconds, so an old game resumes at the strength it had.

Any other name is an unknown level: :class:`UnknownLevel`, one line. No textual or rich here.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ..core.api import Action, Game
from ..core.errors import BadOptions, CellwarsError
from ..core.match import Seat
from ..core.meta import BotLevel
from .bots import Bot, GreedyBot, MCTSBot, RandomBot

# The levels, weakest first. The names are stable: records, the command line, the hub and the
# lessons ("ends in a normal game against an easy bot") use them.
LEVELS: dict[str, BotLevel] = {
    "random": BotLevel(name="random", playouts=0, noise=1.0),
    "easy": BotLevel(name="easy", playouts=8, noise=0.25),
    "normal": BotLevel(name="normal", playouts=64),
    "hard": BotLevel(name="hard", playouts=400),
}
LEVEL_NAMES: tuple[str, ...] = tuple(LEVELS)
DEFAULT_LEVEL = "normal"  # the default opponent everywhere (dialog, cellwars play, the hub)
TITLES = {"random": "Random", "easy": "Easy", "normal": "Normal", "hard": "Hard"}

TIME_CAP = 10.0  # seconds: a new level seat's ``think``, the guard on its move (not its budget)

# Words for a new seat from before levels (command line, hub messages): bot -> normal, mcts -> hard.
ALIASES = {"bot": "normal", "mcts": "hard"}

# A seat's bot as records written before levels name it: the search bot that thinks ``think``
# seconds a move (what these seats played with, so they resume at the same strength).
LEGACY_SEARCH = "mcts"
RECORDED = {"mcts": LEGACY_SEARCH, "": LEGACY_SEARCH}


class UnknownLevel(BadOptions):
    """A bot level nobody defined (``--seat 2=expert``, a record naming one): one line."""


def known_words() -> str:
    return ", ".join(LEVEL_NAMES)


def level_name(word: str) -> str:
    """The level a word chooses for a new seat: a level's name or an alias (any case);
    UnknownLevel otherwise."""
    name = word.strip().lower()
    name = ALIASES.get(name, name)
    if name not in LEVELS:
        raise UnknownLevel(f"unknown bot level {word.strip()!r} (levels: {known_words()})")
    return name


def level_for(game: Game, name: str) -> BotLevel:
    """Level ``name`` as ``game`` plays it: the game's own numbers (``GameType.bot_levels``) or
    the defaults here."""
    for tuned in game.meta.bot_levels:
        if tuned.name == name:
            return tuned
    try:
        return LEVELS[name]
    except KeyError:
        raise UnknownLevel(f"unknown bot level {name!r} (levels: {known_words()})") from None


def level_words(game: Game, name: str) -> str:
    """"normal (64 playouts)", "easy (8 playouts, 25% random moves)", "random"."""
    level = level_for(game, name)
    if level.noise >= 1.0:
        return name
    parts = [f"{level.playouts} playouts" if level.playouts else "greedy"]
    if level.noise > 0:
        parts.append(f"{level.noise:.0%} random moves")
    return f"{name} ({', '.join(parts)})"


def seat_bot(seat: Seat) -> str:
    """The bot a recorded bot seat runs: a level's name, or ``mcts`` (the search from before
    levels, see :data:`RECORDED`). UnknownLevel for any other name."""
    if seat.bot in LEVELS:
        return seat.bot
    if seat.bot in RECORDED:
        return RECORDED[seat.bot]
    raise UnknownLevel(f"{seat.name}: unknown bot level {seat.bot!r} (levels: {known_words()})")


def seat_level(seat: Seat) -> str:
    """The level a bot seat plays at, for the table's words and a real-time game's pace: its
    level, ``normal`` for the search from before levels."""
    bot = seat_bot(seat)
    return DEFAULT_LEVEL if bot == LEGACY_SEARCH else bot


def check_seats(seats: Any) -> None:
    """UnknownLevel (one line) if a bot seat names a bot no level or older record word knows."""
    for seat in seats:
        if seat.is_bot:
            seat_bot(seat)


def seat_budget(seat: Seat) -> float:
    """Seconds a bot seat's move may take: its ``think`` (the search from before levels thinks
    that long; a level stops sooner, at its playouts)."""
    return seat.think


class LevelBot(Bot):
    """A bot playing at a level: a random move for a ``noise`` share of decisions, else the
    search with the level's playouts (or the greedy choice at 0 playouts). ``budget`` seconds
    are only a guard."""

    def __init__(self, name: str) -> None:
        if name not in LEVELS:
            raise UnknownLevel(f"unknown bot level {name!r} (levels: {known_words()})")
        self.id = name
        self.title = TITLES[name]

    def choose(self, game: Game, view: Any, seat: int, rng: random.Random,
               budget: float) -> Action:
        level = level_for(game, self.id)
        if level.noise >= 1.0:
            return RandomBot().choose(game, view, seat, rng, budget)
        if level.noise > 0.0 and rng.random() < level.noise:
            return random_move(game, view, seat, rng)
        if level.playouts <= 0:
            return GreedyBot().choose(game, view, seat, rng, budget)
        return MCTSBot(max_playouts=level.playouts).choose(game, view, seat, rng, budget)


def loses_at_once(game: Game, state: Any, seat: int, action: Action) -> bool:
    """Whether ``action`` ends the game at once with ``seat`` not among the winners."""
    try:
        after, _ = game.apply(state, seat, action)
    except CellwarsError:
        return False
    outcome = game.outcome(after)
    return outcome is not None and seat not in outcome.winners


def random_move(game: Game, view: Any, seat: int, rng: random.Random) -> Action:
    """A level's random move: any legal action but one that loses the game at once, unless
    every one does (a blunder on the spot, such as moving one's own program out in Virus
    Fight, ends a learner's game before it starts; a weak player still misses the rest). One
    step ahead on one sampled state (``determinize``): a few applies, far less than a search."""
    actions = list(game.legal_actions(view, seat))
    if not actions:
        raise ValueError(f"{game.title}: no legal action for seat {seat}")
    if len(actions) > 1:
        state = game.determinize(view, seat, rng)
        safe = [a for a in actions if not loses_at_once(game, state, seat, a)]
        if safe:
            actions = safe
    return rng.choice(actions)


def _legacy_search() -> Bot:
    return MCTSBot()


def _level_bot(name: str) -> Callable[[], Bot]:
    return lambda: LevelBot(name)


BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,  # the random level is the random bot, move for move
    **{name: _level_bot(name) for name in LEVEL_NAMES if name != "random"},
    LEGACY_SEARCH: _legacy_search,
}


def make_bot(bot_id: str) -> Bot:
    """The bot for a seat's ``bot`` field: a level (``make_bot("easy")``), or ``mcts``, the
    search from before levels that thinks its whole budget. UnknownLevel otherwise."""
    try:
        return BOTS[bot_id]()
    except KeyError:
        raise UnknownLevel(f"unknown bot level {bot_id!r} (levels: {known_words()})") from None
