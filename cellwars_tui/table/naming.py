"""How the player sees who sits at a seat: one wording for every list, dialog and panel.

A person is shown by name; a bot seat as its name followed by its level in brackets, "easy bot",
"normal bot", "hard bot" or "random bot" ("search bot" for a seat recorded before levels; never a
bot id such as "mcts", never a bare "bot"). The New-game dialog and the replay's "play on" dialog
offer the same seat choices, :data:`SEAT_CHOICES`. No textual here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..ai.levels import ALIASES, DEFAULT_LEVEL, LEGACY_SEARCH, LEVEL_NAMES, RECORDED, TITLES
from ..core.api import CHANCE
from ..core.match import Seat


def seat_bot_id(seat: Seat) -> str:
    """The bot a bot seat runs: its level ("easy"), ``mcts`` for the search from before levels,
    or the unknown name it gives (shown, refused when the seat must play: ai.levels)."""
    return RECORDED.get(seat.bot, seat.bot)


# What a seat kind is called wherever the player sees it (keys: a seat's bot, or "human").
KIND_WORDS = {"human": "human", "random": "random bot", "easy": "easy bot",
              "normal": "normal bot", "hard": "hard bot", LEGACY_SEARCH: "search bot"}

# The seat choices of the New-game dialog and of playing on from a replay: a person or a level.
SEAT_CHOICES: tuple[tuple[str, str], ...] = (("Person", "human"),) + tuple(
    (TITLES[name], name) for name in LEVEL_NAMES)


def seat_choice(seat: Seat) -> str:
    """A recorded seat as one of :data:`SEAT_CHOICES` (a new game's seat): "human", its level,
    or the level an older word stands for (``mcts``: hard)."""
    if not seat.is_bot:
        return "human"
    if seat.bot in LEVEL_NAMES:
        return seat.bot
    return ALIASES.get(seat.bot or "mcts", DEFAULT_LEVEL)


def seat_kind_word(seat: Seat) -> str:
    """"human", "easy bot", "normal bot", "hard bot", "random bot" (or "search bot": a seat
    from before levels)."""
    if not seat.is_bot:
        return KIND_WORDS["human"]
    bot = seat_bot_id(seat)
    return KIND_WORDS.get(bot, f"{bot} bot")


def seat_kind_detail(seat: Seat) -> str:
    """A seat's kind beside the board: "human", "easy bot"; a search bot from before levels
    with its time ("search bot 1s")."""
    word = seat_kind_word(seat)
    return f"{word} {seat.think:g}s" if seat.is_bot and seat_bot_id(seat) == LEGACY_SEARCH \
        else word


def seat_text(name: str, seat: Seat) -> str:
    """"Ann" for a person, "Blue (normal bot)" / "Red (random bot)" for a bot."""
    return f"{name} ({seat_kind_word(seat)})" if seat.is_bot else name


def seats_text(seats: Iterable[Seat], names: Iterable[str] | None = None) -> str:
    """Every seat of a game on one line, comma separated (names default to the seats' own)."""
    seats = list(seats)
    names = [s.name for s in seats] if names is None else list(names)
    return ", ".join(seat_text(n, s) for n, s in zip(names, seats))


def plural(count: int, word: str, words: str | None = None) -> str:
    """"1 step", "2 steps", "0 steps"."""
    return f"{count} {word if count == 1 else (words or word + 's')}"


def seat_name(names: Sequence[str], seat: int | None) -> str:
    """Seat ``seat`` by its name in ``names`` ("everyone" for None, "chance" for the chance
    seat, "seat 7" past the names)."""
    if seat is None:
        return "everyone"
    if seat == CHANCE:
        return "chance"
    return names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"
