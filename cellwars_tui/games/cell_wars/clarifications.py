"""Every decision Cell Wars makes where the seed rulebook is silent or ambiguous, in one place.

The constants below are what ``rules.py`` uses; ``CLARIFICATIONS`` pairs a short quoted fragment of
the seed with the decision in our own words. rules.md repeats these items under "Clarifications"
(a test checks that each seed fragment appears there).
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import CANCER, CONTINUOUS_ROUNDS, IMMUNE



@dataclass(frozen=True)
class Edition:
    """The rules decisions that changed between editions of our rules (records are forever: a game
    recorded under an edition replays and goes on under it; ``CellWarsOptions.rules_edition``)."""

    number: int
    continuous_rounds: int  # own individual rounds a continuous card works; 0: it stays
    draw_once_a_round: bool  # charge and mutation at most once each per individual round
    must_step: bool  # after rolling to move, a cell must take at least one step
    claims_cleared_by_any_change: bool  # every solidification claim on a tile ends when it changes
    cancer_tissue_range: tuple[int, int]  # the starting cancer tiles a game may choose
    regen: bool = True  # a continuous card's regeneration works (Balanced diet's 1 Biomass a round)
    regen_every: int = 1  # ... in the rounds whose number is a multiple of this (3: 3, 6, 9, 12, 15)
    # which seat leads each panel (Ia, Ca, Cb, Ib, Ig, Cg) in a four-player game
    four_players: tuple[int, ...] = (0, 1, 2, 3, 0, 1)


FOUR_PLAYERS_5 = (0, 1, 2, 3, 0, 2)  # P1 Ia Ig, P2 Ca, P3 Cb Cg, P4 Ib

EDITIONS: dict[int, Edition] = {
    # The first edition (rules version 1): as played until the balance of issue 15. Its records
    # replay exactly, including a claim that outlived its tile's change.
    1: Edition(1, continuous_rounds=CONTINUOUS_ROUNDS, draw_once_a_round=True, must_step=True,
               claims_cleared_by_any_change=False, cancer_tissue_range=(4, 21)),
    # The second edition (rules version 2): measured by self-play to end with a winner.
    # Since issue 29 it is also the rules "as printed", so its starting cancer tissue is not capped
    # at 9 (4 to 21, as in the first edition: fewer than 4 or more than 21 would end round 1).
    2: Edition(2, continuous_rounds=0, draw_once_a_round=False, must_step=False,
               claims_cleared_by_any_change=True, cancer_tissue_range=(4, 21)),
    # The third edition (rules version 3): Balanced diet raises the Biomass limit only. Once
    # continuous cards stayed for good, its regeneration healed a cell every round of the game and
    # a cancer cell holding it could hardly be killed.
    3: Edition(3, continuous_rounds=0, draw_once_a_round=False, must_step=False,
               claims_cleared_by_any_change=True, cancer_tissue_range=(4, 9), regen=False),
    # The fourth edition (rules version 4): Balanced diet regenerates again, in every third round
    # only (the rounds the CARD signs turn active). The third edition's cards healed too little for
    # the cancer camp: the immune camp won about two thirds of the decisive games.
    4: Edition(4, continuous_rounds=0, draw_once_a_round=False, must_step=False,
               claims_cleared_by_any_change=True, cancer_tissue_range=(4, 9), regen_every=3),
    # The fifth edition (rules version 5): at four players, Cancer gamma goes to the player of
    # Cancer beta (Player 3) instead of the player of Cancer alpha. In search self-play (seeds
    # 1-360) the immune camp won 63% of the decisive four-player games with the fourth edition's
    # split and 55% with this one; on seeds 241-360, played after the choice, both gave 56%.
    5: Edition(5, continuous_rounds=0, draw_once_a_round=False, must_step=False,
               claims_cleared_by_any_change=True, cancer_tissue_range=(4, 9), regen_every=3,
               four_players=FOUR_PLAYERS_5),
}
CURRENT_EDITION = 5

# The rules a new game is played by (option ``rules``, issue 29): ours, or the closest reading of
# the rulebook. The second edition keeps every sentence of the rulebook and adds none of the later
# editions' changes to our own decisions (Balanced diet's healing, the four-player split); its
# starting cancer tissue is not capped at 4 to 9 (the rulebook only recommends 7), so it is "as
# printed" as it stands: no new edition, and its records replay as they always did.
RULES_HERE, RULES_PRINTED = "as played here", "as printed"
RULES_CHOICES = (RULES_HERE, RULES_PRINTED)
PRINTED_EDITION = 2


def rules_choice(edition: int) -> str:
    """The New-game dialog's name for the rules of ``edition``."""
    return RULES_PRINTED if edition == PRINTED_EDITION else RULES_HERE


