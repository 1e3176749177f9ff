"""Results and ratings in the SQLite table store (:class:`SqliteLeague`, a part of
:class:`~.store.SqliteTableStore`), and in memory (:class:`MemoryLeague`, for tests and a hub
without a store). Both implement :class:`~.league.LeagueStore`; the rating itself is computed
by :func:`.league.rate_result` inside the transaction that keeps the result.

Tables (schema version 3 of the store's file, see :func:`create_league_tables`):

* ``results``: one row per finished game, its :class:`~.league.GameResult` (msgpack) whole
  (``data``: record and chat included) and without record and chat (``line``: what profiles
  and records read);
* ``result_seats``: who sat where, by player and time (a profile's recent games);
* ``ratings``: one row per player and game (mean, sigma, games, the name last seen);
* ``rating_changes``: each rated game's changes, kept with it (a result told again returns
  them, and changes nothing).

``record_result`` runs ``BEGIN IMMEDIATE`` ... ``COMMIT``: the result's rows, then the players'
ratings read, updated and written, then the changes; a crash anywhere before ``COMMIT`` leaves
none of it (SQLite's journal), so the hub tells the result again after a restart and it is
kept then, once. A PostgreSQL store does the same in one transaction (``SELECT ... FOR UPDATE``
on the players' ratings, ``INSERT ... ON CONFLICT DO NOTHING`` on the result).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import msgspec

from ..core.errors import CellwarsError
from ..core.registry import get_game
from .league import (
    RECENT, TOP, GameLine, GameResult, Leaderboard, LeaderRow, Profile, RatingChange, Recorded,
    rate_result, records_of, sort_key,
)
from .ratings import PROVISIONAL_SIGMA, Rating, shown_change
from .store_errors import StoreError

T = TypeVar("T")

_result = msgspec.msgpack.Decoder(GameResult)
_changes = msgspec.msgpack.Decoder(tuple[RatingChange, ...])
_encode = msgspec.msgpack.Encoder().encode

LEAGUE_TABLES = (
    "CREATE TABLE IF NOT EXISTS results (game_id TEXT PRIMARY KEY, game TEXT NOT NULL, "
    "finished REAL NOT NULL, rated INTEGER NOT NULL, data BLOB NOT NULL, line BLOB NOT NULL, "
    "changes BLOB NOT NULL)",
    "CREATE TABLE IF NOT EXISTS result_seats (game_id TEXT NOT NULL, seat INTEGER NOT NULL, "
    "identity TEXT NOT NULL, finished REAL NOT NULL, PRIMARY KEY (game_id, seat))",
    "CREATE INDEX IF NOT EXISTS result_seats_by_player ON result_seats (identity, finished)",
    "CREATE TABLE IF NOT EXISTS ratings (game TEXT NOT NULL, identity TEXT NOT NULL, "
    "name TEXT NOT NULL, mu REAL NOT NULL, sigma REAL NOT NULL, games INTEGER NOT NULL, "
    "PRIMARY KEY (game, identity))",
    "CREATE INDEX IF NOT EXISTS ratings_board ON ratings (game, mu DESC)",
    "CREATE INDEX IF NOT EXISTS ratings_by_player ON ratings (identity)",
)


def create_league_tables(db: sqlite3.Connection) -> None:
    """The league's tables and indexes, made if missing (inside the store's schema change)."""
    for statement in LEAGUE_TABLES:
        db.execute(statement)


def _line(result: GameResult) -> bytes:
    return _encode(msgspec.structs.replace(result, record=b"", chat=()))


def _game_line(result: GameResult, seat: int, change: str) -> GameLine:
    return GameLine(game_id=result.game_id, game=result.game, finished_at=result.finished_at,
                    rated=result.rated, seats=result.seats, seat=seat, winners=result.winners,
                    moves=result.moves, text=result.text, change=change,
                    seconds=result.seconds)


def _change_text(changes: Sequence[RatingChange], identity: str) -> str:
    for c in changes:
        if c.identity == identity:
            return shown_change(c.before, c.after)
    return ""


class SqliteLeague:
    """The league's half of :class:`~.store.SqliteTableStore` (which gives ``db``, its one
    connection, and ``_run``, its one thread: every statement of the file is made there)."""

    db: sqlite3.Connection

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        """(The store's thread runs ``fn``; a store without one runs it here.)"""
        return fn(*args)

    # -- results ----------------------------------------------------------------------------
    async def record_result(self, result: GameResult) -> Recorded:
        return await self._run(self.record_result_now, result)

    def record_result_now(self, result: GameResult) -> Recorded:
        try:
            game = get_game(result.game)
        except CellwarsError as exc:
            raise StoreError(f"result {result.game_id}: {exc}") from None
        db = self.db
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                row = db.execute("SELECT changes FROM results WHERE game_id = ?",
                                 (result.game_id,)).fetchone()
                if row is not None:  # kept before: nothing changes
                    db.execute("ROLLBACK")
                    return Recorded(game_id=result.game_id, changes=_changes.decode(row[0]),
                                    new=False)
                held: dict[str, Rating] = {}
                if result.rated:
                    for seat in result.seats:
                        r = db.execute("SELECT mu, sigma, games FROM ratings WHERE game = ? "
                                       "AND identity = ?", (game.id, seat.identity)).fetchone()
                        if r is not None:
                            held[seat.identity] = Rating(mu=r[0], sigma=r[1], games=r[2])
                changes = rate_result(game, result, held)
                db.execute("INSERT INTO results (game_id, game, finished, rated, data, line, "
                           "changes) VALUES (?, ?, ?, ?, ?, ?, ?)",
                           (result.game_id, result.game, result.finished_at,
                            int(bool(changes)), _encode(result), _line(result),
                            _encode(changes)))
                db.executemany("INSERT INTO result_seats (game_id, seat, identity, finished) "
                               "VALUES (?, ?, ?, ?)",
                               [(result.game_id, i, s.identity, result.finished_at)
                                for i, s in enumerate(result.seats) if s.identity])
                db.executemany(
                    "INSERT INTO ratings (game, identity, name, mu, sigma, games) "
                    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game, identity) DO UPDATE SET "
                    "name = excluded.name, mu = excluded.mu, sigma = excluded.sigma, "
                    "games = excluded.games",
                    [(game.id, c.identity, c.name, c.after.mu, c.after.sigma, c.after.games)
                     for c in changes])
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise StoreError(str(exc)) from None
        return Recorded(game_id=result.game_id, changes=changes, new=True)

    async def finished_game(self, game_id: str) -> GameResult | None:
        return await self._run(self._finished_game, game_id)

    def _finished_game(self, game_id: str) -> GameResult | None:
        row = self._read("SELECT data FROM results WHERE game_id = ?", (game_id,))
        return _result.decode(row[0][0]) if row else None

    async def game_ids_of(self, identity: str, limit: int = RECENT) -> list[str]:
        return await self._run(self._game_ids_of, identity, limit)

    def _game_ids_of(self, identity: str, limit: int) -> list[str]:
        rows = self._read("SELECT game_id FROM result_seats WHERE identity = ? GROUP BY "
                          "game_id, finished ORDER BY finished DESC, game_id LIMIT ?",
                          (identity, limit))
        return [r[0] for r in rows]

    # -- ratings ----------------------------------------------------------------------------
    async def ratings_of(self, game: str, identities: Sequence[str]) -> dict[str, Rating]:
        return await self._run(self._ratings_of, game, tuple(identities))

    def _ratings_of(self, game: str, identities: tuple[str, ...]) -> dict[str, Rating]:
        out: dict[str, Rating] = {}
        for identity in identities:
            rows = self._read("SELECT mu, sigma, games FROM ratings WHERE game = ? AND "
                              "identity = ?", (game, identity))
            if rows:
                out[identity] = Rating(mu=rows[0][0], sigma=rows[0][1], games=rows[0][2])
        return out

    async def leaderboard(self, game: str, you: str = "", top: int = TOP) -> Leaderboard:
        return await self._run(self.leaderboard_now, game, you, top)

    def leaderboard_now(self, game: str, you: str = "", top: int = TOP) -> Leaderboard:
        rows = self._read("SELECT identity, name, mu, sigma, games FROM ratings WHERE game = ? "
                          "ORDER BY sigma > ?, mu DESC LIMIT ?", (game, PROVISIONAL_SIGMA, top))
        board = tuple(LeaderRow(i + 1, r[0], r[1], Rating(mu=r[2], sigma=r[3], games=r[4]))
                      for i, r in enumerate(rows))
        players = self._read("SELECT COUNT(*) FROM ratings WHERE game = ?", (game,))[0][0]
        mine = None
        if you:
            found = self._read("SELECT name, mu, sigma, games FROM ratings WHERE game = ? AND "
                               "identity = ?", (game, you))
            if found:
                name, mu, sigma, games = found[0]
                rating = Rating(mu=mu, sigma=sigma, games=games)
                mine = LeaderRow(self._place(game, rating), you, name, rating)
        return Leaderboard(game=game, rows=board, players=players, you=mine)

    def _place(self, game: str, rating: Rating) -> int:
        """1 + how many players of ``game`` come before ``rating`` (league.sort_key)."""
        ahead = self._read(
            "SELECT COUNT(*) FROM ratings WHERE game = ? AND ((sigma > ?) < ? OR "
            "((sigma > ?) = ? AND mu > ?))",
            (game, PROVISIONAL_SIGMA, int(rating.provisional), PROVISIONAL_SIGMA,
             int(rating.provisional), rating.mu))
        return 1 + ahead[0][0]

    # -- profiles ---------------------------------------------------------------------------
    async def profile(self, identity: str, recent: int = RECENT) -> Profile | None:
        return await self._run(self._profile, identity, recent)

    def _profile(self, identity: str, recent: int) -> Profile | None:
        rows = self._read("SELECT s.seat, r.line, r.changes FROM result_seats s JOIN results r "
                          "ON r.game_id = s.game_id WHERE s.identity = ? "
                          "ORDER BY s.finished DESC", (identity,))
        if not rows:
            return None
        games = [(_result.decode(line), seat, changes) for seat, line, changes in rows]
        lines = tuple(_game_line(g, seat, _change_text(_changes.decode(ch), identity))
                      for g, seat, ch in games[:recent])
        rated = self._read("SELECT game, name, mu, sigma, games FROM ratings WHERE identity = ? "
                           "ORDER BY game", (identity,))
        ratings = []
        for game, _name, mu, sigma, count in rated:
            rating = Rating(mu=mu, sigma=sigma, games=count)
            ratings.append((game, rating, self._place(game, rating)))
        newest, seat, _ = games[0]
        return Profile(identity=identity, name=newest.seats[seat].name, ratings=tuple(ratings),
                       records=records_of((g, s) for g, s, _ in games), recent=lines)

    def _read(self, sql: str, args: tuple[Any, ...]) -> list[Any]:
        try:
            return self.db.execute(sql, args).fetchall()
        except sqlite3.Error as exc:
            raise StoreError(str(exc)) from None


