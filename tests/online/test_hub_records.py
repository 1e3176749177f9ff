"""A keyed player's finished online games brought into their saved games from the league store
(online/hub_records.py): the missing ones, dated when they ended, never twice (a game there under
another name counts), and a game the player deleted does not come back."""

from __future__ import annotations

import random

from cellwars_tui.core.match import Match, Seat
from cellwars_tui.core.registry import get_game
from cellwars_tui.online.hub_records import (
    DELIVERED, deliver, has_game, record_file_name, save_for_player,
)
from cellwars_tui.online.league import ResultSeat, make_result
from cellwars_tui.online.store import MemoryTableStore
from cellwars_tui.record.format import SUFFIX, read_record_file

from .. import toy_game  # noqa: F401  (registers toy-race)

ANN = "key:SHA256:ann"


def finished(code: str, seed: int, when: float):
    game = get_game("toy-race")
    match = Match(game, game.options_type(players=2), [Seat(name="ann"), Seat(name="ben")], seed)
    rng = random.Random(seed)
    while not match.is_over():
        seat = match.to_act()[0]
        match.play(seat, rng.choice(list(match.legal_actions(seat))))
    seats = [ResultSeat(identity=ANN, name="ann"), ResultSeat(identity="", name="ben",
                                                                 kind="bot", bot="easy")]
    return make_result(code, match, seats, rated=False, finished_at=when)


async def test_a_players_games_are_brought_in_once_and_a_deleted_one_stays_deleted(tmp_path):
    store = MemoryTableStore()
    games = tmp_path / "data" / "games"
    one, two, three = (finished(c, s, w) for c, s, w in
                       (("ABCD", 1, 1.7e9), ("EFGH", 2, 1.7e9 + 60), ("ABCD", 3, 1.7e9 + 120)))
    for result in (one, two, three):
        await store.record_result(result)
    # the owner wrote game two here under a name of its own (its stamp: when it wrote it)
    assert save_for_player(games, two.game_id, f"toy-race-20990101-000000-EFGH{SUFFIX}",
                           two.record)
    assert await deliver(store, ANN, tmp_path) == 2  # one and three (same code, not the same)
    files = sorted(games.glob(f"*{SUFFIX}"))
    assert len(files) == 3 and {read_record_file(f).header.seed for f in files} == {1, 2, 3}
    first = games / record_file_name("toy-race", "ABCD", one.finished_at)
    assert first.stat().st_mtime == one.finished_at  # listed when it ended, not when it came
    assert await deliver(store, ANN, tmp_path) == 0  # nothing twice
    first.unlink()  # the player deletes it from their saved games: it stays deleted
    assert await deliver(store, ANN, tmp_path) == 0 and not has_game(games, one.game_id)
    assert await deliver(store, ANN, tmp_path, limit=1) == 0
    (games / DELIVERED).write_bytes(b"\xff junk ../../x\n")  # a damaged list: read as it is
    assert await deliver(store, ANN, tmp_path) == 1 and has_game(games, one.game_id)
    assert not has_game(games, "../ABCD-0000000000000001") and not has_game(games, "")
    assert await deliver(store, "key:SHA256:nobody", tmp_path) == 0
    await store.close()
