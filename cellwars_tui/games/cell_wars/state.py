"""Cell Wars: the types and small queries of the rules (options, state, actions, events).

The engine (``engine.py``) applies actions to these frozen values; card effects live in
``effects.py``, the notation and log sentences in ``notation.py``; ``rules.py`` gathers them all
(what the screen, the bots and the tests import).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal, Union

import msgspec

from ...core import Action, Event, Options
from . import board as B
from . import clarifications as C
from .cards import CANCER, CARDS, DECK_SIZE, DECKS, IMMUNE, N_CARDS

if TYPE_CHECKING:
    from .work import W  # the working copy inside one apply reads as a state here

NORMAL_T, CANCER_T, SOLID_T = 0, 1, 2
UNPLACED, DEAD = -2, -1
N_PANELS = 6
CAMP_NAMES = ("Immune", "Cancer")

# The special spots, in the order they are placed.
SIGN_KINDS = ("CARD", "CARD", "CARD", "CARD", "generator", "factory", "vessel", "vessel")
CARD_SIGNS = (0, 1, 2, 3)
GENERATOR, FACTORY, VESSELS = 4, 5, (6, 7)

# Phases and steps.
SIGNS, TISSUE, PIECES, PLAY, OVER = "signs", "tissue", "pieces", "play", "over"
SETUP_PHASES = frozenset({SIGNS, TISSUE, PIECES})
START, RELAPSE, PREDRAW, WALLS, VESSEL, FREE, DRAW, CARDS_STEP, CARDMOVE, SPECIAL, MOVE, ATTACK, \
    END = ("start", "relapse", "predraw", "walls", "vessel", "free", "draw", "play", "cardmove",
           "special", "move", "attack", "end")
DECISION_STEPS = frozenset({RELAPSE, DRAW, CARDS_STEP, CARDMOVE, SPECIAL, MOVE, ATTACK})

# Pending chance steps.
C_DICEOFF, C_MOVE, C_ATTACK, C_MUTATE = "diceoff", "move", "attack", "mutate"

PANEL_CAMPS = C.PANEL_CAMPS
CAMP_PANELS = (
    tuple(p for p in range(N_PANELS) if PANEL_CAMPS[p] == IMMUNE),
    tuple(p for p in range(N_PANELS) if PANEL_CAMPS[p] == CANCER),
)
START_BIOMASS = (4, 5)
START_ATTACK = (1, 0)


# ----------------------------------------------------------------------------------------------
# Options, state
# ----------------------------------------------------------------------------------------------
LayoutName = Literal[C.LAYOUTS]  # type: ignore[valid-type]
RulesName = Literal[C.RULES_CHOICES]  # type: ignore[valid-type]


class CellWarsOptions(Options, frozen=True, kw_only=True):
    """``layout``: how the board is set up (clarifications.LAYOUTS); ``rules``: ours or the
    rulebook's, the players' name for ``rules_edition`` (the engine's ``options_from_dict`` keeps
    the two in step; the game is played by ``rules_edition`` alone)."""

    players: int = 2
    layout: LayoutName = C.LAYOUT_DEFAULT
    rules: RulesName = C.RULES_HERE
    cancer_tissue: int = C.CANCER_TISSUE_DEFAULT
    rules_edition: int = C.CURRENT_EDITION  # not asked for: set by ``rules`` or by older records


class Panel(msgspec.Struct, frozen=True, array_like=True):
    """One cell and its player board."""

    tile: int = UNPLACED  # UNPLACED before setup, DEAD once off the board
    biomass: int = 0
    limit: int = 0  # base Biomass limit (continuous cards may add to it)
    hand: tuple[int, ...] = ()  # card ids, sorted; -1 for a card hidden from the viewer
    active: tuple[tuple[int, int], ...] = ()  # continuous cards: (card id, own rounds left)
    walls: int = 0
    free_draws: int = 0
    solid: int = 0  # solidification claims on the current tile
    last_dir: int = -1
    vessel: bool = False  # ended its last round on a Blood vessel and has not moved since


class CWState(msgspec.Struct, frozen=True, kw_only=True):
    players: int
    cancer_tissue: int = C.CANCER_TISSUE_DEFAULT
    edition: int = 1  # the rules edition (clarifications.EDITIONS); states before editions: 1
    random_setup: bool = False  # the set-up's placements are chance steps (layout "random")
    phase: str = SIGNS
    round: int = 0
    panel: int = 0  # whose individual round it is (or whose piece is placed next)
    step: str = ""
    chance: str = ""
    tiles: tuple[int, ...] = (NORMAL_T,) * B.N_TILES
    signs: tuple[int, ...] = ()  # tile of each placed spot, in SIGN_KINDS order
    card_signs: tuple[bool, ...] = (False,) * 4  # CARD signs active?
    walls: tuple[int, ...] = ()  # walled edges, sorted
    factory: int = 0
    panels: tuple[Panel, ...] = ()
    deck: tuple[tuple[int, ...], ...] = DECKS
    used: tuple[tuple[int, ...], ...] = ((0,) * N_CARDS, (0,) * N_CARDS)
    # scratch of the current individual round
    draws: int = 0
    draw_how: str = ""  # why the pending cards are drawn (free, charge, mutation, card)
    charged: bool = False
    mutated: bool = False
    rolled: bool = False
    moves: int = 0
    moved: int = 0
    move_card: int = -1
    target: int = -1
    attacked: tuple[int, ...] = ()
    buff_attack: int = 0
    buff_range: int = 0
    precise: bool = False
    # the end
    winner: int = -1  # camp, or 2 for a tie
    result: str = ""


# ----------------------------------------------------------------------------------------------
# Actions
# ----------------------------------------------------------------------------------------------
class Sign(Action, frozen=True, tag="sign"):
    tile: int


class Tissue(Action, frozen=True, tag="tissue"):
    tile: int


class Place(Action, frozen=True, tag="place"):
    tile: int


class Relapse(Action, frozen=True, tag="relapse"):
    tile: int


class Stay(Action, frozen=True, tag="stay"):
    pass


class Charge(Action, frozen=True, tag="charge"):
    pass


class Mutate(Action, frozen=True, tag="mutate"):
    pass


class Play(Action, frozen=True, tag="play"):
    card: str
    tile: int = -1
    panel: int = -1


class Purify(Action, frozen=True, tag="purify"):
    pass


class Degrade(Action, frozen=True, tag="degrade"):
    pass


class Solidify(Action, frozen=True, tag="solidify"):
    pass


class Demolish(Action, frozen=True, tag="demolish"):
    edge: int


class Build(Action, frozen=True, tag="build"):
    edge: int


class Roll(Action, frozen=True, tag="roll"):
    pass


class Step(Action, frozen=True, tag="step"):
    dir: int


class Attack(Action, frozen=True, tag="attack"):
    panel: int


class End(Action, frozen=True, tag="end"):
    pass


class Die(Action, frozen=True, tag="die"):
    face: int


class Draw(Action, frozen=True, tag="draw"):
    card: str


class DiceOff(Action, frozen=True, tag="diceoff"):
    panel: int


CWAction = Union[Sign, Tissue, Place, Relapse, Stay, Charge, Mutate, Play, Purify, Degrade,
                 Solidify, Demolish, Build, Roll, Step, Attack, End, Die, Draw, DiceOff]

_SIMPLE = {"stay": Stay(), "charge": Charge(), "mutate": Mutate(), "purify": Purify(),
           "degrade": Degrade(), "solidify": Solidify(), "roll": Roll(), "end": End()}


# ----------------------------------------------------------------------------------------------
# Events
# ----------------------------------------------------------------------------------------------
class SignPlaced(Event, frozen=True, tag="sign-placed"):
    sign: int
    tile: int


class TileChanged(Event, frozen=True, tag="tile"):
    tile: int
    to: int  # NORMAL_T / CANCER_T / SOLID_T
    cause: str


class PiecePlaced(Event, frozen=True, tag="placed"):
    panel: int
    tile: int


class RoundStarted(Event, frozen=True, tag="round"):
    round: int
    reload: bool


class TurnSkipped(Event, frozen=True, tag="skipped"):
    panel: int


class Relapsed(Event, frozen=True, tag="relapsed"):
    panel: int
    tile: int


class PreDrawn(Event, frozen=True, tag="predraw"):
    panel: int  # who earned the free draw
    tile: int


class WallsCollected(Event, frozen=True, tag="collected"):
    panel: int
    walls: int


class Moved(Event, frozen=True, tag="moved"):
    panel: int
    frm: int
    to: int
    how: str  # step, card, vessel, repel, back, rebound, swap, jump


class Blocked(Event, frozen=True, tag="blocked"):
    panel: int
    how: str


class Drew(Event, frozen=True, tag="drew"):
    panel: int
    card: int
    how: str  # free, charge, mutation, card


class Reshuffled(Event, frozen=True, tag="reshuffled"):
    camp: int


class Paid(Event, frozen=True, tag="paid"):
    panel: int
    biomass: int
    how: str


class Rolled(Event, frozen=True, tag="rolled"):
    panel: int
    face: int
    why: str


class CardPlayed(Event, frozen=True, tag="played"):
    panel: int
    card: int
    tile: int = -1
    target: int = -1


class CardExpired(Event, frozen=True, tag="expired"):
    panel: int
    card: int


class BiomassChanged(Event, frozen=True, tag="biomass"):
    panel: int
    delta: int
    why: str


class Dodged(Event, frozen=True, tag="dodged"):
    panel: int


class Died(Event, frozen=True, tag="died"):
    panel: int


class Special(Event, frozen=True, tag="special"):
    panel: int
    what: str
    count: int = 0


class WallChanged(Event, frozen=True, tag="wall"):
    edge: int
    built: bool


class AttackResult(Event, frozen=True, tag="attack"):
    panel: int
    target: int
    roll: int
    result: str  # hit, back, back+tissue


class DoubleAttack(Event, frozen=True, tag="double"):
    panel: int
    target: int


class NoAttack(Event, frozen=True, tag="no-attack"):
    """An immune cell that rolled to move ended its movement with no cancer cell in range (its
    attack step passes by itself: the log says why)."""

    panel: int


class StepEnded(Event, frozen=True, tag="step-ended"):
    """``end``: a panel ends a step of its turn (the log says which and what that leaves; the
    record keeps only the action, so older games replay with this sentence too)."""

    panel: int
    step: str  # draw, cards, card-move, special, move, attack
    count: int = 0  # move: the steps taken
    of: int = 0  # move: the steps the roll (or card) gave


class GameOver(Event, frozen=True, tag="over"):
    winner: int
    reason: str


CWEvent = Union[SignPlaced, TileChanged, PiecePlaced, RoundStarted, TurnSkipped, Relapsed,
                PreDrawn, WallsCollected, Moved, Blocked, Drew, Reshuffled, Paid, Rolled,
                CardPlayed, CardExpired, BiomassChanged, Dodged, Died, Special, WallChanged,
                AttackResult, DoubleAttack, NoAttack, StepEnded, GameOver]


# ----------------------------------------------------------------------------------------------
# Small queries (pure helpers on a state, shared with the bot)
# ----------------------------------------------------------------------------------------------
def owner(s: CWState, panel: int) -> int:
    """The seat leading ``panel`` (it depends on the player count and, at four, the edition)."""
    return C.panel_owners(s.players, s.edition)[panel]


def shown_owners(s: CWState) -> tuple[int, ...]:
    """The seat leading each panel, for the screens: a state of no real player count (a board
    preview) shows six players."""
    return C.panel_owners(s.players if s.players in C.PANEL_OWNERS else 6, s.edition)


def seat_camp(players: int, seat: int) -> int:
    return PANEL_CAMPS[C.PANEL_OWNERS[players].index(seat)]


def seat_panels(s: CWState, seat: int) -> tuple[int, ...]:
    return C.panels_led(s.players, s.edition, seat)


def edition(s: CWState | W) -> C.Edition:
    return C.EDITIONS[s.edition]


def card_text(s: CWState, cid: int) -> str:
    """Card ``cid``'s text under the rules edition of ``s``: Balanced diet heals as its edition
    says (each round in the first two, "as printed" among them; never in the third)."""
    c = CARDS[cid]
    if c.regen:
        ed = edition(s)
        limit = "While on your panel: your Biomass limit is 1 higher"
        if not ed.regen:
            return f"{limit}."
        if ed.regen_every == 1:
            return f"{limit}, and at the end of each of your rounds you regain 1 Biomass."
    return c.text


def alive(s: CWState, p: int) -> bool:
    return s.panels[p].tile >= 0


def effective_limit(pn: Panel) -> int:
    return pn.limit + sum(CARDS[c].limit for c, _ in pn.active)


def attack_of(s: CWState | W, p: int) -> int:
    pn = s.panels[p]
    base = START_ATTACK[PANEL_CAMPS[p]] + sum(CARDS[c].attack for c, _ in pn.active)
    return base + (s.buff_attack if p == s.panel else 0)


def range_of(s: CWState | W, p: int) -> int:
    pn = s.panels[p]
    base = sum(CARDS[c].range for c, _ in pn.active)
    return base + (s.buff_range if p == s.panel else 0)


def roll_bonus(s: CWState | W, p: int) -> int:
    return sum(CARDS[c].roll_bonus for c, _ in s.panels[p].active)


def cancer_count(s: CWState | W) -> int:
    return sum(1 for t in s.tiles if t != NORMAL_T)


def sign_at(s: CWState | W, tile: int) -> int:
    """Index (in SIGN_KINDS) of the spot on ``tile``, or -1."""
    try:
        return s.signs.index(tile)
    except ValueError:
        return -1


def vessel_tiles(s: CWState | W) -> tuple[int, ...]:
    return tuple(s.signs[v] for v in VESSELS if v < len(s.signs))


def enemies(s: CWState | W, p: int) -> tuple[int, ...]:
    camp = PANEL_CAMPS[p]
    return tuple(q for q in CAMP_PANELS[1 - camp] if s.panels[q].tile >= 0)


def nearest_enemy_distance(s: CWState | W, p: int, tile: int) -> int:
    ds = [B.DIST[tile][s.panels[q].tile] for q in enemies(s, p)]
    return min(ds) if ds else 99


def closest_normal(tiles: Sequence[int], tile: int) -> int:
    """The normal tile nearest ``tile`` (itself if normal), ties in reading order; -1 if none."""
    best, best_d = -1, 99
    row = B.DIST[tile]
    for t in range(B.N_TILES):
        if tiles[t] == NORMAL_T and row[t] < best_d:
            best, best_d = t, row[t]
    return best


def start_tiles(s: CWState, p: int) -> tuple[int, ...]:
    """Where panel ``p``'s piece may start."""
    want = NORMAL_T if PANEL_CAMPS[p] == IMMUNE else CANCER_T
    near: set[int] = set()
    for t in s.signs:
        near.update(B.within(t, 1))
    ok = tuple(t for t in range(B.N_TILES) if s.tiles[t] == want and t not in near)
    if ok:
        return ok
    return tuple(t for t in range(B.N_TILES) if s.tiles[t] == want)


