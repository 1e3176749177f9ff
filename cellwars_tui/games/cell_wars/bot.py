"""Cell Wars bot hooks: a short list of sensible actions, a position value and a greedy playout.

The core MCTS bot (``ai/bots.py``) searches among :func:`bot_actions` and scores the positions it
reaches with :func:`random_playout`, which plays the greedy policy below to the end of the current
panel's individual round (a cancer cell's: until the next immune cell has answered) and then asks
:func:`heuristic`: the value learned from self-play
(``value.py``). Where the policy sees only one sensible
move (stepping towards a target, purifying the tile under an immune cell, ...) ``bot_actions``
returns just that move, so the search spends its time on real choices: drawing, cards, the special
action, attack order.

Goals the policy follows:

* an immune cell heads for the nearest purifiable cancer tile or cancer cell, purifies the cancer
  tile it stands on and attacks every cancer cell in range;
* a cancer cell heads for the nearest normal tile away from immune cells, degrades it, and builds
  walls in front of nearby immune cells when it has some;
* both camps play the cards that help now (moves that reach a target, sugars when hurt, the
  continuous cards, tile-changing cards, hits on the weakest enemy).

Two choices only the search weighs (they come after the policy's pick, so the greedy policy and
the playouts never take them): an immune cell on cancer tissue may purify instead of hunting once
the tumour is one tile short of the cancer camp's win (``_last_stand``), and a cancer cell with an
immune cell within two tiles may step to the safest neighbouring tile (``_flight``). The first
lifted the search leading the immune camp over the greedy policy from 70% to 80% of the decisive
games; alone it also tilted search self-play to the immune camp (64% of the decisive games), which
the second, giving the cancer search a way out, evens again (the rules page has the figures).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ...core import CHANCE, Action, Game
from . import board as B
from . import state as R  # the state, actions and queries (rules.py re-exports them)
from .cards import CANCER, CARDS, CONTINUOUS, IMMUNE
from .cards import card_id as _card_id
from .value import value

DIST = B.DIST
N = B.N_TILES
BIOMASS_FLOOR = (2, 3)  # per camp: never pay for a card below this (area hits would kill)
PLAYOUT_NOISE = 0.0  # the playouts follow the policy exactly (dice are their only chance)


# ----------------------------------------------------------------------------------------------
# Targets and distances
# ----------------------------------------------------------------------------------------------
HUNT = 6  # an immune cell this close (plus its range) to a cancer cell hunts it


def _prey(s: R.CWState, p: int) -> list[int]:
    """Tiles of the cancer cells an immune cell hunts (those close enough to catch)."""
    here = s.panels[p].tile
    reach = HUNT + R.range_of(s, p)
    return [s.panels[q].tile for q in R.enemies(s, p) if DIST[here][s.panels[q].tile] <= reach]


def _targets(s: R.CWState, p: int) -> list[int]:
    """Tiles panel ``p`` wants to stand on: an immune cell the cancer cells it hunts, else cancer
    tissue or any cancer cell; a cancer cell normal tissue."""
    if R.PANEL_CAMPS[p] == IMMUNE:
        prey = _prey(s, p)
        if prey:
            return prey
        out = [t for t in range(N) if s.tiles[t] == R.CANCER_T]
        out.extend(s.panels[q].tile for q in R.CAMP_PANELS[CANCER] if s.panels[q].tile >= 0)
        return out
    return [t for t in range(N) if s.tiles[t] == R.NORMAL_T]


def _dist_to(tile: int, targets: Sequence[int]) -> int:
    row = DIST[tile]
    return min((row[t] for t in targets), default=20)


def _threat(s: R.CWState, p: int, tile: int) -> int:
    """How close the nearest enemy is to ``tile`` (larger is safer), capped at 4."""
    row = DIST[tile]
    best = 4
    for q in R.enemies(s, p):
        d = row[s.panels[q].tile]
        if d < best:
            best = d
    return best


def _tile_score(s: R.CWState, p: int, tile: int, targets: Sequence[int]) -> float:
    """Lower is better: distance to a target, then safety (cancer) or closeness to cells (immune)."""
    d = _dist_to(tile, targets)
    if R.PANEL_CAMPS[p] == CANCER:
        return d * 10 - _threat(s, p, tile)
    return d * 10 + R.nearest_enemy_distance(s, p, tile) * 0.1


def _on_target(s: R.CWState, p: int) -> bool:
    tile = s.panels[p].tile
    if R.PANEL_CAMPS[p] == IMMUNE:
        prey = _prey(s, p)
        if prey:
            return DIST[tile][min(prey, key=lambda t: DIST[tile][t])] <= R.range_of(s, p)
        return s.tiles[tile] == R.CANCER_T or any(
            s.panels[q].tile == tile for q in R.CAMP_PANELS[CANCER])
    return s.tiles[tile] == R.NORMAL_T


# ----------------------------------------------------------------------------------------------
# Setup choices (one each: the search gains little there and the playouts are long)
# ----------------------------------------------------------------------------------------------
_CENTRE = B.BY_NAME["E5"]


def _setup_action(s: R.CWState) -> Action:
    if s.phase == R.SIGNS:
        taken = set(s.signs)
        near = {n for t in s.signs for n in B.within(t, 1)}
        k = len(s.signs)
        # CARD signs on a ring two tiles out, the rest spread further; never next to another spot
        ring = 2 if k < 4 else 3
        free = [t for t in range(N) if t not in taken and t not in near] or \
               [t for t in range(N) if t not in taken]
        return R.Sign(min(free, key=lambda t: (abs(DIST[_CENTRE][t] - ring), t)))
    if s.phase == R.TISSUE:
        near = {n for t in s.signs for n in B.within(t, 1)}
        cancer = [t for t in range(N) if s.tiles[t] == R.CANCER_T]
        free = [t for t in range(N) if s.tiles[t] == R.NORMAL_T]
        fits = [t for t in free if t not in near] or free
        if not cancer:  # start the tumour as far from the special spots as possible
            return R.Tissue(max(fits, key=lambda t: (min((DIST[t][x] for x in s.signs),
                                                         default=0), -t)))
        return R.Tissue(min(fits, key=lambda t: (_dist_to(t, cancer), DIST[_CENTRE][t], t)))
    # pieces
    p = s.panel
    options = R.start_tiles(s, p)
    if R.PANEL_CAMPS[p] == IMMUNE:
        cancer = [t for t in range(N) if s.tiles[t] != R.NORMAL_T]
        placed = [s.panels[q].tile for q in R.CAMP_PANELS[IMMUNE] if s.panels[q].tile >= 0]
        return R.Place(min(options, key=lambda t: (_dist_to(t, cancer),
                                                   -_dist_to(t, placed), t)))
    normal = [t for t in range(N) if s.tiles[t] == R.NORMAL_T]
    immune = [s.panels[q].tile for q in R.CAMP_PANELS[IMMUNE] if s.panels[q].tile >= 0]
    mates = [s.panels[q].tile for q in R.CAMP_PANELS[CANCER] if s.panels[q].tile >= 0]
    return R.Place(min(options, key=lambda t: (_dist_to(t, normal), -_dist_to(t, immune),
                                               -_dist_to(t, mates), t)))


# ----------------------------------------------------------------------------------------------
# Card plays, ranked
# ----------------------------------------------------------------------------------------------
def _play_value(s: R.CWState, a: R.Play) -> float:
    """How much the policy likes a play (<= 0: not worth it now)."""
    p = s.panel
    pn = s.panels[p]
    camp = R.PANEL_CAMPS[p]
    c = CARDS[_card_id(a.card)]
    lim = R.effective_limit(pn)
    if c.kind == CONTINUOUS:
        if c.regen or c.limit:
            return 3.0
        if c.division:
            return 6.0
        if c.dodge:
            return 2.0
        return 4.0  # attack, range, roll bonus
    if c.full_heal:
        return 3.0 + (lim - pn.biomass)
    if c.heal:
        return 4.0 if pn.biomass <= lim - 2 else 0.0
    if c.draw or c.walls:
        return 3.0
    if c.precise or c.round_attack or c.round_range:
        near = R.nearest_enemy_distance(s, p, pn.tile)
        return 2.5 if near <= 3 + R.range_of(s, p) else 0.0
    if c.area_damage:
        return 5.0
    if c.hit_radius > -2:
        target = s.panels[a.panel]
        return 4.0 + 2.0 / max(1, target.biomass)
    if c.cancerate_radius >= 0:
        return 6.0 if a.tile != pn.tile or s.tiles[pn.tile] != R.NORMAL_T else 1.0
    if c.purify_radius >= 0:
        return 5.0 + sum(1 for t in B.within(pn.tile, c.purify_radius)
                         if s.tiles[t] == R.CANCER_T)
    if c.metastasis:
        immune = [s.panels[q].tile for q in R.CAMP_PANELS[IMMUNE] if s.panels[q].tile >= 0]
        return 5.0 + 0.1 * _dist_to(a.tile, immune)
    if c.move:
        if _on_target(s, p) and not c.invade:
            return 0.0
        if c.invade:
            if s.tiles[pn.tile] == R.NORMAL_T:
                return 0.0  # degrade it instead and keep the card
            return 5.0 if any(s.tiles[n] == R.NORMAL_T for n in B.NEIGHBOURS[pn.tile]) else 0.0
        targets = _targets(s, p)
        return 3.0 if _dist_to(pn.tile, targets) <= c.move else 1.0
    if c.teleport_sign or c.swap_range:
        dest = a.tile if c.teleport_sign else s.panels[a.panel].tile
        if _on_target(s, p):
            return 0.0
        if camp == IMMUNE:
            good = s.tiles[dest] == R.CANCER_T
        else:
            good = s.tiles[dest] == R.NORMAL_T and _threat(s, p, dest) >= 2
        return 2.0 if good else 0.0
    if c.vegf:
        return _vegf_value(s, p, a.tile)
    return 0.5


def _vegf_value(s: R.CWState, p: int, moved: int) -> float:
    """VEGF brings the vessel on ``moved`` under the cell; waiting on it, the cell is carried to
    the other vessel next round. Worth it for a cancer cell in danger whose way out lands far
    from immune cells, and for an immune cell far from its prey whose way lands near one."""
    here = s.panels[p].tile
    others = [t for t in R.vessel_tiles(s) if t != moved]
    if not others:
        return 0.0
    there = others[0]
    if R.PANEL_CAMPS[p] == CANCER:
        return 3.0 if _threat(s, p, here) <= 1 and _threat(s, p, there) >= 4 else 0.0
    cells = [s.panels[q].tile for q in R.enemies(s, p)]
    return 3.0 if _dist_to(here, cells) >= 5 and _dist_to(there, cells) <= 2 else 0.0


def _solidify_now(s: R.CWState, p: int) -> bool:
    """Start solidifying: a safe cancer cell makes the camp's first solidified tile (a place to
    relapse on), or keeps its count going."""
    pn = s.panels[p]
    if pn.solid:
        return _threat(s, p, pn.tile) >= 2
    return (_threat(s, p, pn.tile) >= 4 and R.SOLID_T not in s.tiles
            and not any(s.panels[q].solid for q in R.CAMP_PANELS[CANCER]))


# ----------------------------------------------------------------------------------------------
# The policy: candidates for the search, best first
# ----------------------------------------------------------------------------------------------
def _wall_to_build(s: R.CWState) -> int:
    """The edge in front of the immune cell nearest to this cancer cell, or -1."""
    p = s.panel
    here = s.panels[p].tile
    immune = [q for q in R.CAMP_PANELS[IMMUNE] if s.panels[q].tile >= 0]
    if not immune:
        return -1
    q = min(immune, key=lambda q: (DIST[here][s.panels[q].tile], q))
    there = s.panels[q].tile
    if DIST[here][there] > 4:
        return -1
    walls = set(s.walls)
    targets = [t for t in range(N) if s.tiles[t] == R.CANCER_T] + [here]
    best, best_d = -1, 99
    for n in B.NEIGHBOURS[there]:
        e = B.edge_between(there, n)
        if e in walls:
            continue
        d = _dist_to(n, targets)
        if d < best_d:
            best, best_d = e, d
    return best


def _steps(s: R.CWState, legal: Sequence[Action]) -> list[Action]:
    """Movement: the policy's step (or ``End``) first, then the steps nearly as good."""
    p = s.panel
    pn = s.panels[p]
    camp = R.PANEL_CAMPS[p]
    steps = [a for a in legal if isinstance(a, R.Step)]
    can_end = R.End() in legal
    if can_end and (not steps or _on_target(s, p)):
        return [R.End()]
    if not steps:
        return [R.End()]
    here = pn.tile
    targets = _targets(s, p)
    order = sorted(steps, key=lambda a: (_tile_score(s, p, B.NEIGHBOUR[here][a.dir], targets),
                                         a.dir))
    best = order[0]
    if can_end and _tile_score(s, p, B.NEIGHBOUR[here][best.dir], targets) >= \
            _tile_score(s, p, here, targets):
        return [R.End()]
    scores = [_tile_score(s, p, B.NEIGHBOUR[here][a.dir], targets) for a in order]
    near: list[Action]
    if camp == IMMUNE:  # the ways as near a cancer cell: the search picks (where it lands
        near = [a for a, sc in zip(order, scores) if sc - scores[0] < 10]  # and pushes)
        return near[:3]
    if len(order) > 1 and scores[1] - scores[0] < 5:  # as near normal tissue: the search picks
        near = list(order[:2])
        return near
    return [best]


