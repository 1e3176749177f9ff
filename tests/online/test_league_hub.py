"""The hub's league (online/hub_league.py): rated or casual tables, a result and its rating
update kept exactly once whatever stops the server around the game's end, leaderboards and
profiles asked over the protocol, and rematches. Chat is in test_league_chat.py."""

from __future__ import annotations

import asyncio

import msgspec

from cellwars_tui.online import protocol as p
from cellwars_tui.online.client import HubClient
from cellwars_tui.online.hub import Hub
from cellwars_tui.online.store import SqliteTableStore, StoreError

from .test_hub import join, table_where, watch_then_sit

ANN, BEN = "key:ann", "key:ben"


def a_hub(tmp_path, store=None) -> Hub:
    return Hub(tmp_path / "tables",
               store=store or SqliteTableStore(tmp_path / "tables.sqlite3"), sweep_interval=3600)


async def next_of(client: HubClient, kind, pred=lambda m: True):
    while True:
        msg = await client.next((kind, p.Error))
        if isinstance(msg, p.Error) and kind is not p.Error:
            raise AssertionError(msg.message)
        if pred(msg):
            return msg


async def refused(client: HubClient) -> str:
    return (await client.next(p.Error)).message


async def rated_pair(hub: Hub, game: str = "secret-pick", rated: bool = True):
    ann = await join(hub, ANN, "ann")
    ben = await join(hub, BEN, "ben")
    ann.send(p.CreateTable(game=game, players=2, rated=rated))
    state = await table_where(ann, lambda t: t.you == 0)
    assert state.info.rated is rated
    await watch_then_sit(ben, state.info.code, 1)
    await table_where(ben, lambda t: t.you == 1)
    return ann, ben, state.info.code


async def play_secret(ann: HubClient, ben: HubClient, a: int = 2, b: int = 1) -> None:
    ann.send(p.Start())
    await table_where(ben, lambda t: bool(t.view))
    ann.send(p.Play(step=0, action=f"pick{a}"))
    state = await table_where(ben, lambda t: t.step == 1)
    ben.send(p.Play(step=state.step, action=f"pick{b}"))


async def test_a_rated_game_is_rated_once_and_shows_on_the_board_and_profiles(tmp_path):
    hub = a_hub(tmp_path)
    await hub.start()
    ann, ben, code = await rated_pair(hub)
    await table_where(ann, lambda t: t.ratings == ("1500?", "1500?"))  # new: provisional
    await play_secret(ann, ben)
    over = await table_where(ann, lambda t: bool(t.changes))
    assert over.changes[0].startswith("+") and over.changes[1].startswith("-")
    assert over.game_id and all(r.endswith("?") for r in over.ratings)
    ann.send(p.AskLeaderboard(game="secret-pick"))
    board = (await next_of(ann, p.LeaderboardView)).board
    assert [r.name for r in board.rows] == ["ann", "ben"] and board.you.place == 1
    ben.send(p.AskProfile(seat=0))  # by seat at the table: ann's profile
    prof = (await next_of(ben, p.ProfileView)).profile
    assert prof.name == "ann" and prof.ratings[0][1].games == 1
    assert prof.records[0].won == 1 and prof.records[0].best_seconds > 0  # (a "best time")
    assert prof.recent[0].game_id == over.game_id and prof.recent[0].change == over.changes[0]
    ben.send(p.AskGame(game_id=over.game_id))
    kept = (await next_of(ben, p.FinishedGame)).result
    assert kept.rated and kept.winners == (0,) and kept.record
    for c in (ann, ben):
        await c.close()
    await hub.close()

    again = a_hub(tmp_path)  # a restart: the table comes back over; nothing is rated again
    await again.start()
    try:
        assert again.tables[code].league.result_kept
        ratings = await again.store.ratings_of("secret-pick", [ANN, BEN])
        assert ratings[ANN].games == 1 and ratings[BEN].games == 1
        ann = await join(again, ANN, "ann")
        ann.send(p.Join(code=code))
        back = await table_where(ann, lambda t: t.outcome is not None)
        assert back.changes == over.changes
        await ann.close()
    finally:
        await again.close()


