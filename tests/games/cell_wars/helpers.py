"""Helpers for the Cell Wars tests: a standard setup, scenario editing and action scripts.

Tests move the game on only by applying actions (chance included: ``"die 4"``, ``"draw glucose"``,
``"diceoff Cb"``); positions are arranged by editing a state with ``msgspec.structs.replace``.
"""

from __future__ import annotations

import msgspec

from cellwars_tui.core import CHANCE
from cellwars_tui.games.cell_wars import board as B
from cellwars_tui.games.cell_wars import rules as R
from cellwars_tui.games.cell_wars.cards import CANCER, DECKS, IMMUNE, card_id
from cellwars_tui.games.cell_wars.rules import GAME, CellWarsOptions

Ia, Ca, Cb, Ib, Ig, Cg = range(6)
PLACED = "place it yourself"  # the layout of tests that play the set-up
T = B.BY_NAME

SIGNS = ("A1", "A5", "I1", "I5", "E5", "E1", "C6", "G2")  # CARD x4, generator, factory, vessels
CANCER_TILES = ("G4", "G5", "G6", "H3", "H4", "F6", "F7")
PIECES = ("C2", "G4", "G5", "C4", "E7", "G6")  # Ia Ca Cb Ib Ig Cg


def replace(obj, **kw):
    return msgspec.structs.replace(obj, **kw)


def act(s, *texts, events=None):
    """Apply each action (by notation) for whoever is to act; returns the new state."""
    for text in texts:
        seat = GAME.to_act(s)[0]
        s, ev = GAME.apply(s, seat, GAME.action_from_str(text))
        if events is not None:
            events.extend(ev)
    return s


def standard(players=2, **options):
    """The state at the first decision of round 1 after the tests' own setup (placed by hand:
    not the game's standard layout, which tests/games/cell_wars/test_layouts.py checks)."""
    options.setdefault("layout", PLACED)
    s = GAME.initial_state(CellWarsOptions(players=players, **options))
    s = act(s, *(f"sign {t}" for t in SIGNS))
    s = act(s, *(f"tissue {t}" for t in CANCER_TILES[: s.cancer_tissue]))
    s = act(s, *(f"place {t}" for t in PIECES))
    return s


def put(s, **where):
    """Move pieces: put(s, Ia="E3", Ca="dead")."""
    panels = list(s.panels)
    for name, tile in where.items():
        q = ("Ia", "Ca", "Cb", "Ib", "Ig", "Cg").index(name)
        t = R.DEAD if tile == "dead" else T[tile]
        kw = {"tile": t}
        if t == R.DEAD:
            kw.update(biomass=0, hand=(), active=(), solid=0)
        panels[q] = replace(panels[q], **kw)
    return replace(s, panels=tuple(panels))


def panel(s, q, **kw):
    panels = list(s.panels)
    panels[q] = replace(panels[q], **kw)
    return replace(s, panels=tuple(panels))


def tiles(s, cancer=(), normal=(), solid=()):
    ts = list(s.tiles)
    for names, v in ((cancer, R.CANCER_T), (normal, R.NORMAL_T), (solid, R.SOLID_T)):
        for n in names:
            ts[T[n]] = v
    return replace(s, tiles=tuple(ts))


def turn(s, q, step=R.SPECIAL, **kw):
    """Make it panel ``q``'s individual round at ``step`` with fresh round scratch."""
    base = dict(panel=q, step=step, chance="", draws=0, charged=False, mutated=False,
                rolled=False, moves=0, moved=0, move_card=-1, target=-1, attacked=(),
                buff_attack=0, buff_range=0, precise=False)
    base.update(kw)
    return replace(s, **base)


def give(s, q, *slugs):
    """Move cards from the panel's deck into its hand."""
    camp = R.PANEL_CAMPS[q]
    deck = [list(d) for d in s.deck]
    hand = list(s.panels[q].hand)
    for slug in slugs:
        c = card_id(slug)
        assert deck[camp][c] > 0, slug
        deck[camp][c] -= 1
        hand.append(c)
    s = replace(s, deck=tuple(tuple(d) for d in deck))
    return panel(s, q, hand=tuple(sorted(hand)))


def legal(s):
    seat = GAME.to_act(s)[0]
    return [GAME.action_to_str(a) for a in GAME.legal_actions(s, seat)]


def where(s, q):
    t = s.panels[q].tile
    return B.NAMES[t] if t >= 0 else "dead"


