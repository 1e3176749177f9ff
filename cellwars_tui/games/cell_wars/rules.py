"""Cell Wars: the pure rules (setup, system round, the ten steps of an individual round, ending).

Six panels always take part (three immune, three cancer, in the seed's three-against-three turn
order); with fewer players a seat leads several panels (``clarifications.PANEL_OWNERS``). Every
decision is one action of the seat leading the current panel; steps with a single possible outcome
are resolved automatically. Dice, dice-offs and card draws are chance steps.

Flow of an individual round (``CWState.step``)::

    start -> [relapse] -> predraw -> walls -> vessel -> free -> draw -> play [-> cardmove -> play]
          -> special -> [move -> attack] -> end -> next panel (or the end of the full round)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Union

import msgspec

from ...core import CHANCE, Action, Event, Game, GameType, Options, Outcome, register
from ...core.api import parse_error
from ...core.errors import BadOptions
from . import board as B
from . import clarifications as C
from .cards import (CANCER, CARDS, CONTINUOUS, CONTINUOUS_ROUNDS, DECK_SIZE, DECKS, IMMEDIATE,
                    IMMUNE, N_CARDS)
from .cards import card_id as _card_id

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
class CellWarsOptions(Options, frozen=True, kw_only=True):
    players: int = 2
    cancer_tissue: int = C.CANCER_TISSUE_DEFAULT


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


class GameOver(Event, frozen=True, tag="over"):
    winner: int
    reason: str


CWEvent = Union[SignPlaced, TileChanged, PiecePlaced, RoundStarted, TurnSkipped, Relapsed,
                PreDrawn, WallsCollected, Moved, Blocked, Drew, Reshuffled, Paid, Rolled,
                CardPlayed, CardExpired, BiomassChanged, Dodged, Died, Special, WallChanged,
                AttackResult, DoubleAttack, GameOver]


# ----------------------------------------------------------------------------------------------
# Small queries (pure helpers on a state, shared with the bot)
# ----------------------------------------------------------------------------------------------
def owner(players: int, panel: int) -> int:
    return C.PANEL_OWNERS[players][panel]


def seat_camp(players: int, seat: int) -> int:
    return PANEL_CAMPS[C.PANEL_OWNERS[players].index(seat)]


def seat_panels(players: int, seat: int) -> tuple[int, ...]:
    return tuple(p for p, o in enumerate(C.PANEL_OWNERS[players]) if o == seat)


def alive(s: CWState, p: int) -> bool:
    return s.panels[p].tile >= 0


def effective_limit(pn: Panel) -> int:
    return pn.limit + sum(CARDS[c].limit for c, _ in pn.active)


def attack_of(s: CWState, p: int) -> int:
    pn = s.panels[p]
    base = START_ATTACK[PANEL_CAMPS[p]] + sum(CARDS[c].attack for c, _ in pn.active)
    return base + (s.buff_attack if p == s.panel else 0)


def range_of(s: CWState, p: int) -> int:
    pn = s.panels[p]
    base = sum(CARDS[c].range for c, _ in pn.active)
    return base + (s.buff_range if p == s.panel else 0)


def roll_bonus(s: CWState, p: int) -> int:
    return sum(CARDS[c].roll_bonus for c, _ in s.panels[p].active)


def cancer_count(s: CWState) -> int:
    return sum(1 for t in s.tiles if t != NORMAL_T)


def sign_at(s: CWState, tile: int) -> int:
    """Index (in SIGN_KINDS) of the spot on ``tile``, or -1."""
    try:
        return s.signs.index(tile)
    except ValueError:
        return -1


def vessel_tiles(s: CWState) -> tuple[int, ...]:
    return tuple(s.signs[v] for v in VESSELS if v < len(s.signs))


def enemies(s: CWState, p: int) -> tuple[int, ...]:
    camp = PANEL_CAMPS[p]
    return tuple(q for q in CAMP_PANELS[1 - camp] if s.panels[q].tile >= 0)


def nearest_enemy_distance(s: CWState, p: int, tile: int) -> int:
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
    near = set()
    for t in s.signs:
        near.update(B.within(t, 1))
    ok = tuple(t for t in range(B.N_TILES) if s.tiles[t] == want and t not in near)
    if ok:
        return ok
    return tuple(t for t in range(B.N_TILES) if s.tiles[t] == want)


def can_step(s: CWState, p: int, d: int, through_walls: bool = False, toward: bool = False) -> bool:
    tile = s.panels[p].tile
    dest = B.NEIGHBOUR[tile][d]
    if dest < 0:
        return False
    if PANEL_CAMPS[p] == IMMUNE and not through_walls and B.edge_between(tile, dest) in s.walls:
        return False
    if toward and nearest_enemy_distance(s, p, dest) >= nearest_enemy_distance(s, p, tile):
        return False
    return True


def legal_steps(s: CWState) -> list[int]:
    p = s.panel
    if s.move_card >= 0:
        c = CARDS[s.move_card]
        return [d for d in range(6) if can_step(s, p, d, c.through_walls, c.toward)]
    return [d for d in range(6) if can_step(s, p, d)]


def attack_targets(s: CWState) -> list[int]:
    p = s.panel
    tile, rng = s.panels[p].tile, range_of(s, p)
    return [q for q in enemies(s, p) if q not in s.attacked and B.DIST[tile][s.panels[q].tile] <= rng]


def cards_available(s: CWState, camp: int) -> bool:
    """Whether the camp's deck or used pile holds a card (worked out from public counts, so a
    seat's view gives the same answer as the full state)."""
    held = sum(len(s.panels[q].hand) + len(s.panels[q].active) for q in CAMP_PANELS[camp])
    return held < DECK_SIZE


# ----------------------------------------------------------------------------------------------
# The mutable working copy used inside one _apply
# ----------------------------------------------------------------------------------------------
_FIELDS = msgspec.structs.fields(CWState)
_LISTS = ("tiles", "signs", "card_signs", "walls", "panels", "attacked")


