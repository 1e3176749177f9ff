"""Helpers for Virus Fight tests: positions from short texts, turns by notation."""

from __future__ import annotations

import msgspec

from cellwars_tui.core import CHANCE
from cellwars_tui.games.virus_fight import engine as E
from cellwars_tui.games.virus_fight.notation import action_to_str, position_from_str
from cellwars_tui.games.virus_fight.rules import (GAME, Add, Mark, Offer, Place, Ready,
                                                  VirusFightOptions)


def pos(ranks: str, markers: str, spares: tuple[str, ...] | None = None, queue: str = "12",
        first: int = 1, rnd: str = "1/50"):
    """A play-phase state. ``ranks`` top to bottom with ``/``; ``spares`` per seat with ``*``
    standing for every instruction not placed elsewhere (default: all to the last seat)."""
    players = len(markers.split(","))
    if spares is None:
        spares = ("-",) * (players - 1) + ("*",)
    counts = {c: players for c in E.ALL_CODES}
    for ch in ranks.replace("/", "").replace(".", " ").split():
        for k in range(0, len(ch), 2):
            counts[_code(ch[k:k + 2])] -= 1
    for w in spares:
        if w not in ("*", "-"):
            for k in range(0, len(w), 2):
                counts[_code(w[k:k + 2])] -= 1
    rest = "".join(E.piece_name(c) * n for c, n in counts.items() if n > 0) or "-"
    words = [rest if w == "*" else w for w in spares]
    text = f"{ranks} {markers} {','.join(words)} {queue} {first} {rnd}"
    return position_from_str(GAME, text)


def _code(text: str) -> int:
    return E.code("MWJE".index(text[0]), int(text[1]))


def turns(s) -> set[str]:
    """The legal turns (a stalemate offer is not a turn) by notation."""
    return {action_to_str(a) for a in GAME.legal_actions(s, s.queue[0]) if a != Offer()}


def play(s, text: str):
    """Apply one turn (notation) for the seat to act; returns the new state."""
    new, _ = GAME.apply(s, s.queue[0], GAME.action_from_str(text))
    return new


def play_events(s, text: str):
    return GAME.apply(s, s.queue[0], GAME.action_from_str(text))


def new_game(players: int = 2, **kw):
    return GAME.initial_state(VirusFightOptions(players=players, **kw))


def build(s, seat: int, program: str, mark: int):
    """Seat builds ``program`` ("M3 W1 E2") with the marker on index ``mark`` (0-based)."""
    for word in program.split():
        s, _ = GAME.apply(s, seat, Add(_code(word)))
    s, _ = GAME.apply(s, seat, Mark(mark))
    s, events = GAME.apply(s, seat, Ready())
    return s, events


def build_all(programs: list[tuple[str, int]], players: int | None = None):
    s = new_game(players or len(programs))
    events = ()
    for seat, (prog, mark) in enumerate(programs):
        s, events = build(s, seat, prog, mark)
    return s, events


def place_all(s, starts: dict[int, str] | None = None):
    """Place every program (at the named start squares, else the first legal one)."""
    from cellwars_tui.games.virus_fight.notation import parse_square

    while s.phase == 2:
        seat = s.queue[0]
        sq = parse_square(starts[seat]) if starts and seat in starts else None
        legal = GAME.legal_actions(s, seat)
        a = Place(sq) if sq is not None else legal[0]
        s, _ = GAME.apply(s, seat, a)
    return s


def force_first(s, seat: int):
    from cellwars_tui.games.virus_fight.rules import First

    s, _ = GAME.apply(s, CHANCE, First(seat))
    return s


def replace(s, **kw):
    return msgspec.structs.replace(s, **kw)