def can_step(s: CWState | W, p: int, d: int, through_walls: bool = False, toward: bool = False) -> bool:
    tile = s.panels[p].tile
    dest = B.NEIGHBOUR[tile][d]
    if dest < 0:
        return False
    if PANEL_CAMPS[p] == IMMUNE and not through_walls and B.edge_between(tile, dest) in s.walls:
        return False
    if toward and nearest_enemy_distance(s, p, dest) >= nearest_enemy_distance(s, p, tile):
        return False
    return True


def legal_steps(s: CWState | W) -> list[int]:
    p = s.panel
    if s.move_card >= 0:
        c = CARDS[s.move_card]
        return [d for d in range(6) if can_step(s, p, d, c.through_walls, c.toward)]
    return [d for d in range(6) if can_step(s, p, d)]


def attack_targets(s: CWState | W) -> list[int]:
    p = s.panel
    tile, rng = s.panels[p].tile, range_of(s, p)
    return [q for q in enemies(s, p) if q not in s.attacked and B.DIST[tile][s.panels[q].tile] <= rng]


def cards_available(s: CWState | W, camp: int) -> bool:
    """Whether the camp's deck or used pile holds a card (worked out from public counts, so a
    seat's view gives the same answer as the full state)."""
    held = sum(len(s.panels[q].hand) + len(s.panels[q].active) for q in CAMP_PANELS[camp])
    return held < DECK_SIZE


