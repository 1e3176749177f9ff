"""Records are forever: Virus Fight games recorded under rules version 1 (every game stopped at 50
rounds) replay to the same final state, and the round limit of version 2 (50 rounds for each
rival) is the default of new games only.

``data/rules1/`` holds records written by rules version 1 for two, three and four players
(random and search bots): games won by the last program running, stalemates agreed, and
stalemates at the 50-round limit, four of them at three or four players, where version 2 would
have played on. Each ``NAME.final.json`` is the final state as that code saw it.
"""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from cellwars_tui.core import BadOptions
from cellwars_tui.games.virus_fight import clarifications as C
from cellwars_tui.games.virus_fight.rules import GAME, VirusFightOptions
from cellwars_tui.record import decode_record, encode_record, record_to_match

DATA = Path(__file__).parent / "data" / "rules1"
RECORDS = sorted(DATA.glob("*.cellwars.json"))


def test_the_records_of_rules_version_1_are_all_there():
    names = [p.name for p in RECORDS]
    assert len(names) >= 15
    for players in (3, 4):
        assert any(f"-{players}p-" in n and n.endswith("-limit.cellwars.json") for n in names)


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name.removesuffix(".cellwars.json"))
def test_a_rules_version_1_record_replays_to_the_same_final_state(path):
    record = decode_record(path.read_bytes(), path)
    assert record.header.rules_version == 1 < GAME.rules_version
    match = record_to_match(record, path)
    assert match.record_problem is None and match.cursor == len(record.steps)
    final = json.loads(path.with_name(path.name.replace(".cellwars.json", ".final.json"))
                       .read_text())
    assert json.loads(msgspec.json.encode(match.state)) == final
    assert match.state.round_limit == 50 and match.is_over()
    assert list(match.outcome().winners) == list(record.header.result.winners)


def test_a_rules_version_1_record_without_its_limit_still_stops_at_50_rounds():
    path = next(p for p in RECORDS if "search-4p" in p.name and p.name.endswith("-limit."
                                                                                 "cellwars.json"))
    record = decode_record(path.read_bytes(), path)
    bare = msgspec.structs.replace(record.header, options={"players": 4})
    old = msgspec.structs.replace(record, header=bare, digest="")
    match = record_to_match(decode_record(encode_record(old)), path)
    assert match.state.round_limit == 50 and match.state.round == 50 and match.is_over()


@pytest.mark.parametrize("players, limit", [(2, 50), (3, 100), (4, 150)])
def test_new_games_have_50_rounds_for_each_rival(players, limit):
    assert GAME.initial_state(VirusFightOptions(players=players)).round_limit == limit
    assert C.round_limit(players) == limit


def test_the_limit_may_be_set_per_rival_or_fixed():
    s = GAME.initial_state(VirusFightOptions(players=3, rounds_per_rival=20))
    assert s.round_limit == 40
    s = GAME.initial_state(VirusFightOptions(players=4, rounds_per_rival=20, round_limit=30))
    assert s.round_limit == 30
    with pytest.raises(BadOptions, match="rounds_per_rival must make a round limit of 5 to 500"):
        GAME.check_options(VirusFightOptions(players=4, rounds_per_rival=200))
    with pytest.raises(BadOptions, match="round_limit must be 5 to 500"):
        GAME.check_options(VirusFightOptions(players=2, round_limit=3))
    # the dialog asks for the rounds per rival; a fixed limit is for records and -o round_limit
    assert "round_limit" in GAME.hidden_options