class _W:
    """A scratch copy of a state: lists instead of tuples, events collected as we go."""

    def __init__(self, s: CWState) -> None:
        for f in _FIELDS:
            setattr(self, f.name, getattr(s, f.name))
        for name in _LISTS:
            setattr(self, name, list(getattr(s, name)))
        self.deck = [list(d) for d in s.deck]
        self.used = [list(u) for u in s.used]
        self.events: list[Event] = []

    def freeze(self) -> CWState:
        kw = {f.name: getattr(self, f.name) for f in _FIELDS}
        for name in _LISTS:
            kw[name] = tuple(kw[name])
        kw["walls"] = tuple(sorted(kw["walls"]))
        kw["deck"] = tuple(tuple(d) for d in self.deck)
        kw["used"] = tuple(tuple(u) for u in self.used)
        return CWState(**kw)

    # state-like queries, so the helpers above work on a _W too
    def set(self, p: int, **kw) -> Panel:
        pn = msgspec.structs.replace(self.panels[p], **kw)
        self.panels[p] = pn
        return pn

    def emit(self, event: Event) -> None:
        self.events.append(event)


# ----------------------------------------------------------------------------------------------
# The game
# ----------------------------------------------------------------------------------------------
class CellWars(Game[CWState, Action]):
    meta = GameType(
        id="cell-wars",
        title="Cell Wars",
        blurb="Immune cells against cancer cells on a 61-tile hex body: spread or purify tissue, "
              "attack, build walls and play 80 cards, 2 to 6 players in two camps.",
        min_players=2,
        max_players=6,
        order=4,
        has_chance=True,
        chance_text="dice and cards",
        hidden_information=True,
    )
    undo_keeps_chance = True  # undo goes back to the last die roll or hidden draw, never past it
    options_type = CellWarsOptions
    state_type = CWState
    action_type = CWAction
    event_type = CWEvent
    seat_names = ("Player 1", "Player 2", "Player 3", "Player 4", "Player 5", "Player 6")

    # -- options ---------------------------------------------------------------------------------
    def check_options(self, options: Options) -> None:
        super().check_options(options)
        n = getattr(options, "cancer_tissue", C.CANCER_TISSUE_DEFAULT)
        if not isinstance(n, int) or not C.CANCER_TISSUE_MIN <= n <= C.CANCER_TISSUE_MAX:
            raise BadOptions(f"Cell Wars: cancer_tissue must be between {C.CANCER_TISSUE_MIN} "
                             f"and {C.CANCER_TISSUE_MAX}, not {n!r}")

    def initial_state(self, options: Options) -> CWState:
        self.check_options(options)
        panels = tuple(
            Panel(biomass=START_BIOMASS[PANEL_CAMPS[p]], limit=START_BIOMASS[PANEL_CAMPS[p]])
            for p in range(N_PANELS)
        )
        return CWState(players=options.players,
                       cancer_tissue=getattr(options, "cancer_tissue", C.CANCER_TISSUE_DEFAULT),
                       panels=panels)

    # -- who acts --------------------------------------------------------------------------------
    def acting_panel(self, s: CWState) -> int:
        """The panel whose player decides now (-1 at chance or when over)."""
        if s.phase == OVER or s.chance or s.draws:
            return -1
        if s.phase == SIGNS:
            camp = CAMP_PANELS[C.SIGN_CAMP]
            return camp[len(s.signs) % 3]
        if s.phase == TISSUE:
            camp = CAMP_PANELS[1 - C.SIGN_CAMP]
            return camp[cancer_count(s) % 3]
        return s.panel

    def to_act(self, s: CWState) -> tuple[int, ...]:
        if s.phase == OVER:
            return ()
        if s.chance or s.draws:
            return (CHANCE,)
        return (owner(s.players, self.acting_panel(s)),)

    # -- legal actions ---------------------------------------------------------------------------
    def legal_actions(self, s: CWState, seat: int) -> list[Action]:
        if s.phase == OVER or seat not in self.to_act(s):
            return []
        if seat == CHANCE:
            return [a for a, _ in self.chance_outcomes(s)]
        if s.phase == SIGNS:
            taken = set(s.signs)
            return [Sign(t) for t in range(B.N_TILES) if t not in taken]
        if s.phase == TISSUE:
            return [Tissue(t) for t in range(B.N_TILES) if s.tiles[t] == NORMAL_T]
        if s.phase == PIECES:
            return [Place(t) for t in start_tiles(s, s.panel)]
        return self._turn_actions(s)

    def _turn_actions(self, s: CWState) -> list[Action]:
        p, step = s.panel, s.step
        pn = s.panels[p]
        camp = PANEL_CAMPS[p]
        if step == RELAPSE:
            out: list[Action] = [Relapse(t) for t in range(B.N_TILES) if s.tiles[t] == SOLID_T]
            return out + [Stay()]
        if step == DRAW:
            out = []
            if self._can_charge(s):
                out.append(Charge())
            if self._can_mutate(s):
                out.append(Mutate())
            return out + [End()]
        if step == CARDS_STEP:
            out = []
            for cid in sorted(set(pn.hand)):
                out.extend(self._plays(s, cid))
            return out + [End()]
        if step == CARDMOVE:
            return [Step(d) for d in legal_steps(s)] + [End()]
        if step == SPECIAL:
            out = []
            tissue = s.tiles[pn.tile]
            if camp == IMMUNE:
                if tissue == CANCER_T:
                    out.append(Purify())
                walls = set(s.walls)
                out.extend(Demolish(e) for e in B.TILE_EDGES[pn.tile] if e in walls)
            else:
                if tissue == NORMAL_T:
                    out.append(Degrade())
                elif tissue == CANCER_T:
                    out.append(Solidify())
                if pn.walls > 0:
                    walls = set(s.walls)
                    out.extend(Build(e) for e in range(B.N_EDGES) if e not in walls)
            return out + [Roll(), End()]
        if step == MOVE:
            out = [Step(d) for d in legal_steps(s)]
            return out + [End()] if s.moved > 0 else out
        if step == ATTACK:
            return [Attack(q) for q in attack_targets(s)] + [End()]
        return []

    def _can_charge(self, s: CWState) -> bool:
        p = s.panel
        return (not s.charged and s.panels[p].biomass > 2
                and cards_available(s, PANEL_CAMPS[p]))

    def _can_mutate(self, s: CWState) -> bool:
        p = s.panel
        return (PANEL_CAMPS[p] == CANCER and not s.mutated and s.panels[p].biomass > 1
                and cards_available(s, CANCER))

    def _plays(self, s: CWState, cid: int) -> list[Play]:
        """Every legal way to play card ``cid`` now (empty if it would do nothing)."""
        c = CARDS[cid]
        p = s.panel
        pn = s.panels[p]
        tile = pn.tile
        slug = c.slug
        if c.kind == IMMEDIATE:
            return []
        if c.kind == CONTINUOUS:
            return [Play(slug)]
        if c.move:
            through, toward = c.through_walls, c.toward
            if any(can_step(s, p, d, through, toward) for d in range(6)):
                return [Play(slug)]
            return []
        if c.teleport_sign:
            return [Play(slug, tile=t) for t in sorted(s.signs) if t != tile]
        if c.swap_range:
            return [Play(slug, panel=q) for q in range(N_PANELS)
                    if q != p and s.panels[q].tile >= 0
                    and B.DIST[tile][s.panels[q].tile] <= c.swap_range]
        if c.hit_radius > -2:
            return [Play(slug, panel=q) for q in enemies(s, p)
                    if c.hit_radius < 0 or B.DIST[tile][s.panels[q].tile] <= c.hit_radius]
        if c.area_damage:
            ok = any(c.area_radius < 0 or B.DIST[tile][s.panels[q].tile] <= c.area_radius
                     for q in enemies(s, p))
            return [Play(slug)] if ok else []
        if c.cancerate_radius >= 0:
            return [Play(slug, tile=t) for t in B.within(tile, c.cancerate_radius)
                    if s.tiles[t] == NORMAL_T]
        if c.purify_radius >= 0:
            ok = any(s.tiles[t] == CANCER_T for t in B.within(tile, c.purify_radius))
            return [Play(slug)] if ok else []
        if c.metastasis:
            immune_tiles = {s.panels[q].tile for q in CAMP_PANELS[IMMUNE]}
            return [Play(slug, tile=t) for t in range(B.N_TILES)
                    if s.tiles[t] == NORMAL_T and t not in immune_tiles]
        if c.vegf:
            if sign_at(s, tile) >= 0:
                return []
            return [Play(slug, tile=t) for t in vessel_tiles(s)]
        if c.draw and not c.full_heal and not cards_available(s, PANEL_CAMPS[p]):
            return []
        if c.heal and not (c.full_heal or c.walls or c.draw) and pn.biomass >= effective_limit(pn):
            return []  # a sugar at full Biomass would do nothing
        return [Play(slug)]

    # -- chance ----------------------------------------------------------------------------------
    def chance_outcomes(self, s: CWState) -> list[tuple[Action, float]]:
        if s.phase == OVER:
            return []
        if s.chance == C_DICEOFF:
            tied = self._diceoff_panels(s)
            return [(DiceOff(q), 1 / len(tied)) for q in tied]
        if s.chance in (C_MOVE, C_ATTACK, C_MUTATE):
            return [(Die(f), 1 / 6) for f in range(1, 7)]
        if s.draws:
            deck = s.deck[PANEL_CAMPS[s.panel]]
            total = sum(deck)
            return [(Draw(CARDS[c].slug), n / total) for c, n in enumerate(deck) if n]
        return []

    def _diceoff_panels(self, s: CWState) -> list[int]:
        tile = s.panels[s.panel].tile
        return [q for q in range(N_PANELS) if s.panels[q].tile == tile]

    # -- apply -----------------------------------------------------------------------------------
    def _apply(self, s: CWState, seat: int, a: Action) -> tuple[CWState, tuple[Event, ...]]:
        w = _W(s)
        if seat == CHANCE:
            self._apply_chance(w, a)
        elif s.phase == SIGNS:
            self._place_sign(w, a.tile)
        elif s.phase == TISSUE:
            w.tiles[a.tile] = CANCER_T
            w.emit(TileChanged(a.tile, CANCER_T, "setup"))
            if cancer_count(w) >= w.cancer_tissue:
                w.phase, w.panel = PIECES, 0
        elif s.phase == PIECES:
            w.set(w.panel, tile=a.tile)
            w.emit(PiecePlaced(w.panel, a.tile))
            w.panel += 1
            if w.panel == N_PANELS:
                w.phase = PLAY
                self._system_round(w, 1)
        else:
            self._apply_turn(w, a)
        self._advance(w)
        return w.freeze(), tuple(w.events)

    def _place_sign(self, w: _W, tile: int) -> None:
        k = len(w.signs)
        w.signs.append(tile)
        w.emit(SignPlaced(k, tile))
        if len(w.signs) == len(SIGN_KINDS):
            w.phase = TISSUE

    def _system_round(self, w: _W, rnd: int) -> None:
        w.round = rnd
        reload = rnd in C.RELOAD_ROUNDS
        if reload:
            w.card_signs = [True] * 4
        w.factory += C.WALLS_PER_ROUND
        w.panel, w.step = 0, START
        w.emit(RoundStarted(rnd, reload))

    # .. chance ..................................................................................
    def _apply_chance(self, w: _W, a: Action) -> None:
        p = w.panel
        if isinstance(a, Draw):
            camp = PANEL_CAMPS[p]
            cid = _card_id(a.card)
            w.deck[camp][cid] -= 1
            w.draws -= 1
            w.emit(Drew(p, cid, w.draw_how or "card"))
            c = CARDS[cid]
            if c.kind == IMMEDIATE:
                w.emit(CardPlayed(p, cid))
                self._effect(w, p, cid, -1, -1)
                w.used[camp][cid] += 1
            else:
                pn = w.panels[p]
                w.set(p, hand=tuple(sorted(pn.hand + (cid,))))
            return
        if isinstance(a, DiceOff):
            w.chance = ""
            pn = w.panels[a.panel]
            w.set(a.panel, free_draws=pn.free_draws + 1)
            w.emit(PreDrawn(a.panel, w.panels[p].tile))
            return
        face = a.face
        kind, w.chance = w.chance, ""
        w.emit(Rolled(p, face, kind))
        if kind == C_MOVE:
            w.moves = 1 if face <= 3 else 2 if face <= 5 else 3
            w.moved, w.move_card, w.step = 0, -1, MOVE
        elif kind == C_MUTATE:
            if face >= 5:
                w.draws += 1
            elif face >= 3:
                self._heal(w, p, 1, "mutation")
        elif kind == C_ATTACK:
            self._resolve_attack(w, p, w.target, face)
            w.target = -1

    # .. decisions ................................................................................
    def _apply_turn(self, w: _W, a: Action) -> None:
        p, step = w.panel, w.step
        pn = w.panels[p]
        if isinstance(a, End):
            if step == DRAW:
                w.step = CARDS_STEP
            elif step == CARDS_STEP:
                w.step = SPECIAL
            elif step == CARDMOVE:
                self._finish_card_move(w)
            elif step == SPECIAL:
                w.set(p, solid=0)
                w.step = END
            elif step == MOVE:
                w.step = ATTACK
            elif step == ATTACK:
                w.step = END
            return
        if isinstance(a, Relapse):
            w.tiles[a.tile] = CANCER_T
            w.emit(TileChanged(a.tile, CANCER_T, "relapse"))
            w.set(p, tile=a.tile, biomass=1, limit=max(C.MIN_LIMIT, pn.limit - 1), solid=0,
                  last_dir=-1, vessel=False)
            w.emit(Relapsed(p, a.tile))
            w.step = PREDRAW
        elif isinstance(a, Stay):
            w.emit(TurnSkipped(p))
            w.step = END
        elif isinstance(a, Charge):
            w.charged = True
            w.set(p, biomass=pn.biomass - 2)
            w.emit(Paid(p, 2, "charge"))
            w.draws += 1
            w.draw_how = "charge"
        elif isinstance(a, Mutate):
            w.mutated = True
            w.set(p, biomass=pn.biomass - 1)
            w.emit(Paid(p, 1, "mutation"))
            w.chance = C_MUTATE
            w.draw_how = "mutation"
        elif isinstance(a, Play):
            cid = _card_id(a.card)
            hand = list(pn.hand)
            hand.remove(cid)
            w.set(p, hand=tuple(hand))
            w.emit(CardPlayed(p, cid, a.tile, a.panel))
            c = CARDS[cid]
            camp = PANEL_CAMPS[p]
            if c.kind == CONTINUOUS:
                pn = w.panels[p]
                w.set(p, active=pn.active + ((cid, CONTINUOUS_ROUNDS),))
            else:
                w.used[camp][cid] += 1
                self._effect(w, p, cid, a.tile, a.panel)
        elif isinstance(a, Step):
            self._step(w, a.dir)
        elif isinstance(a, Roll):
            w.set(p, solid=0)
            w.rolled = True
            w.chance = C_MOVE
        elif isinstance(a, Attack):
            w.attacked.append(a.panel)
            w.target = a.panel
            w.chance = C_ATTACK
        else:
            self._special(w, a)

    def _special(self, w: _W, a: Action) -> None:
        p = w.panel
        pn = w.panels[p]
        tile = pn.tile
        w.step = END
        if isinstance(a, Purify):
            self._set_tile(w, tile, NORMAL_T, "purification")
            w.emit(Special(p, "purify"))
        elif isinstance(a, Degrade):
            w.set(p, solid=0)
            self._set_tile(w, tile, CANCER_T, "degradation")
            w.emit(Special(p, "degrade"))
        elif isinstance(a, Solidify):
            n = pn.solid + 1
            w.emit(Special(p, "solidify", n))
            if n >= C.SOLIDIFY_CLAIMS:
                w.set(p, solid=0)
                self._set_tile(w, tile, SOLID_T, "solidification")
            else:
                w.set(p, solid=n)
        elif isinstance(a, Demolish):
            w.walls.remove(a.edge)
            w.emit(WallChanged(a.edge, False))
        elif isinstance(a, Build):
            w.set(p, walls=pn.walls - 1, solid=0)
            w.walls.append(a.edge)
            w.emit(WallChanged(a.edge, True))

    # .. movement ..................................................................................
    def _relocate(self, w: _W, q: int, dest: int, how: str) -> None:
        pn = w.panels[q]
        if dest == pn.tile:
            return
        w.set(q, tile=dest, solid=0, vessel=False)
        w.emit(Moved(q, pn.tile, dest, how))

    def _step(self, w: _W, d: int) -> None:
        p = w.panel
        pn = w.panels[p]
        dest = B.NEIGHBOUR[pn.tile][d]
        self._relocate(w, p, dest, "step" if w.step == MOVE else "card")
        w.set(p, last_dir=d)
        w.moves -= 1
        w.moved += 1

    def _finish_card_move(self, w: _W) -> None:
        c = CARDS[w.move_card]
        if c.invade:
            tile = w.panels[w.panel].tile
            if w.tiles[tile] == NORMAL_T:
                self._set_tile(w, tile, CANCER_T, "invasion")
        w.moves = w.moved = 0
        w.move_card = -1
        w.step = CARDS_STEP

    def _push(self, w: _W, q: int, d: int, how: str) -> bool:
        """Move panel ``q`` one tile in direction ``d`` if it can (walls stop immune cells)."""
        if d < 0:
            return False
        tile = w.panels[q].tile
        dest = B.NEIGHBOUR[tile][d]
        if dest < 0 or (PANEL_CAMPS[q] == IMMUNE and B.edge_between(tile, dest) in w.walls):
            w.emit(Blocked(q, how))
            return False
        self._relocate(w, q, dest, how)
        return True

    # .. tissue, biomass, death ....................................................................
    def _set_tile(self, w: _W, tile: int, to: int, cause: str) -> None:
        if w.tiles[tile] == to:
            return
        w.tiles[tile] = to
        w.emit(TileChanged(tile, to, cause))
        if to == NORMAL_T:
            for q in CAMP_PANELS[CANCER]:
                if w.panels[q].tile == tile and w.panels[q].solid:
                    w.set(q, solid=0)

    def _heal(self, w: _W, q: int, n: int, why: str) -> None:
        pn = w.panels[q]
        if pn.tile < 0:
            return
        new = min(effective_limit(pn), pn.biomass + n)
        if new != pn.biomass:
            w.set(q, biomass=new)
            w.emit(BiomassChanged(q, new - pn.biomass, why))

    def _damage(self, w: _W, q: int, n: int, why: str) -> int:
        """``q`` loses ``n`` Biomass; returns the Biomass lost, or -1 if a Dodge card absorbed the
        hit (then nothing else happens to ``q``)."""
        pn = w.panels[q]
        if pn.tile < 0:
            return 0
        for i, (cid, _) in enumerate(pn.active):
            if CARDS[cid].dodge:
                w.set(q, active=pn.active[:i] + pn.active[i + 1:])
                w.used[PANEL_CAMPS[q]][cid] += 1
                w.emit(Dodged(q))
                return -1
        lost = min(n, pn.biomass)
        w.set(q, biomass=pn.biomass - lost)
        w.emit(BiomassChanged(q, -lost, why))
        if pn.biomass - lost <= 0:
            self._die(w, q)
        return lost

    def _die(self, w: _W, q: int) -> None:
        pn = w.panels[q]
        camp = PANEL_CAMPS[q]
        for cid in pn.hand:
            w.used[camp][cid] += 1
        for cid, _ in pn.active:
            w.used[camp][cid] += 1
        w.set(q, tile=DEAD, biomass=0, hand=(), active=(), free_draws=0, solid=0, last_dir=-1,
              vessel=False)
        w.emit(Died(q))

    # .. cards ......................................................................................
    def _effect(self, w: _W, p: int, cid: int, tile: int, target: int) -> None:
        c = CARDS[cid]
        me = w.panels[p]
        if c.heal:
            self._heal(w, p, c.heal, c.slug)
        if c.full_heal:
            self._heal(w, p, 99, c.slug)
        if c.walls:
            w.set(p, walls=w.panels[p].walls + c.walls)
        if c.round_attack or c.round_range or c.precise:
            w.buff_attack += c.round_attack
            w.buff_range += c.round_range
            w.precise = w.precise or c.precise
        if c.area_damage:
            for q in enemies(w, p):
                if c.area_radius < 0 or B.DIST[me.tile][w.panels[q].tile] <= c.area_radius:
                    self._damage(w, q, c.area_damage, c.slug)
        if c.hit_radius > -2:
            amount = attack_of(w, p) if c.hit_amount < 0 else c.hit_amount
            lost = self._damage(w, target, amount, c.slug)
            if c.steal and lost > 0:
                self._heal(w, p, lost, c.slug)
        if c.swap_range:
            mine, theirs = me.tile, w.panels[target].tile
            self._relocate(w, p, theirs, "swap")
            self._relocate(w, target, mine, "swap")
        if c.teleport_sign:
            self._relocate(w, p, tile, "jump")
        if c.metastasis:
            self._relocate(w, p, tile, "jump")
            self._set_tile(w, tile, CANCER_T, c.slug)
        if c.cancerate_radius >= 0:
            self._set_tile(w, tile, CANCER_T, c.slug)
        if c.purify_radius >= 0:
            for t in B.within(me.tile, c.purify_radius):
                if w.tiles[t] == CANCER_T:
                    self._set_tile(w, t, NORMAL_T, c.slug)
        if c.vegf:
            k = w.signs.index(tile)
            w.signs[k] = me.tile
            w.emit(SignPlaced(k, me.tile))
        if c.draw:
            w.draws += c.draw
            w.draw_how = "card"
        if c.move:
            w.moves, w.moved, w.move_card, w.step = c.move, 0, cid, CARDMOVE

    # .. attacks ....................................................................................
    def _resolve_attack(self, w: _W, p: int, t: int, face: int) -> None:
        roll = min(6, face + roll_bonus(w, p))
        d = w.panels[p].last_dir
        back = B.opposite(d) if d >= 0 else -1
        if w.panels[t].tile < 0:  # (cannot happen: targets are checked when chosen)
            return
        if roll >= 4 or (w.precise and roll >= 2):
            w.emit(AttackResult(p, t, roll, "hit"))
            lost = self._damage(w, t, attack_of(w, p), "attack")
            if lost >= 0 and w.panels[t].tile >= 0:
                self._repel(w, p, t, d)
            return
        if roll == 1:
            w.emit(AttackResult(p, t, roll, "back+tissue"))
            near = closest_normal(w.tiles, w.panels[t].tile)
            if near >= 0:
                self._set_tile(w, near, CANCER_T, "failed attack")
        else:
            w.emit(AttackResult(p, t, roll, "back"))
        self._push(w, p, back, "back")

    def _repel(self, w: _W, p: int, t: int, d: int) -> None:
        """The surviving target ``t`` is pushed along ``p``'s direction; maybe a double attack."""
        if d < 0:
            return
        dest = B.NEIGHBOUR[w.panels[t].tile][d]
        if dest < 0:
            w.emit(Blocked(t, "border"))
            self._push(w, p, B.opposite(d), "rebound")
            return
        self._relocate(w, t, dest, "repel")
        others = [q for q in CAMP_PANELS[IMMUNE] if q != p and w.panels[q].tile >= 0
                  and B.DIST[w.panels[q].tile][dest] <= range_of(w, q)]
        if not others:
            return
        second = max(others, key=lambda q: (attack_of(w, q), -q))
        w.emit(DoubleAttack(second, t))
        lost = self._damage(w, t, attack_of(w, second), "double attack")
        if lost >= 0 and w.panels[t].tile >= 0:
            dest2 = B.NEIGHBOUR[dest][d]
            if dest2 >= 0:
                self._relocate(w, t, dest2, "repel")
            else:
                w.emit(Blocked(t, "border"))

    # .. the automatic steps ........................................................................
    def _advance(self, w: _W) -> None:
        while True:
            if w.phase != PLAY or w.chance:
                return
            if w.draws:
                camp = PANEL_CAMPS[w.panel]
                if sum(w.deck[camp]) == 0:
                    if sum(w.used[camp]) == 0:
                        w.draws = 0
                        continue
                    w.deck[camp], w.used[camp] = w.used[camp], [0] * N_CARDS
                    w.emit(Reshuffled(camp))
                return
            if w.step in DECISION_STEPS and self._auto_skip(w):
                continue
            if w.step in DECISION_STEPS:
                return
            self._automatic(w)

    def _auto_skip(self, w: _W) -> bool:
        """Leave a decision step that offers no real choice; True if the step changed."""
        s = w  # the helpers read a _W like a state
        p, step = w.panel, w.step
        if step != RELAPSE and w.panels[p].tile < 0:
            w.step = END
            return True
        if step == DRAW and not (self._can_charge(s) or self._can_mutate(s)):
            w.step = CARDS_STEP
            return True
        if step == CARDS_STEP and not any(self._plays(s, c) for c in set(w.panels[p].hand)):
            w.step = SPECIAL
            return True
        if step == CARDMOVE and (w.moves <= 0 or not legal_steps(s)):
            self._finish_card_move(w)
            return True
        if step == MOVE and (w.moves <= 0 or not legal_steps(s)):
            w.step = ATTACK
            return True
        if step == ATTACK and (PANEL_CAMPS[p] != IMMUNE or not w.rolled or not attack_targets(s)):
            w.step = END
            return True
        return False

    def _automatic(self, w: _W) -> None:
        p, step = w.panel, w.step
        pn = w.panels[p]
        camp = PANEL_CAMPS[p]
        if step == START:
            if pn.tile >= 0:
                w.step = PREDRAW
            elif (camp == CANCER and SOLID_T in w.tiles and pn.limit - 1 >= C.MIN_LIMIT):
                w.step = RELAPSE
            else:
                w.emit(TurnSkipped(p))
                self._next_panel(w)
        elif step == PREDRAW:
            w.step = WALLS
            k = sign_at(w, pn.tile)
            if k in CARD_SIGNS and w.card_signs[k]:
                w.card_signs[k] = False
                if len(self._diceoff_panels(w)) > 1:
                    w.chance = C_DICEOFF
                else:
                    w.set(p, free_draws=pn.free_draws + 1)
                    w.emit(PreDrawn(p, pn.tile))
        elif step == WALLS:
            w.step = VESSEL
            if camp == CANCER and pn.tile == w.signs[FACTORY] and w.factory:
                n = min(C.WALLS_PER_COLLECT, w.factory)
                w.factory -= n
                w.set(p, walls=pn.walls + n)
                w.emit(WallsCollected(p, n))
        elif step == VESSEL:
            w.step = FREE
            vessels = vessel_tiles(w)
            if pn.vessel and pn.tile in vessels:
                other = vessels[1] if pn.tile == vessels[0] else vessels[0]
                self._relocate(w, p, other, "vessel")
            w.set(p, vessel=False)
        elif step == FREE:
            w.step = DRAW
            if pn.free_draws:
                w.draws += pn.free_draws
                w.draw_how = "free"
                w.set(p, free_draws=0)
        elif step == END:
            self._end_round(w)
        else:  # pragma: no cover - every step is handled above
            raise AssertionError(f"unknown step {step}")

    def _end_round(self, w: _W) -> None:
        p = w.panel
        pn = w.panels[p]
        camp = PANEL_CAMPS[p]
        if pn.tile >= 0:
            if pn.tile == w.signs[GENERATOR]:
                self._heal(w, p, 1, "generator")
            for cid, _ in pn.active:
                c = CARDS[cid]
                if c.regen:
                    self._heal(w, p, c.regen, c.slug)
                if c.division:
                    near = closest_normal(w.tiles, w.panels[p].tile)
                    if near >= 0:
                        self._set_tile(w, near, CANCER_T, c.slug)
            pn = w.panels[p]
            kept = []
            for cid, left in pn.active:
                if left > 1:
                    kept.append((cid, left - 1))
                else:
                    w.used[camp][cid] += 1
                    w.emit(CardExpired(p, cid))
            pn = w.set(p, active=tuple(kept), vessel=pn.tile in vessel_tiles(w))
            lim = effective_limit(pn)
            if pn.biomass > lim:
                w.set(p, biomass=lim)
        self._next_panel(w)

    def _next_panel(self, w: _W) -> None:
        w.charged = w.mutated = w.rolled = w.precise = False
        w.moves = w.moved = w.buff_attack = w.buff_range = 0
        w.move_card = w.target = -1
        w.attacked = []
        w.step = START
        if w.panel + 1 < N_PANELS:
            w.panel += 1
            return
        ending = self._ending(w)
        if ending is not None:
            w.phase, w.step = OVER, ""
            w.winner, w.result = ending
            w.emit(GameOver(*ending))
            return
        self._system_round(w, w.round + 1)

    def _ending(self, w: _W) -> tuple[int, str] | None:
        n = cancer_count(w)
        if n > C.CANCER_WIN_ABOVE:
            return CANCER, f"the cancer spread over {n} tiles"
        if n < C.IMMUNE_WIN_BELOW:
            return IMMUNE, f"the cancer shrank to {n} tiles"
        if all(w.panels[q].tile < 0 for q in CAMP_PANELS[CANCER]):
            return IMMUNE, "every cancer cell died"
        if w.round >= C.ROUNDS:
            return 2, f"no winner after round {C.ROUNDS}"
        return None

    # -- outcome ---------------------------------------------------------------------------------
    def outcome(self, s: CWState) -> Outcome | None:
        if s.phase != OVER:
            return None
        if s.winner == 2:
            return Outcome(tuple(range(s.players)), "tie", ())
        winners = tuple(seat for seat in range(s.players) if seat_camp(s.players, seat) == s.winner)
        return Outcome(winners, s.result, ())

    # -- hidden information ----------------------------------------------------------------------
    def view(self, s: CWState, seat: int | None) -> CWState:
        mine = set(seat_panels(s.players, seat)) if seat is not None and seat >= 0 else set()
        if seat == CHANCE:
            return s
        pool = [list(d) for d in s.deck]
        panels = list(s.panels)
        for q, pn in enumerate(s.panels):
            if q in mine or not pn.hand:
                continue
            camp = PANEL_CAMPS[q]
            for cid in pn.hand:
                if cid >= 0:
                    pool[camp][cid] += 1
            panels[q] = msgspec.structs.replace(pn, hand=(-1,) * len(pn.hand))
        return msgspec.structs.replace(s, panels=tuple(panels),
                                       deck=tuple(tuple(d) for d in pool))

    def determinize(self, view: CWState, seat: int, rng: random.Random) -> CWState:
        pool = [list(d) for d in view.deck]
        panels = list(view.panels)
        for q, pn in enumerate(view.panels):
            hidden = pn.hand.count(-1)
            if not hidden:
                continue
            camp = PANEL_CAMPS[q]
            hand = [c for c in pn.hand if c >= 0]
            for _ in range(hidden):
                keep = [c for c, n in enumerate(pool[camp]) if n and CARDS[c].kind != IMMEDIATE]
                choices = keep or [c for c, n in enumerate(pool[camp]) if n]
                weights = [pool[camp][c] for c in choices]
                cid = rng.choices(choices, weights)[0]
                pool[camp][cid] -= 1
                hand.append(cid)
            panels[q] = msgspec.structs.replace(pn, hand=tuple(sorted(hand)))
        return msgspec.structs.replace(view, panels=tuple(panels),
                                       deck=tuple(tuple(d) for d in pool))

    # -- notation --------------------------------------------------------------------------------
    def action_to_str(self, a: Action) -> str:
        tag = type(a).__struct_config__.tag
        if isinstance(a, (Sign, Tissue, Place, Relapse)):
            return f"{tag} {B.NAMES[a.tile]}"
        if isinstance(a, (Demolish, Build)):
            return f"{tag} {B.edge_name(a.edge)}"
        if isinstance(a, Step):
            return f"step {B.DIR_NAMES[a.dir]}"
        if isinstance(a, (Attack, DiceOff)):
            return f"{tag} {C.PANEL_NAMES[a.panel]}"
        if isinstance(a, Die):
            return f"die {a.face}"
        if isinstance(a, Draw):
            return f"draw {a.card}"
        if isinstance(a, Play):
            out = f"play {a.card}"
            if a.tile >= 0:
                out += f" {B.NAMES[a.tile]}"
            if a.panel >= 0:
                out += f" {C.PANEL_NAMES[a.panel]}"
            return out
        return tag

    def action_from_str(self, text: str) -> Action:
        words = text.split()
        if not words:
            raise parse_error(self, text, "empty action")
        head, rest = words[0].lower(), words[1:]
        if head in _SIMPLE and not rest:
            return _SIMPLE[head]
        if head in ("sign", "tissue", "place", "relapse") and len(rest) == 1:
            t = B.parse_tile(rest[0])
            if t < 0:
                raise parse_error(self, text, f"no tile named {rest[0]!r}")
            return {"sign": Sign, "tissue": Tissue, "place": Place, "relapse": Relapse}[head](t)
        if head in ("demolish", "build") and len(rest) == 1:
            e = B.parse_edge(rest[0])
            if e < 0:
                raise parse_error(self, text, "expected two neighbouring tiles like E4-E5")
            return Demolish(e) if head == "demolish" else Build(e)
        if head == "step" and len(rest) == 1:
            d = B.parse_direction(rest[0])
            if d < 0:
                raise parse_error(self, text, "direction must be E, NE, NW, W, SW or SE")
            return Step(d)
        if head in ("attack", "diceoff") and len(rest) == 1:
            q = _parse_panel(rest[0])
            if q < 0:
                raise parse_error(self, text, f"panel must be one of {', '.join(C.PANEL_NAMES)}")
            return Attack(q) if head == "attack" else DiceOff(q)
        if head == "die" and len(rest) == 1 and rest[0] in ("1", "2", "3", "4", "5", "6"):
            return Die(int(rest[0]))
        if head == "draw" and len(rest) == 1:
            if _card_id(rest[0]) < 0:
                raise parse_error(self, text, f"no card named {rest[0]!r}")
            return Draw(rest[0].lower())
        if head == "play" and 1 <= len(rest) <= 3:
            if _card_id(rest[0]) < 0:
                raise parse_error(self, text, f"no card named {rest[0]!r}")
            tile = panel = -1
            for word in rest[1:]:
                t, q = B.parse_tile(word), _parse_panel(word)
                if t >= 0 and tile < 0:
                    tile = t
                elif q >= 0 and panel < 0:
                    panel = q
                else:
                    raise parse_error(self, text, f"{word!r} is neither a tile nor a panel")
            return Play(rest[0].lower(), tile, panel)
        raise parse_error(self, text, "not a Cell Wars action")

    def describe_event(self, e: Event, names: Sequence[str]) -> str:
        return describe(e)

    # -- bot hooks (see bot.py) ------------------------------------------------------------------
    def bot_actions(self, s: CWState, seat: int) -> list[Action]:
        from .bot import bot_actions

        return bot_actions(s, seat)

    def heuristic(self, s: CWState) -> tuple[float, ...]:
        from .bot import heuristic

        return heuristic(s)

    def random_playout(self, s: CWState, rng: random.Random, max_steps: int = 400):
        from .bot import random_playout

        return random_playout(s, rng, max_steps)

    # -- invariants ------------------------------------------------------------------------------
    def check_invariants(self, s: CWState) -> None:
        assert len(s.tiles) == B.N_TILES and all(t in (0, 1, 2) for t in s.tiles)
        assert len(set(s.signs)) == len(s.signs) <= len(SIGN_KINDS)
        assert all(0 <= t < B.N_TILES for t in s.signs)
        assert list(s.walls) == sorted(set(s.walls)) and all(0 <= e < B.N_EDGES for e in s.walls)
        assert s.factory >= 0 and len(s.panels) == N_PANELS
        if s.phase in (PLAY, OVER):
            assert 1 <= s.round <= C.ROUNDS and len(s.signs) == len(SIGN_KINDS)
        for q, pn in enumerate(s.panels):
            assert pn.limit >= C.MIN_LIMIT and pn.walls >= 0 and pn.free_draws >= 0
            if pn.tile >= 0:
                assert 1 <= pn.biomass <= effective_limit(pn), (q, pn)
                assert 0 <= pn.solid < C.SOLIDIFY_CLAIMS
                assert pn.solid == 0 or s.tiles[pn.tile] == CANCER_T
            elif s.phase in (PLAY, OVER):
                assert pn.tile == DEAD and pn.biomass == 0 and not pn.hand and not pn.active
            assert all(CARDS[c].kind != IMMEDIATE for c in pn.hand)
            assert all(CARDS[c].kind == CONTINUOUS and 1 <= n <= CONTINUOUS_ROUNDS
                       for c, n in pn.active)
        for camp in (IMMUNE, CANCER):
            held = [0] * N_CARDS
            for q in CAMP_PANELS[camp]:
                for c in s.panels[q].hand:
                    held[c] += 1
                for c, _ in s.panels[q].active:
                    held[c] += 1
            for c in range(N_CARDS):
                assert s.deck[camp][c] >= 0 and s.used[camp][c] >= 0
                assert s.deck[camp][c] + s.used[camp][c] + held[c] == DECKS[camp][c], (camp, c)
        if s.phase == PLAY and not s.chance and not s.draws:
            assert s.step in DECISION_STEPS, s.step
            assert self.legal_actions(s, self.to_act(s)[0])


