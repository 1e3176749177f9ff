"""Infection's bot teammate: a quick rule-of-thumb policy played at a human-like pace.

Search does not suit a real-time game: a bot here is a fixed policy (what a sensible player does
next) plus a pace (seconds between actions, ``clarifications.PACES``). The screen schedules each
bot's next action on the timer service; :mod:`.simulate` plays whole games on a simulated clock
(no real waiting) for tests, the benchmark and the win rates quoted in rules.md.
"""

from __future__ import annotations

import random

from ...ai.bots import Bot
from ...core import Action
from . import cards as K
from . import clarifications as C
from .types import (CURE, N_DICE, REST, SEARCH, WHITE, Claim, Double, Hold,
                    InfectionState, Rat, Rest, Rewhite, Roll, RollWhite, Supply, Target,
                    microscopes, missing, owned_powers, top_free)

ROLLS = (Roll, RollWhite, Rewhite)
RARITY = "PRYBG"  # rarest protein first: the one a wild protein should stand for


def choose(s: InfectionState, seat: int) -> Action:
    """The bot's next action for ``seat`` (always legal while the seat is to act)."""
    p = s.seats[seat]
    if p.stage == WHITE:
        return RollWhite()
    if p.stage == SEARCH:
        mics = microscopes(p)
        for col in (2, 1, 0):  # the highest column the microscopes reach, with a free card
            if mics > col:
                pos = top_free(s, col)
                if pos >= 0:
                    return Target(col, pos)
        if p.white <= 1:
            for card in owned_powers(p, (K.REWHITE,)):
                return Rewhite(card)
        for i in range(N_DICE):  # keep the microscopes, free the rest
            if p.dice[i] != "" and (p.dice[i] == K.MICROSCOPE) != p.held[i]:
                return Hold(i)
        if all(p.held):
            return Hold(0)
        return Roll()
    if p.stage == CURE:
        need = missing(p)
        if not need:
            return Claim()
        if len(need) >= 2 or sum(need.values()) >= 2:
            for card in owned_powers(p, (K.RAT,)):
                return Rat(card)
        for card in owned_powers(p, (K.SUB,)):
            if need[K.CARD_POWER[card]] > 0:
                return Supply(card, K.CARD_POWER[card])
        if p.doubled < 0:
            for card in owned_powers(p, (K.DOUBLE,)):
                for i in range(N_DICE):
                    if p.held[i] and need[p.dice[i]] > 0:
                        return Double(card, i)
        rare = [x for x in RARITY if need[x] > 0]
        if rare and rare[0] in "PRY":
            for card in owned_powers(p, (K.WILD,)):
                return Supply(card, rare[0])
        return Roll()
    return Rest()


def bot_actions(s: InfectionState, seat: int) -> list[Action]:
    if s.seats[seat].stage == REST:
        return []
    return [choose(s, seat)]


class PaceBot(Bot):
    """The policy as an :class:`~cellwars_tui.ai.bots.Bot` (for tables that ask a bot to move)."""

    id = "infection"
    title = "Infection teammate"

    def choose(self, game, view, seat, rng, budget):
        return choose(view, seat)


def pace_of(name_or_seconds: str | float) -> float:
    """Seconds between a bot's actions, from a pace name or a number of seconds."""
    if isinstance(name_or_seconds, str):
        name = C.PACE_ALIASES.get(name_or_seconds, name_or_seconds)
        if name not in C.PACES:
            raise ValueError(f"unknown pace {name_or_seconds!r} (known: {', '.join(C.PACES)})")
        return C.PACES[name]
    return max(0.05, float(name_or_seconds))


def next_wait(pace: float, rng: random.Random) -> float:
    j = C.PACE_JITTER
    return pace * rng.uniform(1 - j, 1 + j)
