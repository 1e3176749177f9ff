"""The decision under way at the Cell Wars table, without a screen (no textual, no rich).

From a position and the legal actions, :func:`decide` works out what the player can do now: the
tiles where Enter or a click acts (setup spots, steps, attack targets, relapse tiles, card
targets, walls) and the numbered choices of the bar under the board (keys 1-9, 0 for "end" or
"stay", the six direction keys for steps), with the prompt that says what to do. Two decisions
take more than one press: a card is picked, then its target; a wall is built from one tile to a
neighbour. :class:`Picking` keeps what was picked so far. The screen draws the decision and runs
what the player picks: an action to play, or one of the picking steps below.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Union

from ...core.api import Action
from . import board as B
from . import clarifications as C
from . import rules as R
from .cards import CARDS, CONTINUOUS, IMMUNE
from .cards import card_id
from .labels import KEY_OF_DIRECTION, PIECE_MARKS, SETUP_SPOT_WORDS


@dataclass(frozen=True)
class PickCard:
    """Pick a card to play (its targets come next)."""

    slug: str


@dataclass(frozen=True)
class StartBuild:
    """Start building a wall (its first tile comes next)."""


@dataclass(frozen=True)
class Back:
    """Put down the picked card, or give up the wall under way."""


@dataclass(frozen=True)
class PickFrom:
    """The first tile of a wall being built (a tile's "action" while building)."""

    tile: int


Do = Union[Action, PickCard, StartBuild, Back]  # what a numbered choice does
TileDo = Union[Action, PickFrom]  # what acting on a tile does


@dataclass(frozen=True)
class Option:
    """A numbered choice of the bar: its key, its label, what it does and a longer hint (a
    card's text)."""

    key: str  # "1".."9", "0", or a direction key
    label: str
    do: Do
    hint: str = ""


@dataclass
class Picking:
    """What the player has picked toward the decision so far: a card, or a wall under way (and
    its first tile once picked)."""

    card: str | None = None
    building: bool = False
    build_from: int = -1


@dataclass
class Decision:
    """What can be done now: the prompt, the tiles that act, the numbered choices."""

    prompt: str = ""
    tiles: dict[int, list[TileDo]] = field(default_factory=dict)
    options: list[Option] = field(default_factory=list)


class _Builder:
    """Collects a decision's tiles and numbered options (1-9 in order, or a key of their own)."""

    def __init__(self) -> None:
        self.decision = Decision()
        self.number = 0

    def at(self, t: int, a: TileDo) -> None:
        if t >= 0:
            self.decision.tiles.setdefault(t, []).append(a)

    def add(self, label: str, do: Do, hint: str = "", key: str = "") -> None:
        if not key:
            self.number += 1
            if self.number > 9:
                return
            key = str(self.number)
        self.decision.options.append(Option(key, label, do, hint))

    def say(self, prompt: str) -> None:
        self.decision.prompt = prompt


def decide(s: R.CWState, legal: Sequence[Action], picking: Picking,
           action_text: Callable[[Action], str]) -> Decision:
    """What the player can do on ``s`` with ``legal`` (not empty, or the game is over) and
    ``picking`` so far; a picked card that can no longer be played is put down (``picking`` is
    updated). ``action_text`` names an action the table does not word itself."""
    out = _Builder()
    if s.phase == R.OVER:
        out.say(s.result and f"Game over: {s.result}" or "Game over")
        return out.decision
    end = next((a for a in legal if isinstance(a, (R.End, R.Stay))), None)
    p = s.panel
    me = s.panels[p] if 0 <= p < len(s.panels) else None
    if s.phase == R.SIGNS:
        for a in legal:
            out.at(a.tile, a)
        out.say(f"Place the {SETUP_SPOT_WORDS[len(s.signs)]}: a free tile (Enter or click)")
    elif s.phase == R.TISSUE:
        for a in legal:
            out.at(a.tile, a)
        out.say(f"Pick cancer tissue {R.cancer_count(s) + 1} of {s.cancer_tissue}: a normal tile")
    elif s.phase == R.PIECES:
        for a in legal:
            out.at(a.tile, a)
        kind = "normal" if R.PANEL_CAMPS[s.panel] == IMMUNE else "cancer"
        out.say(f"Place {C.PANEL_TITLES[s.panel]} ({PIECE_MARKS[s.panel]}): a {kind} tile off "
                "the spots")
    elif s.step == R.RELAPSE:
        for a in legal:
            if isinstance(a, R.Relapse):
                out.at(a.tile, a)
        out.say(f"{C.PANEL_TITLES[p]} is dead: relapse on a solidified tile, or stay")
    elif s.step == R.DRAW:
        for a in legal:
            if isinstance(a, R.Charge):
                out.add("charge (pay 2, draw)", a)
            elif isinstance(a, R.Mutate):
                out.add("mutate (pay 1, roll)", a)
        out.say(f"{C.PANEL_TITLES[p]}: draw cards? (mutate rolls: 3-4 regain 1, 5-6 draw) "
                "0: no more")
    elif s.step == R.CARDS_STEP:
        _card_choices(s, legal, picking, out)
    elif s.step in (R.MOVE, R.CARDMOVE):
        assert me is not None
        for a in legal:
            if isinstance(a, R.Step):
                out.at(B.NEIGHBOUR[me.tile][a.dir], a)
                out.add(B.DIR_NAMES[a.dir], a, key=KEY_OF_DIRECTION[a.dir])
        left = s.moves
        how = CARDS[s.move_card].name if s.step == R.CARDMOVE and s.move_card >= 0 else "die"
        out.say(f"{C.PANEL_TITLES[p]}: move ({how}), {left} step{'s' if left != 1 else ''} "
                "left: a highlighted tile")
    elif s.step == R.SPECIAL:
        _special_choices(s, legal, picking, out)
    elif s.step == R.ATTACK:
        for a in legal:
            if isinstance(a, R.Attack):
                q = a.panel
                tile = s.panels[q].tile
                out.at(tile, a)
                out.add(f"attack {C.PANEL_NAMES[q]} ({B.NAMES[tile]}, Bio "
                        f"{s.panels[q].biomass})", a)
        out.say(f"{C.PANEL_TITLES[p]}: attack (Att {R.attack_of(s, p)}, range "
                f"{R.range_of(s, p)}): pick a target, 0 to stop")
    else:
        for a in legal:
            out.add(action_text(a), a)
        out.say(f"{C.PANEL_TITLES[p]}: decide")
    if end is not None and not picking.card and not picking.building:
        label = "stay" if isinstance(end, R.Stay) else {
            R.DRAW: "no more", R.CARDS_STEP: "no card", R.SPECIAL: "end round",
            R.MOVE: "stop", R.CARDMOVE: "stop", R.ATTACK: "no attack"}.get(s.step, "end")
        out.add(label, end, key="0")
    return out.decision


def _card_choices(s: R.CWState, legal: Sequence[Action], picking: Picking,
                  out: _Builder) -> None:
    p = s.panel
    plays = [a for a in legal if isinstance(a, R.Play)]
    if picking.card is not None:
        mine = [a for a in plays if a.card == picking.card]
        if not mine:
            picking.card = None
        else:
            card = CARDS[card_id(picking.card)]
            for a in mine:
                if a.tile >= 0:
                    out.at(a.tile, a)
                elif a.panel >= 0:
                    q = a.panel
                    out.at(s.panels[q].tile, a)
                    out.add(f"on {C.PANEL_NAMES[q]} ({B.NAMES[s.panels[q].tile]})", a, card.text)
                else:
                    out.add(f"play {card.name}", a, card.text)
            if any(a.tile >= 0 for a in mine):
                out.say(f"{card.name}: pick a highlighted tile (Esc: back)")
            else:
                out.say(f"{card.name}: {card.text}")
            out.add("back", Back(), key="0")
            return
    seen: list[str] = []
    for a in plays:
        if a.card not in seen:
            seen.append(a.card)
    for slug in seen:
        card = CARDS[card_id(slug)]
        kind = " (continuous)" if card.kind == CONTINUOUS else ""
        out.add(f"{card.name}{kind}", PickCard(slug), card.text)
    out.say(f"{C.PANEL_TITLES[p]}: play a card? (a number shows its text)")


def _special_choices(s: R.CWState, legal: Sequence[Action], picking: Picking,
                     out: _Builder) -> None:
    p = s.panel
    me = s.panels[p]
    builds = [a for a in legal if isinstance(a, R.Build)]
    if picking.building and builds:
        free = {a.edge: a for a in builds}
        if picking.build_from < 0:
            for t in range(B.N_TILES):
                if any(e in free for e in B.TILE_EDGES[t]):
                    out.at(t, PickFrom(t))
            out.say("Build a wall: pick the first of two neighbouring tiles")
        else:
            t = picking.build_from
            for n in B.NEIGHBOURS[t]:
                e = B.edge_between(t, n)
                if e in free:
                    out.at(n, free[e])
            out.say(f"Build a wall: from {B.NAMES[t]} to which neighbour?")
        out.add("back", Back(), key="0")
        return
    for a in legal:
        if isinstance(a, R.Purify):
            out.add(f"purify {B.NAMES[me.tile]}", a)
        elif isinstance(a, R.Degrade):
            out.add(f"degrade {B.NAMES[me.tile]}", a)
        elif isinstance(a, R.Solidify):
            out.add(f"solidify {B.NAMES[me.tile]} ({me.solid + 1}/{C.SOLIDIFY_CLAIMS})", a)
        elif isinstance(a, R.Demolish):
            x, y = B.EDGES[a.edge]
            other = y if x == me.tile else x
            out.at(other, a)
            out.add(f"demolish {B.edge_name(a.edge)}", a)
    if builds:
        out.add(f"build wall ({me.walls})", StartBuild())
    for a in legal:
        if isinstance(a, R.Roll):
            out.add("roll", a)
    out.say(f"{C.PANEL_TITLES[p]}: a special action (then no move), roll to move, 0: end round")


def move_cursor(tile: int, where: str) -> int:
    """The tile the cursor goes to from ``tile`` with an arrow key."""
    q, r = B.COORDS[tile]
    if where in ("left", "right"):
        n = B.INDEX.get((q + (1 if where == "right" else -1), r), -1)
        return n if n >= 0 else tile
    dr = -1 if where == "up" else 1
    # the two tiles above (NW, NE) or below (SW, SE): keep to the left on the way up,
    # to the right on the way down, so up then down comes back.
    options = [(q, r + dr), (q + 1, r + dr)] if dr < 0 else [(q, r + dr), (q - 1, r + dr)]
    for c in options:
        if c in B.INDEX:
            return B.INDEX[c]
    return tile
