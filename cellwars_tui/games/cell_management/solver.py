"""Cell Management solver and study: breadth-first search over the player's decisions.

A decision state is the ship at the moment the player picks the next starting cell. It is packed in
an int, two bits per species: bit ``2x`` is set when a captive of species ``x`` sits in its hideout,
bit ``2x+1`` when one is in the centre (the cell holds the rest of the two). So a six-species ship
has at most 4**6 = 4096 decision states, and a round is one edge: a starting cell, the guards' walk
(:func:`walk_bits`, an independent re-implementation of ``rules.walk`` that the tests compare with
it), then "done" or one return to prison. BFS gives the minimum number of rounds and one optimal
plan, or proves that no plan exists. The minimum alone (for the study, the daily puzzle and the
screen's optimum) comes from the same search run on whole layers of states at once, as bitsets
(:func:`min_rounds_of_sets`); the tests check that both agree.

The study enumerates every setup the seed's procedure can build, up to two exact symmetries:

* relabelling the species (any permutation): the rules name species only to match a captive with
  its own hideout and cell, so renaming all of them consistently changes nothing. A setup is then
  described by positions only: which position's hideout the captives of the cell at ``p`` belong to
  (``tau``, always one cycle through all positions) and which positions are hostile.
* rotating the ring: the player chooses any starting cell, and the walk is the same clockwise
  circuit from wherever it starts.

Reflection is NOT used: it would reverse the guards' clockwise walk. The tests check on the
four-species game that solving every raw setup gives exactly what its class representative gives.
"""

from __future__ import annotations

import itertools
import math
import os
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from ...core import Action
from . import moves as M
from .clarifications import hostile_count
from .setups import NAMES, SYMBOLS, Setup, setup_code, setup_count
from .types import OVER, RETURN, SETUP, START, CMState, Done, Return, Start

# ----------------------------------------------------------------------------------------------
# Compact states and the walk on them
# ----------------------------------------------------------------------------------------------


class Compiled:
    """A setup prepared for fast walks: per starting cell, the steps (cell shift, hideout shift,
    hostile) in walk order."""

    __slots__ = ("setup", "species", "walks", "goal")

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        n = self.species = len(setup.hideouts)
        steps = [(2 * setup.cells[p], 2 * setup.hideouts[p], int(setup.hideouts[p] in setup.hostile))
                 for p in range(n)]
        # (start cell species, steps in order) for each starting position, in position order
        self.walks = tuple(
            (setup.cells[s], tuple(steps[(s + i) % n] for i in range(n))) for s in range(n))
        self.goal = sum(2 << (2 * x) for x in range(n))


def encode(state: CMState) -> int:
    """The two-bits-per-species packing of a state's captives."""
    bits = 0
    for x in range(state.species):
        bits |= (int(state.in_hideout[x]) | int(state.in_center[x]) << 1) << (2 * x)
    return bits


def decode(bits: int, like: CMState) -> CMState:
    """A start-phase state with the captives of ``bits`` on the ship of ``like``."""
    n = like.species
    hide = tuple(bool(bits >> (2 * x) & 1) for x in range(n))
    cen = tuple(bool(bits >> (2 * x + 1) & 1) for x in range(n))
    cell = tuple(2 - hide[x] - cen[x] for x in range(n))
    return msgspec.structs.replace(like, in_cell=cell, in_hideout=hide, in_center=cen,
                                   phase=START)


def walk_bits(bits: int, steps: Sequence[tuple[int, int, int]]) -> int:
    """One walk of the guards on a packed state (see the module docstring)."""
    for cs, hs, hostile in steps:
        if (bits >> hs) & 1 != hostile:  # friend present, or enemy absent: one captive tries
            c = (bits >> cs) & 3
            if c == 1:  # one in the hideout already (and one in the cell): to the centre
                bits |= 2 << cs
            elif c != 3:  # 0: two in the cell, 2: one in the cell and one free: to the hideout
                bits |= 1 << cs
        if (bits >> hs) & 1:  # the search finds a captive: back to its cell
            bits &= ~(1 << hs)
    return bits


