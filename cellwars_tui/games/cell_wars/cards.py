"""Every Cell Wars card, defined once: name, type, copies in each deck, effect and in-app text.

The seed names the cards and their numbers but describes only one effect (Diapedesis moves a cell
two steps at once). Every other effect here is our own design, drawn from the biology its name
evokes and balanced for its camp; see rules.md, "Clarifications" and "Cards".

An effect is data: a :class:`Card` sets a few of the fields below and ``rules.py`` interprets them.
Cards that both decks hold (Glucose, Maltose, Balanced diet, VEGF, Teleporting, Translocation) have
one definition with a count per deck.

Types (seed: "three types of cards"):

* ``immediate``: takes effect the moment it is drawn, then goes to the used pile;
* ``normal``: kept in hand, played in the play-cards step, takes effect once, then is used;
* ``continuous``: kept in hand, played in the play-cards step onto the panel, where it works for
  the owner's next few individual rounds (``CONTINUOUS_ROUNDS``, counting the round of play).
"""

from __future__ import annotations

from dataclasses import dataclass

IMMUNE, CANCER = 0, 1

IMMEDIATE, NORMAL, CONTINUOUS = "immediate", "normal", "continuous"

CONTINUOUS_ROUNDS = 3
"""How many of its owner's individual rounds a continuous card works (the round of play counts)."""


@dataclass(frozen=True)
class Card:
    slug: str  # notation and record key
    name: str
    kind: str  # IMMEDIATE | NORMAL | CONTINUOUS
    immune: int  # copies in the immune deck
    cancer: int  # copies in the cancer deck
    text: str  # in-app text, our own words
    # -- one-off effects ------------------------------------------------------------------------
    heal: int = 0  # regain Biomass (never above the limit)
    full_heal: bool = False  # regain Biomass up to the limit
    move: int = 0  # steps to take now (one at a time, turning allowed, may stop early)
    through_walls: bool = False  # those steps may cross walls
    toward: bool = False  # each step must come closer to the nearest enemy cell
    invade: bool = False  # after the move, the tile reached turns cancerous
    teleport_sign: bool = False  # jump onto any tile holding a special spot
    swap_range: int = 0  # swap places with a living cell this close
    area_radius: int = -2  # every enemy cell this close is hit (-1: the whole board)
    area_damage: int = 0
    hit_radius: int = -2  # one chosen enemy cell this close is hit
    hit_amount: int = 0  # Biomass it loses (-1: the player's Attack)
    steal: bool = False  # the player gains the Biomass the chosen cell loses
    cancerate_radius: int = -1  # a chosen normal tile this close turns cancerous
    purify_radius: int = -1  # every purifiable cancer tile this close turns normal
    metastasis: bool = False  # jump to any normal tile and turn it cancerous
    vegf: bool = False  # bring a Blood vessel under the cell
    walls: int = 0  # walls added to the player's stock
    draw: int = 0  # cards drawn at once
    round_attack: int = 0  # this individual round only
    round_range: int = 0
    precise: bool = False  # this individual round, attack rolls of 2 and 3 hit too
    # -- continuous effects (while on the panel) ------------------------------------------------
    attack: int = 0
    range: int = 0
    limit: int = 0
    regen: int = 0  # Biomass regained at the end of an own round (Edition.regen, regen_every)
    dodge: bool = False  # the next hit on this cell is ignored; the card is then used
    division: bool = False  # at the end of each own round, the nearest normal tile turns cancerous
    roll_bonus: int = 0  # added to every attack roll (at most 6)

    def count(self, camp: int) -> int:
        return self.immune if camp == IMMUNE else self.cancer


