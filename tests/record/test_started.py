"""A record's ``started`` is when the game began: set when the match is made, kept by every save
(and by a load and a save again), so the Replays page lists games by when they began."""

from __future__ import annotations

import os

from cellwars_tui.record import format as record_format
from cellwars_tui.record.format import load_match, read_record_file, save_match
from cellwars_tui.record.store import autosave
from cellwars_tui.replay.catalog import rows
from tests.replay.helpers import toy_match
from tests.toy_game import Hold

LATER = "2099-01-01T00:00:00+00:00"


def test_saving_twice_keeps_the_games_start(monkeypatch):
    match = toy_match(3, 4)
    began = match.started
    monkeypatch.setattr(record_format, "now_iso", lambda: LATER)  # every save happens "later"
    path = autosave(match)
    assert read_record_file(path).header.started == began
    match.play(match.to_act()[0], Hold())
    autosave(match)
    assert read_record_file(path).header.started == began != LATER
    # a resumed game keeps it too
    again = load_match(path)
    assert again.started == began and again.path == path
    again.play(again.to_act()[0], Hold())
    autosave(again)
    assert read_record_file(path).header.started == began


def test_the_replays_page_lists_games_by_when_they_began(tmp_path):
    first, second = toy_match(1, 10), toy_match(2, 10)
    first.started, second.started = "2030-01-01T10:00:00+00:00", "2030-01-02T10:00:00+00:00"
    a, b = tmp_path / "a.cellwars.json", tmp_path / "b.cellwars.json"
    save_match(second, b)
    save_match(first, a)  # the older game was saved last
    os.utime(b, (1, 1))
    listed, problems = rows(tmp_path)
    assert not problems and [r.path for r in listed] == [b, a]