def after_round_options(bits: int, species: int) -> list[tuple[int | None, int]]:
    """The return-to-prison choices after a walk: (species sent back or None, next state)."""
    out: list[tuple[int | None, int]] = [(None, bits)]
    for x in range(species):
        if (bits >> (2 * x)) & 3 == 2:  # in the centre, hideout empty
            out.append((x, bits ^ (3 << (2 * x))))
    return out


_OPTIONS: dict[int, list[list[tuple[int | None, int]]]] = {}


def _options_table(species: int) -> list[list[tuple[int | None, int]]]:
    table = _OPTIONS.get(species)
    if table is None:
        table = _OPTIONS[species] = [after_round_options(b, species) for b in range(4**species)]
    return table


# ----------------------------------------------------------------------------------------------
# Solving
# ----------------------------------------------------------------------------------------------


class Round(msgspec.Struct, frozen=True):
    """One round of a plan: the starting cell (species) and the captive sent back (or None)."""

    start: int
    send_back: int | None = None


class Solution(msgspec.Struct, frozen=True):
    rounds: int
    plan: tuple[Round, ...]


def _search(puzzle: Compiled, sources: Iterable[int]) -> tuple[int, list[Round]] | None:
    """BFS from the packed states ``sources`` (all at distance 0). Returns (the source used, the
    rounds of one shortest plan), or None when the goal cannot be reached."""
    goal, walks = puzzle.goal, puzzle.walks
    options = _options_table(puzzle.species)
    parent: dict[int, tuple[int, int, int | None] | None] = {}
    frontier = []
    for s in sources:
        if s not in parent:
            parent[s] = None
            frontier.append(s)
    expanded: set[int] = set()  # walk results whose return choices are already queued
    while frontier:
        nxt = []
        for bits in frontier:
            for cell, steps in walks:
                after = walk_bits(bits, steps)
                if after in expanded:
                    continue
                expanded.add(after)
                if after & goal == goal:
                    plan = [Round(cell)]
                    node = bits
                    while parent[node] is not None:
                        prev, start, back = parent[node]  # type: ignore[misc]
                        plan.append(Round(start, back))
                        node = prev
                    plan.reverse()
                    return node, plan
                for back, new in options[after]:
                    if new not in parent:
                        parent[new] = (bits, cell, back)
                        nxt.append(new)
        frontier = nxt
    return None


def solve_bits(puzzle: Compiled, bits: int) -> Solution | None:
    found = _search(puzzle, (bits,))
    if found is None:
        return None
    plan = tuple(found[1])
    return Solution(len(plan), plan)


def min_rounds(setup: Setup) -> int | None:
    """Minimum rounds from the initial position, or None when the setup has no solution (the
    set-at-a-time search below; :func:`solve_setup` gives the same count with a plan)."""
    return min_rounds_of_sets(setup)


# -- The same breadth-first search on whole layers at once (the study's workhorse) --------------
#
# A set of packed states is one Python int used as a bitset: bit ``s`` is set when state ``s`` is
# in the set (4**6 = 4096 bits for six species). One step of the walk (examine the cell at a
# position, then search the hideout beside it) reads only two fields: the cell species' field and
# the hideout bit of the hideout's species. For each of the 8 values those can take, the step adds
# the same number to every state (a bit set or cleared), so the image of a set under the step is
# the union of 8 masked shifts. A layer of the search is then a few hundred big-int operations
# instead of a Python loop over its states.

_FIELD_MASKS: dict[int, list[list[int]]] = {}


