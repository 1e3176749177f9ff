"""Cell Wars notation: actions as plain text (``play teleporting E5``, ``step NE``, ``die 4``) and
read back, and one log sentence per event."""

from __future__ import annotations

import msgspec

from ...core import Action, Event
from ...core.api import parse_error
from . import board as B
from . import clarifications as C
from .cards import CARDS, IMMEDIATE
from .cards import card_id as _card_id
from .state import *  # noqa: F403 - every action and event type
from .state import CAMP_NAMES, SIGN_KINDS, _SIMPLE

def action_to_str(a: Action) -> str:
    tag = str(type(a).__struct_config__.tag)
    if isinstance(a, (Sign, Tissue, Place, Relapse)):
        return f"{tag} {B.NAMES[a.tile]}"
    if isinstance(a, (Demolish, Build)):
        return f"{tag} {B.edge_name(a.edge)}"
    if isinstance(a, Step):
        return f"step {B.DIR_NAMES[a.dir]}"
    if isinstance(a, (Attack, DiceOff)):
        return f"{tag} {C.PANEL_NAMES[a.panel]}"
    if isinstance(a, Die):
        return f"die {a.face}"
    if isinstance(a, Draw):
        return f"draw {a.card}"
    if isinstance(a, Play):
        out = f"play {a.card}"
        if a.tile >= 0:
            out += f" {B.NAMES[a.tile]}"
        if a.panel >= 0:
            out += f" {C.PANEL_NAMES[a.panel]}"
        return out
    return tag


def action_from_str(game, text: str) -> Action:
    words = text.split()
    if not words:
        raise parse_error(game, text, "empty action")
    head, rest = words[0].lower(), words[1:]
    if head in _SIMPLE and not rest:
        return _SIMPLE[head]
    if head in ("sign", "tissue", "place", "relapse") and len(rest) == 1:
        t = B.parse_tile(rest[0])
        if t < 0:
            raise parse_error(game, text, f"no tile named {rest[0]!r}")
        return {"sign": Sign, "tissue": Tissue, "place": Place, "relapse": Relapse}[head](t)
    if head in ("demolish", "build") and len(rest) == 1:
        e = B.parse_edge(rest[0])
        if e < 0:
            raise parse_error(game, text, "expected two neighbouring tiles like E4-E5")
        return Demolish(e) if head == "demolish" else Build(e)
    if head == "step" and len(rest) == 1:
        d = B.parse_direction(rest[0])
        if d < 0:
            raise parse_error(game, text, "direction must be E, NE, NW, W, SW or SE")
        return Step(d)
    if head in ("attack", "diceoff") and len(rest) == 1:
        q = _parse_panel(rest[0])
        if q < 0:
            raise parse_error(game, text, f"panel must be one of {', '.join(C.PANEL_NAMES)}")
        return Attack(q) if head == "attack" else DiceOff(q)
    if head == "die" and len(rest) == 1 and rest[0] in ("1", "2", "3", "4", "5", "6"):
        return Die(int(rest[0]))
    if head == "draw" and len(rest) == 1:
        if _card_id(rest[0]) < 0:
            raise parse_error(game, text, f"no card named {rest[0]!r}")
        return Draw(rest[0].lower())
    if head == "play" and 1 <= len(rest) <= 3:
        if _card_id(rest[0]) < 0:
            raise parse_error(game, text, f"no card named {rest[0]!r}")
        tile = panel = -1
        for word in rest[1:]:
            t, q = B.parse_tile(word), _parse_panel(word)
            if t >= 0 and tile < 0:
                tile = t
            elif q >= 0 and panel < 0:
                panel = q
            else:
                raise parse_error(game, text, f"{word!r} is neither a tile nor a panel")
        return Play(rest[0].lower(), tile, panel)
    raise parse_error(game, text, "not a Cell Wars action")


def _parse_panel(word: str) -> int:
    low = [n.lower() for n in C.PANEL_NAMES]
    try:
        return low.index(word.lower())
    except ValueError:
        return -1


# ----------------------------------------------------------------------------------------------
# Event sentences (for logs; the screen may hide cards drawn by other seats)
# ----------------------------------------------------------------------------------------------
_TISSUE_NAMES = ("normal", "cancer", "solidified")


