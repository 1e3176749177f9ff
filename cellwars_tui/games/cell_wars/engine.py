"""Cell Wars: the engine (setup, system round, the ten steps of an individual round, ending).

Six panels always take part (three immune, three cancer, in the seed's three-against-three turn
order); with fewer players a seat leads several panels (``clarifications.panel_owners``). Every
decision is one action of the seat leading the current panel; steps with a single possible outcome
are resolved automatically. Dice, dice-offs and card draws are chance steps.

Flow of an individual round (``CWState.step``)::

    start -> [relapse] -> predraw -> walls -> vessel -> free -> draw -> play [-> cardmove -> play]
          -> special -> [move -> attack] -> end -> next panel (or the end of the full round)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import msgspec

from ...core import CHANCE, Action, BotLevel, Event, Game, GameType, Options, Outcome
from . import board as B
from . import bot as BOT
from . import clarifications as C
from . import notation as N
from . import options as O
from .cards import CARDS, CONTINUOUS, DECKS, IMMEDIATE, N_CARDS
from .cards import card_id as _card_id
from .effects import apply_effect, finish_card_move, plays
from .state import *  # noqa: F403 - the types and queries the engine works with
from .work import W, damage, heal, push, relocate, set_tile


# The bot levels' numbers for Cell Wars (ai/levels.py has the defaults; the ladder is on the rules
# page, "Bot levels"). The dice weigh much and the search chooses among two or three sensible
# moves, so 64 playouts already settle most of what 400 settle: normal plays 16 playouts and a
# random move one time in five, so that hard beats it; easy plays the bots' greedy policy with a
# random move two times in five, so that normal beats it (with the cancer cells' longer playouts
# 8 playouts and one time in four came too close to normal).
BOT_LEVELS = (
    BotLevel(name="easy", playouts=0, noise=0.4),
    BotLevel(name="normal", playouts=16, noise=0.2),
    BotLevel(name="hard", playouts=400),
)

# The step an ``end`` ends, as its log line names it (notation.describe: StepEnded).
_STEP_NAMES = {DRAW: "draw", CARDS_STEP: "cards", CARDMOVE: "card-move", SPECIAL: "special",
               MOVE: "move", ATTACK: "attack"}

# How a game ends (the Outcome's words), and how self-play's table counts each kind.
SPREAD, SHRANK, ALL_DEAD, NO_WINNER = ("the cancer spread over", "the cancer shrank to",
                                       "every cancer cell died", "no winner after round")
ENDING_KINDS = (
    (SPREAD, f"cancer over {C.CANCER_WIN_ABOVE} tiles"),
    (SHRANK, f"cancer under {C.IMMUNE_WIN_BELOW} tiles"),
    (ALL_DEAD, "every cancer cell dead"),
    (NO_WINNER, f"tie after round {C.ROUNDS}"),
)


class CellWarsEngine(Game[CWState, Action]):
    """The Cell Wars rules; ``rules.CellWars`` registers it (the table finds the screen beside
    the rules module)."""

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
        # 6: ready layouts (option layout); the rules of play are the edition's
        # (clarifications.EDITIONS: the fifth by default, the second "as printed")
        rules_version=C.LAYOUTS_SINCE,
        bot_levels=BOT_LEVELS,
    )
    undo_keeps_chance = True  # undo goes back to the last die roll or hidden draw, never past it
    options_type = CellWarsOptions
    state_type = CWState
    action_type = CWAction
    event_type = CWEvent
    hidden_options = frozenset({"rules_edition"})  # set by the record, not chosen by players
    seat_names = ("Player 1", "Player 2", "Player 3", "Player 4", "Player 5", "Player 6")

    # -- options ---------------------------------------------------------------------------------
    def options_from_dict(self, data: dict) -> Options:
        return super().options_from_dict(O.settle(data))

    def check_options(self, options: Options) -> None:
        super().check_options(options)
        assert isinstance(options, CellWarsOptions)
        O.check(options)

    def upgrade_options(self, data: dict, rules_version: int) -> dict:
        return O.upgrade(data, rules_version)

    def initial_state(self, options: Options) -> CWState:
        self.check_options(options)
        assert isinstance(options, CellWarsOptions)
        panels = tuple(
            Panel(biomass=START_BIOMASS[PANEL_CAMPS[p]], limit=START_BIOMASS[PANEL_CAMPS[p]])
            for p in range(N_PANELS)
        )
        own = self.own_options(options)
        s = CWState(players=options.players, cancer_tissue=own.cancer_tissue,
                    edition=own.rules_edition, panels=panels,
                    random_setup=own.layout == C.LAYOUT_RANDOM)
        if own.layout == C.LAYOUT_STANDARD:
            for a in O.standard_layout(own.cancer_tissue):
                s, _ = self._apply(s, self.to_act(s)[0], a)
        return s

    # -- who acts --------------------------------------------------------------------------------
    def acting_panel(self, s: CWState) -> int:
        """The panel whose player decides now (-1 at chance or when over)."""
        if s.phase == OVER or s.chance or s.draws or (s.random_setup and s.phase in SETUP_PHASES):
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
        if s.chance or s.draws or (s.random_setup and s.phase in SETUP_PHASES):
            return (CHANCE,)
        return (owner(s, self.acting_panel(s)),)

    # -- legal actions ---------------------------------------------------------------------------
    def legal_actions(self, s: CWState, seat: int) -> list[Action]:
        if s.phase == OVER or seat not in self.to_act(s):
            return []
        if seat == CHANCE:
            return [a for a, _ in self.chance_outcomes(s)]
        if s.phase in SETUP_PHASES:
            return self._setup_actions(s)
        return self._turn_actions(s)

    def _setup_actions(self, s: CWState) -> list[Action]:
        if s.phase == SIGNS:
            taken = set(s.signs)
            return [Sign(t) for t in range(B.N_TILES) if t not in taken]
        if s.phase == TISSUE:
            return [Tissue(t) for t in range(B.N_TILES) if s.tiles[t] == NORMAL_T]
        return [Place(t) for t in start_tiles(s, s.panel)]

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
                out.extend(plays(s, cid))
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
            return out + [End()] if s.moved > 0 or not edition(s).must_step else out
        if step == ATTACK:
            return [Attack(q) for q in attack_targets(s)] + [End()]
        return []

    def _can_charge(self, s: CWState | W) -> bool:
        p = s.panel
        return ((not s.charged or not edition(s).draw_once_a_round) and s.panels[p].biomass > 2
                and cards_available(s, PANEL_CAMPS[p]))

    def _can_mutate(self, s: CWState | W) -> bool:
        p = s.panel
        return (PANEL_CAMPS[p] == CANCER and (not s.mutated or not edition(s).draw_once_a_round)
                and s.panels[p].biomass > 1
                and cards_available(s, CANCER))

    # -- chance ----------------------------------------------------------------------------------
    def chance_outcomes(self, s: CWState) -> list[tuple[Action, float]]:
        if s.phase == OVER:
            return []
        if s.random_setup and s.phase in SETUP_PHASES:  # a random layout: every legal tile alike
            setup = self._setup_actions(s)
            return [(a, 1 / len(setup)) for a in setup]
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

    def _diceoff_panels(self, s: CWState | W) -> list[int]:
        tile = s.panels[s.panel].tile
        return [q for q in range(N_PANELS) if s.panels[q].tile == tile]

    # -- apply -----------------------------------------------------------------------------------
    def _apply(self, s: CWState, seat: int, a: Action) -> tuple[CWState, tuple[Event, ...]]:
        w = W(s)
        if seat == CHANCE and s.phase not in SETUP_PHASES:
            self._apply_chance(w, a)
        elif s.phase == SIGNS:
            assert isinstance(a, Sign)  # (the only legal action of the phase)
            self._place_sign(w, a.tile)
        elif s.phase == TISSUE:
            assert isinstance(a, Tissue)
            w.tiles[a.tile] = CANCER_T
            w.emit(TileChanged(a.tile, CANCER_T, "setup"))
            if cancer_count(w) >= w.cancer_tissue:
                w.phase, w.panel = PIECES, 0
        elif s.phase == PIECES:
            assert isinstance(a, Place)
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

    def _place_sign(self, w: W, tile: int) -> None:
        k = len(w.signs)
        w.signs.append(tile)
        w.emit(SignPlaced(k, tile))
        if len(w.signs) == len(SIGN_KINDS):
            w.phase = TISSUE

    def _system_round(self, w: W, rnd: int) -> None:
        w.round = rnd
        reload = rnd in C.RELOAD_ROUNDS
        if reload:
            w.card_signs = [True] * 4
        w.factory += C.WALLS_PER_ROUND
        w.panel, w.step = 0, START
        w.emit(RoundStarted(rnd, reload))

    # .. chance ..................................................................................
    def _apply_chance(self, w: W, a: Action) -> None:
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
                apply_effect(w, p, cid, -1, -1)
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
        assert isinstance(a, Die)  # (the chance step left: a die)
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
                heal(w, p, 1, "mutation")
        elif kind == C_ATTACK:
            self._resolve_attack(w, p, w.target, face)
            w.target = -1

    # .. decisions ................................................................................
    def _apply_turn(self, w: W, a: Action) -> None:
        p, step = w.panel, w.step
        pn = w.panels[p]
        if isinstance(a, End):
            w.emit(StepEnded(p, _STEP_NAMES.get(step, "turn"), w.moved, w.moved + w.moves))
            if step == DRAW:
                w.step = CARDS_STEP
            elif step == CARDS_STEP:
                w.step = SPECIAL
            elif step == CARDMOVE:
                finish_card_move(w)
            elif step == SPECIAL:
                w.set(p, solid=0)
                w.step = END
            elif step == MOVE:
                w.step = ATTACK
            elif step == ATTACK:
                w.step = END
            return
        if isinstance(a, Relapse):
            set_tile(w, a.tile, CANCER_T, "relapse")
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
                w.set(p, active=pn.active + ((cid, edition(w).continuous_rounds),))
            else:
                w.used[camp][cid] += 1
                apply_effect(w, p, cid, a.tile, a.panel)
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

    def _special(self, w: W, a: Action) -> None:
        p = w.panel
        pn = w.panels[p]
        tile = pn.tile
        w.step = END
        if isinstance(a, Purify):
            set_tile(w, tile, NORMAL_T, "purification")
            w.emit(Special(p, "purify"))
        elif isinstance(a, Degrade):
            w.set(p, solid=0)
            set_tile(w, tile, CANCER_T, "degradation")
            w.emit(Special(p, "degrade"))
        elif isinstance(a, Solidify):
            n = pn.solid + 1
            w.emit(Special(p, "solidify", n))
            if n >= C.SOLIDIFY_CLAIMS:
                w.set(p, solid=0)
                set_tile(w, tile, SOLID_T, "solidification")
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

    def _step(self, w: W, d: int) -> None:
        p = w.panel
        pn = w.panels[p]
        dest = B.NEIGHBOUR[pn.tile][d]
        relocate(w, p, dest, "step" if w.step == MOVE else "card")
        w.set(p, last_dir=d)
        w.moves -= 1
        w.moved += 1

    # .. tissue, biomass, death ....................................................................

    # .. cards ......................................................................................

    # .. attacks ....................................................................................
    def _resolve_attack(self, w: W, p: int, t: int, face: int) -> None:
        roll = min(6, face + roll_bonus(w, p))
        d = w.panels[p].last_dir
        back = B.opposite(d) if d >= 0 else -1
        if w.panels[t].tile < 0:  # (cannot happen: targets are checked when chosen)
            return
        if roll >= 4 or (w.precise and roll >= 2):
            w.emit(AttackResult(p, t, roll, "hit"))
            lost = damage(w, t, attack_of(w, p), "attack")
            if lost >= 0 and w.panels[t].tile >= 0:
                self._repel(w, p, t, d)
            return
        if roll == 1:
            w.emit(AttackResult(p, t, roll, "back+tissue"))
            near = closest_normal(w.tiles, w.panels[t].tile)
            if near >= 0:
                set_tile(w, near, CANCER_T, "failed attack")
        else:
            w.emit(AttackResult(p, t, roll, "back"))
        push(w, p, back, "back")

    def _repel(self, w: W, p: int, t: int, d: int) -> None:
        """The surviving target ``t`` is pushed along ``p``'s direction; maybe a double attack."""
        if d < 0:
            return
        dest = B.NEIGHBOUR[w.panels[t].tile][d]
        if dest < 0:
            w.emit(Blocked(t, "border"))
            push(w, p, B.opposite(d), "rebound")
            return
        relocate(w, t, dest, "repel")
        others = [q for q in CAMP_PANELS[IMMUNE] if q != p and w.panels[q].tile >= 0
                  and B.DIST[w.panels[q].tile][dest] <= range_of(w, q)]
        if not others:
            return
        second = max(others, key=lambda q: (attack_of(w, q), -q))
        w.emit(DoubleAttack(second, t))
        lost = damage(w, t, attack_of(w, second), "double attack")
        if lost >= 0 and w.panels[t].tile >= 0:
            dest2 = B.NEIGHBOUR[dest][d]
            if dest2 >= 0:
                relocate(w, t, dest2, "repel")
            else:
                w.emit(Blocked(t, "border"))

    # .. the automatic steps ........................................................................
    def _advance(self, w: W) -> None:
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

    def _auto_skip(self, w: W) -> bool:
        """Leave a decision step that offers no real choice; True if the step changed."""
        s = w  # the helpers read a W like a state
        p, step = w.panel, w.step
        if step != RELAPSE and w.panels[p].tile < 0:
            w.step = END
            return True
        if step == DRAW and not (self._can_charge(s) or self._can_mutate(s)):
            w.step = CARDS_STEP
            return True
        if step == CARDS_STEP and not any(plays(s, c) for c in set(w.panels[p].hand)):
            w.step = SPECIAL
            return True
        if step == CARDMOVE and (w.moves <= 0 or not legal_steps(s)):
            finish_card_move(w)
            return True
        if step == MOVE and (w.moves <= 0 or not legal_steps(s)):
            w.step = ATTACK
            return True
        if step == ATTACK and (PANEL_CAMPS[p] != IMMUNE or not w.rolled or not attack_targets(s)):
            if PANEL_CAMPS[p] == IMMUNE and w.rolled and not w.attacked:
                w.emit(NoAttack(p))  # (an event only: the state is as it always was)
            w.step = END
            return True
        return False

    def _automatic(self, w: W) -> None:
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
                relocate(w, p, other, "vessel")
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

    def _end_round(self, w: W) -> None:
        p = w.panel
        pn = w.panels[p]
        camp = PANEL_CAMPS[p]
        if pn.tile >= 0:
            if pn.tile == w.signs[GENERATOR]:
                heal(w, p, 1, "generator")
            for cid, _ in pn.active:
                c = CARDS[cid]
                if c.regen and edition(w).regen and w.round % edition(w).regen_every == 0:
                    heal(w, p, c.regen, c.slug)
                if c.division:
                    near = closest_normal(w.tiles, w.panels[p].tile)
                    if near >= 0:
                        set_tile(w, near, CANCER_T, c.slug)
            pn = w.panels[p]
            kept = []
            for cid, left in pn.active:
                if left == 0:  # a continuous card that stays (the second edition)
                    kept.append((cid, 0))
                elif left > 1:
                    kept.append((cid, left - 1))
                else:
                    w.used[camp][cid] += 1
                    w.emit(CardExpired(p, cid))
            pn = w.set(p, active=tuple(kept), vessel=pn.tile in vessel_tiles(w))
            lim = effective_limit(pn)
            if pn.biomass > lim:
                w.set(p, biomass=lim)
        self._next_panel(w)

    def _next_panel(self, w: W) -> None:
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

    def _ending(self, w: W) -> tuple[int, str] | None:
        n = cancer_count(w)
        if n > C.CANCER_WIN_ABOVE:
            return CANCER, f"{SPREAD} {n} tiles"
        if n < C.IMMUNE_WIN_BELOW:
            return IMMUNE, f"{SHRANK} {n} tiles"
        if all(w.panels[q].tile < 0 for q in CAMP_PANELS[CANCER]):
            return IMMUNE, ALL_DEAD
        if w.round >= C.ROUNDS:
            return 2, f"{NO_WINNER} {C.ROUNDS}"
        return None

    # -- outcome ---------------------------------------------------------------------------------
    def outcome(self, s: CWState) -> Outcome | None:
        if s.phase != OVER:
            return None
        if s.winner == 2:  # (the tie says why: "Tie (no winner after round 16: 17 cancer tiles)")
            return Outcome(tuple(range(s.players)), f"{s.result}: {cancer_count(s)} cancer tiles",
                           ())
        winners = tuple(seat for seat in range(s.players) if seat_camp(s.players, seat) == s.winner)
        return Outcome(winners, s.result, ())

    # -- hidden information ----------------------------------------------------------------------
    def view(self, s: CWState, seat: int | None) -> CWState:
        mine = set(seat_panels(s, seat)) if seat is not None and seat >= 0 else set()
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
        return N.action_to_str(a)

    def action_from_str(self, text: str) -> Action:
        return N.action_from_str(self, text)

    def describe_event(self, e: Event, names: Sequence[str]) -> str:
        return N.describe(e)

    # -- bot hooks (see bot.py) ------------------------------------------------------------------
    def bot_actions(self, s: CWState, seat: int) -> list[Action]:
        return BOT.bot_actions(self, s, seat)

    def heuristic(self, s: CWState) -> tuple[float, ...]:
        return BOT.heuristic(s)

    def random_playout(self, s: CWState, rng: random.Random, max_steps: int = 400):
        return BOT.random_playout(self, s, rng, max_steps)

    def greedy_action(self, view: CWState, seat: int, rng: random.Random) -> Action:
        return BOT.policy(self, view, seat, rng, noise=0.0)

    # -- self-play measures (bench/balance.py) ---------------------------------------------------
    def sides(self, players: int) -> tuple[str, ...]:
        return tuple(CAMP_NAMES[seat_camp(players, seat)] for seat in range(players))

    def seating(self, players: int, options: Options | None = None) -> tuple[str, str]:
        edition = (self.own_options(options).rules_edition if options is not None
                   else C.CURRENT_EDITION)
        return "Cells led", " · ".join(
            f"{seat + 1}: " + " ".join(C.PANEL_NAMES[p]
                                       for p in C.panels_led(players, edition, seat))
            for seat in range(players))

    def action_family(self, a: Action) -> str:
        if isinstance(a, Play):
            return f"play {a.card}"
        return str(type(a).__struct_config__.tag)

    def ending_kind(self, termination: str) -> str:
        """The endings counted apart in self-play: the cancer over 21 tiles, under 4, every
        cancer cell dead, a tie (the end's own words give the tile count)."""
        for start, kind in ENDING_KINDS:
            if termination.startswith(start):
                return kind
        return super().ending_kind(termination)

    def rules_text(self, options: Options) -> str:
        """"rules version 6: edition 5, as played here; standard layout"."""
        opts = self.own_options(options)
        return (f"rules version {self.rules_version}: edition {opts.rules_edition}, "
                f"{C.rules_choice(opts.rules_edition)}; {opts.layout} layout")

    def round_figures(self, s: CWState) -> tuple[int, dict[str, float]]:
        if s.phase not in (PLAY, OVER):
            return 0, {}
        return s.round, {"cancer tiles": float(cancer_count(s))}

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
                # (the first edition let a claim outlive a change of its tile by another cell)
                assert pn.solid == 0 or s.tiles[pn.tile] == CANCER_T or s.edition == 1
            elif s.phase in (PLAY, OVER):
                assert pn.tile == DEAD and pn.biomass == 0 and not pn.hand and not pn.active
            assert all(CARDS[c].kind != IMMEDIATE for c in pn.hand)
            lasts = edition(s).continuous_rounds
            assert all(CARDS[c].kind == CONTINUOUS and (n == 0 if lasts == 0 else 1 <= n <= lasts)
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


