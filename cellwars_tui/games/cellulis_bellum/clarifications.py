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
NUCLEUS_START = (parse_point("d2"), parse_point("d5"))
FIRST_PLAYER = 0  # Yellow
# When a newly generated virus may act (an option): at once, in the turn it is made (the seed
# sets no wait), or only from its owner's next turn (a variant).
VIRUS_AT_ONCE, VIRUS_NEXT_TURN = "acts at once", "acts next turn"
NEW_VIRUS_DEFAULT = VIRUS_AT_ONCE
TURN_LIMIT_DEFAULT = 200  # turns in all: a safety guard; then the game is scored as it stands
TURN_LIMIT_MIN, TURN_LIMIT_MAX = 2, 400
VIRUS_GENERATIONS_PER_TURN = 1

# The first rules (rules version 1), which records made with them are replayed under.
V1_OPTIONS = {"board": CORNERS.key, "new_virus": VIRUS_AT_ONCE, "turn_limit": 80}

CLARIFICATIONS: tuple[tuple[str, str], ...] = (
    ("5 sur 6 cases ainsi que leurs diagonales",
     "The board is 6 squares wide and 5 high, both diagonals drawn in every square. Pieces stand "
     "on the 42 grid intersections (files a-g, ranks 1-6); the crossing of two diagonals in the "
     "middle of a square is not a point. A piece moves to any of its 8 neighbours along a line "
     "or a diagonal. 'Adjacent' always means one of these 8 neighbours."),
    ("forment un losange",
     "A rhombus of four is the four points one step left, right, above and below a centre point "
     "(its sides are diagonals); the centre itself may hold anything. A rhombus of eight is the "
     "ring of eight points two steps from a centre point along the lines and diagonals of the "
     "rhombus of side two (the points at d1, c2, e2, b3, f3, c4, e4, d5 around d3)."),
    ("Placer les Noyaux comme ci-dessus",
     "The board starts empty except for the nuclei: Yellow's on d2, Violet's on d5. Yellow "
     "plays first."),
    ("Le Noyau est considéré comme une colonie",
     "The nucleus is a colony of its own and never merges with cells next to it; the virus is "
     "no colony. So a spawn turn gives one cell next to the nucleus, plus one next to each colony "
     "of cells. A burst moves cells only; the nucleus moves only by its own action."),
    ("On peut poser une cellule par colonie",
     "Colonies are taken as they stand when the spawn begins: each new cell must be next to a "
     "colony that has not yet had its cell this turn (new cells do not extend a colony in the "
     "same turn). When a point touches several colonies, any attribution that gives each colony "
     "at most one cell will do. A player places one or more cells, then ends the spawn (or it "
     "ends by itself when nothing more can be placed). A player who has no cell left in reserve "
     "cannot spawn."),
    ("Chaque cellule d'une colonie peut être déplacée",
     "A burst first names a colony, then moves its cells one after the other, each at most once, "
     "any distance in a straight line along one of the 8 directions, jumping over anything, onto "
     "an empty point (which may be a point another cell of the burst has just left). At least "
     "one cell must move; the player ends the burst when they like."),
    ("afin de détruire les cellules adverses adjacentes",
     "Apoptosis removes the four cells of the rhombus to their owner's reserve and destroys every "
     "enemy cell next to any of the four (the centre point counts). Apoptoses happen only at the "
     "start of the turn, before the main action, as many as the player wants."),
    ("Le Virus peut être généré",
     "Generating the virus is not one of the four main actions: it may be done once a turn at "
     "the start of the turn, among the apoptoses, and the new virus may act in the same turn. The "
     "eight points must hold the player's cells, and may include the player's nucleus (which "
     "stays) and the player's virus (which moves to the centre, renewed). A player with a virus "
     "on the board may generate only with that virus in the rhombus. A fresh virus has two uses."),
    ("détruire toutes les pièces",
     "A virus shot destroys every piece on the chosen ray from the virus to the board edge, "
     "whatever its colour: cells, the other virus, and nuclei (including one's own). A shot must "
     "point at least one point onto the board. A virus move goes one step to an empty neighbour. "
     "After its second use the virus leaves the board and may be generated again later."),
    ("encadrée par des cellules adverses",
     "At the end of every turn each cell whose two neighbours on one axis (vertical, horizontal "
     "or either diagonal) are both enemy cells changes colour. All such cells are found on the "
     "position at the end of the turn and change together, once (no chain in the same turn). "
     "Only cells flank; the board edge, nuclei and viruses do not. If the new owner has no cell "
     "left in reserve, the flanked cell is removed instead."),
    ("lorsque l'un des deux noyaux est détruit",
     "The game ends at the end of the turn in which a nucleus is destroyed (phagocytosis still "
     "happens). If both nuclei die in the same shot the game ends just the same and is scored "
     "by territory like any other."),
    ("les noyaux restent en place",
     "A destroyed nucleus stays on its point for the final count, so its player can still win."),
    ("le nombre de triangles le composant",
     "The two diagonals of a square cut it into four triangles that meet at its centre, so the "
     "board holds 30 x 4 = 120 triangles. Every side of a triangle lies on a line or a diagonal "
     "of the board (or on its edge), so a wall of cells never splits one: a triangle is wholly "
     "inside a territory or wholly outside it, and a territory's size is how many it holds."),
    ("une zone dans laquelle est contenue un seul Noyau",
     "A player's walls are the sides between two of their own cells (lines and diagonals; the "
     "nucleus and virus are not walls). Their territory is the set of triangles reachable from "
     "their own nucleus without crossing one of their walls, provided the enemy nucleus is not "
     "in it; otherwise it is 0. Each player's territory is counted with their own walls only, "
     "so territories may overlap. The larger territory wins; equal territories are a draw."),
    ("30 minutes environ",
     "So that every game ends, a game also ends after a turn limit (an option, 80 turns in all "
     "by default) and is then scored by territory as it stands."),
    ("s'il en a la possibilité",
     "A player who has no main action at all (no spawn, burst, virus use or nucleus move) may "
     "still make apoptoses, then passes."),
)
