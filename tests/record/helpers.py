"""Records for the record and replay tests: long toy races, and records in the format before
sealed records."""

from __future__ import annotations

import msgspec

from cellwars_tui.core import Match, Seat
from cellwars_tui.record import match_to_record
from tests.toy_game import TOY, Roll


def rolling(seed: int = 1, decisions: int = 60) -> Match:
    """A toy race where nobody ever holds: it never ends, so it is as long as we like (every
    decision is followed by a die roll, a chance step)."""
    m = Match(TOY, TOY.options_type(players=2), [Seat(name="Ann"), Seat(name="Bob")], seed)
    for i in range(decisions):
        m.play(m.to_act()[0], Roll(), t=float(i))
    return m


def old_format_bytes(m: Match) -> bytes:
    """A record as the app wrote it before sealed records: no digest, no snapshots."""
    header = msgspec.to_builtins(match_to_record(m).header)
    steps = [[s.seat, msgspec.json.decode(TOY.encode_action(s.action)), s.t] for s in m.history]
    return msgspec.json.encode({"format_version": 1, "header": header, "steps": steps})
