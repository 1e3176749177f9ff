"""Cell Management: every point the seed leaves open, decided once (rules.md repeats them), and
the limits those decisions set."""

from __future__ import annotations

RETURNS_PER_ROUND = 1  # at most one escaped captive goes back to prison after each walk
DEFAULT_MAX_ROUNDS = 100  # the puzzle is lost when this many rounds pass without a win
MAX_ROUNDS_LIMIT = 10_000


def hostile_count(species: int) -> int:
    """Three hostile hideouts with six species; two in the four- and five-species variants."""
    return 3 if species == 6 else 2


CLARIFICATIONS: tuple[tuple[str, str], ...] = (
    ("choose any member of an escaped species",
     "After each walk you may send back at most one escaped captive, or choose \"done\" to send "
     "none. A captive may go back only while its species' hideout is empty, since a hideout holds "
     "a single captive. When no escaped captive can go back, this choice is skipped."),
    ("one captive will try to escape",
     "If the examined cell is empty when its escape condition holds, nobody tries: nothing moves, "
     "and the guards go on to search the hideout next to that cell as usual."),
    ("if the adjacent Secret Hideout is Friendly AND Occupied",
     "The condition is judged at the moment the guards reach each cell, on the ship as it is "
     "then: captives that moved earlier in the same walk count (the sample game's 5 escapes "
     "because the Ace reached its hideout a moment before)."),
    ("the captive is instead placed in the middle",
     "When a captive reaches its hideout and finds it taken, one captive of that species ends in "
     "the centre and one stays in the hideout (both are the same species, so it makes no "
     "difference which one). The one in the hideout can still be found by a later search."),
    ("look at the hideout location adjacent to this cell",
     "At each position the guards first examine the cell, then search the hideout beside it (the "
     "same hideout that decided the escape). A captive found there goes back to its own cell."),
    ("Repeat these steps until",
     "The puzzle is won the moment the last missing species reaches the centre; the guards stop "
     "there. It is lost if you give up, or after a round limit (100 rounds unless set otherwise) "
     "passes without a win, so that every game ends."),
    ("which of the species will make a disturbance first",
     "You may start the guards at any cell, even an empty one: the cell still draws them, and "
     "the walk then goes once round the ship from there as usual."),
    ("Set aside the null Moon tile",
     "The setup follows the seed's chain: the first cell drawn goes beside the Null hideout, each "
     "next cell beside the hideout of the previous cell's species, and the Null cell closes the "
     "chain. So following 'hideout -> the cell beside it -> that species' hideout' visits every "
     "position in one loop. The whole shuffle is one recorded chance step."),
    ("only making two of the hideouts hostile",
     "The four-species variant uses N, A, 2 and 3, the five-species one N, A, 2, 3 and 4; both "
     "have two hostile hideouts. The full game has six species and three hostile hideouts."),
    ("a 2 has managed to escape all the way",
     "The seed's round two cannot be reproduced: eight ships fit its round one (one of them "
     "follows the printed chain Null, 4, 2), and on none of them does a walk from cell Null free "
     "a 2 (on the sample ship it searches hideout 2 just before it examines cell 2). Round one "
     "is reproduced exactly."),
)