def edition_of(rules: str) -> int:
    """The edition a new game chosen as ``rules`` is played under."""
    return PRINTED_EDITION if rules == RULES_PRINTED else CURRENT_EDITION


# The layout a new game starts from (option ``layout``, issue 29): the standard one below, a
# random legal one (the set-up's placements made by chance, each legal tile as likely), or placed
# by the players as the rulebook sets it up. Records of rules version 5 and earlier were all placed.
LAYOUT_STANDARD, LAYOUT_RANDOM, LAYOUT_PLACE = "standard", "random", "place it yourself"
LAYOUTS = (LAYOUT_STANDARD, LAYOUT_RANDOM, LAYOUT_PLACE)
LAYOUT_DEFAULT = LAYOUT_STANDARD
LAYOUTS_SINCE = 6  # the rules version that brought ready layouts

# The standard layout: the tumour in the middle of the body, each cancer cell on it facing an
# immune cell three tiles away, and every special spot placed so that both camps reach it alike.
# It is symmetric: turning the board a third of a turn about E5 moves each cancer cell onto the
# next and each immune cell onto the next, and mirroring it about row E keeps it the same.
STANDARD_SIGNS = ("B2", "H2", "D7", "F7", "E9", "E8", "A3", "I3")  # in SIGN_KINDS order
# the cancer tiles: the first ``cancer_tissue`` of these (rings about E5, a third of a turn apart)
STANDARD_TISSUE = ("E5", "E6", "D4", "F4", "D5", "E4", "F5",
                   "E7", "C3", "G3", "D6", "D3", "G4", "F6", "C4", "F3", "C5", "E3", "G5",
                   "E8", "D7")
STANDARD_PIECES = ("B5", "E6", "D4", "E2", "H5", "F4")  # Ia Ca Cb Ib Ig Cg

ROUNDS = 16
RELOAD_ROUNDS = (3, 6, 9, 12, 15)  # system rounds in which every CARD sign becomes active again
SIGN_CAMP = IMMUNE  # this camp places the special spots; the other camp chooses cancer tissue
WALLS_PER_ROUND = 1  # made by the Wall factory in each system round, from round 1
WALLS_PER_COLLECT = 2
CANCER_TISSUE_DEFAULT = 7
SOLIDIFY_CLAIMS = 3
MIN_LIMIT = 1  # a relapse never lowers the Biomass limit below this
CANCER_WIN_ABOVE = 21
IMMUNE_WIN_BELOW = 4

# The six panels, in the recommended turn order of the seed's three-against-three game.
PANEL_NAMES = ("Ia", "Ca", "Cb", "Ib", "Ig", "Cg")
PANEL_TITLES = ("Immune alpha", "Cancer alpha", "Cancer beta", "Immune beta", "Immune gamma",
                "Cancer gamma")
PANEL_CAMPS = (IMMUNE, CANCER, CANCER, IMMUNE, IMMUNE, CANCER)

# Which seat leads each panel under the current edition, by player count (seats in the order they
# first act); the four-player split is the edition's (``Edition.four_players``, ``panel_owners``).
PANEL_OWNERS: dict[int, tuple[int, ...]] = {
    2: (0, 1, 1, 0, 0, 1),
    3: (0, 1, 2, 0, 0, 1),
    4: EDITIONS[CURRENT_EDITION].four_players,
    5: (0, 1, 2, 3, 4, 1),
    6: (0, 1, 2, 3, 4, 5),
}


def panel_owners(players: int, edition: int) -> tuple[int, ...]:
    """Which seat leads each panel in a game of ``players`` under rules ``edition``."""
    if players == 4:
        return EDITIONS[edition].four_players
    return PANEL_OWNERS[players]


def panels_led(players: int, edition: int, seat: int) -> tuple[int, ...]:
    """The panels ``seat`` leads in a game of ``players`` under rules ``edition``."""
    return tuple(p for p, o in enumerate(panel_owners(players, edition)) if o == seat)