def _last_stand(s: R.CWState) -> bool:
    """The tumour is one tile short of the cancer camp's win (``CANCER_WIN_ABOVE`` tiles or more):
    an immune cell's search then also weighs purifying the tile under it."""
    return sum(1 for t in s.tiles if t) >= R.C.CANCER_WIN_ABOVE


FLIGHT = 2  # an immune cell this close: a cancer cell's search also weighs the safest step


def _flight(s: R.CWState, legal: Sequence[Action]) -> Action | None:
    """The step to the neighbouring tile farthest from the immune cells, for a cancer cell with
    one within ``FLIGHT`` tiles, if that tile is safer than its own; else None."""
    p = s.panel
    here = s.panels[p].tile
    threat = _threat(s, p, here)
    steps = [a for a in legal if isinstance(a, R.Step)]
    if threat > FLIGHT or not steps:
        return None
    best = max(steps, key=lambda a: (_threat(s, p, B.NEIGHBOUR[here][a.dir]), -a.dir))
    return best if _threat(s, p, B.NEIGHBOUR[here][best.dir]) > threat else None


def ranked(game: Game, s: R.CWState, seat: int) -> list[Action]:
    """Sensible actions for the acting seat, the policy's favourite first (never empty when the
    seat is to act)."""
    if s.phase in (R.SIGNS, R.TISSUE, R.PIECES):
        return [_setup_action(s)]
    legal = game.legal_actions(s, seat)
    if not legal:
        return []
    p, step = s.panel, s.step
    pn = s.panels[p]
    camp = R.PANEL_CAMPS[p]
    if step == R.RELAPSE:
        relapses = [a for a in legal if isinstance(a, R.Relapse)]
        normal = [t for t in range(N) if s.tiles[t] == R.NORMAL_T]
        relapses.sort(key=lambda a: (_dist_to(a.tile, normal) * 10 - _threat(s, p, a.tile), a.tile))
        return relapses[:2] + [R.Stay()]
    if step == R.DRAW:
        out: list[Action] = []
        charge = R.Charge() in legal
        mutate = R.Mutate() in legal
        if camp == IMMUNE:
            if charge and pn.biomass >= 4:
                out.append(R.Charge())
        else:
            if mutate and pn.biomass >= 4:
                out.append(R.Mutate())
            if charge and pn.biomass >= 5:
                out.append(R.Charge())
        out.append(R.End())
        # the search may weigh paying for a card, but never down to a Biomass one card could end
        floor = BIOMASS_FLOOR[camp]
        for a, cost in ((R.Charge(), 2), (R.Mutate(), 1)):
            if a in legal and a not in out and pn.biomass - cost >= floor:
                out.append(a)
        return out
    if step == R.CARDS_STEP:
        plays = [(v, i, a) for i, a in enumerate(legal) if isinstance(a, R.Play)
                 and (v := _play_value(s, a)) > 0]
        plays.sort(key=lambda x: (-x[0], x[1]))
        out = []
        seen = set()
        for _, _, play in plays:  # the best way to play each card
            if play.card not in seen:
                seen.add(play.card)
                out.append(play)
        return out[:3] + [R.End()]
    if step in (R.MOVE, R.CARDMOVE):
        out = _steps(s, legal)
        if camp == CANCER:  # in danger, the search may weigh running (never the policy's pick)
            flight = _flight(s, legal)
            if flight is not None and flight not in out:
                out.append(flight)
        return out
    if step == R.ATTACK:
        attacks = [a for a in legal if isinstance(a, R.Attack)]
        attacks.sort(key=lambda a: (s.panels[a.panel].biomass, a.panel))
        first: list[Action] = list(attacks[:1])
        return first or [R.End()]
    if step == R.SPECIAL:
        tissue = s.tiles[pn.tile]
        if camp == IMMUNE:
            prey = _prey(s, p)
            if R.Purify() in legal and not prey:
                return [R.Purify()]
            out = [R.Roll()]
            if R.Purify() in legal and _dist_to(pn.tile, prey) > 3 + R.range_of(s, p):
                out.append(R.Purify())  # the prey is out of this round's reach
            targets = _targets(s, p)
            here_d = _dist_to(pn.tile, targets)
            walls = set(s.walls)
            for n in B.NEIGHBOURS[pn.tile]:
                e = B.edge_between(pn.tile, n)
                if e in walls and _dist_to(n, targets) < here_d:
                    out.insert(0, R.Demolish(e))
                    break
            if R.Purify() in legal and R.Purify() not in out and _last_stand(s):
                out.append(R.Purify())  # the search may hold the tumour back instead of hunting
            return out
        if R.Degrade() in legal:
            # the race: spread; the search may weigh fleeing from an immune cell next to it
            return [R.Degrade(), R.Roll()] if _threat(s, p, pn.tile) <= 1 else [R.Degrade()]
        out = []
        threat = _threat(s, p, pn.tile)
        if pn.walls and threat <= 4:
            e = _wall_to_build(s)
            if e >= 0:
                out.append(R.Build(e))
        if tissue == R.CANCER_T and _solidify_now(s, p):
            return [R.Solidify()] + out + [R.Roll()]
        if out and threat <= 3:  # a wall in the way of the immune cell coming for it
            return out + [R.Roll()]
        out.insert(0, R.Roll())
        if tissue == R.CANCER_T:
            out.append(R.Solidify())
        return out
    return list(legal)


