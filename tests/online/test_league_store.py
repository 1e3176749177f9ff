"""Results and ratings in the table store (online/league*.py, online/pg/league.py): the same
contract for the SQLite store, the memory store and the PostgreSQL store; the rating is kept in the result's transaction, exactly once, even
when the process dies in the middle of it."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from cellwars_tui.core.match import Match, Seat
from cellwars_tui.core.registry import get_game
from cellwars_tui.online.chat import ChatLine
from cellwars_tui.online.league import GameResult, ResultSeat, make_result, rating_problem
from cellwars_tui.online.ratings import NEW, PROVISIONAL_SIGMA
from cellwars_tui.online.store import SCHEMA_VERSION, MemoryTableStore, SqliteTableStore

from .. import toy_game  # noqa: F401  (registers toy-race)

ANN, BEN, CY = "key:SHA256:ann", "key:SHA256:ben", "key:SHA256:cy"


def result(n: int, a: str = ANN, b: str = BEN, winner: int | None = 0, *, game="cellulis-bellum",
           rated=True, finished: float | None = None, kinds=("human", "human")) -> GameResult:
    names = {ANN: "ann", BEN: "ben", CY: "cy"}
    seats = tuple(ResultSeat(identity=who if kind == "human" else "", name=names.get(who, who),
                             kind=kind, bot="normal" if kind == "bot" else "",
                             place=1 if winner in (None, i) else 2, score=float(10 + i))
                  for i, (who, kind) in enumerate(zip((a, b), kinds)))
    winners = (0, 1) if winner is None else (winner,)
    return GameResult(game_id=f"T{n:03d}-{n:016x}", code=f"T{n:03d}", game=game, rated=rated,
                      finished_at=1000.0 + n if finished is None else finished, seats=seats,
                      winners=winners, termination="x", text=f"game {n}", moves=20 + n,
                      record=b"rec", chat=(ChatLine(1.0, 3, "ann", "gg"),))


@pytest.fixture(params=["sqlite", "memory", "postgres"])
async def store(request, tmp_path):
    if request.param == "postgres":  # a real one (tests/postgres.py)
        from cellwars_tui.online.pg.store import PostgresTableStore

        pg = await PostgresTableStore.open(request.getfixturevalue("pg_url"))
        yield pg
        await pg.close()
        return
    s = SqliteTableStore(tmp_path / "tables.sqlite3") if request.param == "sqlite" \
        else MemoryTableStore()
    yield s
    await s.close()


async def test_a_rated_result_and_its_rating_are_kept_once(store):
    first = await store.record_result(result(1))
    assert first.new and [c.identity for c in first.changes] == [ANN, BEN]
    ann, ben = first.changes
    assert ann.before == NEW == ben.before and ann.after.mu > ben.after.mu
    again = await store.record_result(result(1))  # told twice: a restart, a reconnect
    assert not again.new and again.changes == first.changes
    held = await store.ratings_of("cellulis-bellum", [ANN, BEN, CY])
    assert held == {ANN: ann.after, BEN: ben.after} and held[ANN].games == 1
    kept = await store.finished_game(result(1).game_id)
    assert kept == result(1) and kept.chat[0].text == "gg" and kept.record == b"rec"
    assert await store.finished_game("nope") is None


async def test_unrated_results_count_in_records_only(store):
    casual = await store.record_result(result(1, rated=False))
    assert casual.new and casual.changes == ()
    with_bot = result(2, ANN, "", kinds=("human", "bot"))
    assert rating_problem(get_game("cellulis-bellum"), with_bot.seats)
    assert (await store.record_result(with_bot)).changes == ()  # a bot: never rated
    coop = await store.record_result(result(3, winner=None, game="infection"))
    assert coop.changes == ()
    assert await store.ratings_of("cellulis-bellum", [ANN]) == {}
    profile = await store.profile(ANN)
    assert profile is not None and profile.ratings == ()
    records = {r.game: r for r in profile.records}
    assert (records["cellulis-bellum"].played, records["cellulis-bellum"].won) == (2, 2)
    assert records["cellulis-bellum"].best_score == 10.0
    assert records["cellulis-bellum"].fewest_moves == 21
    assert (records["infection"].won, records["infection"].tied) == (1, 0)  # a team win
    assert [g.game_id for g in profile.recent] == [result(n).game_id for n in (3, 2, 1)]
    assert profile.recent[1].seats[1].bot == "normal"  # a bot shows its level


async def test_a_players_last_games_newest_first_one_line_each(store):
    for n, finished in ((1, 10.0), (2, 30.0), (3, 20.0)):
        await store.record_result(result(n, rated=False, finished=finished))
    await store.record_result(result(4, ANN, ANN, rated=False, finished=40.0))  # two seats
    await store.record_result(result(5, BEN, CY, rated=False, finished=50.0))  # not ann's
    assert await store.game_ids_of(ANN) == [result(n).game_id for n in (4, 2, 3, 1)]
    assert await store.game_ids_of(ANN, limit=2) == [result(n).game_id for n in (4, 2)]
    assert await store.game_ids_of("key:SHA256:nobody") == []


async def test_leaderboard_established_players_first_and_your_place(store):
    n = 0
    for _ in range(20):  # ann and ben settle (ann ahead); cy plays once and wins
        n += 1
        await store.record_result(result(n, ANN, BEN, winner=0 if n % 3 else 1))
    n += 1
    await store.record_result(result(n, CY, BEN, winner=0))
    board = await store.leaderboard("cellulis-bellum", you=CY)
    assert [row.name for row in board.rows] == ["ann", "ben", "cy"]
    assert [row.place for row in board.rows] == [1, 2, 3]
    assert not board.rows[0].rating.provisional and board.rows[2].rating.provisional
    assert board.rows[2].rating.mu > board.rows[1].rating.mu  # a lucky start: still below ben
    assert board.players == 3 and board.you is not None and board.you.place == 3
    assert (await store.leaderboard("cellulis-bellum", top=1)).rows[0].name == "ann"
    assert (await store.leaderboard("virus-fight", you=ANN)) .you is None
    profile = await store.profile(CY)
    assert profile is not None and profile.name == "cy"
    assert [(g, place) for g, _, place in profile.ratings] == [("cellulis-bellum", 3)]
    assert profile.recent[0].change.startswith("+")
    ben = await store.profile(BEN)
    assert ben is not None and ben.ratings[0][1].sigma <= PROVISIONAL_SIGMA
    assert ben.recent[0].change.startswith("-") and len(ben.recent) == 10


async def test_a_result_from_a_finished_match():
    game = get_game("toy-race")
    match = Match(game, game.options_type(players=2), [Seat(name="ann"), Seat(name="ben")], 5)
    rng = random.Random(5)
    while not match.is_over():
        seat = match.to_act()[0]
        match.play(seat, rng.choice(list(match.legal_actions(seat))))
    seats = [ResultSeat(identity=ANN, name="ann"), ResultSeat(identity=BEN, name="ben")]
    made = make_result("ABCD", match, seats, rated=True, chat=[ChatLine(1.0, 0, "ann", "hi")])
    assert made.rated and made.game_id == f"ABCD-{5:016x}" and made.record
    assert {s.place for s in made.seats} == {1, 2} and made.winners
    assert made.text.split()[0] in ("ann", "ben")
    guests = [ResultSeat(identity="guest:x", name="ann"), seats[1]]
    assert not make_result("ABCD", match, guests, rated=True).rated
    twice = [seats[0], seats[0]]
    assert "one seat" in rating_problem(game, twice)


def test_a_crash_inside_the_transaction_keeps_nothing_then_exactly_once(tmp_path):
    """The server dies (os._exit) after the result's rows are written and before its ratings:
    after the restart nothing of it is kept, and telling it again rates it once."""
    path = tmp_path / "tables.sqlite3"
    script = textwrap.dedent(f"""
        import os, sys
        sys.path.insert(0, {str(Path(__file__).resolve().parents[2])!r})
        from cellwars_tui.online import league_sqlite
        from cellwars_tui.online.store import SqliteTableStore
        from tests.online.test_league_store import result

        store = SqliteTableStore({str(path)!r})
        def die(*args):
            os._exit(9)  # the process dies here: kill -9 in the middle of the transaction
        league_sqlite.rate_result = die
        store.record_result_now(result(1))
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=60)
    assert done.returncode == 9, done.stderr.decode()
    store = SqliteTableStore(path)
    try:
        assert store.db.execute("SELECT COUNT(*) FROM results").fetchone() == (0,)
        assert store.db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        kept = store.record_result_now(result(1))
        assert kept.new and len(kept.changes) == 2
        assert not store.record_result_now(result(1)).new
        assert store.db.execute("SELECT COUNT(*), SUM(games) FROM ratings").fetchone() == (2, 2)
    finally:
        asyncio.run(store.close())