CLARIFICATIONS: tuple[tuple[str, str], ...] = (
    ("Numbers of players: 2-6",
     "Every game fields all six panels (three immune, three cancer) in the turn order Immune "
     "alpha, Cancer alpha, Cancer beta, Immune beta, Immune gamma, Cancer gamma. With fewer than "
     "six players, a player leads several panels of one camp: 2 players: P1 Ia Ib Ig, P2 Ca Cb "
     "Cg; 3 players: P1 Ia Ib Ig, P2 Ca Cg, P3 Cb; 4 players: P1 Ia Ig, P2 Ca, P3 Cb Cg, P4 Ib; "
     "5 players: P1 Ia, P2 Ca Cg, P3 Cb, P4 Ib, P5 Ig; 6 players: one panel each. The rulebook "
     "recommends a turn order for three against three only, so the split is ours. Up to the "
     "fourth edition Cancer gamma went to Player 2 at four players (P1 Ia Ig, P2 Ca Cg, P3 Cb, "
     "P4 Ib); in search self-play (seeds 1-360) the immune camp won 63% of the decisive "
     "four-player games with that split and 55% with this one, so the fifth edition gives it to "
     "Player 3 (on the last 120 of those seeds, played after the choice, both splits gave 56%: "
     "see the tables below). Two, three, five and six players lead the same panels in every "
     "edition."),
    ("one side's players decided the location",
     "With the layout 'place it yourself' the immune camp places the special spots (four CARD "
     "signs, then the Biomass generator, the Wall factory and the two Blood vessels), one per "
     "tile, its panels taking turns; then the cancer camp chooses the cancer tissue tiles, its "
     "panels taking turns. A new game starts from a ready layout unless the players choose this "
     "one: the standard layout, or a random one (these same placements, each made by chance "
     "among the legal tiles). Records of rules version 5 and earlier were all placed by hand."),
    ("pic. Unfinished",
     "The rulebook's pictures of a set-up board are missing, so the standard layout is ours: "
     "the tumour in the middle, each cancer cell three tiles from two immune cells, each special "
     "spot at least two tiles from every cell, symmetric a third of a turn about E5 and across "
     "row E (see Setup). In search self-play from it the camps are even at two, four and six "
     "players and 73% to 77% of the games end with a winner (the layout the bots made for "
     "themselves: 80% and more at two players; see 'The standard layout measured')."),
    ("using 7 cancer tissue blocks",
     "The number of cancer tiles is an option (cancer_tissue, 4 to 9, default 7 as the seed "
     "recommends). Measured in self-play (see the table below), every setting from 4 to 9 gives "
     "games that last and that either camp wins; from 10 on the cancer camp wins most games and "
     "from 15 on within a few rounds, so those settings are not offered. The rules as printed "
     "(the second edition) and the first edition allow 4 to 21: the rulebook sets no bound, and "
     "fewer than 4 or more than 21 would end the game after round 1."),
    ("cannot be chosen as a start position",
     "A piece may not start on a tile holding a special spot or next to one. If that leaves no "
     "tile of the right tissue for a piece, the restriction about special spots is lifted for "
     "it. Pieces may share a tile."),
    ("each three rounds",
     "The CARD signs become active in the system rounds of rounds 3, 6, 9, 12 and 15."),
    ("roll the dice to decide",
     "The pre-draw happens only in the individual round of a cell standing on an active CARD "
     "sign. Every living cell on that tile joins a dice-off, rerolled until one cell is highest, "
     "so each has the same chance; it is recorded as one chance step naming the winner. The "
     "winner keeps a free draw for its next card-drawing step; a cell that dies loses it."),
    ("produce 1 piece of wall",
     "The Wall factory makes its wall in each system round, starting in round 1. A cancer cell "
     "collects at its wall step automatically, taking as many as it may (two at most)."),
    ("keep their pieces on the blood vessel",
     "The transfer happens only if the cell ended its previous individual round on a Blood "
     "vessel and has not changed tile since (being pushed counts as a change)."),
    ("can claim burning",
     "Charge drawing and mutational drawing may be claimed again and again in the card-drawing "
     "step, as long as the Biomass allows (more than 2 for a charge, more than 1 for a mutation) "
     "and a card is left to draw; each draws at once. The seed sets no limit; the first "
     "edition's limit of once per round was ours and slowed the game into ties."),
    ("continuous three times of solidification",
     "Solidification needs three claims in three consecutive own rounds on the same cancer tile "
     "with no change of tile in between. Taking any other choice in the special-action step "
     "(another action, rolling to move, or nothing) resets the count, as does any change of tile "
     "or the tile turning normal. Cards may still be drawn and played while solidifying; a card "
     "that moves the cell resets the count. The third claim solidifies the tile at once. Every "
     "claim on a tile ends when the tile changes, whoever changes it: when one cell solidifies "
     "a tile, the claims of another cell on it end too."),
    ("demolish a piece of contiguous wall",
     "An immune cell demolishes one wall on a side of the tile it stands on. The wall is gone "
     "for good."),
    ("build a wall between two tissue blocks",
     "A cancer cell with a wall in its stock may build it on any side between two tiles that "
     "has no wall yet, anywhere on the board; one wall per construction."),
    ("You can change directions while moving",
     "Movement is taken one step at a time, up to the steps rolled; a cell may stop after any "
     "step or take none (the seed says a cell 'can move'), so an immune cell on a cancer cell's "
     "tile may roll, stay and attack (the first edition made it take one step at least). Cells "
     "may share tiles. Walls block immune "
     "cells in every kind of movement (steps, step back, rebound) unless a card says otherwise; "
     "cancer cells ignore walls."),
    ("choose the order of attack",
     "Attacks are optional. Each cancer cell in range may be attacked at most once per "
     "individual round, in the order the player chooses, checking the range before each."),
    ("the direction opposite to the last movement",
     "A cell's direction is that of its last step taken by its own movement (die or card). "
     "Steps back, pushes, rebounds, swaps, jumps and Blood vessel transfers do not change it. A "
     "cell that has never stepped has no direction: it then does not step back and does not "
     "push."),
    ("the normal tissue block closest",
     "That is the target's own tile if it is normal, otherwise the normal tile at the fewest "
     "steps from it, ties going to the first in reading order (A1, A2, ... I5). Nothing happens "
     "if no normal tile is left."),
    ("immune cell just takes",
     "A step back (or a rebound) that would leave the board or cross a wall does not happen: "
     "the immune cell stays where it is."),
    ("another immune cell's attack range",
     "If several other immune cells have the pushed cell in range, the one with the highest "
     "Attack strikes (ties: the first in turn order). A double attack needs no roll. If the "
     "second push would leave the board, the cancer cell simply stays."),
    ("place this kind of card on your panel for a continuous effect",
     "A continuous card stays on its owner's panel and works for the rest of the game; copies "
     "stack. It leaves the panel only when the cell dies (its cards go to the used pile) or, "
     "for Dodge, with the hit it stops. The first edition used a card up after "
     f"{CONTINUOUS_ROUNDS} of its owner's rounds: our own limit, not the seed's."),
    ("reshuffle and use them",
     "Drawing takes a random card from the cards left in the deck (one chance step per card). "
     "When a deck is empty and a card must be drawn, that camp's used cards become its deck. If "
     "there is none, nothing is drawn."),
    ("as soon as you draw this card",
     "Immediate cards act the moment they are drawn, whatever the step, then are used."),
    ("If the Biomass goes to 0",
     "A cell that dies loses its hand, the cards on its panel and any free draw; they go to "
     "the used pile. An immune cell never returns."),
    ("Relapsed cells have one point of biomass",
     "A dead cancer cell may relapse onto any solidified tile only while its Biomass limit is "
     "at least 2, so the lowered limit stays at least 1. It then plays the rest of its round."),
    ("check the game object",
     "The ending is checked only after the last panel's individual round. More than 21 cancer "
     "tiles (solidified ones count) wins for the cancer camp even if no cancer cell lives; "
     "fewer than 4, or no living cancer cell, wins for the immune camp. After round 16 without "
     "a winner the game is a tie."),
    ("Cells on the Biomass generator",
     "Only the cell whose individual round is ending recovers, never above its limit."),
    ("Immune cells on cancer tissue",
     "Purification and degradation change the tile the cell stands on; solidified tissue cannot "
     "be purified. Degradation needs a normal tile; solidification a cancer (not solidified) "
     "tile."),
    ("can roll a dice for movement",
     "Rolling to move is optional too: a cell may end its round in the special-action step "
     "with neither a special action nor movement."),
    ("draw a card from the deck of their own camp",
     "Cards in hand are secret from every other seat, teammates included (a seat sees the hands "
     "of all the panels it leads); cards on panels and the used piles are public. The shared "
     "log names a drawn card only when it acts at once (an immediate card)."),
    ("permit your piece move two steps immediately",
     "Only Diapedesis has an effect in the seed. Every other card effect and type is our own "
     "design (see Cards); cards that would do nothing cannot be played."),
    ("you can also design your own cards",
     "The seed gives Balanced diet three copies in each deck but no effect. Ours raises its "
     "owner's Biomass limit by 1 while it is on the panel and, since the fourth edition, "
     "gives back 1 Biomass at the end of its owner's round in rounds 3, 6, 9, 12 and 15 (the "
     "rounds the CARD signs turn active). The first two editions gave it back every round; once "
     "continuous cards stayed for good (the second edition), that healed a cell every round of "
     "the game and a cancer cell holding it could hardly be killed: in greedy self-play the "
     "immune camp won 38% of the decisive games with it and 49% without (1,000 games each, "
     "seeds 1-1000). The third edition dropped the regeneration and the search bots' immune "
     "camp won about two thirds of the decisive games; healing in every third round evens the "
     "camps at two and six players (see the tables below). The copies stay the seed's."),
)

__all__ = ["CANCER", "IMMUNE", "CLARIFICATIONS"]