def policy(game: Game, s: R.CWState, seat: int, rng: random.Random,
           noise: float = 0.1) -> Action:
    """The playout move: the favourite, or now and then another sensible one."""
    options = ranked(game, s, seat)
    if len(options) > 1 and rng.random() < noise:
        return rng.choice(options)
    return options[0]


# ----------------------------------------------------------------------------------------------
# The hooks
# ----------------------------------------------------------------------------------------------
def bot_actions(game: Game, s: R.CWState, seat: int) -> list[Action]:
    """Candidates for the search: one where the policy is sure, a few at real choices."""
    if s.phase == R.OVER or seat not in game.to_act(s) or seat == CHANCE:
        return []
    return ranked(game, s, seat)


def camp_value(s: R.CWState) -> float:
    """The cancer camp's prospects in [-1, 1] (the immune camp's are the opposite): the learned
    value of ``value.py`` in play, the result once the game is over."""
    if s.phase == R.OVER:
        return 0.0 if s.winner == 2 else (1.0 if s.winner == CANCER else -1.0)
    if s.phase != R.PLAY:
        return 0.0
    return 0.95 * value(s)


def heuristic(s: R.CWState) -> tuple[float, ...]:
    v = camp_value(s)
    return tuple(v if R.seat_camp(s.players, seat) == CANCER else -v for seat in range(s.players))


