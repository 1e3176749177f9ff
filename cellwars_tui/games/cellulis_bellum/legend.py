"""How the Cellulis Bellum board draws things, in characters and words (no UI imports): the
pieces' glyphs, the empty points, the marks of lit targets, and the keys-and-legend text that
``i`` shows. The screen draws with these; rules.md's "On the screen" says the same (a test keeps
the three together)."""

from __future__ import annotations

from .position import CELL, NUCLEUS, VIRUS

# Glyphs by kind then owner (Yellow, Violet): shape tells the players apart without colour.
GLYPHS = {CELL: ("●", "■"), NUCLEUS: ("◉", "▣"), VIRUS: ("✱", "✚")}
DEAD_GLYPHS = ("⊗", "⊠")  # a destroyed nucleus, still told apart by shape
EMPTY_GLYPH = "·"  # an empty corner
EMPTY_CENTRE = "×"  # an empty square centre: the two diagonals cross there
TARGET_GLYPH = "◇"  # an empty point where Enter plays the lit move (a spawn, a burst, a step)
SHOT_GLYPH = "✶"  # an empty point on a lit ray of the virus (Enter fires that way)
GEN_GLYPH = "✧"  # a free point where the virus can be generated (after g)
LINE_GLYPHS = ("─", "│", "╱", "╲")  # the grid lines and the diagonals
CROSSING_GLYPH = "╳"  # two diagonals crossing off any point (the first rules' 42-point board)

# Every glyph the board may draw (the legend and the rules page name each one).
BOARD_GLYPHS = (*(g for pair in GLYPHS.values() for g in pair), *DEAD_GLYPHS, EMPTY_GLYPH,
                EMPTY_CENTRE, TARGET_GLYPH, SHOT_GLYPH, GEN_GLYPH, *LINE_GLYPHS,
                CROSSING_GLYPH)

KEYS_AND_LEGEND = (
    "arrows or h j k l: cursor along the lines · Home PgUp End PgDn (7 9 1 3):\n"
    "along the diagonals · Enter, space or a click: act on the cursor's point\n"
    "s spawn points · f aim the virus · a apoptosis (again: the next) · g virus\n"
    "d end a spawn or burst · p pass · x drop · t territories · m every move\n"
    "u / r undo / redo · ? rules · B biology · q leave the table\n"
    "\n"
    "● ■  cells: Yellow, Violet     ◉ ▣  nuclei     ⊗ ⊠  a destroyed nucleus\n"
    "✱ ✚  viruses (×2, ×1 under the board: uses left)\n"
    "·  empty corner   ×  empty square centre   ─ │ ╱ ╲  lines (╳ crossing)\n"
    "Lines drawn in a player's colour join two cells of one colony: walls.\n"
    "Orange: where Enter plays now (◇ an empty point, ✧ where the virus can\n"
    "appear, your cells of the rhombus a lit); underlined: pieces that can\n"
    "move; red ✶: the virus's rays; a piece on its colour: the one selected;\n"
    "reversed: the cursor; yellow ground: what the lesson points at.\n"
    "t tints each territory in its owner's colour (both: mixed); t again shows\n"
    "one side alone and why: grey, ground its cells close with no nucleus in\n"
    "it; red, its ground holding the enemy nucleus too (so it counts 0)."
)