def describe(e: Event) -> str:
    P = C.PANEL_TITLES
    T = B.NAMES
    match e:
        case SignPlaced(sign=k, tile=t):
            return f"{SIGN_KINDS[k]} spot placed on {T[t]}"
        case TileChanged(tile=t, to=to, cause=cause):
            return f"{T[t]} becomes {_TISSUE_NAMES[to]} tissue ({cause})"
        case PiecePlaced(panel=q, tile=t):
            return f"{P[q]} starts on {T[t]}"
        case RoundStarted(round=r, reload=reload):
            return f"Round {r} begins" + (": CARD signs reloaded" if reload else "")
        case TurnSkipped(panel=q):
            return f"{P[q]} is off the board; its round is skipped"
        case Relapsed(panel=q, tile=t):
            return f"{P[q]} relapses on {T[t]}"
        case PreDrawn(panel=q, tile=t):
            return f"{P[q]} earns a free draw from the CARD sign on {T[t]}"
        case WallsCollected(panel=q, walls=n):
            return f"{P[q]} collects {n} wall{'s' if n > 1 else ''}"
        case Moved(panel=q, frm=a, to=b, how=how):
            return f"{P[q]} moves {T[a]} -> {T[b]} ({how})"
        case Blocked(panel=q, how=how):
            return f"{P[q]} cannot move ({how})"
        case Drew(panel=q, card=c, how=how):
            if CARDS[c].kind != IMMEDIATE:  # the log is shared: a card kept in hand stays secret
                return f"{P[q]} draws a card ({how})"
            return f"{P[q]} draws {CARDS[c].name} ({how})"
        case Reshuffled(camp=camp):
            return f"The {CAMP_NAMES[camp].lower()} used cards are reshuffled into a new deck"
        case Paid(panel=q, biomass=n, how=how):
            return f"{P[q]} spends {n} Biomass on {how} drawing"
        case Rolled(panel=q, face=f, why=why):
            return f"{P[q]} rolls {f} ({why})"
        case CardPlayed(panel=q, card=c):
            return f"{P[q]} plays {CARDS[c].name}"
        case CardExpired(panel=q, card=c):
            return f"{CARDS[c].name} on {P[q]}'s panel runs out"
        case BiomassChanged(panel=q, delta=d, why=why):
            return f"{P[q]} {'gains' if d > 0 else 'loses'} {abs(d)} Biomass ({why})"
        case Dodged(panel=q):
            return f"{P[q]} dodges the hit"
        case Died(panel=q):
            return f"{P[q]} dies and leaves the board"
        case Special(panel=q, what=what, count=n):
            extra = f" ({n}/{C.SOLIDIFY_CLAIMS})" if what == "solidify" else ""
            return f"{P[q]}: {what}{extra}"
        case WallChanged(edge=edge, built=built):
            return f"Wall {'built on' if built else 'demolished on'} {B.edge_name(edge)}"
        case AttackResult(panel=q, target=t, roll=r, result=res):
            return f"{P[q]} attacks {P[t]}: roll {r}, {res}"
        case DoubleAttack(panel=q, target=t):
            return f"{P[q]} strikes {P[t]} again (double attack)"
        case NoAttack(panel=q):
            return f"{P[q]}: no cancer cell in range, no attack"
        case StepEnded(panel=q, step="draw"):
            return f"{P[q]} is done drawing cards"
        case StepEnded(panel=q, step="cards"):
            return f"{P[q]} is done playing cards"
        case StepEnded(panel=q, step="card-move"):
            return f"{P[q]} ends the card's move there"
        case StepEnded(panel=q, step="special"):
            return f"{P[q]} ends its turn without rolling the die"
        case StepEnded(panel=q, step="move", count=n, of=m):
            return f"{P[q]} stops after {n} of {m} step{'' if m == 1 else 's'}"
        case StepEnded(panel=q, step="attack"):
            return f"{P[q]} does not attack"
        case StepEnded(panel=q):
            return f"{P[q]} ends its turn"
        case GameOver(winner=w, reason=why):
            who = "Tie" if w == 2 else f"The {CAMP_NAMES[w].lower()} camp wins"
            return f"{who}: {why}"
    return msgspec.json.encode(e).decode()


