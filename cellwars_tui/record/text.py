"""Plain-text move lists: export a record as readable text, and import it back.

The format is a few ``# key: value`` header lines followed by one numbered line per step::

    # cellwars move list
    # game: virus-fight
    # rules-version: 1
    # options: {"players":2}
    # seats: [{"name":"Ann","kind":"human"},{"name":"Bot","kind":"bot","bot":"mcts"}]
    # seed: 42
    # started: 2026-11-22T20:00:00+00:00
    1. Ann (12.5s): move a3-b3 / marker b3
    2. chance: first-player 1

Each action is written with the game's own notation (``Game.action_to_str``), so the same
parser the tests use reads it back. Importing a list replays it through the rules: a list that
goes bad part-way raises :class:`RecordError` naming the line.
"""

from __future__ import annotations

import json
import re

import msgspec

from ..core.api import CHANCE
from ..core.errors import BadNotation, CellwarsError, IllegalAction, RecordError
from ..core.match import Match, Seat, Step
from ..core.registry import get_game
from .format import now_iso

MAGIC = "# cellwars move list"
_LINE = re.compile(r"^\s*(\d+)\.\s+(.*?)(?:\s+\(([\d.]+)s\))?:\s+(.+?)\s*$")


def export_text(match: Match) -> str:
    game = match.game
    lines = [
        MAGIC,
        f"# game: {game.id}",
        f"# rules-version: {game.rules_version}",
        f"# options: {msgspec.json.encode(match.options).decode()}",
        f"# seats: {msgspec.json.encode(list(match.seats)).decode()}",
        f"# seed: {match.seed}",
        f"# started: {match.started or now_iso()}",
    ]
    outcome = match.outcome()
    if outcome is not None:  # in the words a replay uses (import reads no result: it replays)
        names = [s.name or game.seat_label(i) for i, s in enumerate(match.seats)]
        lines.append(f"# result: {outcome.text(names, team=game.meta.cooperative)}")
    for i, step in enumerate(match.history, 1):
        who = "chance" if step.seat == CHANCE else _seat_word(match, step.seat)
        lines.append(f"{i}. {who} ({step.t:g}s): {game.action_to_str(step.action)}")
    return "\n".join(lines) + "\n"


def _seat_word(match: Match, seat: int) -> str:
    return f"seat{seat + 1}"


def import_text(text: str, path: object = "<move list>") -> Match:
    lines = text.splitlines()
    if not lines or lines[0].strip() != MAGIC:
        raise RecordError(path, f"not a cellwars move list (first line must be {MAGIC!r})")
    header: dict[str, str] = {}
    body_start = len(lines)
    for n, line in enumerate(lines[1:], 2):
        if line.startswith("#"):
            key, sep, value = line[1:].partition(":")
            if sep:
                header[key.strip()] = value.strip()
            continue
        body_start = n - 1
        break
    for key in ("game", "options", "seats", "seed"):
        if key not in header:
            raise RecordError(path, f"the header has no '# {key}:' line")
    try:
        game = get_game(header["game"])
        # a list without the line predates rules versions: version 1
        rules_version = int(header.get("rules-version", "1"))
        if rules_version > game.rules_version:
            raise RecordError(path, f"made with newer {game.title} rules (version {rules_version})")
        options = game.options_from_record(json.loads(header["options"]), rules_version)
        seats = msgspec.convert(json.loads(header["seats"]), list[Seat])
        seed = int(header["seed"])
        if len(seats) != options.players:
            raise RecordError(path, f"{len(seats)} seats for {options.players} players")
    except RecordError:
        raise
    except (CellwarsError, ValueError, msgspec.ValidationError, TypeError) as exc:
        raise RecordError(path, f"bad header: {str(exc).splitlines()[0]}") from None
    match = Match(game, options, seats, seed, auto_chance=False)
    match.started = header.get("started") or match.started
    expected = 1
    for n in range(body_start, len(lines)):
        line = lines[n]
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = _LINE.match(line)
        if m is None:
            raise RecordError(path, f"line {n + 1}: expected 'N. who: action'")
        number, who, t, notation = m.groups()
        if int(number) != expected:
            raise RecordError(path, f"line {n + 1}: step {number} where step {expected} was due")
        if who == "chance":
            seat = CHANCE
        elif who.startswith("seat") and who[4:].isdigit():
            seat = int(who[4:]) - 1
        else:
            raise RecordError(path, f"line {n + 1}: unknown player {who!r}")
        try:
            action = game.action_from_str(notation)
            match.replay_steps([Step(seat, action, float(t or 0.0))])
        except (BadNotation, IllegalAction) as exc:
            raise RecordError(path, f"line {n + 1}: {str(exc).removeprefix('step 1: ')}") from None
        expected += 1
    match.auto_chance = True
    return match
