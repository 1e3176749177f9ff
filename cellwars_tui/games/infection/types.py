"""Infection's types: options, the state, actions, events and the pure helpers over them
(microscopes, free spots, missing proteins) that the rules and the bot share.

Apart from :mod:`.rules` (the game) so that :mod:`.bot`, which the game's bot hook calls,
imports them without importing the game.
"""

from __future__ import annotations

from collections import Counter
from typing import Annotated, Union

import msgspec

from ...core import Action, Event, Options
from . import cards as K
from . import clarifications as C

WHITE, SEARCH, CURE, REST = "white", "search", "cure", "rest"
NO_SEAT = -1
N_DICE = 3
CLEARED, OVERRUN = "cleared", "overrun"


# ----------------------------------------------------------------------------------------------
# Options, state
# ----------------------------------------------------------------------------------------------
class InfectionOptions(Options, frozen=True, kw_only=True):
    players: int = 1
    round_seconds: int = C.ROUND_SECONDS_DEFAULT
    # bot teammates' pace: easy, normal or hard, or one per seat ("hard,easy"); empty: each bot's
    # level sets its pace (clarifications.LEVEL_PACES)
    paces: Annotated[str, msgspec.Meta(
        description="empty: each bot's level; else easy, normal or hard")] = ""
    # Shorter rounds by team size (clarifications.TENSE_ROUND_SECONDS): a team game as tense as
    # the solo one. It sets ``round_seconds`` itself, so every table reads the length it plays.
    tense_team_game: bool = False

    def __post_init__(self) -> None:
        secs = C.effective_round_seconds(self.players, self.round_seconds, self.tense_team_game)
        if secs != self.round_seconds:
            msgspec.structs.force_setattr(self, "round_seconds", secs)


class Player(msgspec.Struct, frozen=True, array_like=True):
    stage: str = WHITE
    white: int = -1  # microscopes on the white die; -1 before it is rolled
    dice: tuple[str, ...] = ("", "", "")  # "" = not rolled; else a face symbol
    held: tuple[bool, ...] = (False, False, False)  # held (search) or set aside (cure)
    target: int = -1  # the card under this player's meeple
    supplied: tuple[str, ...] = ()  # proteins given by powers for the current molecule
    doubled: int = -1  # the set-aside die that counts twice
    cards: tuple[int, ...] = ()  # molecules taken, in order
    spent: tuple[int, ...] = ()  # taken cards whose power has been used


class InfectionState(msgspec.Struct, frozen=True, kw_only=True):
    players: int
    round: int = 1
    shuffled: int = 0  # decks shuffled so far during setup (chance steps)
    decks: tuple[tuple[int, ...], ...] = ((), (), ())  # face down, top first (-1: unknown)
    columns: tuple[tuple[int, ...], ...] = ((), (), ())  # face up, top first
    seats: tuple[Player, ...] = ()
    pending: int = NO_SEAT  # the seat whose roll waits for its chance step
    pending_white: bool = False  # that roll is of the white die
    result: str = ""  # "" while playing, CLEARED or OVERRUN


# ----------------------------------------------------------------------------------------------
# Actions
# ----------------------------------------------------------------------------------------------
class RollWhite(Action, frozen=True, tag="white"):
    pass


class Roll(Action, frozen=True, tag="roll"):
    pass


class Hold(Action, frozen=True, tag="hold"):
    die: int  # 0, 1 (blue) or 2 (yellow): toggles


class Target(Action, frozen=True, tag="target"):
    column: int
    pos: int  # 0 = top card
    card: int = -1  # a "target any card" power used for this, if any


class Claim(Action, frozen=True, tag="claim"):
    pass


class Rest(Action, frozen=True, tag="rest"):
    pass


class Supply(Action, frozen=True, tag="supply"):
    card: int  # a substitute or wild protein card
    protein: str


class Double(Action, frozen=True, tag="double"):
    card: int
    die: int


class Rat(Action, frozen=True, tag="rat"):
    card: int


class Rewhite(Action, frozen=True, tag="rewhite"):
    card: int


class Move(Action, frozen=True, tag="move"):
    card: int
    column: int
    pos: int


class TimeUp(Action, frozen=True, tag="time-up"):
    """System action (seat CHANCE): round ``round``'s timer ran out."""

    round: int


class Clock(Action, frozen=True, tag="clock"):
    """System action (seat CHANCE) that changes nothing: round ``round``'s timer has reached the
    step's recorded time. The table records it when a player leaves the table (and every few
    seconds without an action), so a resumed game keeps all the time already spent."""

    round: int


