"""Cell Wars: what each card does. ``plays`` lists the legal ways to play a card now (a card that
would do nothing cannot be played); ``apply_effect`` carries a played (or immediate) card out. The
cards themselves, as data, are in ``cards.py``."""

from __future__ import annotations

from . import board as B
from .cards import CARDS, CONTINUOUS, IMMEDIATE
from .state import (CANCER_T, CAMP_PANELS, IMMUNE, NORMAL_T, N_PANELS, PANEL_CAMPS, CARDS_STEP,
                    CARDMOVE, CWState, Play, SignPlaced, attack_of, can_step, cards_available,
                    effective_limit, enemies, sign_at, vessel_tiles)
from .work import W, damage, heal, relocate, set_tile

def plays(s: CWState | W, cid: int) -> list[Play]:
    """Every legal way to play card ``cid`` now (empty if it would do nothing)."""
    c = CARDS[cid]
    p = s.panel
    pn = s.panels[p]
    tile = pn.tile
    slug = c.slug
    if c.kind == IMMEDIATE:
        return []
    if c.kind == CONTINUOUS:
        return [Play(slug)]
    if c.move:
        through, toward = c.through_walls, c.toward
        if any(can_step(s, p, d, through, toward) for d in range(6)):
            return [Play(slug)]
        return []
    if c.teleport_sign:
        return [Play(slug, tile=t) for t in sorted(s.signs) if t != tile]
    if c.swap_range:
        return [Play(slug, panel=q) for q in range(N_PANELS)
                if q != p and s.panels[q].tile >= 0
                and B.DIST[tile][s.panels[q].tile] <= c.swap_range]
    if c.hit_radius > -2:
        return [Play(slug, panel=q) for q in enemies(s, p)
                if c.hit_radius < 0 or B.DIST[tile][s.panels[q].tile] <= c.hit_radius]
    if c.area_damage:
        ok = any(c.area_radius < 0 or B.DIST[tile][s.panels[q].tile] <= c.area_radius
                 for q in enemies(s, p))
        return [Play(slug)] if ok else []
    if c.cancerate_radius >= 0:
        return [Play(slug, tile=t) for t in B.within(tile, c.cancerate_radius)
                if s.tiles[t] == NORMAL_T]
    if c.purify_radius >= 0:
        ok = any(s.tiles[t] == CANCER_T for t in B.within(tile, c.purify_radius))
        return [Play(slug)] if ok else []
    if c.metastasis:
        immune_tiles = {s.panels[q].tile for q in CAMP_PANELS[IMMUNE]}
        return [Play(slug, tile=t) for t in range(B.N_TILES)
                if s.tiles[t] == NORMAL_T and t not in immune_tiles]
    if c.vegf:
        if sign_at(s, tile) >= 0:
            return []
        return [Play(slug, tile=t) for t in vessel_tiles(s)]
    if c.draw and not c.full_heal and not cards_available(s, PANEL_CAMPS[p]):
        return []
    if c.heal and not (c.full_heal or c.walls or c.draw) and pn.biomass >= effective_limit(pn):
        return []  # a sugar at full Biomass would do nothing
    return [Play(slug)]


def apply_effect(w: W, p: int, cid: int, tile: int, target: int) -> None:
    c = CARDS[cid]
    me = w.panels[p]
    if c.heal:
        heal(w, p, c.heal, c.slug)
    if c.full_heal:
        heal(w, p, 99, c.slug)
    if c.walls:
        w.set(p, walls=w.panels[p].walls + c.walls)
    if c.round_attack or c.round_range or c.precise:
        w.buff_attack += c.round_attack
        w.buff_range += c.round_range
        w.precise = w.precise or c.precise
    if c.area_damage:
        for q in enemies(w, p):
            if c.area_radius < 0 or B.DIST[me.tile][w.panels[q].tile] <= c.area_radius:
                damage(w, q, c.area_damage, c.slug)
    if c.hit_radius > -2:
        amount = attack_of(w, p) if c.hit_amount < 0 else c.hit_amount
        lost = damage(w, target, amount, c.slug)
        if c.steal and lost > 0:
            heal(w, p, lost, c.slug)
    if c.swap_range:
        mine, theirs = me.tile, w.panels[target].tile
        relocate(w, p, theirs, "swap")
        relocate(w, target, mine, "swap")
    if c.teleport_sign:
        relocate(w, p, tile, "jump")
    if c.metastasis:
        relocate(w, p, tile, "jump")
        set_tile(w, tile, CANCER_T, c.slug)
    if c.cancerate_radius >= 0:
        set_tile(w, tile, CANCER_T, c.slug)
    if c.purify_radius >= 0:
        for t in B.within(me.tile, c.purify_radius):
            if w.tiles[t] == CANCER_T:
                set_tile(w, t, NORMAL_T, c.slug)
    if c.vegf:
        k = w.signs.index(tile)
        w.signs[k] = me.tile
        w.emit(SignPlaced(k, me.tile))
    if c.draw:
        w.draws += c.draw
        w.draw_how = "card"
    if c.move:
        w.moves, w.moved, w.move_card, w.step = c.move, 0, cid, CARDMOVE


def finish_card_move(w: W) -> None:
    c = CARDS[w.move_card]
    if c.invade:
        tile = w.panels[w.panel].tile
        if w.tiles[tile] == NORMAL_T:
            set_tile(w, tile, CANCER_T, "invasion")
    w.moves = w.moved = 0
    w.move_card = -1
    w.step = CARDS_STEP