class MemoryLeague:
    """The league in memory (a :class:`~.store.MemoryTableStore`'s part): the same answers as
    SQLite's, nothing kept past the process."""

    def __init__(self) -> None:
        self.results: dict[str, GameResult] = {}
        self.changes: dict[str, tuple[RatingChange, ...]] = {}
        self.ratings: dict[tuple[str, str], tuple[str, Rating]] = {}  # (game, who) -> name, r

    async def record_result(self, result: GameResult) -> Recorded:
        if result.game_id in self.results:
            return Recorded(game_id=result.game_id, changes=self.changes[result.game_id],
                            new=False)
        game = get_game(result.game)
        held = {who: r for (g, who), (_, r) in self.ratings.items() if g == game.id}
        changes = rate_result(game, result, held)
        self.results[result.game_id] = result
        self.changes[result.game_id] = changes
        for c in changes:
            self.ratings[(game.id, c.identity)] = (c.name, c.after)
        return Recorded(game_id=result.game_id, changes=changes, new=True)

    async def finished_game(self, game_id: str) -> GameResult | None:
        return self.results.get(game_id)

    async def game_ids_of(self, identity: str, limit: int = RECENT) -> list[str]:
        games = sorted((r for r in self.results.values()
                        if any(s.identity == identity for s in r.seats)),
                       key=lambda r: (-r.finished_at, r.game_id))
        return [r.game_id for r in games[:limit]]

    async def ratings_of(self, game: str, identities: Sequence[str]) -> dict[str, Rating]:
        return {who: self.ratings[(game, who)][1] for who in identities
                if (game, who) in self.ratings}

    def _ordered(self, game: str) -> list[tuple[str, str, Rating]]:
        rows = [(who, name, r) for (g, who), (name, r) in self.ratings.items() if g == game]
        return sorted(rows, key=lambda row: sort_key(row[2]))

    async def leaderboard(self, game: str, you: str = "", top: int = TOP) -> Leaderboard:
        rows = self._ordered(game)
        board = tuple(LeaderRow(i + 1, who, name, r) for i, (who, name, r) in enumerate(rows[:top]))
        mine = next((LeaderRow(i + 1, who, name, r) for i, (who, name, r) in enumerate(rows)
                     if who == you), None) if you else None
        return Leaderboard(game=game, rows=board, players=len(rows), you=mine)

    async def profile(self, identity: str, recent: int = RECENT) -> Profile | None:
        games = sorted(((r, i) for r in self.results.values() for i, s in enumerate(r.seats)
                        if s.identity == identity), key=lambda x: -x[0].finished_at)
        if not games:
            return None
        lines = tuple(_game_line(g, seat, _change_text(self.changes[g.game_id], identity))
                      for g, seat in games[:recent])
        ratings = []
        for (game, who), (_, r) in sorted(self.ratings.items()):
            if who == identity:
                place = 1 + next(i for i, row in enumerate(self._ordered(game)) if row[0] == who)
                ratings.append((game, r, place))
        newest, seat = games[0]
        return Profile(identity=identity, name=newest.seats[seat].name, ratings=tuple(ratings),
                       records=records_of(games), recent=lines)