CARDS: tuple[Card, ...] = (
    # -- in both decks -----------------------------------------------------------------------------
    Card("glucose", "Glucose", IMMEDIATE, 5, 5,
         "A quick sugar rush: regain 2 Biomass the moment you draw it.", heal=2),
    Card("maltose", "Maltose", NORMAL, 3, 3,
         "Two sugars in one: keep it for later, then regain 3 Biomass.", heal=3),
    # (regen: every round in the first two editions, never in the third, in rounds 3, 6, 9, 12
    # and 15 in the fourth; clarifications.Edition.regen and regen_every)
    Card("balanced-diet", "Balanced diet", CONTINUOUS, 3, 3,
         "While on your panel: your Biomass limit is 1 higher, and at the end of your round in "
         "rounds 3, 6, 9, 12 and 15 you regain 1 Biomass.", limit=1, regen=1),
    Card("vegf", "VEGF", NORMAL, 2, 2,
         "Growth factor for new vessels: move one Blood vessel onto the tile under your cell "
         "(a tile with no other special spot).", vegf=True),
    Card("teleporting", "Teleporting", NORMAL, 2, 2,
         "Jump onto any tile that holds a special spot (a CARD sign, the generator, the wall "
         "factory or a Blood vessel).", teleport_sign=True),
    Card("translocation", "Translocation", NORMAL, 1, 2,
         "Swap places with any other living cell up to 3 tiles away.", swap_range=3),
    # -- immune deck ---------------------------------------------------------------------------------
    Card("diapedesis", "Diapedesis", NORMAL, 4, 0,
         "Squeeze between cells: move up to two steps at once, even across walls.",
         move=2, through_walls=True),
    Card("chemotaxis", "Chemotaxis", NORMAL, 2, 0,
         "Follow the chemical trail: move up to three steps, each one bringing you closer to "
         "the nearest cancer cell.", move=3, toward=True),
    Card("precise-recognition", "Precise recognition", NORMAL, 3, 0,
         "Lock on to the antigen: for the rest of this round your attack rolls of 2 and 3 hit "
         "as well.", precise=True),
    Card("complement-activation", "Complement activation", NORMAL, 3, 0,
         "Punch holes in a membrane: a cancer cell on or next to your tile loses 1 Biomass "
         "(no roll, no push).", hit_radius=1, hit_amount=1),
    Card("cytokine", "Cytokine", CONTINUOUS, 3, 0,
         "Signals call for help: while on your panel, your attack range is 1 greater.", range=1),
    Card("excalibur", "Excalibur", CONTINUOUS, 2, 0,
         "A legendary blade: while on your panel, your Attack is 1 higher.", attack=1),
    Card("adjuvant", "Adjuvant", NORMAL, 2, 0,
         "Boost the response: for the rest of this round your Attack and your range are each "
         "1 higher.", round_attack=1, round_range=1),
    Card("neutrophil", "Neutrophil", IMMEDIATE, 1, 0,
         "First responders rush in: the moment you draw it, every cancer cell on or next to "
         "your tile loses 1 Biomass.", area_radius=1, area_damage=1),
    Card("humoral-immunity", "Humoral immunity", NORMAL, 1, 0,
         "Antibodies flood the blood: every cancer cell on the board loses 1 Biomass.",
         area_radius=-1, area_damage=1),
    Card("circuit-engineering", "Circuit Engineering", CONTINUOUS, 1, 0,
         "A designed gene circuit sharpens you: while on your panel, add 1 to each of your "
         "attack rolls (6 at most).", roll_bonus=1),
    Card("synnotch", "SynNotch", NORMAL, 1, 0,
         "A custom receptor finds its mark: a cancer cell up to 2 tiles away loses Biomass "
         "equal to your Attack (no roll, no push).", hit_radius=2, hit_amount=-1),
    Card("new-drug", "New drug", NORMAL, 1, 0,
         "A targeted therapy: every cancer tissue on or next to your tile turns normal "
         "(solidified tissue resists).", purify_radius=1),
    # -- cancer deck ---------------------------------------------------------------------------------
    Card("detachment", "Detachment", NORMAL, 0, 4,
         "Break loose from the tumour: move up to two steps at once.", move=2),
    Card("invasion", "Invasion", NORMAL, 0, 2,
         "Push into healthy tissue: move up to one step, then the tile you stand on turns "
         "cancerous if it was normal.", move=1, invade=True),
    Card("dodge", "Dodge", CONTINUOUS, 0, 3,
         "Slip away: while on your panel, the next hit on your cell does nothing (no damage, no "
         "push); the card is then used up.", dodge=True),
    Card("nuclear-radiation", "Nuclear radiation", IMMEDIATE, 0, 2,
         "A burst of radiation: the moment you draw it, every immune cell up to 2 tiles from "
         "your cell loses 1 Biomass.", area_radius=2, area_damage=1),
    Card("blood-seller", "Blood seller", NORMAL, 0, 2,
         "Trade in stolen blood: an immune cell up to 2 tiles away loses 1 Biomass and you "
         "gain it.", hit_radius=2, hit_amount=1, steal=True),
    Card("architect", "Architect", NORMAL, 0, 2,
         "Build the tumour's defences: add 2 walls to your stock.", walls=2),
    Card("card-assistance", "Card assistance", NORMAL, 0, 2,
         "Help from the tumour network: draw 2 cards at once.", draw=2),
    Card("metastasis", "Metastasis", NORMAL, 0, 1,
         "Spread far away: jump onto any normal tile with no immune cell on it; it turns "
         "cancerous.", metastasis=True),
    Card("canceration", "Canceration", NORMAL, 0, 2,
         "Corrupt a neighbour: a normal tile on or next to your tile turns cancerous.",
         cancerate_radius=1),
    Card("infinitive-division", "Infinitive division", CONTINUOUS, 0, 2,
         "Endless mitosis: while on your panel, at the end of each of your rounds the normal "
         "tissue nearest your cell turns cancerous.", division=True),
    Card("aladdins-lamp", "Aladdin's lamp", NORMAL, 0, 1,
         "Three wishes: regain all your Biomass, add a wall to your stock and draw a card.",
         full_heal=True, walls=1, draw=1),
)

N_CARDS = len(CARDS)
BY_SLUG: dict[str, int] = {c.slug: i for i, c in enumerate(CARDS)}
DECK_SIZE = 40

# Full deck contents per camp: DECKS[camp][card id] -> copies.
DECKS: tuple[tuple[int, ...], tuple[int, ...]] = (
    tuple(c.immune for c in CARDS),
    tuple(c.cancer for c in CARDS),
)
assert sum(DECKS[IMMUNE]) == DECK_SIZE and sum(DECKS[CANCER]) == DECK_SIZE


def card(card_id: int) -> Card:
    return CARDS[card_id]


def card_id(slug: str) -> int:
    """Card id from its slug; -1 if unknown."""
    return BY_SLUG.get(slug.strip().lower(), -1)
