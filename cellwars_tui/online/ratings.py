"""Ratings per game for keyed players: openskill's Plackett-Luce model, one rating per game.

Every decision about what is rated and how a result becomes a rating is here, in one place:

* **What is rated.** A game where seats play against each other (:func:`is_rated_game`): Cell
  Wars (its two camps are the teams: ``Game.sides`` says which seats play together), Virus Fight
  (2 to 4 seats, each alone) and Cellulis Bellum (one against one). Infection is cooperative
  (every seat wins or loses together) and Cell Management a solitaire: neither has anyone to be
  rated against, so they count only in a player's record (games, wins, best result).
* **Places.** A game's :class:`~cellwars_tui.core.api.Outcome` names its winners; the winners
  share first place and everyone else shares second (:func:`placings`). A tie (every seat a
  winner, or none) is one shared place. Our games name winners, not a full order of finish,
  so there are never more than two places: this also keeps clear of the library's handling
  of a tie between middle places.
* **Camps.** A camp plays as strong as its players' *mean* rating, not their sum: Cell Wars
  splits the same forces among a camp's players (three players: one Immune against two
  Cancer), so two average players are not favoured two to one over one. Each player's rating
  enters the model divided by the camp's size and its change comes back multiplied by it.
* **Provisional.** A rating is provisional, shown with ``?``, while its uncertainty (sigma) is
  above :data:`PROVISIONAL_SIGMA` (5.5, from 8.33 for a new player: about 9 games of one
  against one with players whose ratings are settled, 17 between two new players). The number shown is ``mu`` times :data:`SHOWN_SCALE` (a new player shows 1500).
* **The tie bug.** openskill before 6.2 gave two equal players who tie different ratings (or
  both a gain); the project asks for ``openskill>=6.2`` and a test holds equal players who tie
  to equal, unchanged means.

Pure and headless: the store (:mod:`.league_store`) calls :func:`rate` inside the transaction
that keeps the game's result, so a rating is never kept without its game nor twice for one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache
from typing import Any

import msgspec
from ..core.api import Game, Outcome

MU = 25.0  # a new player's mean (openskill's default)
SIGMA = 25.0 / 3.0  # a new player's uncertainty
PROVISIONAL_SIGMA = 5.5  # a rating is provisional ("?") while its sigma is above this
SHOWN_SCALE = 60  # the number players read: round(mu * 60), 1500 for a new player
MIN_VARIANCE = 1e-4  # a sigma never falls to nothing (openskill's kappa)



@cache
def model() -> Any:
    """openskill's Plackett-Luce model with our numbers (imported when first rated: a
    session's process, which only shows ratings, never loads it)."""
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=MU, sigma=SIGMA)


class Rating(msgspec.Struct, frozen=True, kw_only=True):
    """One player's rating in one game."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0  # rated games played in this game

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA

    @property
    def shown(self) -> int:
        return round(self.mu * SHOWN_SCALE)

    def text(self) -> str:
        """The rating as players read it: "1532", or "1532?" while provisional."""
        return f"{self.shown}{'?' if self.provisional else ''}"


NEW = Rating()


def shown_change(before: Rating, after: Rating) -> str:
    """A change as players read it: "+29", "-14", "±0"."""
    delta = after.shown - before.shown
    return f"{delta:+d}" if delta else "±0"


class NotRated(ValueError):
    """A result that cannot be rated (its text says why, in one line)."""


def is_rated_game(game: Game) -> bool:
    """A game whose seats play against each other (rated); not a solitaire nor a cooperative
    game (a record only)."""
    return game.max_players >= 2 and not game.meta.cooperative


def unrated_reason(game: Game) -> str:
    """Why ``game`` cannot be rated ("" when it can)."""
    if game.meta.cooperative:
        return f"{game.title} is cooperative: its players win or lose together, so it is not rated"
    if game.max_players < 2:
        return f"{game.title} is a solitaire: nobody to be rated against"
    return ""


def camps(game: Game, players: int) -> list[list[int]]:
    """Seats that win and lose together (``Game.sides``), each camp in order of its first
    seat: Cell Wars' Immune and Cancer, one seat each in the other games."""
    by_side: dict[str, list[int]] = {}
    for seat, side in enumerate(game.sides(players)):
        by_side.setdefault(side, []).append(seat)
    return list(by_side.values())


