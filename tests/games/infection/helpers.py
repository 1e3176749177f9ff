"""Building Infection positions for tests: every die and shuffle is a recorded chance step the test
chooses (no RNG, no patching of the rules). One shortcut, :func:`give`, hands a seat a molecule card
as if it had taken it earlier; it is used only to test the powers in isolation (the bots-only games
and property tests earn every card through play)."""

from __future__ import annotations

import msgspec

from cellwars_tui.core import CHANCE
from cellwars_tui.games.infection import cards as K
from cellwars_tui.games.infection.rules import (GAME, DiceFaces, Roll, RollWhite, Shuffle,
                                                 Target, WhiteFace, top_free)


def card(code: str) -> int:
    return K.CODE_TO_CARD[code]


def start(players: int = 1, orders=None, **options):
    """A dealt game. Unless ``orders`` (three tuples of card codes) says otherwise, the decks were
    'shuffled' into card order: column I holds I-1, I-2, ... from the top."""
    s = GAME.initial_state(GAME.options_type(players=players, **options))
    for level in range(3):
        order = K.DECK_IDS[level] if orders is None else tuple(card(c) for c in orders[level])
        s = chance(s, Shuffle(level, order))
    return s


def play(s, seat, action):
    return GAME.apply(s, seat, action)[0]


def chance(s, action):
    return GAME.apply(s, CHANCE, action)[0]


def white(s, seat=0, face=1):
    """``seat`` rolls its white die and it shows ``face`` microscopes."""
    return chance(play(s, seat, RollWhite()), WhiteFace(seat, face))


def roll(s, seat, *faces):
    """Roll the free dice; ``faces`` for every die, '' for held ones ('-' is accepted too)."""
    faces = tuple("" if f == "-" else f for f in faces)
    return chance(play(s, seat, Roll()), DiceFaces(seat, faces))


def searching(players=1, seat=0, face=1, **options):
    """Every seat has rolled its white die: ``seat`` shows ``face``, the others 0."""
    s = start(players, **options)
    for i in range(players):
        s = white(s, i, face if i == seat else 0)
    return s


def reach(s, seat, level):
    """``seat`` (searching, white die on 2) rolls what it needs to reach column ``level``
    (0, 1 or 2): a microscope on the first blue die for level III, blanks otherwise."""
    first = "M" if level == 2 else "X"
    return roll(s, seat, first, "X", "X")


def targeting(code: str, players=1, seat=0, s=None):
    """``seat`` has its meeple on the card ``code``; its dice show only blanks and a microscope.
    A card below the top free one is reached with a 'target any card' power (I-8), given first."""
    if s is None:
        s = searching(players, seat, face=2)
    c = card(code)
    col = K.CARD_LEVEL[c]
    s = reach(s, seat, col)
    pos = s.columns[col].index(c)
    any_power = -1
    if pos != top_free(s, col):
        any_power = card("I-8")
        s = give(s, seat, "I-8")
    return play(s, seat, Target(col, pos, any_power))


def give(s, seat, code: str, spent: bool = False):
    """Move the card ``code`` from wherever it is into ``seat``'s taken cards (a test shortcut)."""
    c = card(code)
    cols = tuple(tuple(x for x in col if x != c) for col in s.columns)
    decks = tuple(tuple(x for x in d if x != c) for d in s.decks)
    p = s.seats[seat]
    p = msgspec.structs.replace(p, cards=p.cards + (c,), spent=p.spent + ((c,) if spent else ()))
    seats = list(s.seats)
    seats[seat] = p
    return msgspec.structs.replace(s, columns=cols, decks=decks, seats=tuple(seats))
