"""How the player sees who sits at a seat: one wording for every list, dialog and panel.

A person is shown by name; a bot seat as its name followed by the bot's kind in brackets,
"search bot" or "random bot" (never a bot id such as "mcts", never a bare "bot"). The New-game
dialog's seat choices use the same words. No textual here.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..core.match import Seat


def seat_bot_id(seat: Seat) -> str:
    """The bot a seat runs ("mcts" for a plain "bot")."""
    return seat.bot if seat.bot in ("random", "mcts") else "mcts"


# What a seat kind is called wherever the player sees it (keys: the request's seat kinds).
KIND_WORDS = {"human": "human", "random": "random bot", "mcts": "search bot"}


def seat_kind_word(seat: Seat) -> str:
    """"human", "search bot" or "random bot"."""
    if not seat.is_bot:
        return KIND_WORDS["human"]
    return KIND_WORDS[seat_bot_id(seat)]


def seat_text(name: str, seat: Seat) -> str:
    """"Ann" for a person, "Blue (search bot)" / "Red (random bot)" for a bot."""
    return f"{name} ({seat_kind_word(seat)})" if seat.is_bot else name


def seats_text(seats: Iterable[Seat], names: Iterable[str] | None = None) -> str:
    """Every seat of a game on one line, comma separated (names default to the seats' own)."""
    seats = list(seats)
    names = [s.name for s in seats] if names is None else list(names)
    return ", ".join(seat_text(n, s) for n, s in zip(names, seats))


def plural(count: int, word: str, words: str | None = None) -> str:
    """"1 step", "2 steps", "0 steps"."""
    return f"{count} {word if count == 1 else (words or word + 's')}"