# -- the same contract on PostgreSQL (a real server, tests/postgres.py) --------------------------
@pytest.fixture
async def pg_store(pg_url):
    from cellwars_tui.online.pg.store import PostgresTableStore

    store = await PostgresTableStore.open(pg_url)
    yield store
    await store.close()


async def test_postgres_keeps_a_rated_result_once_and_answers_as_sqlite(pg_store, tmp_path):
    sqlite = SqliteTableStore(tmp_path / "tables.sqlite3")
    try:
        for store in (pg_store, sqlite):
            for n in range(1, 13):
                await store.record_result(result(n, ANN, BEN, winner=0 if n % 3 else 1))
            await store.record_result(result(13, CY, BEN, winner=None))  # a tie
            await store.record_result(result(14, ANN, "", kinds=("human", "bot")))
            again = await store.record_result(result(5, ANN, BEN, winner=0))
            assert not again.new and len(again.changes) == 2
        for you in (ANN, CY, "key:nobody"):
            assert await pg_store.leaderboard("cellulis-bellum", you=you) == \
                await sqlite.leaderboard("cellulis-bellum", you=you)
            assert await pg_store.profile(you) == await sqlite.profile(you)
        assert await pg_store.ratings_of("cellulis-bellum", [ANN, CY, "x"]) == \
            await sqlite.ratings_of("cellulis-bellum", [ANN, CY, "x"])
        assert await pg_store.finished_game(result(13).game_id) == result(13, CY, BEN, None)
    finally:
        await sqlite.close()


async def test_postgres_two_servers_telling_one_result_at_once_rate_it_once(pg_url):
    import asyncio

    from cellwars_tui.online.pg.store import PostgresTableStore

    a, b = await PostgresTableStore.open(pg_url), await PostgresTableStore.open(pg_url)
    try:
        done = await asyncio.gather(*(s.record_result(result(n)) for n in (1, 2, 3)
                                      for s in (a, b)))
        assert sorted(d.new for d in done) == [False] * 3 + [True] * 3
        held = await a.ratings_of("cellulis-bellum", [ANN])
        assert held[ANN].games == 3
    finally:
        await a.close()
        await b.close()