def field_masks(species: int) -> list[list[int]]:
    """``masks[x][v]``: the set of packed states whose two-bit field for species ``x`` is ``v``."""
    masks = _FIELD_MASKS.get(species)
    if masks is None:
        size = 4**species
        masks = [[0] * 4 for _ in range(species)]
        for x in range(species):
            for v in range(4):
                # states with field x == v: runs of 4**x consecutive states, every 4**(x+1)
                run = ((1 << 4**x) - 1) << (v * 4**x)
                period = 4 ** (x + 1)
                bits = 0
                for start in range(0, size, period):
                    bits |= run << start
                masks[x][v] = bits
        _FIELD_MASKS[species] = masks
    return masks


def _step_cases(species: int, cs: int, hs: int, hostile: int) -> tuple[tuple[int, int], ...]:
    """(mask, change) pairs: the states of ``mask`` become ``state + change`` at this step (the
    same rule as :func:`walk_bits`, case by case)."""
    masks = field_masks(species)
    c, h = cs // 2, hs // 2
    cases = []
    for v in range(4):  # the cell species' field
        for hidden in (0, 1):  # a captive in the hideout beside the cell
            mask = masks[c][v] & (masks[h][hidden] | masks[h][hidden | 2])
            change = 0
            if hidden != hostile:  # one captive tries to escape
                if v == 1:
                    change += 2 << cs  # its hideout is taken: to the centre
                elif v != 3:
                    change += 1 << cs  # to its hideout
            if hidden:
                change -= 1 << hs  # the search finds the hidden captive
            if mask:
                cases.append((mask, change))
    return tuple(cases)


def walk_cases(puzzle: Compiled) -> list[list[tuple[tuple[int, int], ...]]]:
    """Per starting position (as ``puzzle.walks``), the cases of each step of the walk."""
    cache: dict[tuple[int, int, int], tuple[tuple[int, int], ...]] = {}
    return [[cache.setdefault(st, _step_cases(puzzle.species, *st)) for st in steps]
            for _cell, steps in puzzle.walks]


def walk_set(states: int, walk: Sequence[tuple[tuple[int, int], ...]]) -> int:
    """The set of states a walk leads to from the set ``states`` (both bitsets)."""
    for cases in walk:
        image = 0
        for mask, change in cases:
            part = states & mask
            if part:
                image |= part << change if change >= 0 else part >> -change
        states = image
    return states


def min_rounds_of_sets(setup: Setup) -> int | None:
    """Breadth-first search from the initial position, one whole layer of states at a time."""
    puzzle = Compiled(setup)
    n = puzzle.species
    masks = field_masks(n)
    walks = walk_cases(puzzle)
    goal = (1 << 4**n) - 1  # every species with a captive in the centre (field 2 or 3)
    for x in range(n):
        goal &= masks[x][2] | masks[x][3]
    send_back = [(masks[x][2], 1 << (2 * x)) for x in range(n)]  # centre -> hideout: field 2 -> 1
    reached = frontier = 1  # the initial position is state 0
    rounds = 0
    while frontier:
        rounds += 1
        after = 0
        for walk in walks:
            after |= walk_set(frontier, walk)
        if after & goal:
            return rounds
        layer = after
        for mask, change in send_back:
            layer |= (after & mask) >> change
        frontier = layer & ~reached
        reached |= layer
    return None


def solve_setup(setup: Setup) -> Solution | None:
    return solve_bits(Compiled(setup), 0)


def solve_state(state: CMState) -> Solution | None:
    """The shortest way on from a start- or return-phase state (the plan's first round is the
    current decision; in the return phase its ``start`` is -1: only ``send_back`` applies)."""
    if state.phase in OVER or state.phase == SETUP:
        return None
    puzzle = Compiled(state.setup)
    bits = encode(state)
    if state.phase == START:
        return solve_bits(puzzle, bits)
    best: Solution | None = None
    for back, new in after_round_options(bits, state.species):
        sol = solve_bits(puzzle, new)
        if sol is not None and (best is None or sol.rounds < best.rounds):
            best = Solution(sol.rounds, (Round(-1, back), *sol.plan))
    return best


def hint(state: CMState) -> Action | None:
    """The best next decision (an action), or None if none leads to a win."""
    return first_action(state, solve_state(state))


