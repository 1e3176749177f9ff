"""How the Cell Wars table names and marks things, in plain characters and words (no UI imports):
the pieces' letters, the tissues' and spots' glyphs and words, the steps' titles and the
direction keys. The board, the side panel and the decisions share them."""

from __future__ import annotations

from . import rules as R

# -- glyphs (plain characters only) ------------------------------------------------------------
TISSUE_GLYPHS = ("·", "x", "X")  # normal, cancer, solidified
TISSUE_WORDS = ("normal", "cancer", "solidified")
PIECE_MARKS = ("A", "a", "b", "B", "G", "g")  # by panel: Ia Ca Cb Ib Ig Cg
WALL_GLYPH = "#"
SPOT_GLYPHS = ("C", "C", "C", "C", "+", "F", "~", "~")  # by SIGN_KINDS index (inactive CARD: c)
SPOT_WORDS = ("CARD sign", "CARD sign", "CARD sign", "CARD sign", "Biomass generator",
              "Wall factory", "Blood vessel", "Blood vessel")
SPOT_SHORT = ("CARD sign", "CARD sign", "CARD sign", "CARD sign", "generator", "factory",
              "vessel", "vessel")
SETUP_SPOT_WORDS = ("CARD sign 1 of 4", "CARD sign 2 of 4", "CARD sign 3 of 4",
                    "CARD sign 4 of 4", "Biomass generator", "Wall factory",
                    "Blood vessel 1 of 2", "Blood vessel 2 of 2")

# The ten steps of an individual round, as numbered in rules.md.
STEP_TITLES = {
    R.START: (0, "start"), R.RELAPSE: (1, "relapse"), R.PREDRAW: (2, "pre-draw"),
    R.WALLS: (3, "collect walls"), R.VESSEL: (4, "blood vessel"), R.FREE: (5, "card drawing"),
    R.DRAW: (5, "card drawing"), R.CARDS_STEP: (6, "play cards"), R.CARDMOVE: (6, "card move"),
    R.SPECIAL: (7, "special action"), R.MOVE: (8, "movement"), R.ATTACK: (9, "attack"),
    R.END: (10, "recovery"),
}

DIRECTION_KEYS = {"d": 0, "e": 1, "w": 2, "a": 3, "z": 4, "x": 5}  # E NE NW W SW SE
KEY_OF_DIRECTION = {d: k for k, d in DIRECTION_KEYS.items()}

# What every glyph and mark of the board means: the keys panel (k) shows it under the keys, the
# rules page's "On the screen" says the same (a test keeps them to what the board draws).
LEGEND = (
    "·  normal tissue       C c  CARD sign, active / inactive\n"
    "x  cancer tissue       +    Biomass generator\n"
    "X  solidified tissue   F    Wall factory\n"
    "#  a wall              ~    Blood vessel\n"
    "A B G  immune cells alpha beta gamma; a b g  cancer cells\n"
    "[ ] cursor · orange tiles: Enter acts there · blue outline: range\n"
    "Side panel: Att 2+  a card's boost for this round is in it (Adjuvant)\n"
    "dead, relapse 1/4  a dead cancer cell may come back on a solidified\n"
    "  tile with Biomass 1 of a limit one lower (4); dead for good: never"
)
