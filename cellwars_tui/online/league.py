"""What a server remembers of its players: finished games, ratings, records, as values; and the
part of the table store that keeps them (:class:`LeagueStore`).

A finished game is one :class:`GameResult`: who sat where (a key, a guest, a bot and its level),
their places, the result in words, the sealed record and the table's chat, under a
:attr:`GameResult.game_id` made from the table's code and the game's seed (so a result told
twice, after a restart or a reconnect, is the same game). :meth:`LeagueStore.record_result`
keeps it **and** its rating update in one transaction: never a rating without its game, never
two updates for one game (a second call with the same game id changes nothing and returns what
the first one did).

Every method of :class:`LeagueStore` is one transaction, so any store that keeps tables keeps
these too: SQLite (:mod:`.league_sqlite`), memory (:class:`MemoryLeague`, tests), and a shared
database the same way. Headless: no textual, no transport.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

import msgspec

from ..core.api import Game, Outcome
from ..core.errors import CellwarsError
from ..core.match import Match
from ..core.registry import get_game
from ..record.format import encode_match
from . import ratings as R
from .chat import ChatLine
from .ratings import Rating

RECENT = 10  # games a profile lists
TOP = 20  # players a leaderboard shows


class ResultSeat(msgspec.Struct, frozen=True, kw_only=True):
    identity: str = ""  # "key:SHA256:...", "guest:...", "" for a bot
    name: str
    kind: str = "human"  # "human" | "bot"
    bot: str = ""  # a bot's level
    place: int = 1  # 1 for the winners (ratings.placings)
    score: float | None = None  # the seat's points, where the game counts them


class GameResult(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    code: str
    game: str
    rated: bool
    finished_at: float
    seats: tuple[ResultSeat, ...]
    winners: tuple[int, ...]
    termination: str
    text: str  # the result in one line, naming the seats ("Ann wins (...)")
    moves: int  # the players' steps (chance left out)
    record: bytes = b""  # the game: a sealed record
    chat: tuple[ChatLine, ...] = ()  # the table's chat, kept with the game
    seconds: float = 0.0  # how long the game took, start to end (0: not known)

    def outcome(self) -> Outcome:
        return Outcome(self.winners, self.termination)


class RatingChange(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    identity: str
    name: str
    before: Rating
    after: Rating


class Recorded(msgspec.Struct, frozen=True, kw_only=True):
    """What :meth:`LeagueStore.record_result` did: the rating changes of the game (none for an
    unrated one), and whether this call kept it (False: it was kept before)."""

    game_id: str
    changes: tuple[RatingChange, ...] = ()
    new: bool = True


class LeaderRow(msgspec.Struct, frozen=True, array_like=True):
    place: int
    identity: str
    name: str
    rating: Rating


class Leaderboard(msgspec.Struct, frozen=True, kw_only=True):
    game: str
    rows: tuple[LeaderRow, ...] = ()  # the top players, established ones first
    players: int = 0  # rated players of this game on the server
    you: LeaderRow | None = None  # the asking player's row (None: not rated in this game)


class GameLine(msgspec.Struct, frozen=True, kw_only=True):
    """One game in a profile's recent games."""

    game_id: str
    game: str
    finished_at: float
    rated: bool
    seats: tuple[ResultSeat, ...]
    seat: int  # the profile's player's seat
    winners: tuple[int, ...] = ()
    moves: int = 0
    text: str = ""  # the result in one line
    change: str = ""  # the rating change shown ("+29"; "" for an unrated game)
    seconds: float = 0.0  # how long it took (0: not known)


class GameRecord(msgspec.Struct, frozen=True, kw_only=True):
    """A player's record in one game (rated or not)."""

    game: str
    played: int = 0
    won: int = 0
    lost: int = 0
    tied: int = 0  # every seat won or none did (a shared place for everyone)
    best_score: float | None = None  # their best points in a game, where the game counts them
    fewest_moves: int | None = None  # their shortest win, in moves (everyone's steps)
    best_seconds: float | None = None  # their quickest win, start to end (where it is known)


class Profile(msgspec.Struct, frozen=True, kw_only=True):
    identity: str
    name: str
    ratings: tuple[tuple[str, Rating, int], ...] = ()  # (game, rating, place) per rated game
    records: tuple[GameRecord, ...] = ()
    recent: tuple[GameLine, ...] = ()


class StoredLeague(msgspec.Struct, frozen=True, kw_only=True):
    """A table's part of the league as the table store keeps it (:mod:`.hub_league`)."""

    rated: bool = False
    chat: tuple[ChatLine, ...] = ()
    removed: tuple[str, ...] = ()  # identities the host sent away
    changes: tuple[RatingChange, ...] = ()  # the finished rated game's rating changes
    result_kept: bool = False  # the finished game's result is in the store
    rematch_code: str = ""  # where the rematch is played
    rematch: tuple[int, ...] = ()  # seats that offered or accepted a rematch (not yet made)
    started_at: float = 0.0  # when the game started (seconds since the epoch; 0: not known)