class Shuffle(Action, frozen=True, tag="shuffle"):
    level: int
    order: tuple[int, ...]


class WhiteFace(Action, frozen=True, tag="white-die"):
    seat: int
    face: int


class DiceFaces(Action, frozen=True, tag="dice"):
    seat: int
    faces: tuple[str, ...]  # "" for a die that was not rolled (held / set aside)


InfectionAction = Union[RollWhite, Roll, Hold, Target, Claim, Rest, Supply, Double, Rat, Rewhite,
                        Move, TimeUp, Clock, Shuffle, WhiteFace, DiceFaces]
PLAYER_ACTIONS = (RollWhite, Roll, Hold, Target, Claim, Rest, Supply, Double, Rat, Rewhite, Move)


# ----------------------------------------------------------------------------------------------
# Events
# ----------------------------------------------------------------------------------------------
class Dealt(Event, frozen=True, tag="dealt"):
    per_column: int


class WhiteRolled(Event, frozen=True, tag="white-rolled"):
    seat: int
    face: int


class DiceRolled(Event, frozen=True, tag="rolled"):
    seat: int
    dice: tuple[str, ...]
    set_aside: tuple[bool, ...]


class Held(Event, frozen=True, tag="held"):
    seat: int
    die: int
    held: bool


class Targeted(Event, frozen=True, tag="targeted"):
    seat: int
    card: int


class Claimed(Event, frozen=True, tag="claimed"):
    seat: int
    card: int


class PowerUsed(Event, frozen=True, tag="power"):
    seat: int
    card: int
    detail: str = ""


class Rested(Event, frozen=True, tag="rested"):
    seat: int


class RoundOver(Event, frozen=True, tag="round-over"):
    round: int
    added: tuple[int, ...]  # new cards topping the columns


class GameOver(Event, frozen=True, tag="game-over"):
    result: str
    nobel: tuple[int, ...]


InfectionEvent = Union[Dealt, WhiteRolled, DiceRolled, Held, Targeted, Claimed, PowerUsed, Rested,
                       RoundOver, GameOver]


# ----------------------------------------------------------------------------------------------
# Helpers (pure)
# ----------------------------------------------------------------------------------------------
def microscopes(p: Player) -> int:
    return max(p.white, 0) + sum(1 for d in p.dice if d == K.MICROSCOPE)


def occupied(s: InfectionState) -> frozenset[int]:
    return frozenset(p.target for p in s.seats if p.target >= 0)


def top_free(s: InfectionState, column: int) -> int:
    """Position of the topmost card without a meeple in ``column`` (-1: none)."""
    taken = occupied(s)
    for pos, card in enumerate(s.columns[column]):
        if card not in taken:
            return pos
    return -1


def find_card(s: InfectionState, card: int) -> tuple[int, int]:
    for c, col in enumerate(s.columns):
        if card in col:
            return c, col.index(card)
    return -1, -1


def missing(p: Player) -> Counter[str]:
    """Proteins the targeted molecule still needs (counting supplies and set-aside dice)."""
    if p.target < 0:
        return Counter()
    need = Counter(K.CARD_PROTEINS[p.target])
    need.subtract(p.supplied)
    for i in range(N_DICE):
        if p.held[i]:
            need[p.dice[i]] -= 2 if p.doubled == i else 1
    return +need


def set_aside(p: Player) -> Player:
    """Set aside free dice that show a needed protein, while the rest stays rollable."""
    if p.stage != CURE:
        return p
    held = list(p.held)
    need = missing(p)
    for i in range(N_DICE):
        face = p.dice[i]
        if held[i] or need[face] <= 0:
            continue
        rest = need.copy()
        rest[face] -= 1
        others = tuple(d for d in range(N_DICE) if not held[d] and d != i)
        if K.completable(+rest, others):
            held[i] = True
            need = +rest
    return msgspec.structs.replace(p, held=tuple(held))


def owned_powers(p: Player, kinds: tuple[str, ...]) -> list[int]:
    return [c for c in p.cards if c not in p.spent and K.power_kind(c) in kinds]


def vp(p: Player) -> int:
    return sum(K.CARD_VP[c] for c in p.cards)


def cards_left(s: InfectionState) -> int:
    return sum(len(col) for col in s.columns)


def column_name(column: int) -> str:
    return K.LEVELS[column]
