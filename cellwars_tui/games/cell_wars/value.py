"""Cell Wars: the search bot's value of a position, learned from self-play.

:func:`value` is the chance that the cancer camp wins minus the chance that the immune camp wins
(a tie counts for neither), each a logistic function of a few plain :func:`features` of the state:
the tissue count against the rounds left, each camp's living cells, Biomass and cards, the immune
cells' Attack and range, the cancer cells' division and dodge cards, and how exposed the cancer
cells are to the immune cells' reach. The weights come from greedy self-play
(``python -m cellwars_tui.bench.games.cell_wars_value``, which prints them); the search bot
(``bot.py``) plays each candidate to the end of the current panel's individual round (a cancer
cell's until the next immune cell has answered) and asks this value there, so its playouts are
short and its estimates far less noisy than whole games.

Pure: no textual or rich, no randomness.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from . import board as B
from . import state as ST
from .cards import CANCER, CARDS, IMMUNE

DIST = B.DIST
IMM = ST.CAMP_PANELS[IMMUNE]
CAN = ST.CAMP_PANELS[CANCER]


def features(s: ST.CWState) -> list[float]:
    """The features of a position in play (the first is the constant 1)."""
    tiles = s.tiles
    n = 0
    solid = 0
    for t in tiles:
        if t:
            n += 1
            if t == ST.SOLID_T:
                solid += 1
    prog = (s.round - 1) + s.panel / 6.0  # rounds played
    left = max(0.0, float(ST.C.ROUNDS) - prog)
    lf = left / 16.0
    x = (n - 7) / 10.0
    need = max(0, ST.C.CANCER_WIN_ABOVE + 1 - n) / max(left, 0.5) / 4.0  # tiles a round to win
    ca = [q for q in CAN if s.panels[q].tile >= 0]
    ia = [q for q in IMM if s.panels[q].tile >= 0]
    cbio = sum(s.panels[q].biomass for q in ca)
    clow = sum(1 for q in ca if s.panels[q].biomass <= 1)
    clim = sum(ST.effective_limit(s.panels[q]) for q in ca)
    relapse = sum(1 for q in CAN if s.panels[q].tile < 0 and s.panels[q].limit >= 2) if solid else 0
    ibio = sum(s.panels[q].biomass for q in ia)
    regen_on = ST.edition(s).regen
    iatt = rng_ = roll = iregen = 0
    for q in ia:
        for c, _ in s.panels[q].active:
            card = CARDS[c]
            iatt += card.attack
            rng_ += card.range
            roll += card.roll_bonus
            iregen += card.regen * regen_on
    div = dodge = cregen = 0
    for q in ca:
        for c, _ in s.panels[q].active:
            card = CARDS[c]
            div += card.division
            dodge += card.dodge
            cregen += card.regen * regen_on
    chand = sum(len(s.panels[q].hand) for q in CAN)
    ihand = sum(len(s.panels[q].hand) for q in IMM)
    exp1 = exp3 = 0
    near = 0.0
    for c in ca:
        ct = s.panels[c].tile
        best = 8
        for q in ia:
            d = DIST[s.panels[q].tile][ct]
            r = ST.range_of(s, q)
            if d <= r + 1:
                exp1 += 1
            elif d <= r + 3:
                exp3 += 1
            if d - r < best:
                best = d - r
        near += min(best, 8)
    near = near / 8.0 / max(1, len(ca))
    on_normal = sum(1 for q in ca if tiles[s.panels[q].tile] == 0)
    walls = sum(s.panels[q].walls for q in CAN)
    na = len(ca) / 3.0
    return [
        1.0, x, x * x, lf, x * lf, need, max(0, 6 - n) / 3.0, solid / 3.0,
        na, cbio / 15.0, clow / 3.0, clim / 15.0, relapse / 3.0,
        len(ia) / 3.0, ibio / 12.0, iatt / 3.0, rng_ / 3.0, roll, iregen / 3.0,
        chand / 3.0, ihand / 3.0, div, dodge / 3.0, cregen / 3.0, walls / 2.0, len(s.walls) / 3.0,
        exp1 / 3.0, exp3 / 3.0, near, on_normal / 3.0,
        na * lf, iatt * lf / 3.0, (len(ia) / 3.0) * lf, div * lf, x * na, need * na,
    ]


NAMES = (  # the features in order, for reading the weights
    "bias", "x", "x2", "left", "x*left", "need", "low", "solid", "calive", "cbio", "clow", "clim",
    "relapse", "ialive", "ibio", "iatt", "irange", "iroll", "iregen", "chand", "ihand", "div",
    "dodge", "cregen", "cwalls", "bwalls", "exp1", "exp3", "near", "onnormal", "calive*left",
    "iatt*left", "ialive*left", "div*left", "x*calive", "need*calive")

# Printed by `python -m cellwars_tui.bench.games.cell_wars_value --games 6000 --seed 300000`:
# 88,497 positions of 6,000 greedy games of the third edition (two players).
CANCER_W = (-2.1254, -0.3279, 2.0431, -0.1453, -0.0064, -1.8529, -0.0014, 1.6720, 1.0157, 2.4965, -1.5963, 0.8730, 0.2265, -1.9368, -1.0101, -0.7539, -0.4486, -0.4560, 0.0000, 0.4230, -0.3760, 0.9569, 1.1669, 0.0000, -0.0801, -0.1705, -0.3791, -0.1192, 0.1605, 0.3827, 1.4225, -0.5602, -0.0942, 0.7017, 1.6021, -0.7214)
IMMUNE_W = (1.5754, 0.2399, -1.8506, 0.7828, 0.4690, -0.4339, -0.0043, -1.8741, -1.2801, -2.5697, 1.6030, -0.9416, -0.4222, 1.6637, 1.2000, 0.7301, 0.6362, 0.4558, 0.0000, -0.4727, 0.4926, -0.9755, -1.4115, 0.0000, -0.1025, 0.0572, 0.4739, 0.2096, -0.5916, -0.2654, -0.8336, 0.6102, 0.8389, -0.6912, -1.7814, -0.5903)


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, z))))


def _dot(f: Sequence[float], w: Sequence[float]) -> float:
    return sum(a * b for a, b in zip(f, w))


def value(s: ST.CWState) -> float:
    """P(the cancer camp wins) - P(the immune camp wins), in [-1, 1], for a position in play."""
    f = features(s)
    return _sigmoid(_dot(f, CANCER_W)) - _sigmoid(_dot(f, IMMUNE_W))
