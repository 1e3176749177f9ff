"""Cell Wars: the mutable working copy of a state used inside one ``apply``, and the low-level
changes every rule goes through (moving a cell, changing a tile, Biomass, death)."""

from __future__ import annotations

from typing import Any

import msgspec

from ...core import Event
from . import board as B
from . import clarifications as C
from .cards import CANCER, CARDS, IMMUNE
from .state import (CAMP_PANELS, CWState, DEAD, NORMAL_T, PANEL_CAMPS, BiomassChanged, Blocked,
                    Died, Dodged, Moved, Panel, TileChanged, effective_limit)

# ----------------------------------------------------------------------------------------------
# The mutable working copy used inside one _apply
# ----------------------------------------------------------------------------------------------
_FIELDS = msgspec.structs.fields(CWState)
_LISTS = ("tiles", "signs", "card_signs", "walls", "panels", "attacked")


class W:
    """A scratch copy of a state: lists instead of tuples, events collected as we go. Its fields
    are CWState's, declared here for the type checker (a test holds the two lists together)."""

    players: int
    cancer_tissue: int
    edition: int
    random_setup: bool
    phase: str
    round: int
    panel: int
    step: str
    chance: str
    tiles: list[int]
    signs: list[int]
    card_signs: list[bool]
    walls: list[int]
    factory: int
    panels: list[Panel]
    deck: list[list[int]]
    used: list[list[int]]
    draws: int
    draw_how: str
    charged: bool
    mutated: bool
    rolled: bool
    moves: int
    moved: int
    move_card: int
    target: int
    attacked: list[int]
    buff_attack: int
    buff_range: int
    precise: bool
    winner: int
    result: str

    def __init__(self, s: CWState) -> None:
        for f in _FIELDS:
            setattr(self, f.name, getattr(s, f.name))
        for name in _LISTS:
            setattr(self, name, list(getattr(s, name)))
        self.deck = [list(d) for d in s.deck]
        self.used = [list(u) for u in s.used]
        self.events: list[Event] = []

    def freeze(self) -> CWState:
        kw = {f.name: getattr(self, f.name) for f in _FIELDS}
        for name in _LISTS:
            kw[name] = tuple(kw[name])
        kw["walls"] = tuple(sorted(kw["walls"]))
        kw["deck"] = tuple(tuple(d) for d in self.deck)
        kw["used"] = tuple(tuple(u) for u in self.used)
        return CWState(**kw)

    # state-like queries, so the helpers above work on a W too
    def set(self, p: int, **kw: Any) -> Panel:
        pn = msgspec.structs.replace(self.panels[p], **kw)
        self.panels[p] = pn
        return pn

    def emit(self, event: Event) -> None:
        self.events.append(event)




def relocate(w: W, q: int, dest: int, how: str) -> None:
    pn = w.panels[q]
    if dest == pn.tile:
        return
    w.set(q, tile=dest, solid=0, vessel=False)
    w.emit(Moved(q, pn.tile, dest, how))


def push(w: W, q: int, d: int, how: str) -> bool:
    """Move panel ``q`` one tile in direction ``d`` if it can (walls stop immune cells)."""
    if d < 0:
        return False
    tile = w.panels[q].tile
    dest = B.NEIGHBOUR[tile][d]
    if dest < 0 or (PANEL_CAMPS[q] == IMMUNE and B.edge_between(tile, dest) in w.walls):
        w.emit(Blocked(q, how))
        return False
    relocate(w, q, dest, how)
    return True


def set_tile(w: W, tile: int, to: int, cause: str) -> None:
    if w.tiles[tile] == to:
        return
    w.tiles[tile] = to
    w.emit(TileChanged(tile, to, cause))
    if to == NORMAL_T or C.EDITIONS[w.edition].claims_cleared_by_any_change:
        for q in CAMP_PANELS[CANCER]:
            if w.panels[q].tile == tile and w.panels[q].solid:
                w.set(q, solid=0)


def heal(w: W, q: int, n: int, why: str) -> None:
    pn = w.panels[q]
    if pn.tile < 0:
        return
    new = min(effective_limit(pn), pn.biomass + n)
    if new != pn.biomass:
        w.set(q, biomass=new)
        w.emit(BiomassChanged(q, new - pn.biomass, why))


def damage(w: W, q: int, n: int, why: str) -> int:
    """``q`` loses ``n`` Biomass; returns the Biomass lost, or -1 if a Dodge card absorbed the
    hit (then nothing else happens to ``q``)."""
    pn = w.panels[q]
    if pn.tile < 0:
        return 0
    for i, (cid, _) in enumerate(pn.active):
        if CARDS[cid].dodge:
            w.set(q, active=pn.active[:i] + pn.active[i + 1:])
            w.used[PANEL_CAMPS[q]][cid] += 1
            w.emit(Dodged(q))
            return -1
    lost = min(n, pn.biomass)
    w.set(q, biomass=pn.biomass - lost)
    w.emit(BiomassChanged(q, -lost, why))
    if pn.biomass - lost <= 0:
        die(w, q)
    return lost


def die(w: W, q: int) -> None:
    pn = w.panels[q]
    camp = PANEL_CAMPS[q]
    for cid in pn.hand:
        w.used[camp][cid] += 1
    for cid, _ in pn.active:
        w.used[camp][cid] += 1
    w.set(q, tile=DEAD, biomass=0, hand=(), active=(), free_draws=0, solid=0, last_dir=-1,
          vessel=False)
    w.emit(Died(q))
