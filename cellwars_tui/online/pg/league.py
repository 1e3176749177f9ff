"""Results and ratings in the PostgreSQL store (:class:`PostgresLeague`, a part of
:class:`~.store.PostgresTableStore`): the same contract as the SQLite league
(:mod:`cellwars_tui.online.league_sqlite`), and the same tests.

``record_result`` is one transaction: the result (``INSERT ... ON CONFLICT DO NOTHING``: a game
told twice, by one server or two, is kept once), who sat where, and the players' ratings read and
written under a transaction-level advisory lock per (game, player), taken in one order, so two
servers rating two games of one player at once never lose an update. The rating itself is
:func:`~cellwars_tui.online.league.rate_result`, as in every store.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from ...core.errors import CellwarsError
from ...core.registry import get_game
from ..league import (
    RECENT, TOP, GameResult, Leaderboard, LeaderRow, Profile, RatingChange, Recorded,
    rate_result, records_of,
)
from ..league_sqlite import _change_text, _game_line, _line
from ..ratings import PROVISIONAL_SIGMA, Rating
from ..store_errors import StoreError
from .errors import one_line
from .schema import LOCK_SPACE_RATING

_result = msgspec.msgpack.Decoder(GameResult)
_changes = msgspec.msgpack.Decoder(tuple[RatingChange, ...])
_encode = msgspec.msgpack.Encoder().encode


class _KeptBefore(Exception):
    def __init__(self, changes: bytes) -> None:
        self.changes = changes


class PostgresLeague:
    """The league's half of the PostgreSQL store (which gives ``_query`` and ``pool``)."""

    pool: Any

    async def _query(self, sql: str, params: Any = None) -> list[tuple[Any, ...]]:
        raise NotImplementedError  # (the store's)

    async def record_result(self, result: GameResult) -> Recorded:
        import psycopg
        from psycopg_pool import PoolTimeout

        try:
            game = get_game(result.game)
        except CellwarsError as exc:
            raise StoreError(f"result {result.game_id}: {exc}") from None
        try:
            async with self.pool.connection() as conn:
                try:
                    async with conn.transaction():
                        changes = await self._record(conn, game, result)
                except _KeptBefore as kept:
                    return Recorded(game_id=result.game_id, changes=_changes.decode(kept.changes),
                                    new=False)
        except PoolTimeout:
            raise StoreError("the database cannot be reached") from None
        except psycopg.Error as exc:
            raise StoreError(f"the database: {one_line(exc)}") from None
        return Recorded(game_id=result.game_id, changes=changes, new=True)

    async def _record(self, conn: Any, game: Any, result: GameResult) -> tuple[RatingChange, ...]:
        async def one(sql: str, params: Any) -> list[tuple[Any, ...]]:
            cur = await conn.execute(sql, params)
            return await cur.fetchall() if cur.description is not None else []

        found = await one("SELECT changes FROM cellwars_results WHERE game_id = %s",
                          (result.game_id,))
        if found:
            raise _KeptBefore(bytes(found[0][0]))
        held: dict[str, Rating] = {}
        if result.rated:
            for identity in sorted({s.identity for s in result.seats if s.identity}):
                await one("SELECT pg_advisory_xact_lock(%s, hashtext(%s))",
                          (LOCK_SPACE_RATING, f"{game.id} {identity}"))
            rows = await one("SELECT identity, mu, sigma, games FROM cellwars_ratings WHERE "
                             "game = %s AND identity = ANY(%s)",
                             (game.id, [s.identity for s in result.seats]))
            held = {r[0]: Rating(mu=r[1], sigma=r[2], games=r[3]) for r in rows}
        changes = rate_result(game, result, held)
        kept = await one(
            "INSERT INTO cellwars_results (game_id, game, finished, rated, data, line, changes) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (game_id) DO NOTHING "
            "RETURNING game_id",
            (result.game_id, result.game, result.finished_at, bool(changes), _encode(result),
             _line(result), _encode(changes)))
        if not kept:  # another server kept it a moment ago: its changes stand
            raise _KeptBefore(bytes((await one(
                "SELECT changes FROM cellwars_results WHERE game_id = %s",
                (result.game_id,)))[0][0]))
        for i, s in enumerate(result.seats):
            if s.identity:
                await one("INSERT INTO cellwars_result_seats (game_id, seat, identity, finished) "
                          "VALUES (%s, %s, %s, %s)",
                          (result.game_id, i, s.identity, result.finished_at))
        for c in changes:
            await one("INSERT INTO cellwars_ratings (game, identity, name, mu, sigma, games) "
                      "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (game, identity) DO UPDATE "
                      "SET name = EXCLUDED.name, mu = EXCLUDED.mu, sigma = EXCLUDED.sigma, "
                      "games = EXCLUDED.games",
                      (game.id, c.identity, c.name, c.after.mu, c.after.sigma, c.after.games))
        return changes

    async def finished_game(self, game_id: str) -> GameResult | None:
        rows = await self._query("SELECT data FROM cellwars_results WHERE game_id = %s",
                                 (game_id,))
        return _result.decode(bytes(rows[0][0])) if rows else None

    async def game_ids_of(self, identity: str, limit: int = RECENT) -> list[str]:
        rows = await self._query(
            "SELECT game_id FROM cellwars_result_seats WHERE identity = %s "
            "GROUP BY game_id, finished ORDER BY finished DESC, game_id LIMIT %s",
            (identity, limit))
        return [r[0] for r in rows]

    async def ratings_of(self, game: str, identities: Sequence[str]) -> dict[str, Rating]:
        rows = await self._query("SELECT identity, mu, sigma, games FROM cellwars_ratings "
                                 "WHERE game = %s AND identity = ANY(%s)",
                                 (game, list(identities)))
        return {r[0]: Rating(mu=r[1], sigma=r[2], games=r[3]) for r in rows}

    async def leaderboard(self, game: str, you: str = "", top: int = TOP) -> Leaderboard:
        rows = await self._query(
            "SELECT identity, name, mu, sigma, games FROM cellwars_ratings WHERE game = %s "
            "ORDER BY sigma > %s, mu DESC LIMIT %s", (game, PROVISIONAL_SIGMA, top))
        board = tuple(LeaderRow(i + 1, r[0], r[1], Rating(mu=r[2], sigma=r[3], games=r[4]))
                      for i, r in enumerate(rows))
        players = (await self._query("SELECT count(*) FROM cellwars_ratings WHERE game = %s",
                                     (game,)))[0][0]
        mine = None
        if you:
            found = await self._query("SELECT name, mu, sigma, games FROM cellwars_ratings "
                                      "WHERE game = %s AND identity = %s", (game, you))
            if found:
                name, mu, sigma, games = found[0]
                rating = Rating(mu=mu, sigma=sigma, games=games)
                mine = LeaderRow(await self._place(game, rating), you, name, rating)
        return Leaderboard(game=game, rows=board, players=players, you=mine)

    async def _place(self, game: str, rating: Rating) -> int:
        """1 + how many players of ``game`` come before ``rating`` (league.sort_key)."""
        ahead = await self._query(
            "SELECT count(*) FROM cellwars_ratings WHERE game = %s AND ((sigma > %s) < %s OR "
            "((sigma > %s) = %s AND mu > %s))",
            (game, PROVISIONAL_SIGMA, rating.provisional, PROVISIONAL_SIGMA,
             rating.provisional, rating.mu))
        return 1 + ahead[0][0]

    async def profile(self, identity: str, recent: int = RECENT) -> Profile | None:
        rows = await self._query(
            "SELECT s.seat, r.line, r.changes FROM cellwars_result_seats s JOIN "
            "cellwars_results r ON r.game_id = s.game_id WHERE s.identity = %s "
            "ORDER BY s.finished DESC", (identity,))
        if not rows:
            return None
        games = [(_result.decode(bytes(line)), seat, bytes(ch)) for seat, line, ch in rows]
        lines = tuple(_game_line(g, seat, _change_text(_changes.decode(ch), identity))
                      for g, seat, ch in games[:recent])
        rated = await self._query("SELECT game, name, mu, sigma, games FROM cellwars_ratings "
                                  "WHERE identity = %s ORDER BY game", (identity,))
        ratings = []
        for game, _name, mu, sigma, count in rated:
            rating = Rating(mu=mu, sigma=sigma, games=count)
            ratings.append((game, rating, await self._place(game, rating)))
        newest, seat, _ = games[0]
        return Profile(identity=identity, name=newest.seats[seat].name, ratings=tuple(ratings),
                       records=records_of((g, s) for g, s, _ in games), recent=lines)
