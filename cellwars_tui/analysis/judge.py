"""Judgments and accuracy, for any number of players.

A decision is judged by how much the mover's own Win% drops against the move the analysis
prefers: ``drop = best[mover] - played[mover]`` (0 when the move played is the preferred one).

* inaccuracy ``?!``: a drop of at least 5 points, mistake ``?``: 10, blunder ``??``: 15
  (lichess's thresholds on its Win% scale, the same for 2 to 6 players because each seat's
  Win% is its own chance);
* chance steps (dice, shuffles, draws, the clock) and forced moves (a single legal move) are not
  judged;
* a searched drop counts only beyond the search's noise (``Decision.margin``: Student's 95%
  of the paired measurement's standard error, ``paired.py``); an exact one counts whole. So a
  move is judged only when its drop is beyond a threshold by more than its margin; one whose
  margin reaches over a threshold is *near* it (``Decision.near``) and gets the grade below.

A move's accuracy is lichess's curve on the same drop:
``accuracy = 103.1668 * exp(-0.04354 * drop) - 3.1669``, kept within 0..100 (a drop of 0 is 100,
5 is about 80, 10 about 62, 15 about 49, 30 about 24). A player's accuracy for the game is the
average over that player's judged decisions (forced moves left out).
"""

from __future__ import annotations

import math

INACCURACY, MISTAKE, BLUNDER = "inaccuracy", "mistake", "blunder"
THRESHOLDS = ((15.0, BLUNDER), (10.0, MISTAKE), (5.0, INACCURACY))
MARKS = {INACCURACY: "?!", MISTAKE: "?", BLUNDER: "??"}
JUDGMENTS = (INACCURACY, MISTAKE, BLUNDER)
EDGES = tuple(sorted(at_least for at_least, _ in THRESHOLDS))  # 5, 10, 15


def judgment(drop: float) -> str:
    """The judgment of a drop of ``drop`` points of the mover's Win% ("" for a good move)."""
    for at_least, name in THRESHOLDS:
        if drop >= at_least - 1e-9:
            return name
    return ""


def move_accuracy(drop: float) -> float:
    """lichess's accuracy of one move from its drop in Win% (0..100)."""
    value = 103.1668 * math.exp(-0.04354 * max(0.0, drop)) - 3.1669
    return max(0.0, min(100.0, value))


def mark(name: str) -> str:
    return MARKS.get(name, "")