def first_action(state: CMState, sol: Solution | None) -> Action | None:
    """The next decision of the plan ``sol`` (a :func:`solve_state` answer) from ``state``."""
    if sol is None:
        return None
    first = sol.plan[0]
    if state.phase == RETURN:
        return Done() if first.send_back is None else Return(first.send_back)
    return Start(first.start)


def solution_actions(state: CMState) -> list[Action] | None:
    """Every decision of one shortest plan from ``state``, as actions to apply in order."""
    sol = solve_state(state)
    if sol is None:
        return None
    actions: list[Action] = []
    for i, rnd in enumerate(sol.plan):
        if rnd.start >= 0:
            actions.append(Start(rnd.start))
        last = i == len(sol.plan) - 1
        if last:
            break
        actions.append(Return(rnd.send_back) if rnd.send_back is not None else Done())
    # "done" is only asked when someone could go back: drop the ones the game skips
    out: list[Action] = []
    s = state
    for a in actions:
        if isinstance(a, Done) and s.phase != RETURN:
            continue
        if s.phase in OVER:
            break
        s = M.play(s, a)
        out.append(a)
    return out


# ----------------------------------------------------------------------------------------------
# The study: every setup up to relabelling and rotation
# ----------------------------------------------------------------------------------------------


class SetupClass(msgspec.Struct, frozen=True):
    """One class of setups: its representative (hideouts N, A, 2, ... clockwise) and how many raw
    setups (hideout ring x hostile set x cell chain, with position 1 fixed) it stands for."""

    setup: Setup
    raw_count: int


def _rotate(tau: tuple[int, ...], hostile: tuple[int, ...], r: int) -> tuple[tuple, tuple]:
    n = len(tau)
    new = [0] * n
    for p in range(n):
        new[(p + r) % n] = (tau[p] + r) % n
    return tuple(new), tuple(sorted((h + r) % n for h in hostile))


def abstract(setup: Setup) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The setup with species renamed by their hideout's position: (tau, hostile positions)."""
    where = {h: p for p, h in enumerate(setup.hideouts)}
    tau = tuple(where[c] for c in setup.cells)
    return tau, tuple(sorted(where[h] for h in setup.hostile))