def placings(outcome: Outcome, players: int) -> tuple[int, ...]:
    """Each seat's place: 1 for the winners, 2 for the others; 1 for everyone in a tie (every
    seat a winner, or none)."""
    winners = set(outcome.winners)
    if not winners or len(winners & set(range(players))) == players:
        return (1,) * players
    return tuple(1 if seat in winners else 2 for seat in range(players))


class _Side:
    """A camp (or a lone seat) as the model sees it: one player at the camp's mean rating."""

    def __init__(self, ratings: Sequence[Rating], seats: list[int]) -> None:
        self.seats = seats
        k = len(seats)
        self.mu = sum(ratings[s].mu for s in seats) / k
        self.var = sum(ratings[s].sigma ** 2 for s in seats) / k ** 2
        self.gain = 0.0  # the sum of the mean's changes, one per comparison
        self.shrink = 1.0  # the product of the variance's ratios, one per comparison

    def model(self) -> Any:
        return model().create_rating([self.mu, math.sqrt(self.var)])

    def took(self, after: Any) -> None:
        self.gain += after.mu - self.mu
        self.shrink *= after.sigma ** 2 / self.var


def rate(game: Game, ratings: Sequence[Rating], outcome: Outcome) -> tuple[Rating, ...]:
    """Each seat's rating after a game that ended with ``outcome``, from ``ratings`` (one per
    seat, before the game). NotRated for a game that is not rated.

    Each camp is one side at its players' mean (see the module's docstring). Every winning
    side is compared with every other side by the model as a game of one against one (from
    the ratings before the game): a win against each losing side, a tie against each other
    winning side; two losing sides are not compared (our games do not say which of them did
    better). A side's changes are summed, and shared among its players in proportion to their
    uncertainty (the mean's change projected on each player: a camp of one takes it whole)."""
    why = unrated_reason(game)
    if why:
        raise NotRated(why)
    players = len(ratings)
    if not game.min_players <= players <= game.max_players or players < 2:
        raise NotRated(f"{game.title} is not played by {players}")
    groups = camps(game, players)
    if len(groups) < 2:
        raise NotRated(f"{game.title} with {players} has a single camp: nobody to be rated against")
    places = placings(outcome, players)
    sides = [_Side(ratings, group) for group in groups]
    first = [places[side.seats[0]] == 1 for side in sides]
    for i, a in enumerate(sides):
        for j in range(i + 1, len(sides)):
            if not (first[i] or first[j]):
                continue  # two losing sides: not compared
            b = sides[j]
            ranks = [1.0 if first[i] else 2.0, 1.0 if first[j] else 2.0]
            (ra,), (rb,) = model().rate([[a.model()], [b.model()]], ranks=ranks)
            a.took(ra)
            b.took(rb)
    out: list[Rating] = list(ratings)
    for side in sides:
        k = len(side.seats)
        spread = sum(ratings[s].sigma ** 2 for s in side.seats)
        lost = side.var * (1.0 - side.shrink)  # how much the mean's variance fell
        for seat in side.seats:
            var = ratings[seat].sigma ** 2
            share = var / spread  # this player's part of the camp's uncertainty
            mu = ratings[seat].mu + k * share * side.gain
            var_after = max(var - share * share * lost * k * k, MIN_VARIANCE)
            out[seat] = Rating(mu=mu, sigma=math.sqrt(var_after),
                               games=ratings[seat].games + 1)
    return tuple(out)


def win_chances(game: Game, ratings: Sequence[Rating]) -> tuple[float, ...]:
    """Each seat's chance, before the game, that its side wins: the model's chance of coming
    first among the sides (Plackett-Luce: ``exp(mu/c)`` shared out, ``c`` from the model's beta
    and the sides' uncertainty as in one of its games of one against one)."""
    sides = [_Side(ratings, group) for group in camps(game, len(ratings))]
    mean_var = sum(side.var for side in sides) / len(sides)
    c = math.sqrt(2 * model().beta ** 2 + 2 * mean_var)
    top = max(side.mu for side in sides)
    weights = [math.exp((side.mu - top) / c) for side in sides]
    total = sum(weights)
    out = [0.0] * len(ratings)
    for side, weight in zip(sides, weights):
        for seat in side.seats:
            out[seat] = weight / total
    return tuple(out)
