"""A request for a new game (game, options, seats, seed), checked before any screen opens.

``cellwars play`` and the New-game dialog both build one with :func:`new_game_request`; bad
input raises BadOptions with a one-line message. No textual here.
"""

from __future__ import annotations

import secrets
import typing
from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

from ..ai.levels import DEFAULT_LEVEL, TIME_CAP, UnknownLevel, level_name
from ..core.api import Game, Options
from ..core.errors import BadOptions
from ..core.match import Match, Seat
from ..core.registry import get_game

MAX_THINK = 60.0


class NewGameRequest(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    options: Options
    seats: tuple[Seat, ...]
    seed: int

    @property
    def game(self) -> Game:
        return get_game(self.game_id)

    def make_match(self) -> Match:
        return Match(self.game, self.options, self.seats, self.seed)


def option_fields(game: Game) -> list[msgspec.structs.FieldInfo]:
    """The game's own option fields (``players`` is asked for separately; hidden options, such as
    a rules edition, are never asked for), each with its plain type (an ``Annotated`` option's
    note is read by :func:`option_hint`)."""
    return [msgspec.structs.replace(f, type=_plain(f.type))
            for f in msgspec.structs.fields(game.options_type)
            if f.name != "players" and f.name not in game.hidden_options]


def option_hint(game: Game, name: str) -> str:
    """What an option's empty field means, as its type declares it:
    ``Annotated[str, msgspec.Meta(description=...)]`` (the New-game dialog shows it in the empty
    field); "" when the option declares none."""
    for f in msgspec.structs.fields(game.options_type):
        if f.name == name and typing.get_origin(f.type) is typing.Annotated:
            for meta in typing.get_args(f.type)[1:]:
                if isinstance(meta, msgspec.Meta) and meta.description:
                    return meta.description
    return ""


def _plain(tp: Any) -> Any:
    return typing.get_args(tp)[0] if typing.get_origin(tp) is typing.Annotated else tp


def literal_choices(tp: Any) -> tuple[Any, ...] | None:
    """The choices of a Literal or Enum option type, else None."""
    import enum

    if typing.get_origin(tp) is typing.Literal:
        return typing.get_args(tp)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tuple(m.value for m in tp)
    return None


def players_range(game: Game) -> str:
    """"is for 1 player", "is for 2 players", "takes 2 to 4 players"."""
    if game.min_players == game.max_players:
        n = game.min_players
        return f"is for {n} player{'s' if n != 1 else ''}"
    return f"takes {game.min_players} to {game.max_players} players"


def make_seat(game: Game, index: int, kind: str, think: float | None = None,
              name: str = "") -> Seat:
    """A new seat: "human" (or "person") or a bot level ("easy"; ``bot`` and ``mcts`` are the
    older words for normal and hard, ai.levels.ALIASES). A bot's ``think`` is the guard on its
    move (default: the levels' TIME_CAP). BadOptions (one line) for an unknown level."""
    word = kind.strip().lower()
    name = name.strip()[:24] or game.seat_label(index)
    if word in ("human", "person"):
        return Seat(name=name)
    if game.max_players == 1:
        raise BadOptions(f"{game.title} is a solitaire: it has no bot levels")
    try:
        level = level_name(word)
    except UnknownLevel as exc:
        raise BadOptions(f"seat {index + 1}: {exc}") from None
    return Seat(name=name, kind="bot", bot=level, think=TIME_CAP if think is None else think)


def check_think(think: float) -> float:
    if not (think == think) or not 0.0 < think <= MAX_THINK:  # NaN, zero, negative, huge
        raise BadOptions(
            f"bot thinking time must be more than 0 and at most {MAX_THINK:g} seconds, not {think:g}"
        )
    return float(think)


def new_game_request(
    game_id: str,
    players: int | None = None,
    seats: Iterable[tuple[int, str]] | Mapping[int, str] = (),
    seed: int | None = None,
    think: float | None = None,
    options: Mapping[str, Any] | None = None,
    names: Mapping[int, str] | None = None,
) -> NewGameRequest:
    """Check and build a new-game request; BadOptions (one line) for anything absurd.

    ``seats`` maps seat index (from 0) to "human" or a bot level (random, easy, normal, hard;
    ``bot`` is normal and ``mcts`` hard); unnamed seats are human for seat 1 and normal bots for
    the others (a solitaire is one human). ``think``: the guard on a bot's move, in seconds
    (default: the levels' TIME_CAP; a level stops at its playouts long before).
    """
    game = get_game(game_id)
    if think is not None:
        think = check_think(think)
    if players is None:
        players = min(max(2, game.min_players), game.max_players)
    elif not game.min_players <= players <= game.max_players:
        raise BadOptions(f"{game.title} {players_range(game)}, not {players}")
    opts = game_options(game, players, options)
    kinds = {0: "human"}
    kinds.update({i: DEFAULT_LEVEL for i in range(1, opts.players)})
    given = seats.items() if isinstance(seats, Mapping) else seats
    for index, kind in given:
        if not 0 <= index < opts.players:
            raise BadOptions(f"seat {index + 1} does not exist with {opts.players} players")
        kinds[index] = kind
    names = names or {}
    seat_list = tuple(
        make_seat(game, i, kinds[i], think, names.get(i, "")) for i in range(opts.players)
    )
    if seed is None:
        seed = secrets.randbelow(2**63)
    elif not 0 <= seed < 2**63:
        raise BadOptions("seed must be between 0 and 2**63-1")
    return NewGameRequest(game_id=game.id, options=opts, seats=seat_list, seed=seed)


def game_options(game: Game, players: int | None,
                 options: Mapping[str, Any] | None = None, *, hidden: bool = False) -> Options:
    """``game``'s options from NAME=VALUE pairs (``--option``) and a number of players (None:
    the game's default); BadOptions (one line) for an option the game does not have or a
    value it cannot take. ``cellwars play`` and ``cellwars balance`` read options this way;
    ``hidden``: the options no player chooses may be given too (``cellwars balance`` measures
    an older rules edition with ``-o rules_edition=4``)."""
    data: dict[str, Any] = {}
    known = {f.name: f.type for f in option_fields(game)}
    if hidden:
        known.update({f.name: f.type for f in msgspec.structs.fields(game.options_type)
                      if f.name in game.hidden_options})
    for key, value in (options or {}).items():
        key = key.replace("-", "_")
        if key == "players":
            raise BadOptions("give the number of players with --players")
        if key not in known:
            have = ", ".join(sorted(known)) or "none"
            raise BadOptions(f"{game.title} has no option {key!r} (options: {have})")
        data[key] = _option_value(known[key], value)
    if players is not None:
        data["players"] = players
    return game.options_from_dict(data)


def _option_value(tp: Any, value: Any) -> Any:
    """Option text to a value msgspec converts ("yes"/"no"/"on"/"off" for booleans too)."""
    if isinstance(value, str) and tp is bool:
        low = value.strip().lower()
        if low in ("yes", "on", "true", "1"):
            return True
        if low in ("no", "off", "false", "0"):
            return False
    if isinstance(value, str):
        return value.strip()
    return value
