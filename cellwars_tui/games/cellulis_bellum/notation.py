"""Cellulis Bellum's plain-text notation (records' move lists, the moves list, test names), the
log's sentences, and the words that explain an ending and a territory to a player. Point names
come from :mod:`.geometry` and are the same on both boards."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ...core.api import Action, Event, Game, parse_error
from . import geometry as G
from .position import TerritoryView, winners_by_territory
from .state import CBState
from .actions import (Apoptosed, Apoptosis, BurstMoved, Burst, Done, GameOver, Generate,
                      Generated, NucleusMove, NucleusMoved, Pass, Passed, Phagocytosis, Spawn,
                      Spawned, Stopped, VirusFired, VirusMove, VirusMoved, VirusShot)

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


DIRECTION_WORDS = ("north", "north-east", "east", "south-east", "south", "south-west", "west",
                   "north-west")


def action_words(a: Action) -> str:
    """An action in a player's words: its notation, and for the moves a newcomer may not know
    yet what they do ("nucleus d3 (your nucleus steps to d3)")."""
    text = action_to_str(a)
    match a:
        case NucleusMove(to=q):
            return f"{text} (your nucleus steps to {G.NAMES[q]})"
        case VirusMove(to=q):
            return f"{text} (your virus steps to {G.NAMES[q]})"
        case VirusShot(direction=d):
            return f"{text} (your virus fires {DIRECTION_WORDS[d]})"
        case Burst(src=p, dst=q):
            return f"{text} (a burst: the cell on {G.NAMES[p]} jumps to {G.NAMES[q]})"
        case Apoptosis():
            return f"{text} (an apoptosis of the rhombus of four {rhombus_name(a.key)})"
        case Generate(centre=k):
            return f"{text} (your virus made on {G.NAMES[k]})"
    return text


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
        case Stopped(seat=s, phase="spawn", count=n):
            return f"{who(s)} ends the spawn there ({n} new cell{'' if n == 1 else 's'})."
        case Stopped(seat=s, phase=_, count=n):
            return (f"{who(s)} ends the burst there ({n} cell{'' if n == 1 else 's'} of the "
                    f"colony did not move).")
        case Phagocytosis(turned=t, removed=r):
            text = f"Phagocytosis: {pts(t)} change colour" if t else "Phagocytosis"
            return text + (f"; {pts(r)} removed." if r else ".")
        case GameOver(winners=w, termination=t, territories=terr):
            score = f"territories {terr[0]} to {terr[1]}"
            if len(w) == 1:
                return f"Game over ({t}): {who(w[0])} wins, {score}."
            return f"Game over ({t}): a draw, {score}."
    return None


# -- explaining the end and the territories -------------------------------------------------------
def ending_text(s: CBState, names: Sequence[str]) -> str:
    """What ended the game and what decided it, as it happened: "Violet's nucleus died to its
    own virus; territory decides: Violet 53, Yellow 0" (``names``: the seats' names)."""
    shooter = 1 - s.seat  # the turn that ended the game was the other seat's
    dead, territories = s.dead, winners_by_territory(s.board)[1]
    killed = [q for q in (0, 1) if dead[q]]
    if not killed:
        what = (f"the {s.turn_limit}-turn limit was reached" if s.termination == "turn limit"
                else s.termination)
    elif len(killed) == 2:
        what = f"{names[shooter]}'s virus destroyed both nuclei"
    elif killed[0] == shooter:
        what = f"{names[shooter]}'s nucleus died to its own virus"
    else:
        what = f"{names[shooter]}'s virus destroyed {names[killed[0]]}'s nucleus"
    a, b = territories[0], territories[1]
    if a == b:
        decides = f"a draw, {a} each"
    else:
        w = 0 if a > b else 1
        decides = f"{names[w]} {territories[w]}, {names[1 - w]} {territories[1 - w]}"
    return f"{what[0].upper()}{what[1:]}; territory decides: {decides}"


def territory_note(view: TerritoryView, names: Sequence[str]) -> str:
    """Why ``view.seat``'s territory counts what it counts, in one sentence: "Yellow 0: no
    Yellow wall parts the two nuclei (a territory holds one); 4 triangles closed with no nucleus
    never count." """
    me = names[view.seat]
    if view.shared:
        text = f"{me} 0: no {me} wall parts the two nuclei (a territory holds one)"
    else:
        text = f"{me} {len(view.counted)}: the ground {me}'s walls close around its nucleus"
    if view.pockets:
        k = len(view.pockets)
        text += (f"; 1 triangle closed with no nucleus never counts" if k == 1 else
                 f"; {k} triangles closed with no nucleus never count")
    return text + "."