async def test_a_crash_after_the_result_but_before_the_table_knew_rates_once(tmp_path):
    hub = a_hub(tmp_path)
    await hub.start()
    ann, ben, code = await rated_pair(hub)
    await play_secret(ann, ben)
    over = await table_where(ann, lambda t: bool(t.changes))
    for c in (ann, ben):
        await c.close()
    await hub.close()
    # the server died after the result's transaction, before the table was saved as knowing it
    store = SqliteTableStore(tmp_path / "tables.sqlite3")
    stored = await store.fetch(code)
    assert stored is not None and stored.league is not None and stored.league.result_kept
    league = msgspec.structs.replace(stored.league, result_kept=False, changes=())
    await store.save(msgspec.structs.replace(stored, league=league, version=stored.version + 1))
    await store.close()

    again = a_hub(tmp_path)
    await again.start()
    try:
        ann = await join(again, ANN, "ann")
        ann.send(p.Join(code=code))
        back = await table_where(ann, lambda t: bool(t.changes))
        assert back.changes == over.changes  # the changes the first time made, told again
        ratings = await again.store.ratings_of("secret-pick", [ANN, BEN])
        assert ratings[ANN].games == 1 and ratings[BEN].games == 1
        await ann.close()
    finally:
        await again.close()


class FailingResults(SqliteTableStore):
    """A store that dies as a result is kept (before its transaction commits)."""

    async def record_result(self, result):
        raise StoreError("disk I/O error")


async def test_a_crash_before_the_result_is_kept_rates_it_after_the_restart(tmp_path):
    hub = a_hub(tmp_path, FailingResults(tmp_path / "tables.sqlite3"))
    await hub.start()
    ann, ben, code = await rated_pair(hub)
    await play_secret(ann, ben)
    await table_where(ann, lambda t: t.outcome is not None and bool(t.record))
    for c in (ann, ben):
        await c.close()
    while hub.tables[code].watchers:
        await asyncio.sleep(0.01)
    hub.sweep(hub.clock() + 1e6)  # nobody at it for long: kept while its result is not
    assert code in hub.tables
    await hub.close()
    assert not hub.tables[code].league.result_kept

    again = a_hub(tmp_path)
    await again.start()
    try:
        await again.league.close()  # the result told again at the restart is kept
        assert again.tables[code].league.result_kept
        ratings = await again.store.ratings_of("secret-pick", [ANN, BEN])
        assert ratings[ANN].games == 1 and ratings[ANN].mu > ratings[BEN].mu
    finally:
        await again.close()


async def test_a_rated_table_seats_keyed_players_once_each_and_no_bots(tmp_path):
    hub = a_hub(tmp_path)
    await hub.start()
    ann = await join(hub, ANN, "ann")
    ann.send(p.CreateTable(game="infection", players=2, rated=True))
    assert "cooperative" in await refused(ann)
    ann.send(p.CreateTable(game="secret-pick", players=2, rated=True))
    code = (await table_where(ann, lambda t: t.you == 0)).info.code
    ann.send(p.SetBot(seat=1, bot="normal"))
    assert "bots play at casual tables only" in await refused(ann)
    guest = await join(hub, "guest")
    guest.send(p.SetName(name="gus"))
    await guest.next(p.Welcome)
    await watch_then_sit(guest, code, 1)
    assert "SSH key" in await refused(guest)
    # a second key from the same network address: one player, one seat
    hub.admit("t-ann2", "key:ann2", "ann2", "203.0.113.7")
    for c in list(hub.clients):
        if c.identity == ANN:
            c.address = "203.0.113.7"
    twin = HubClient(str(hub.socket_path), "t-ann2")
    await twin.connect()
    await twin.next(p.Lobby)
    await watch_then_sit(twin, code, 1)
    assert "one player, one seat" in await refused(twin)
    ann.send(p.Start())
    assert "fill every seat" in await refused(ann)
    for c in (ann, guest, twin):
        await c.close()
    await hub.close()


async def test_the_host_sends_a_player_away_from_a_casual_open_table_only(tmp_path):
    hub = a_hub(tmp_path)
    await hub.start()
    ann, ben, code = await rated_pair(hub, rated=False)
    ben.send(p.Remove(seat=0))
    assert "only the table's host" in await refused(ben)
    ann.send(p.Remove(seat=1))
    left = await next_of(ben, p.Left)
    assert "sent you away" in left.reason
    state = await table_where(ann, lambda t: any("sent away" in x.text for x in t.log))
    assert state.info.seats[1].kind == "free"
    assert state.log[-1].text == "ben was sent away by the host."
    await watch_then_sit(ben, code, 1)  # they may watch
    assert "sent you away" in await refused(ben)
    cy = await join(hub, "key:cy", "cy")
    cy.send(p.Join(code=code))
    cy.send(p.Sit(seat=1))
    await table_where(cy, lambda t: t.you == 1)
    ann.send(p.Start())
    await table_where(cy, lambda t: bool(t.view))
    ann.send(p.Remove(seat=1))
    assert "the game has started" in await refused(ann)
    for c in (ann, ben, cy):
        await c.close()
    await hub.close()