def _parse_panel(word: str) -> int:
    low = [n.lower() for n in C.PANEL_NAMES]
    try:
        return low.index(word.lower())
    except ValueError:
        return -1


# ----------------------------------------------------------------------------------------------
# Event sentences (for logs; the screen may hide cards drawn by other seats)
# ----------------------------------------------------------------------------------------------
_TISSUE_NAMES = ("normal", "cancer", "solidified")


def describe(e: Event) -> str:
    P = C.PANEL_TITLES
    T = B.NAMES
    match e:
        case SignPlaced(sign=k, tile=t):
            return f"{SIGN_KINDS[k]} spot placed on {T[t]}"
        case TileChanged(tile=t, to=to, cause=cause):
            return f"{T[t]} becomes {_TISSUE_NAMES[to]} tissue ({cause})"
        case PiecePlaced(panel=q, tile=t):
            return f"{P[q]} starts on {T[t]}"
        case RoundStarted(round=r, reload=reload):
            return f"Round {r} begins" + (": CARD signs reloaded" if reload else "")
        case TurnSkipped(panel=q):
            return f"{P[q]} is off the board; its round is skipped"
        case Relapsed(panel=q, tile=t):
            return f"{P[q]} relapses on {T[t]}"
        case PreDrawn(panel=q, tile=t):
            return f"{P[q]} earns a free draw from the CARD sign on {T[t]}"
        case WallsCollected(panel=q, walls=n):
            return f"{P[q]} collects {n} wall{'s' if n > 1 else ''}"
        case Moved(panel=q, frm=a, to=b, how=how):
            return f"{P[q]} moves {T[a]} -> {T[b]} ({how})"
        case Blocked(panel=q, how=how):
            return f"{P[q]} cannot move ({how})"
        case Drew(panel=q, card=c, how=how):
            if CARDS[c].kind != IMMEDIATE:  # the log is shared: a card kept in hand stays secret
                return f"{P[q]} draws a card ({how})"
            return f"{P[q]} draws {CARDS[c].name} ({how})"
        case Reshuffled(camp=camp):
            return f"The {CAMP_NAMES[camp].lower()} used cards are reshuffled into a new deck"
        case Paid(panel=q, biomass=n, how=how):
            return f"{P[q]} spends {n} Biomass on {how} drawing"
        case Rolled(panel=q, face=f, why=why):
            return f"{P[q]} rolls {f} ({why})"
        case CardPlayed(panel=q, card=c):
            return f"{P[q]} plays {CARDS[c].name}"
        case CardExpired(panel=q, card=c):
            return f"{CARDS[c].name} on {P[q]}'s panel runs out"
        case BiomassChanged(panel=q, delta=d, why=why):
            return f"{P[q]} {'gains' if d > 0 else 'loses'} {abs(d)} Biomass ({why})"
        case Dodged(panel=q):
            return f"{P[q]} dodges the hit"
        case Died(panel=q):
            return f"{P[q]} dies and leaves the board"
        case Special(panel=q, what=what, count=n):
            extra = f" ({n}/{C.SOLIDIFY_CLAIMS})" if what == "solidify" else ""
            return f"{P[q]}: {what}{extra}"
        case WallChanged(edge=edge, built=built):
            return f"Wall {'built on' if built else 'demolished on'} {B.edge_name(edge)}"
        case AttackResult(panel=q, target=t, roll=r, result=res):
            return f"{P[q]} attacks {P[t]}: roll {r}, {res}"
        case DoubleAttack(panel=q, target=t):
            return f"{P[q]} strikes {P[t]} again (double attack)"
        case GameOver(winner=w, reason=why):
            who = "Tie" if w == 2 else f"The {CAMP_NAMES[w].lower()} camp wins"
            return f"{who}: {why}"
    return msgspec.json.encode(e).decode()


GAME = register(CellWars())
