"""Cellulis Bellum's plain-text notation (records' move lists, the moves list, test names) and
the log's sentences. Point names come from :mod:`.geometry` and are the same on both boards."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ...core.api import Action, Event, Game, parse_error
from . import geometry as G
from .actions import (Apoptosed, Apoptosis, BurstMoved, Burst, Done, GameOver, Generate,
                      Generated, NucleusMove, NucleusMoved, Pass, Passed, Phagocytosis, Spawn,
                      Spawned, VirusFired, VirusMove, VirusMoved, VirusShot)

POINTS_HINT = "a1 to g6, or a square's centre such as cd34"


def rhombus_name(key: tuple[int, int]) -> str:
    at, to = key
    return G.NAMES[at] if to < 0 else f"{G.NAMES[at]}-{G.NAMES[to]}"


def action_to_str(a: Action) -> str:
    nm = G.NAMES
    match a:
        case Apoptosis():
            return f"apo {rhombus_name(a.key)}"
        case Generate(centre=k):
            return f"gen {nm[k]}"
        case Spawn(to=p):
            return f"spawn {nm[p]}"
        case Burst(src=p, dst=q):
            return f"burst {nm[p]}-{nm[q]}"
        case Done():
            return "done"
        case VirusMove(to=q):
            return f"virus {nm[q]}"
        case VirusShot(direction=d):
            return f"shoot {G.DIR_NAMES[d]}"
        case NucleusMove(to=q):
            return f"nucleus {nm[q]}"
        case Pass():
            return "pass"
    raise ValueError(f"not a Cellulis Bellum action: {a!r}")


def action_from_str(game: Game, text: str) -> Action:
    words = text.strip().lower().split()
    if not words:
        raise parse_error(game, text, "empty")
    head, args = words[0], words[1:]

    def pt(word: str) -> int:
        p = G.parse_point(word)
        if p is None:
            raise parse_error(game, text, f"{word!r} is not a point ({POINTS_HINT})")
        return p

    if head in ("done", "pass") and not args:
        return Done() if head == "done" else Pass()
    if len(args) != 1:
        raise parse_error(game, text, "expected one argument")
    arg = args[0]
    if head == "apo":
        a, sep, b = arg.partition("-")
        return Apoptosis(pt(a), pt(b)) if sep else Apoptosis(pt(a))
    if head == "gen":
        return Generate(pt(arg))
    if head == "spawn":
        return Spawn(pt(arg))
    if head == "virus":
        return VirusMove(pt(arg))
    if head == "nucleus":
        return NucleusMove(pt(arg))
    if head == "shoot":
        if arg not in G.DIR_NAMES:
            raise parse_error(game, text, "direction must be one of " + " ".join(G.DIR_NAMES))
        return VirusShot(G.DIR_NAMES.index(arg))
    if head == "burst":
        a, sep, b = arg.partition("-")
        if not sep:
            raise parse_error(game, text, "a burst move reads like c2-c5")
        return Burst(pt(a), pt(b))
    raise parse_error(game, text, f"unknown action {head!r}")


def describe_event(game: Game, e: Event, names: Sequence[str]) -> str | None:
    """One sentence for the log (None: not one of this game's events)."""
    nm = G.NAMES

    def who(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else game.seat_label(seat)

    def pts(ps: Iterable[int]) -> str:
        return ", ".join(nm[p] for p in ps) or "nothing"

    match e:
        case Apoptosed(seat=s, rhombus=k, sacrificed=sac, destroyed=d):
            return (f"{who(s)} sacrifices the rhombus {rhombus_name(k)} ({pts(sac)}), "
                    f"destroying {pts(d)}.")
        case Generated(seat=s, centre=k, sacrificed=sac):
            return f"{who(s)} generates a virus on {nm[k]} from {pts(sac)}."
        case Spawned(seat=s, at=p):
            return f"{who(s)} spawns a cell on {nm[p]}."
        case BurstMoved(seat=s, src=p, dst=q):
            return f"{who(s)} bursts a cell from {nm[p]} to {nm[q]}."
        case VirusMoved(seat=s, src=p, dst=q, uses_left=u):
            tail = " and it is spent" if u <= 0 else ""
            return f"{who(s)}'s virus moves from {nm[p]} to {nm[q]}{tail}."
        case VirusFired(seat=s, src=p, direction=d, destroyed=x, nuclei=nu, uses_left=u):
            text = f"{who(s)}'s virus on {nm[p]} fires {G.DIR_NAMES[d]}, destroying {pts(x)}"
            if nu:
                text += "; nucleus destroyed: " + ", ".join(who(q) for q in nu)
            return text + (" and it is spent." if u <= 0 else ".")
        case NucleusMoved(seat=s, src=p, dst=q):
            return f"{who(s)}'s nucleus moves from {nm[p]} to {nm[q]}."
        case Passed(seat=s):
            return f"{who(s)} has no action and passes."
        case Phagocytosis(turned=t, removed=r):
            text = f"Phagocytosis: {pts(t)} change colour" if t else "Phagocytosis"
            return text + (f"; {pts(r)} removed." if r else ".")
        case GameOver(winners=w, termination=t, territories=terr):
            score = f"territories {terr[0]} to {terr[1]}"
            if len(w) == 1:
                return f"Game over ({t}): {who(w[0])} wins, {score}."
            return f"Game over ({t}): a draw, {score}."
    return None
