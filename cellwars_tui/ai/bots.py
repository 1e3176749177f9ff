"""Game-agnostic bots over the core API.

Bots see only ``game.view(state, seat)`` (no peeking at hidden programs or hands); search bots
sample a full state consistent with that view with ``game.determinize`` before each search
(determinised MCTS). A game tells them more through its declared bot hooks (``Game.bot_actions``:
a smaller, sensible move list; ``Game.heuristic``: per-seat values in [-1, 1] to cut playouts
short; ``Game.random_playout``: its own fast playout); the defaults keep the bots generic.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from ..core.api import CHANCE, Action, Game


class Bot:
    id = "bot"
    title = "Bot"

    def choose(self, game: Game, view: Any, seat: int, rng: random.Random, budget: float) -> Action:
        raise NotImplementedError


def candidate_actions(game: Game, state: Any, seat: int) -> Sequence[Action]:
    """The actions a bot weighs: the game's ``bot_actions``, or every legal one if it has none."""
    return game.bot_actions(state, seat) or game.legal_actions(state, seat)


class RandomBot(Bot):
    """Uniformly random among legal actions."""

    id = "random"
    title = "Random"

    def choose(self, game, view, seat, rng, budget):
        actions = game.legal_actions(view, seat)
        if not actions:
            raise ValueError(f"{game.title}: no legal action for seat {seat}")
        return rng.choice(list(actions))


class GreedyBot(Bot):
    """The game's own greedy policy (``Game.greedy_action``); for a game without one, the action
    whose position the game's heuristic rates best one step ahead (chance sampled once, ties at
    random). Quick and fair: it sees only its view, like every bot."""

    id = "greedy"
    title = "Greedy"

    def choose(self, game, view, seat, rng, budget):
        action = game.greedy_action(view, seat, rng)
        if action is not None:
            return action
        actions = list(candidate_actions(game, view, seat))
        if not actions:
            raise ValueError(f"{game.title}: no legal action for seat {seat}")
        if len(actions) == 1:
            return actions[0]
        state = game.determinize(view, seat, rng)
        best: list[Action] = []
        best_value = -math.inf
        for action in actions:
            if not game.is_legal(state, seat, action):
                continue
            after, _ = game._apply(state, seat, action)
            for _ in range(50):  # the chance steps the move sets off, sampled once
                if game.to_act(after) != (CHANCE,):
                    break
                after, _ = game._apply(after, CHANCE, game.sample_chance(after, rng))
            outcome = game.outcome(after)
            if outcome is not None:
                value = outcome.returns(game.num_players(after))[seat]
            else:
                values = game.heuristic(after)
                value = values[seat] if values is not None else 0.0
            if value > best_value:
                best, best_value = [action], value
            elif value == best_value:
                best.append(action)
        return rng.choice(best or actions)


def random_playout(
    game: Game, state: Any, rng: random.Random, max_steps: int = 400
) -> tuple[float, ...] | None:
    """Play uniformly random moves (chance sampled) to the end; returns per-seat values."""
    fast = game.random_playout(state, rng, max_steps)
    if fast is not None:
        return fast
    for _ in range(max_steps):
        seats = game.to_act(state)
        if not seats:
            break
        seat = seats[0] if len(seats) == 1 else rng.choice(seats)
        if seat == CHANCE:
            action = game.sample_chance(state, rng)
        else:
            action = rng.choice(list(candidate_actions(game, state, seat)))
        state, _ = game._apply(state, seat, action)
    outcome = game.outcome(state)
    players = game.num_players(state)
    if outcome is not None:
        return outcome.returns(players)
    values = game.heuristic(state)
    return tuple(values) if values is not None else (0.0,) * players


class _Node:
    __slots__ = ("seat", "children", "untried", "visits", "value")

    def __init__(self) -> None:
        self.seat = -2
        self.children: dict[Action, _Node] = {}
        self.untried: list[Action] | None = None  # filled on the first visit at a decision
        self.visits = 0
        self.value = 0.0


class MCTSBot(Bot):
    """Open-loop, determinised UCT within a time budget (and an optional playout cap for tests).

    Nodes stand for action sequences, not states: chance outcomes and the hidden parts sampled by
    ``determinize`` differ between iterations, so a child is followed only while it is legal in
    the state at hand.
    """

    id = "mcts"
    title = "Search (MCTS)"

    def __init__(self, c: float = 1.2, max_playouts: int | None = None,
                 clock: Callable[[], float] = time.perf_counter):
        self.c = c
        self.max_playouts = max_playouts
        self.clock = clock

    def choose(self, game, view, seat, rng, budget):
        actions = list(candidate_actions(game, view, seat))
        if not actions:
            raise ValueError(f"{game.title}: no legal action for seat {seat}")
        if len(actions) == 1:
            return actions[0]
        deadline = self.clock() + max(budget, 0.005)
        uncertain = game.has_chance or game.hidden_information
        root = _Node()
        root.seat = seat
        root.untried = list(actions)
        playouts = 0
        while True:
            state = game.determinize(view, seat, rng)
            self._iterate(game, state, root, rng, uncertain)
            playouts += 1
            if self.max_playouts is not None and playouts >= self.max_playouts:
                break
            if self.clock() >= deadline:
                break
        if not root.children:
            return rng.choice(actions)
        return max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].value))[0]

    def _iterate(self, game: Game, state: Any, root: _Node, rng: random.Random,
                 uncertain: bool) -> tuple[list[tuple[int, _Node]], tuple[float, ...] | None]:
        """One iteration: select, expand, play out, back up. Returns the path (mover, node)
        from the root's child down and the playout's per-seat values (the analysis keeps every
        seat's values at the root's children: ``analysis.search``)."""
        path: list[tuple[int, _Node]] = []
        node = root
        while True:
            seats = game.to_act(state)
            if not seats:
                break
            if seats == (CHANCE,):
                state, _ = game._apply(state, CHANCE, game.sample_chance(state, rng))
                continue
            if node.untried is None:
                node.seat = seats[0]
                node.untried = list(candidate_actions(game, state, node.seat))
            mover = node.seat if node.seat in seats else seats[0]
            if node.untried:
                action = node.untried.pop(rng.randrange(len(node.untried)))
                if uncertain and not game.is_legal(state, mover, action):
                    continue
                state, _ = game._apply(state, mover, action)
                child = node.children[action] = _Node()
                path.append((mover, child))
                node = child
                break
            log_n = math.log(node.visits + 1)
            best, best_score = None, -math.inf
            for action, child in node.children.items():
                score = child.value / (child.visits + 1e-9) + self.c * math.sqrt(
                    log_n / (child.visits + 1e-9))
                if score > best_score and (not uncertain or game.is_legal(state, mover, action)):
                    best, best_score = action, score
            if best is None:
                break
            state, _ = game._apply(state, mover, best)
            node = node.children[best]
            path.append((mover, node))
        values = random_playout(game, state, rng)
        root.visits += 1
        for mover, child in path:
            child.visits += 1
            if values is not None and 0 <= mover < len(values):
                child.value += values[mover]
        return path, values
