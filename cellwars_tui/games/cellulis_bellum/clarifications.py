"""Every decision Cellulis Bellum makes where the seed rulebook is silent or unclear, in one place.

The constants are what ``rules.py`` uses; ``CLARIFICATIONS`` pairs a short quoted fragment of the
(French) seed with the decision in our own words. rules.md repeats them under "Clarifications" (a
test checks every fragment appears there). The board geometry itself lives in ``geometry.py``.
"""

from __future__ import annotations

from .geometry import BOARDS, CORNERS, FULL, parse_point

# The board (an option): the 72 intersections of the seed's lines, or the first rules' 42 corners.
BOARD_DEFAULT = FULL.key
BOARD_CHOICES = tuple(BOARDS)
CELLS_PER_PLAYER = 28
VIRUS_USES = 2
# Nuclei start on the middle file, one rank in from each player's edge (both boards).
def _point(name: str) -> int:
    point = parse_point(name)
    assert point is not None, name
    return point


NUCLEUS_START = (_point("d2"), _point("d5"))
FIRST_PLAYER = 0  # Yellow
# When a newly generated virus may act (an option): at once, in the turn it is made (the seed
# sets no wait), or only from its owner's next turn (a variant).
VIRUS_AT_ONCE, VIRUS_NEXT_TURN = "acts at once", "acts next turn"
NEW_VIRUS_DEFAULT = VIRUS_AT_ONCE
# Where a rhombus of eight may make a virus (an option; rules version 3 on): around a free corner
# or a free square centre (32 places), or around a free corner only (20: rules version 2).
RHOMBI_ANY, RHOMBI_CORNERS = "around corners and centres (32)", "around corners only (20)"
VIRUS_RHOMBI_DEFAULT = RHOMBI_ANY
TURN_LIMIT_DEFAULT = 200  # turns in all: a safety guard; then the game is scored as it stands
TURN_LIMIT_MIN, TURN_LIMIT_MAX = 2, 400

# The first rules (rules version 1), which records made with them are replayed under.
V1_OPTIONS = {"board": CORNERS.key, "new_virus": VIRUS_AT_ONCE, "turn_limit": 80,
              "virus_rhombi": RHOMBI_CORNERS}
# Rules version 2 (the 72-point board, 26-28 November 2026): a virus around corners only.
V2_OPTIONS = {"virus_rhombi": RHOMBI_CORNERS}

