"""One owner for every job (issue 30): the table authority is the only code that plays a move
into a match, the one log builder the only code that writes a log's sentences, and the
authority the only turn-based bot loop (no screen thinks for a bot)."""

from __future__ import annotations

import re
from pathlib import Path

import cellwars_tui

ROOT = Path(cellwars_tui.__file__).parent
# a match under any name a file gives it: match, m, self._match, table.match, Match (unbound)
PLAY = re.compile(r"(?:\b|_)(?:[Mm]atch\w*|m)\.play\(")
DESCRIBE = re.compile(r"\.(?:describe_event|view_event)\(")

# Files that build a match without a table, each with why: no front end plays through them.
NO_TABLE = {
    "learn/run.py": "a lesson's play-through check, before anyone plays it",
    "bench/core.py": "benchmark positions",
    "bench/analysis.py": "benchmark records",
    "bench/replay.py": "benchmark records",
    "bench/games/cell_wars_screen.py": "benchmark positions",
}


def sources() -> dict[str, str]:
    return {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in ROOT.rglob("*.py")}


def test_only_the_table_authority_plays_a_move_into_a_match():
    found = {name for name, text in sources().items() if PLAY.search(text)}
    assert found - set(NO_TABLE) == {"table/authority.py"}
    assert set(NO_TABLE) <= found  # (a listed file that no longer does it leaves the list)


def test_the_grep_sees_a_match_played_under_any_name():
    for line in ("match.play(0, a)", "m.play(s, a)", "self._match.play(0, a)",
                 "self.table.match.play(seat, action)", "Match.play(m, 0, a)", "match_.play(0, a)"):
        assert PLAY.search(line), line
    for line in ("self.play(action)", "M.play(state, Done())", "self.play.play(client, t, 1, 'x')"):
        assert not PLAY.search(line), line


def test_one_log_builder_writes_every_tables_sentences():
    """Games describe their own events (their ``describe_event`` hooks); tables, the replay and
    the hub read them through table/log.py only, with its one guard."""
    callers = {name for name, text in sources().items()
               if DESCRIBE.search(text) and not name.startswith("games/")}
    assert callers == {"table/log.py", "online/game.py"}  # (the hub's check that a secret move
    # left a seat's view unchanged asks view_event whether that seat may read an event)
    text = sources()["online/game.py"]
    assert "describe_event" not in text


def test_one_turn_based_bot_loop():
    screens = [name for name, text in sources().items()
               if name.startswith(("ui/", "games/", "ssh/")) and "bot_step(" in text]
    assert not screens  # the authority's start_bots() runs them for every front end