_DICE = (R.C_MOVE, R.C_ATTACK, R.C_MUTATE)


def random_playout(game: Game, s: R.CWState, rng: random.Random,
                   max_steps: int = 400) -> tuple[float, ...]:
    """The policy plays on to the end of the current panel's individual round (a cancer cell's: to
    the end of the next immune cell's, ``HORIZON``), then the learned value judges: the
    candidate's own consequences are played out, the rest is left to the value.
    The first die of the playout (to move, to attack or a mutation's) is not sampled: each of its
    six faces is played on (later dice sampled) and the six values averaged, so 16 playouts tell
    candidates apart where single throws would be mostly noise."""
    start = (s.round, s.panel)
    for _ in range(max_steps):
        if _turn_over(s, start):
            break
        seat = game.to_act(s)[0]
        if seat == CHANCE and s.chance in _DICE:
            values = [heuristic(_play_turn(game, game._apply(s, CHANCE, R.Die(face))[0], start,
                                           rng, max_steps)) for face in range(1, 7)]
            return tuple(sum(v[i] for v in values) / 6.0 for i in range(len(values[0])))
        a = (game.sample_chance(s, rng) if seat == CHANCE
             else policy(game, s, seat, rng, PLAYOUT_NOISE))
        s, _ = game._apply(s, seat, a)
    return heuristic(s)