def canonical(setup: Setup) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The class key of a setup: the least rotation of its abstract form."""
    tau, hostile = abstract(setup)
    return min(_rotate(tau, hostile, r) for r in range(len(tau)))


def setup_classes(species: int) -> list[SetupClass]:
    """Every class of setups for ``species`` species, in a fixed order."""
    n = species
    k = hostile_count(n)
    members: Counter = Counter()
    for rest in itertools.permutations(range(1, n)):
        order = (0, *rest)
        tau = [0] * n
        for i in range(n):
            tau[order[i]] = order[(i + 1) % n]
        for hostile in itertools.combinations(range(n), k):
            key = min(_rotate(tuple(tau), hostile, r) for r in range(n))
            members[key] += 1
    out = []
    for (tau, hostile), size in sorted(members.items()):
        setup = Setup(tuple(range(n)), tuple(hostile), tuple(tau))
        out.append(SetupClass(setup, size * math.factorial(n)))
    return out


def _solve_many(setups: Sequence[Setup]) -> list[int | None]:
    return [min_rounds(s) for s in setups]


class StudyResult(msgspec.Struct):
    species: int
    raw_setups: int
    classes: list[SetupClass]
    rounds: list[int | None]  # per class
    seconds: float = 0.0

    def unsolvable(self) -> list[SetupClass]:
        return [c for c, r in zip(self.classes, self.rounds) if r is None]

    def histogram(self) -> dict[int, tuple[int, int]]:
        """min rounds -> (classes, raw setups)."""
        hist: dict[int, list[int]] = {}
        for c, r in zip(self.classes, self.rounds):
            if r is not None:
                row = hist.setdefault(r, [0, 0])
                row[0] += 1
                row[1] += c.raw_count
        return {r: (v[0], v[1]) for r, v in sorted(hist.items())}

    def hardest(self, count: int = 5) -> list[tuple[SetupClass, int]]:
        solved = [(c, r) for c, r in zip(self.classes, self.rounds) if r is not None]
        solved.sort(key=lambda cr: (-cr[1], setup_code(cr[0].setup)))
        return solved[:count]


def study(species: int, *, workers: int | None = None, progress: Any = None) -> StudyResult:
    """Solve every class of setups; ``progress(done, total)`` is called as chunks finish."""
    t0 = time.perf_counter()
    classes = setup_classes(species)
    setups = [c.setup for c in classes]
    total = len(setups)
    if progress:
        progress(0, total)
    if workers is None:
        workers = 1  # the layer-at-a-time search solves the 404 six-species classes in about 1 s
    chunk = max(1, total // (workers * 8))
    chunks = [setups[i: i + chunk] for i in range(0, total, chunk)]
    rounds: list[int | None] = []
    if workers <= 1:
        for part in chunks:
            rounds.extend(_solve_many(part))
            if progress:
                progress(len(rounds), total)
    else:
        import concurrent.futures as cf
        import multiprocessing

        ctx = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
        results: dict[int, list[int | None]] = {}
        with cf.ProcessPoolExecutor(workers, mp_context=ctx) as pool:
            futures = {pool.submit(_solve_many, part): i for i, part in enumerate(chunks)}
            done = 0
            for fut in cf.as_completed(futures):
                results[futures[fut]] = fut.result()
                done += len(results[futures[fut]])
                if progress:
                    progress(done, total)
        for i in range(len(chunks)):
            rounds.extend(results[i])
    return StudyResult(species, setup_count(species), classes, rounds,
                       time.perf_counter() - t0)


# ----------------------------------------------------------------------------------------------
# Command line (rich is imported only here, inside the functions)
# ----------------------------------------------------------------------------------------------


def start_text(state: CMState, cell: int) -> str:
    """"start at cell 1 (species 4)": a cell named as the screen names it, by its key (its
    position clockwise) first, then the species locked in it."""
    return f"start at cell {state.position_of_cell(cell) + 1} (species {SYMBOLS[cell]})"


def send_back_text(state: CMState, species: int) -> str:
    """"send the Ace back (hideout 3)": the hideout named by its number, the key after b."""
    return f"send the {NAMES[species]} back (hideout {state.position_of_hideout(species) + 1})"


def describe_plan(setup: Setup, plan: Sequence[Round]) -> list[str]:
    """One line per round: where the guards start, who is free afterwards, who goes back."""
    lines = []
    state = M.initial_position(setup)
    for i, rnd in enumerate(plan, 1):
        line = f"Round {i}: {start_text(state, rnd.start)}"
        state = M.play(state, Start(rnd.start))
        free = ", ".join(NAMES[x] for x in state.escaped()) or "nobody"
        line += f"; free: {free}"
        if state.phase == RETURN:
            if rnd.send_back is None:
                state = M.play(state, Done())
                line += "; send nobody back"
            else:
                line += f"; {send_back_text(state, rnd.send_back)}"
                state = M.play(state, Return(rnd.send_back))
        lines.append(line)
    return lines


def plan_lines(state: CMState) -> list[str] | None:
    """One optimal way on from ``state``, one line per round (None when there is none)."""
    actions = solution_actions(state)
    if actions is None:
        return None
    lines: list[str] = []
    s = state
    for a in actions:
        if isinstance(a, Start):
            text = start_text(s, a.cell)
            s = M.play(s, a)
            free = ", ".join(NAMES[x] for x in s.escaped()) or "nobody"
            lines.append(f"Round {s.round}: {text}; free: {free}")
        else:
            if isinstance(a, Return):
                text = send_back_text(s, a.species)
            else:
                text = "send nobody back"
            if lines:
                lines[-1] += f"; {text}"
            else:
                lines.append(f"Now: {text}")
            s = M.play(s, a)
    return lines
