"""Infection's components as data: the die faces, the protein values and the 36 molecule cards.

The seed rulebook lost its pictures, so these are designed here (see rules.md, "The cards"). A card
is a row ``(code, proteins, power)``; its victory points come from its proteins. Every card can be
completed with the three coloured dice alone (a test checks this), so no card needs a power.
"""

from __future__ import annotations

from collections import Counter
from typing import TypeVar

T = TypeVar("T")

# Proteins (one letter each) and their victory points: rarer on the dice -> worth more.
PROTEINS = "GBYRP"
PROTEIN_NAMES = {"G": "green", "B": "blue", "Y": "yellow", "R": "red", "P": "purple"}
PROTEIN_VP = {"G": 1, "B": 2, "Y": 3, "R": 3, "P": 4}
MICROSCOPE = "M"

# Die faces. The white die shows microscopes only (a count); the coloured dice show one symbol.
BLANK = "X"
WHITE_FACES = (0, 0, 1, 1, 2, 2)
BLUE_FACES = ("M", "G", "B", "R", "X", "X")
YELLOW_FACES = ("M", "Y", "P", "G", "B", "X")
DICE = (BLUE_FACES, BLUE_FACES, YELLOW_FACES)  # the three coloured dice: blue, blue, yellow
DIE_NAMES = ("blue 1", "blue 2", "yellow")

# Powers (one-time, on some cards). SUB_<protein> plays as that protein.
SUB, RAT, DOUBLE, WILD, ANY, REWHITE, MOVE = "sub", "rat", "double", "wild", "any", "rewhite", "move"
POWER_NAMES = {
    SUB: "protein substitute", RAT: "the rat", DOUBLE: "double protein", WILD: "wild protein",
    ANY: "target any card", REWHITE: "re-roll the white die", MOVE: "move your meeple",
}

LEVELS = ("I", "II", "III")

# (proteins, power) per card; power is "" (none), a protein letter for a substitute, or a power id.
_DECKS: tuple[tuple[tuple[str, str], ...], ...] = (
    (  # Level I: one microscope
        ("GG", ""), ("GB", "G"), ("BB", ""), ("GR", ""), ("GY", REWHITE), ("BG", ""),
        ("GP", ""), ("BR", ANY), ("GGB", ""), ("BY", "B"), ("GBR", ""), ("RG", MOVE),
    ),
    (  # Level II: two microscopes
        ("GGR", ""), ("BBG", "Y"), ("GRY", ""), ("BRG", DOUBLE), ("RRG", ""), ("BBY", ""),
        ("GBP", WILD), ("RBY", ""), ("BRP", "R"), ("GGY", ""), ("RRB", REWHITE), ("GRP", ""),
    ),
    (  # Level III: three microscopes
        ("RRY", ""), ("RRP", RAT), ("BRY", "P"), ("BRP", ""), ("RRP", ""), ("BBP", DOUBLE),
        ("GRP", ANY), ("RRB", ""), ("RBY", MOVE), ("BBR", WILD), ("RRY", ""), ("RRP", RAT),
    ),
)

N_CARDS = 36
CARD_LEVEL = tuple(level for level, deck in enumerate(_DECKS) for _ in deck)
CARD_CODE = tuple(f"{LEVELS[level]}-{i + 1}" for level, deck in enumerate(_DECKS)
                  for i in range(len(deck)))
CARD_PROTEINS = tuple("".join(sorted(p, key=PROTEINS.index)) for deck in _DECKS for p, _ in deck)
CARD_POWER = tuple(w for deck in _DECKS for _, w in deck)
CARD_VP = tuple(sum(PROTEIN_VP[c] for c in p) for p in CARD_PROTEINS)
DECK_IDS = tuple(tuple(i for i in range(N_CARDS) if CARD_LEVEL[i] == level) for level in range(3))
CODE_TO_CARD = {code: i for i, code in enumerate(CARD_CODE)}


def power_kind(card: int) -> str:
    """``sub`` for a protein substitute, else the power id ("" for none)."""
    power = CARD_POWER[card]
    return SUB if power in PROTEIN_VP else power


def power_label(card: int) -> str:
    power = CARD_POWER[card]
    if not power:
        return ""
    if power in PROTEIN_VP:
        return f"{PROTEIN_NAMES[power]} substitute"
    return POWER_NAMES[power]


def completable(needed: Counter[str] | str, dice: tuple[int, ...] = (0, 1, 2)) -> bool:
    """Whether the proteins ``needed`` can all show at once on the coloured dice ``dice``
    (each die shows one protein)."""
    need = list(Counter(needed).elements())
    if len(need) > len(dice):
        return False

    def place(k: int, free: tuple[int, ...]) -> bool:
        if k == len(need):
            return True
        return any(need[k] in DICE[d] and place(k + 1, tuple(f for f in free if f != d))
                   for d in free)

    return place(0, tuple(dice))


def face_odds(faces: tuple[T, ...]) -> list[tuple[T, float]]:
    """Distinct faces of a die with their probabilities."""
    counts = Counter(faces)
    return [(face, n / len(faces)) for face, n in counts.items()]