def _answered_by(p: int) -> int:
    """How many individual rounds a playout started in panel ``p``'s round plays: an immune
    cell's own; a cancer cell's, then every round up to and including the next immune panel's."""
    if R.PANEL_CAMPS[p] == IMMUNE:
        return 1
    return 1 + next(i for i in range(1, R.N_PANELS + 1)
                    if R.PANEL_CAMPS[(p + i) % R.N_PANELS] == IMMUNE)


HORIZON = tuple(_answered_by(p) for p in range(R.N_PANELS))
"""Individual rounds a playout plays, by the panel it starts in. A cancer cell's move (where to
step, whether to flee or degrade, to solidify or build) is judged once the next immune cell has
answered it, by hunting and attacking with the dice played out: judged right after its own round,
its danger was left to the value's guess, and the search leading the cancer camp beat the greedy
policy less often than the one leading the immune camp (67% of the decisive games against 81%).
An immune cell's attack is its own round, so its playout ends there."""


def _turn_over(s: R.CWState, start: tuple[int, int]) -> bool:
    if s.phase == R.OVER:
        return True
    if s.phase != R.PLAY:
        return False
    passed = (s.round - start[0]) * R.N_PANELS + s.panel - start[1]
    return passed >= HORIZON[start[1]]


def _play_turn(game: Game, s: R.CWState, start: tuple[int, int], rng: random.Random,
               max_steps: int) -> R.CWState:
    """The policy plays on (dice sampled) to the end of the playout begun at ``start``: the
    individual round begun there, and for a cancer cell the rounds up to the next immune cell's
    (``HORIZON``)."""
    for _ in range(max_steps):
        if _turn_over(s, start):
            break
        seat = game.to_act(s)[0]
        a = (game.sample_chance(s, rng) if seat == CHANCE
             else policy(game, s, seat, rng, PLAYOUT_NOISE))
        s, _ = game._apply(s, seat, a)
    return s