CLARIFICATIONS: tuple[tuple[str, str], ...] = (
    ("5 sur 6 cases ainsi que leurs diagonales",
     "The board is 6 squares wide and 5 high with both diagonals drawn in every square, and "
     "pieces stand on every point where its lines meet: the 42 corners of the squares (files "
     "a-g, ranks 1-6) and the 30 centres where a square's two diagonals cross (cd34 is the "
     "centre of c3-d3-d4-c4), 72 points. The rest of the seed fits this reading: 60 pieces for "
     "72 points, territory counted in the triangles the diagonals make, and a virus that appears "
     "on an intersection in the middle of eight cells. Two points are neighbours when a line "
     "joins them with no point in between: a corner has up to 8 (4 corners along the grid "
     "lines, 4 centres along the diagonals), a centre has the 4 corners of its square. "
     "'Adjacent' always means neighbours."),
    ("forment un losange",
     "A rhombus ('losange') is read as the everyday diamond: its sides run along the diagonals "
     "(a square with grid lines for sides is a 'carré'). Cells form one when they stand on every "
     "point of its outline. The rhombus of four is the smallest the lines draw: two corners "
     "joined by a grid line and the two centres on either side of it (apo d2-d3 names it by "
     "its corners; 49 on the board)."),
    ("l'intersection au centre du losange est libre",
     "The rhombus of eight ('huit cellules ... formant un losange') is the next size up: the "
     "same diamond twice as large, around a free point, the intersection in its middle. Around a "
     "corner (d3) its tips are the four corners one step along the grid (c3, d4, e3, d2) and the "
     "middles of its sides the four centres around d3 (20 such corners inside the board). Around "
     "a square centre (cd34) its tips are the four centres one square along the grid (cd23, "
     "de34, cd45, bc34) and its sides run through the four corners of the square (c3, d3, d4, "
     "c4) (12 such centres). Both meet the definition above and the seed's words, so both make a "
     "virus: 32 places (rules version 3; games recorded under version 2, which offered the 20 "
     "around corners only, replay and play on with those)."),
    ("Placer les Noyaux comme ci-dessus",
     "The picture is lost: the nuclei start on d2 (Yellow) and d5 (Violet), on the middle file "
     "one rank in from each player's edge, so that the board turned half a turn looks the same "
     "to each player; every other point starts empty. Yellow plays first (see 'How games end' "
     "for how much that is worth)."),
    ("Le Noyau est considéré comme une colonie",
     "The nucleus is a colony of its own and never merges with cells next to it; the virus is "
     "no colony. So a spawn turn gives one cell next to the nucleus, plus one next to each colony "
     "of cells. A burst moves cells only; the nucleus moves only by its own action."),
    ("On peut poser une cellule par colonie",
     "Colonies are taken as they stand when the spawn begins: each new cell must be next to a "
     "colony that has not yet had its cell this turn. When a point touches several colonies, "
     "any attribution that gives each colony at most one cell will do. A player places one or "
     "more cells, then ends the spawn (or it ends by itself when nothing more can be placed). A "
     "player who has no cell left in reserve cannot spawn."),
    ("relie entre elles deux colonies",
     "A new cell that links two colonies makes them one from the end of the spawn that placed "
     "it. During that spawn the colonies still count as they stood when it began: the linking "
     "cell is the cell of one of them, the other may still get its own, and a point next to "
     "the new cells only is not open."),
    ("Chaque cellule d'une colonie peut être déplacée",
     "A burst first names a colony, then moves its cells one after the other, each at most once, "
     "any distance in a straight line along a line of the board, jumping over anything, onto an "
     "empty point (which may be a point another cell of the burst has just left). A cell on a "
     "centre moves along the diagonals only. At least one cell must move; the player ends the "
     "burst when they like."),
    ("afin de détruire les cellules adverses adjacentes",
     "Apoptosis removes the four cells of the rhombus to their owner's reserve and destroys every "
     "enemy cell next to any of the four. Apoptoses happen only at the start of the turn, before "
     "the main action, as many as the player wants."),
    ("Le Virus peut être généré",
     "Generating the virus is not one of the four main actions: it may be done once a turn at "
     "the start of the turn, among the apoptoses, and the new virus may act in the same turn "
     "(its use is then the turn's main action). The seed sets no wait, and the threat is in plain "
     "sight: the eight cells must stand complete when the turn begins, so the opponent has had a "
     "whole turn facing them, knowing where the virus will appear and along which lines it will "
     "fire, to break one of them (an apoptosis, a flank, a shot) or to fill the free centre with "
     "a burst. A variant makes a new virus wait for its owner's next turn (option 'new virus: "
     "acts next turn'); measured, it makes games longer, though not clearly more drawn "
     "('How games end'). "
     "The eight points must hold the player's cells, and may include the player's nucleus "
     "(which stays) and the player's virus (which moves to the centre, renewed). A player with a "
     "virus on the board may generate only with that virus in the rhombus. A fresh virus has "
     "two uses."),
    ("détruire toutes les pièces",
     "A virus shot destroys every piece on the chosen ray from the virus to the board edge, "
     "whatever its colour: cells, the other virus, and nuclei, the shooter's own included. So "
     "a player ahead on territory may end the game by firing through their own nucleus: the "
     "seed's own example has a player win with a destroyed nucleus. A shot must point at least "
     "one point onto the board; a virus on a centre fires along the four diagonals only. A virus "
     "move goes one step to an empty neighbour. After its second use the virus leaves the board "
     "and may be generated again later."),
    ("encadrée par des cellules adverses",
     "At the end of every turn each cell whose two neighbours on one axis are both enemy cells "
     "changes colour. The axes are the lines through the cell: 'les axes horizontaux et "
     "verticaux' are the grid lines (a corner between two corners), 'les axes obliques' the "
     "diagonals (a corner between two centres, a centre between two corners). All such cells "
     "are found on the position at the end of the turn and change together, once (no chain in "
     "the same turn). Only cells flank; the board edge, nuclei and viruses do not. If the new "
     "owner has no cell left in reserve, the flanked cell is removed instead."),
    ("lorsque l'un des deux noyaux est détruit",
     "The game ends at the end of the turn in which a nucleus is destroyed (phagocytosis still "
     "happens). If both nuclei die in the same shot the game ends just the same and is scored "
     "by territory like any other."),
    ("les noyaux restent en place",
     "A destroyed nucleus stays on its point for the final count, so its player can still win."),
    ("le nombre de triangles le composant",
     "The two diagonals of a square cut it into four triangles that meet at its centre, so the "
     "board holds 30 x 4 = 120 triangles. Every side of a triangle is a segment between two "
     "neighbouring points (or lies on the board's edge), so a wall of cells never splits one: "
     "a triangle is wholly inside a territory or wholly outside it, and a territory's size is "
     "how many it holds."),
    ("une zone dans laquelle est contenue un seul Noyau",
     "A player's walls are the segments between two of their own neighbouring cells (the "
     "nucleus and virus are not walls). Their territory is the set of triangles reachable from "
     "their own nucleus without crossing one of their walls, provided the enemy nucleus is not "
     "in it; otherwise it is 0. Each player's territory is counted with their own walls only, "
     "so territories may overlap. The larger territory wins; equal territories are a draw."),
    ("30 minutes environ",
     "The game ends only when a nucleus is destroyed. So that every game ends, a safety limit "
     "(an option, 200 turns in all by default) also ends it, scored by territory as it stands; "
     "search bots playing each other rarely reach it ('How games end')."),
    ("s'il en a la possibilité",
     "A player who has no main action at all (no spawn, burst, virus use or nucleus move) may "
     "still make apoptoses, then passes."),
)
