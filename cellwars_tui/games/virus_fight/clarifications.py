"""Every decision Virus Fight makes where the seed rulebook is silent or ambiguous, in one place.

The constants below are what the engine uses; ``CLARIFICATIONS`` pairs a short quoted fragment of
the seed with the decision in our own words. rules.md repeats these items under "Clarifications"
(a test checks that each seed fragment appears there). The first four items are the designer's own
rulings (2008 discussion); the rest are ours.
"""

from __future__ import annotations

MAX_PROGRAM = 5  # instructions in a secret program
MIN_PROGRAM = 1
# The round limit: a game still running after it is a stalemate. Since rules version 2 it is
# ROUNDS_PER_RIVAL rounds for each rival to cut off (50 at two players, 100 at three, 150 at
# four); rules version 1 stopped every game at ROUND_LIMIT_V1 rounds, which ended most
# four-player games on the limit (measured on the rules page).
ROUNDS_PER_RIVAL = 50
ROUND_LIMIT_V1 = 50
ROUND_LIMIT_DEFAULT = ROUND_LIMIT_V1  # (a position written without its limit: "3" is "3/50")
ROUND_LIMIT_MIN, ROUND_LIMIT_MAX = 5, 500


def round_limit(players: int, rounds_per_rival: int = ROUNDS_PER_RIVAL, fixed: int = 0) -> int:
    """The round limit of a game: ``fixed`` when set (an option; records of rules version 1
    carry 50), else ``rounds_per_rival`` for each rival."""
    return fixed or rounds_per_rival * (players - 1)


# Home lines: seats sit clockwise South, West, North, East. Each seat's home line is given from
# that seat's left to its right, as (file, rank) pairs with rank 1 at the South edge (index 0).
HOME_5 = (
    tuple((f, 0) for f in range(5)),  # South: a1..e1
    tuple((4 - f, 4) for f in range(5)),  # North: e5..a5 (its left is the east side)
)
HOME_6 = (
    tuple((f, 0) for f in range(5)),  # South: a1..e1 (f1 belongs to East)
    tuple((0, 5 - r) for r in range(5)),  # West: a6..a2 (a1 belongs to South)
    tuple((5 - f, 5) for f in range(5)),  # North: f6..b6 (a6 belongs to West)
    tuple((5, r) for r in range(5)),  # East: f1..f5 (f6 belongs to North)
)
SIDE_NAMES_2 = ("South", "North")
SIDE_NAMES_6 = ("South", "West", "North", "East")

CLARIFICATIONS: tuple[tuple[str, str], ...] = (
    ("take any one of his spare instructions",
     "Designer ruling: a WRITE with no spare instruction (or with no empty space next to the "
     "active block) places nothing, and the marker still has to step."),
    ("otherwise the active player is eliminated",
     "Designer ruling: a marker that cannot step is removed, so a program reduced to a lone "
     "instruction loses."),
    ("any empty block (not occupied by any other player)",
     "Designer ruling: JUMP may land on another instruction of the player's own active block "
     "(never on one carrying another marker) or on any instruction of a block that carries no "
     "marker at all. A JUMP with nowhere to land eliminates the player."),
    ("to be used again at a later time",
     "Designer ruling: an erased instruction joins the spares of the player who erased it and "
     "may be written again later, whoever owned it first. Instructions carry no owner colour "
     "in play: only type and priority count."),
    ("A 3-4 game will benefit from a bigger board (6x6)",
     "Two players play on 5x5, three or four on 6x6. Seats sit clockwise South, West, North, "
     "East (three players use South, West, North). On 5x5 a home line is the whole edge row; on "
     "6x6 each home line is five squares of its edge, leaving out the corner on that player's "
     "right, so the four lines do not overlap."),
    ("They can use up to 5 instructions",
     "A program holds 1 to 5 different instructions from the player's twelve. It is built one "
     "instruction at a time, left to right, and the marker is put on one of them before the "
     "player declares it ready. Nobody sees another player's program or marker until all are "
     "ready."),
    ("place them on the board, on the row",
     "After the reveal (and the choice of the first player) the players place their programs "
     "one after another in turn order, each choosing where along its home line the program "
     "starts. A placement may not touch a program already placed; only if every placement would "
     "touch one (possible at a 6x6 corner) may it touch."),
    ("If there's yet another tie, decide randomly",
     "The random choice among the players still tied is a recorded chance step."),
    ("In case of a tie not involving the first player",
     "If the first player has been eliminated, the same rule picks among the remaining players, "
     "counting clockwise from the eliminated player's seat."),
    ("any other empty space adjacent orthogonally",
     "MOVE takes an unmarked instruction of the active block to an empty square next to another "
     "instruction of that block (the square it leaves does not count). When no instruction can "
     "be moved, MOVE does nothing and the marker still steps."),
    ("the player must target an actual one",
     "The edge of the board is not an empty space. When every neighbour of the block's ERASE "
     "instructions is marked (so nothing may be erased) and none is empty, ERASE does nothing."),
    ("cannot be affected in any way",
     "A marked instruction (anyone's marker, the player's own included) can be neither moved nor "
     "erased, and a marker never steps or jumps onto an instruction carrying another marker."),
    ("in case of a stalemate (agreed by both players)",
     "On their turn, instead of running the instruction, a player may offer a stalemate; every "
     "other running player then answers at once. If all agree the game ends as a stalemate; "
     "one refusal and the offering player plays the turn (no second offer before it). A game "
     "still running after the round limit ends as a stalemate too, so no game runs forever: "
     f"{ROUNDS_PER_RIVAL} rounds for each rival to cut off ({round_limit(2)} rounds at two "
     f"players, {round_limit(3)} at three, {round_limit(4)} at four; an option). In a "
     "stalemate, among the players still running, most spare instructions wins, then the "
     "highest total of their pips; players still tied share the result. The search never offers "
     "(an easy or random bot's random move may); bots "
     f"answer by their search, and agree to any offer after round {ROUNDS_PER_RIVAL}."),
)
