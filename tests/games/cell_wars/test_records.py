"""Records are forever: games recorded by earlier Cell Wars rules replay to the same final state.

``data/edition1/`` holds records written by the first edition of the rules (rules version 1,
before the balance of issue 15): all-random games for every player count, among them games in
which a cancer cell kept a stale solidification count (seeds 70, 176, 268, 320), games at 4, 12
and 21 starting cancer tiles, and greedy-policy games. ``data/edition2/`` holds records written by
the second edition (rules version 2): random, greedy and search-bot games for 2 to 6 players, at
4, 5, 7 and 9 starting cancer tiles, one with a relapse. ``data/edition3/`` holds records written by
the third edition (rules version 3): random, greedy and search-bot games for 2 to 6 players, at 4,
5, 7 and 9 starting cancer tiles, wins for either camp, one with a relapse, most with Balanced diet
played (its effect changed in the fourth edition). ``data/edition4/`` holds records written by the
fourth edition (rules version 4): random, greedy and search-bot games for 2 to 6 players, at 4, 5,
7 and 9 starting cancer tiles, wins for either camp, two with a relapse, and five four-player
games led by the fourth edition's seats (the fifth edition hands Cancer gamma to another player).
``data/edition5/`` holds records written by the fifth edition (rules version 5, before the ready
layouts of issue 29): random, greedy and search-bot games for 2 to 6 players, at 4, 5, 7 and 9
starting cancer tiles, wins for either camp and ties, three with a relapse, every one set up by
hand (a record of rules version 5 or earlier never has a ready layout).
Each ``NAME.final.json`` is the final
state as that code saw it; every field it has must come back the same (fields added later are
extra).
"""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from cellwars_tui.record import decode_record, record_to_match

DATA = Path(__file__).parent / "data"
EDITIONS = {1: sorted((DATA / "edition1").glob("*.cellwars.json")),
            2: sorted((DATA / "edition2").glob("*.cellwars.json")),
            3: sorted((DATA / "edition3").glob("*.cellwars.json")),
            4: sorted((DATA / "edition4").glob("*.cellwars.json")),
            5: sorted((DATA / "edition5").glob("*.cellwars.json"))}
RECORDS = [path for paths in EDITIONS.values() for path in paths]


def _same(old, new, where="state"):
    """Every part of ``old`` is in ``new`` with the same value (``new`` may have more fields)."""
    if isinstance(old, dict):
        assert isinstance(new, dict), where
        for key, value in old.items():
            assert key in new, f"{where}.{key} is gone"
            _same(value, new[key], f"{where}.{key}")
    elif isinstance(old, list):
        assert isinstance(new, list) and len(new) >= len(old), where
        for i, value in enumerate(old):
            _same(value, new[i], f"{where}[{i}]")
    else:
        assert old == new, f"{where}: {old!r} then, {new!r} now"


def test_the_records_of_each_edition_are_all_there():
    assert len(EDITIONS[1]) >= 12 and len(EDITIONS[2]) >= 13 and len(EDITIONS[3]) >= 15
    assert len(EDITIONS[4]) >= 16 and len(EDITIONS[5]) >= 15


@pytest.mark.parametrize("path", RECORDS,
                         ids=lambda p: f"{p.parent.name}-{p.name.removesuffix('.cellwars.json')}")
def test_an_older_record_replays_to_the_same_final_state(path):
    record = decode_record(path.read_bytes(), path)
    edition = int(path.parent.name.removeprefix("edition"))
    assert record.header.rules_version == edition
    match = record_to_match(record, path)
    assert match.state.edition == edition
    assert match.record_problem is None and match.cursor == len(record.steps)
    final = json.loads(path.with_name(path.name.replace(".cellwars.json", ".final.json")).read_text())
    _same(final, json.loads(msgspec.json.encode(match.state)))
