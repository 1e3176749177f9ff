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
from typing import Any, Union

from ...core.api import Action
from . import board as B
from . import clarifications as C
from . import rules as R
from .cards import CARDS, CONTINUOUS, IMMUNE
from .cards import card_id
from .labels import KEY_OF_DIRECTION, PIECE_MARKS, SETUP_SPOT_WORDS, SPOT_SHORT


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
    if s.phase == R.OVER:  # nothing to decide; the table words the result for its reader
        return out.decision
    end = next((a for a in legal if isinstance(a, (R.End, R.Stay))), None)
    p = s.panel
    me = s.panels[p] if 0 <= p < len(s.panels) else None
    if s.phase == R.SIGNS:
        for a in legal:
            if isinstance(a, R.Sign):
                out.at(a.tile, a)
        out.say(f"Place the {SETUP_SPOT_WORDS[len(s.signs)]}: a free tile (Enter or click)")
    elif s.phase == R.TISSUE:
        for a in legal:
            if isinstance(a, R.Tissue):
                out.at(a.tile, a)
        out.say(f"Pick cancer tissue {R.cancer_count(s) + 1} of {s.cancer_tissue}: a normal tile")
    elif s.phase == R.PIECES:
        for a in legal:
            if isinstance(a, R.Place):
                out.at(a.tile, a)
        kind = "normal" if R.PANEL_CAMPS[s.panel] == IMMUNE else "cancer"
        out.say(f"Place {C.PANEL_TITLES[s.panel]} ({PIECE_MARKS[s.panel]}): a {kind} tile, not "
                "on or next to a special spot")
    elif s.step == R.RELAPSE:
        for a in legal:
            if isinstance(a, R.Relapse):
                out.at(a.tile, a)
        out.say(f"{C.PANEL_TITLES[p]} is dead: relapse on a solidified tile, or stay")
    elif s.step == R.DRAW:
        mutate = False
        for a in legal:
            if isinstance(a, R.Charge):
                out.add("charge (pay 2, draw)", a)
            elif isinstance(a, R.Mutate):  # (only cancer cells are ever offered it)
                out.add("mutate (pay 1, roll)", a)
                mutate = True
        how = " (mutate rolls: 3-4 regain 1, 5-6 draw)" if mutate else ""
        out.say(f"{C.PANEL_TITLES[p]}: draw cards?{how} 0: no more")
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
    if not picking.card and not picking.building:
        roll = next((a for a in legal if isinstance(a, R.Roll)), None)
        if s.step == R.SPECIAL and roll is not None:
            # 0 goes on to the next step in every step: here that is moving, never ending the
            # round unmoved (that takes its own number, worded so: issue 19)
            if end is not None:
                out.add("end round, no move", end)
            out.add("roll to move", roll, key="0")
        elif end is not None:
            label = "stay" if isinstance(end, R.Stay) else {
                R.DRAW: "no more", R.CARDS_STEP: "no card", R.SPECIAL: "end round",
                R.MOVE: "stop", R.CARDMOVE: "stop", R.ATTACK: "no attack"}.get(s.step, "end")
            out.add(label, end, key="0")
    return out.decision


# The steps of an individual round where the player decides, in their order (see rules.md).
DECIDING_STEPS = (R.DRAW, R.CARDS_STEP, R.SPECIAL, R.MOVE, R.ATTACK)
STEP_WORDS = {R.DRAW: "card drawing", R.CARDS_STEP: "play cards", R.SPECIAL: "special action",
              R.MOVE: "movement", R.ATTACK: "attack"}
ZERO_WORDS = {R.DRAW: "0: no more", R.CARDS_STEP: "0: no card", R.SPECIAL: "0 rolls to move",
              R.MOVE: "0 stops", R.ATTACK: "0: no attack"}
STATUS_ROOM = 78  # the status line's columns at 80x24: a longer note drops its "now ..." part


def passed_reason(step: str, s: R.CWState) -> str:
    """Why ``step`` of the acting cell's round passed by itself, read from ``s``, the position
    just after it: "Draws over: a charge needs more than 2 Biomass, you have 2" (issue 29: the
    note used to say "No card to draw", which read as if the deck were empty)."""
    p = s.panel
    pn = s.panels[p]
    camp = R.PANEL_CAMPS[p]
    if step == R.DRAW:
        if not R.cards_available(s, camp):
            return f"Draws over: no card left in the {R.CAMP_NAMES[camp].lower()} deck"
        once = R.edition(s).draw_once_a_round
        charge = f"a charge needs more than 2 Biomass, you have {pn.biomass}"
        if camp == IMMUNE:
            return "Draws over: one charge a round" if once and s.charged else \
                f"Draws over: {charge}"
        if once and s.charged and s.mutated:
            return "Draws over: one charge and one mutation a round"
        return f"Draws over: a mutation needs more than 1 Biomass, you have {pn.biomass}"
    if step == R.CARDS_STEP:
        return "No card in hand" if not pn.hand else "No card in hand can do anything now"
    if step == R.MOVE:
        return "No step left" if s.moves <= 0 else "Every step is blocked (walls, the edge)"
    return "No special action"  # (never passes by itself: roll and end are always there)