class LeagueStore(Protocol):
    """The store's part for results and ratings: every method one transaction."""

    async def record_result(self, result: GameResult) -> Recorded:
        """Keep ``result`` and, when it is rated, its rating update, in one transaction; a game
        kept before (same ``game_id``) is not kept again: its changes are returned with
        ``new=False``. StoreError if it could not be kept (then nothing was)."""
        ...

    async def finished_game(self, game_id: str) -> GameResult | None: ...

    async def game_ids_of(self, identity: str, limit: int = RECENT) -> list[str]:
        """The ids of ``identity``'s last ``limit`` finished games, newest first (their records
        are read with :meth:`finished_game`)."""
        ...

    async def ratings_of(self, game: str, identities: Sequence[str]) -> dict[str, Rating]:
        """The ratings held now (a player with none is left out)."""
        ...

    async def leaderboard(self, game: str, you: str = "", top: int = TOP) -> Leaderboard: ...

    async def profile(self, identity: str, recent: int = RECENT) -> Profile | None:
        """A player's ratings, records and recent games (None: no game of theirs is kept)."""
        ...


# -- making a result ---------------------------------------------------------------------------
def game_id_of(code: str, match: Match) -> str:
    return f"{code}-{match.seed:016x}"


def rating_problem(game: Game, seats: Sequence[ResultSeat]) -> str:
    """Why these seats cannot play a rated game of ``game`` ("" when they can): a rated game
    is played by keyed players only, one seat each."""
    why = R.unrated_reason(game)
    if why:
        return why
    keyed = [s.identity for s in seats if s.kind == "human" and s.identity.startswith("key:")]
    if len(keyed) != len(seats):
        return "a rated game is played by players with a key only (no guests, no bots)"
    if len(set(keyed)) != len(keyed):
        return "one player, one seat at a rated table"
    return ""


def make_result(code: str, match: Match, seats: Sequence[ResultSeat], *, rated: bool,
                chat: Iterable[ChatLine] = (), finished_at: float | None = None,
                started_at: float = 0.0) -> GameResult:
    """The result of the finished game ``match`` at table ``code`` (places from its outcome:
    :func:`.ratings.placings`)."""
    outcome = match.outcome()
    if outcome is None:
        raise ValueError("the game is not over")
    game = match.game
    places = R.placings(outcome, len(seats))
    scores = outcome.scores
    placed = tuple(msgspec.structs.replace(
        s, place=places[i], score=scores[i] if i < len(scores) else None)
        for i, s in enumerate(seats))
    names = [s.name for s in seats]
    finished = time.time() if finished_at is None else finished_at
    return GameResult(
        game_id=game_id_of(code, match), code=code, game=game.id,
        rated=rated and not rating_problem(game, placed),
        finished_at=finished, seats=placed,
        seconds=max(0.0, finished - started_at) if started_at > 0 else 0.0,
        winners=tuple(outcome.winners), termination=outcome.termination,
        text=outcome.text(names, team=game.meta.cooperative),
        moves=sum(1 for step in match.history if step.seat >= 0),
        record=encode_match(match), chat=tuple(chat))


# -- the pure parts every store shares ----------------------------------------------------------
def rate_result(game: Game, result: GameResult,
                held: dict[str, Rating]) -> tuple[RatingChange, ...]:
    """The rating changes of a rated ``result`` from the ratings ``held`` now (a player
    without one starts new); () for a game that is not rated."""
    if not result.rated or rating_problem(game, result.seats):
        return ()
    before = [held.get(s.identity, R.NEW) for s in result.seats]
    after = R.rate(game, before, result.outcome())
    return tuple(RatingChange(seat=i, identity=s.identity, name=s.name, before=b, after=a)
                 for i, (s, b, a) in enumerate(zip(result.seats, before, after)))


def sort_key(rating: Rating) -> tuple[bool, float]:
    """Leaderboard order: established ratings first, then by rating (highest first)."""
    return (rating.provisional, -rating.mu)


def seat_outcome(result: GameResult | GameLine, seat: int) -> str:
    """"won", "lost" or "tied" for ``seat`` of a finished game: a competitive game that every
    seat wins is a tie; in a cooperative game or a solitaire a seat wins or loses."""
    winners = set(result.winners)
    players = len(result.seats)
    if players > 1 and len(winners) >= players and not _cooperative(result.game):
        return "tied"
    return "won" if seat in winners else "lost"


def _cooperative(game_id: str) -> bool:
    try:
        return get_game(game_id).meta.cooperative
    except CellwarsError:  # a game this build no longer has
        return False


def records_of(lines: Iterable[tuple[GameResult | GameLine, int]]) -> tuple[GameRecord, ...]:
    """Per game, a player's record from (game, their seat) pairs."""
    out: dict[str, dict[str, Any]] = {}
    for result, seat in lines:
        r = out.setdefault(result.game, {"played": 0, "won": 0, "lost": 0, "tied": 0,
                                         "best_score": None, "fewest_moves": None,
                                         "best_seconds": None})
        r["played"] += 1
        how = seat_outcome(result, seat)
        r[how] += 1
        score = result.seats[seat].score
        if score is not None and (r["best_score"] is None or score > r["best_score"]):
            r["best_score"] = score
        if how == "won" and (r["fewest_moves"] is None or result.moves < r["fewest_moves"]):
            r["fewest_moves"] = result.moves
        if how == "won" and result.seconds > 0 and (
                r["best_seconds"] is None or result.seconds < r["best_seconds"]):
            r["best_seconds"] = result.seconds
    return tuple(GameRecord(game=game, **fields) for game, fields in sorted(out.items()))
