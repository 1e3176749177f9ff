"""Results and ratings in PostgreSQL (:class:`PostgresLeague`, a part of
:class:`~.store.PostgresTableStore`): the same :class:`~cellwars_tui.online.league.LeagueStore`
as SQLite's (:mod:`cellwars_tui.online.league_sqlite`), every method one transaction, for any
number of servers at once.

``record_result`` in one transaction: the result's row is inserted first (``ON CONFLICT DO
NOTHING``: a result kept before, by this server or another, is not kept again, and its changes
are returned); then every player of a rated game gets a rating row if they had none, and the
rows are locked in one order (``SELECT ... FOR UPDATE`` sorted by identity: two servers rating
two games of the same players at once never deadlock, and neither loses the other's update);
the new ratings are computed (:func:`~cellwars_tui.online.league.rate_result`) and written with
the result's changes. A server that dies before ``COMMIT`` leaves nothing of it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import msgspec

from ...core.errors import CellwarsError
from ...core.registry import get_game
from ..league import (
    RECENT, TOP, GameResult, Leaderboard, LeaderRow, Profile, RatingChange, Recorded,
    rate_result, records_of,
)
from ..league_sqlite import _change_text, _game_line, _line
from ..ratings import NEW, PROVISIONAL_SIGMA, Rating
from ..store_errors import StoreError

_result = msgspec.msgpack.Decoder(GameResult)
_changes = msgspec.msgpack.Decoder(tuple[RatingChange, ...])
_encode = msgspec.msgpack.Encoder().encode

# Migration 2 of the PostgreSQL schema (pg/schema.py): finished games and ratings.
LEAGUE_MIGRATION = """
    CREATE TABLE cellwars_results (
        game_id text PRIMARY KEY,
        game text NOT NULL,
        finished double precision NOT NULL,
        rated boolean NOT NULL,
        data bytea NOT NULL,
        line bytea NOT NULL,
        changes bytea NOT NULL
    );
    CREATE TABLE cellwars_result_seats (
        game_id text NOT NULL,
        seat integer NOT NULL,
        identity text NOT NULL,
        finished double precision NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX cellwars_result_seats_by_player ON cellwars_result_seats (identity, finished);
    CREATE TABLE cellwars_ratings (
        game text NOT NULL,
        identity text NOT NULL,
        name text NOT NULL,
        mu double precision NOT NULL,
        sigma double precision NOT NULL,
        games integer NOT NULL,
        PRIMARY KEY (game, identity)
    );
    CREATE INDEX cellwars_ratings_board ON cellwars_ratings (game, mu DESC);
    CREATE INDEX cellwars_ratings_by_player ON cellwars_ratings (identity);
"""


class PostgresLeague:
    """The league's half of :class:`~.store.PostgresTableStore` (which gives ``pool`` and
    ``_query``)."""

    pool: Any
    _query: Callable[..., Awaitable[list[tuple[Any, ...]]]]  # one statement, the store's

    async def record_result(self, result: GameResult) -> Recorded:
        import psycopg
        from psycopg_pool import PoolTimeout

        try:
            game = get_game(result.game)
        except CellwarsError as exc:
            raise StoreError(f"result {result.game_id}: {exc}") from None
        try:
            async with self.pool.connection() as conn, conn.transaction():
                cur = await conn.execute(
                    "INSERT INTO cellwars_results (game_id, game, finished, rated, data, line, "
                    "changes) VALUES (%s, %s, %s, false, %s, %s, '') "
                    "ON CONFLICT (game_id) DO NOTHING RETURNING game_id",
                    (result.game_id, game.id, result.finished_at, _encode(result),
                     _line(result)))
                if await cur.fetchone() is None:  # kept before (here or by another server)
                    cur = await conn.execute(
                        "SELECT changes FROM cellwars_results WHERE game_id = %s",
                        (result.game_id,))
                    row = await cur.fetchone()
                    kept = _changes.decode(bytes(row[0])) if row and row[0] else ()
                    return Recorded(game_id=result.game_id, changes=kept, new=False)
                held: dict[str, Rating] = {}
                who = sorted({s.identity for s in result.seats if s.identity})
                if result.rated and who:
                    for identity in who:
                        name = next(s.name for s in result.seats if s.identity == identity)
                        await conn.execute(
                            "INSERT INTO cellwars_ratings (game, identity, name, mu, sigma, "
                            "games) VALUES (%s, %s, %s, %s, %s, 0) ON CONFLICT DO NOTHING",
                            (game.id, identity, name, NEW.mu, NEW.sigma))
                    cur = await conn.execute(
                        "SELECT identity, mu, sigma, games FROM cellwars_ratings WHERE game = %s "
                        "AND identity = ANY(%s) ORDER BY identity FOR UPDATE", (game.id, who))
                    for identity, mu, sigma, games in await cur.fetchall():
                        held[identity] = Rating(mu=mu, sigma=sigma, games=games)
                changes = rate_result(game, result, held)
                for c in changes:
                    await conn.execute(
                        "UPDATE cellwars_ratings SET name = %s, mu = %s, sigma = %s, games = %s "
                        "WHERE game = %s AND identity = %s",
                        (c.name, c.after.mu, c.after.sigma, c.after.games, game.id, c.identity))
                await conn.execute(
                    "UPDATE cellwars_results SET rated = %s, changes = %s WHERE game_id = %s",
                    (bool(changes), _encode(changes), result.game_id))
                for i, s in enumerate(result.seats):
                    if s.identity:
                        await conn.execute(
                            "INSERT INTO cellwars_result_seats (game_id, seat, identity, "
                            "finished) VALUES (%s, %s, %s, %s)",
                            (result.game_id, i, s.identity, result.finished_at))
                if not changes and held:  # (a result that could not be rated after all)
                    await conn.execute(
                        "DELETE FROM cellwars_ratings WHERE game = %s AND games = 0", (game.id,))
        except PoolTimeout:
            raise StoreError("the database cannot be reached") from None
        except psycopg.Error as exc:
            why = exc.diag.message_primary or type(exc).__name__
            raise StoreError(f"the database: {why}") from None
        return Recorded(game_id=result.game_id, changes=changes, new=True)

    async def finished_game(self, game_id: str) -> GameResult | None:
        rows = await self._query("SELECT data FROM cellwars_results WHERE game_id = %s",
                                 (game_id,))
        return _result.decode(bytes(rows[0][0])) if rows else None

    async def ratings_of(self, game: str, identities: Sequence[str]) -> dict[str, Rating]:
        rows = await self._query("SELECT identity, mu, sigma, games FROM cellwars_ratings "
                                 "WHERE game = %s AND identity = ANY(%s) AND games > 0",
                                 (game, list(identities)))
        return {r[0]: Rating(mu=r[1], sigma=r[2], games=r[3]) for r in rows}

    async def leaderboard(self, game: str, you: str = "", top: int = TOP) -> Leaderboard:
        rows = await self._query(
            "SELECT identity, name, mu, sigma, games FROM cellwars_ratings WHERE game = %s "
            "AND games > 0 ORDER BY sigma > %s, mu DESC LIMIT %s", (game, PROVISIONAL_SIGMA, top))
        board = tuple(LeaderRow(i + 1, r[0], r[1], Rating(mu=r[2], sigma=r[3], games=r[4]))
                      for i, r in enumerate(rows))
        count = await self._query("SELECT count(*) FROM cellwars_ratings WHERE game = %s "
                                  "AND games > 0", (game,))
        mine = None
        if you:
            found = await self._query("SELECT name, mu, sigma, games FROM cellwars_ratings "
                                      "WHERE game = %s AND identity = %s AND games > 0",
                                      (game, you))
            if found:
                name, mu, sigma, games = found[0]
                rating = Rating(mu=mu, sigma=sigma, games=games)
                mine = LeaderRow(await self._place(game, rating), you, name, rating)
        return Leaderboard(game=game, rows=board, players=count[0][0], you=mine)

    async def _place(self, game: str, rating: Rating) -> int:
        rows = await self._query(
            "SELECT count(*) FROM cellwars_ratings WHERE game = %s AND games > 0 AND "
            "((sigma > %s)::int < %s OR ((sigma > %s)::int = %s AND mu > %s))",
            (game, PROVISIONAL_SIGMA, int(rating.provisional), PROVISIONAL_SIGMA,
             int(rating.provisional), rating.mu))
        return 1 + rows[0][0]

    async def profile(self, identity: str, recent: int = RECENT) -> Profile | None:
        rows = await self._query(
            "SELECT s.seat, r.line, r.changes FROM cellwars_result_seats s JOIN cellwars_results "
            "r ON r.game_id = s.game_id WHERE s.identity = %s ORDER BY s.finished DESC",
            (identity,))
        if not rows:
            return None
        games = [(_result.decode(bytes(line)), seat, bytes(ch)) for seat, line, ch in rows]
        lines = tuple(_game_line(g, seat, _change_text(_changes.decode(ch) if ch else (),
                                                       identity))
                      for g, seat, ch in games[:recent])
        rated = await self._query("SELECT game, mu, sigma, games FROM cellwars_ratings WHERE "
                                  "identity = %s AND games > 0 ORDER BY game", (identity,))
        ratings = []
        for game, mu, sigma, count in rated:
            rating = Rating(mu=mu, sigma=sigma, games=count)
            ratings.append((game, rating, await self._place(game, rating)))
        newest, seat, _ = games[0]
        return Profile(identity=identity, name=newest.seats[seat].name, ratings=tuple(ratings),
                       records=records_of((g, s) for g, s, _ in games), recent=lines)