def skipped_note(before: R.CWState | None, after: R.CWState, ended: bool) -> str:
    """What to say when the step of a cell's round changed by itself between two of its
    decisions: a step with nothing to decide was passed, or the step the player was in ended
    without their ending it (the last card played, the last step taken). ``ended``: the player's
    own last choice ended the step (``0``). The note says why the step passed and what ``0``
    does now ("No card in hand. Now special action; 0 rolls to move."), so a key whose meaning
    changed with the step never acts unannounced (issue 19); "" when nothing passed by itself."""
    if before is None or after.phase != R.PLAY or before.phase != R.PLAY:
        return ""
    if (before.round, before.panel) != (after.round, after.panel):
        return ""
    if before.step not in DECIDING_STEPS or after.step not in DECIDING_STEPS:
        return ""
    i, j = DECIDING_STEPS.index(before.step), DECIDING_STEPS.index(after.step)
    if j <= i or (j == i + 1 and ended):
        return ""
    # why each step passed, the step the player was in first (the one they expected to go on)
    reasons = [passed_reason(DECIDING_STEPS[k], after) for k in range(i + ended, j)]
    joined = "; ".join([reasons[0]] + [r[0].lower() + r[1:] for r in reasons[1:]])
    zero = ZERO_WORDS[after.step]
    for words in (joined, reasons[0]):
        for note in (f"{words}. Now {STEP_WORDS[after.step]}; {zero}.", f"{words}. {zero}."):
            if len(note) <= STATUS_ROOM:
                return note
    return f"{reasons[0]}."


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
            text = R.card_text(s, card_id(picking.card))
            tiles = sorted({a.tile for a in mine if a.tile >= 0})
            listed = len(tiles) <= 9  # each target tile gets a number too, when they all fit
            for a in mine:
                if a.tile >= 0:
                    out.at(a.tile, a)
                    if listed:
                        out.add(target_tile_label(s, a.tile), a, text)
                elif a.panel >= 0:
                    q = a.panel
                    out.at(s.panels[q].tile, a)
                    out.add(f"on {C.PANEL_NAMES[q]} ({B.NAMES[s.panels[q].tile]})", a, text)
                else:
                    out.add(f"play {card.name}", a, text)
            question = TARGET_QUESTIONS.get(target_kind(card), "")
            if tiles:
                how = f"1-{len(tiles)} or a highlighted tile" if listed else \
                    f"one of the {len(tiles)} highlighted tiles (Enter or a click)"
                out.say(f"{card.name}: {question or 'which tile?'} {how}")
            elif question:
                out.say(f"{card.name}: {question} 1-{len(mine)} or its tile")
            else:  # (the whole text is in the side panel: the status line would cut it)
                out.say(f"{card.name}: 1 plays it, 0 puts it back (its text: side panel)")
            out.add("back", Back(), key="0")
            return
    seen: list[str] = []
    for a in plays:
        if a.card not in seen:
            seen.append(a.card)
    for slug in seen:
        card = CARDS[card_id(slug)]
        kind = " (continuous)" if card.kind == CONTINUOUS else ""
        out.add(f"{card.name}{kind}", PickCard(slug), R.card_text(s, card_id(slug)))
    out.say(f"{C.PANEL_TITLES[p]}: play a card? (a number shows its text)")


# What a card that needs a target asks for, by the kind of target (card fields in cards.py).
TARGET_QUESTIONS = {
    "vegf": "which Blood vessel comes to your tile?",
    "teleport": "which special spot to jump to?",
    "metastasis": "which normal tile to jump to?",
    "cancerate": "which normal tile turns cancerous?",
    "swap": "which cell to swap places with?",
    "hit": "which enemy cell to hit?",
}


def target_kind(card: Any) -> str:
    """The kind of target ``card`` asks for ("" for none): a key of TARGET_QUESTIONS."""
    if card.vegf:
        return "vegf"
    if card.teleport_sign:
        return "teleport"
    if card.metastasis:
        return "metastasis"
    if card.cancerate_radius >= 0:
        return "cancerate"
    if card.swap_range > 0:
        return "swap"
    if card.hit_radius > -2:
        return "hit"
    return ""


def target_tile_label(s: R.CWState, t: int) -> str:
    """A target tile as a numbered choice: its name and the spot on it ("C6 vessel")."""
    k = R.sign_at(s, t)
    return f"{B.NAMES[t]} {SPOT_SHORT[k]}" if k >= 0 else B.NAMES[t]


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
    # (rolling to move is 0, added with the step's end: decide() above)
    out.say(f"{C.PANEL_TITLES[p]}: a special action (then no move), or 0 to roll and move")


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