async def test_a_rematch_starts_when_every_player_accepts_with_seats_rotated(tmp_path):
    hub = a_hub(tmp_path)
    await hub.start()
    ann, ben, code = await rated_pair(hub)
    ann.send(p.Rematch())
    assert "once the game is over" in await refused(ann)
    await play_secret(ann, ben)
    await table_where(ann, lambda t: bool(t.changes))
    ann.send(p.Rematch())
    offer = await table_where(ben, lambda t: t.rematch == (0,))
    assert "ann offers a rematch: r accepts." in [line.text for line in offer.log]
    ben.send(p.Rematch())
    new = await table_where(ann, lambda t: t.info.code != code and bool(t.view))
    assert [s.name for s in new.info.seats] == ["ben", "ann"] and new.you == 1
    assert new.info.rated and new.info.status == "playing"
    await table_where(ben, lambda t: t.info.code == new.info.code and t.you == 0)
    assert hub.tables[code].league.rematch_code == new.info.code
    for c in (ann, ben):
        await c.close()
    await hub.close()


async def test_a_casual_game_with_a_bot_is_kept_unrated_in_the_players_record(tmp_path):
    hub = a_hub(tmp_path)
    await hub.start()
    ann = await join(hub, ANN, "ann")
    ann.send(p.CreateTable(game="secret-pick", players=2))
    await table_where(ann, lambda t: t.you == 0)
    ann.send(p.SetBot(seat=1, bot="random"))
    await table_where(ann, lambda t: t.info.seats[1].kind == "bot")
    ann.send(p.Start())
    state = await table_where(ann, lambda t: bool(t.legal))
    ann.send(p.Play(step=state.step, action="pick2"))
    over = await table_where(ann, lambda t: t.outcome is not None and not t.changes)
    await hub.league.close()
    ann.send(p.AskProfile(identity=ANN))
    prof = (await next_of(ann, p.ProfileView)).profile
    assert prof.ratings == () and prof.records[0].played == 1
    assert prof.recent[0].game_id == over.game_id and not prof.recent[0].rated
    assert prof.recent[0].seats[1].bot == "random"
    ann.send(p.AskProfile(seat=1))
    bot = await next_of(ann, p.ProfileView)
    assert bot.bot == "random" and bot.profile is None
    await ann.close()
    await hub.close()


async def test_a_solitaire_played_at_the_server_counts_in_the_record(tmp_path):
    hub = a_hub(tmp_path)
    await hub.start()
    ann = await join(hub, ANN, "ann")
    ann.send(p.CreateTable(game="cell-management", players=1, rated=True))
    assert "solitaire" in await refused(ann)  # never rated
    ann.send(p.CreateTable(game="cell-management", players=1))
    await table_where(ann, lambda t: t.you == 0)
    ann.send(p.Start())
    state = await table_where(ann, lambda t: bool(t.legal))
    assert state.info.status == "playing" and not state.info.rated
    await ann.close()
    await hub.close()


async def test_on_the_postgresql_store_a_rated_game_is_rated_once_across_a_restart(tmp_path,
                                                                                    pg_url):
    from cellwars_tui.online.pg.store import PostgresTableStore

    hub = a_hub(tmp_path, await PostgresTableStore.open(pg_url))
    await hub.start()
    ann, ben, code = await rated_pair(hub)
    await play_secret(ann, ben)
    over = await table_where(ann, lambda t: bool(t.changes))
    for c in (ann, ben):
        await c.close()
    await hub.close()

    again = a_hub(tmp_path, await PostgresTableStore.open(pg_url))
    await again.start()
    try:
        assert again.tables[code].league.result_kept
        again.tables[code].league.result_kept = False  # as if the table never heard back
        again.league.game_over(again.tables[code])  # told again: kept once all the same
        await again.league.close()
        board = await again.store.leaderboard("secret-pick", you=ANN)
        assert board.you.place == 1 and board.you.rating.games == 1 and board.players == 2
        kept = await again.store.finished_game(over.game_id)
        assert kept is not None and kept.rated
    finally:
        await again.close()
