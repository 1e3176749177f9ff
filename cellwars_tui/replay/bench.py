"""Replay benchmarks: opening a 10,000-action record and seeking to any step of it.

The 10,000-action record is made here, of a tiny endless dice race private to this module (not
registered, so it never shows in the launcher): players roll until a 1 passes the turn, with every
die a chance step. It measures the replay's own machinery (reading, validating, snapshots, seeks).
No registered game lasts 10,000 actions, so each one's figures are also taken on the longest of a
few random games of it, with the opening time per 10,000 actions it implies (opening validates every
step through the game's rules, so it grows with the game's own cost per step).
"""

from __future__ import annotations

import math
import random
import tempfile
import time
from pathlib import Path

import msgspec

from ..bench import Result, result
from ..core.api import CHANCE, Action, Event, Game, Options, Outcome
from ..core.match import Match, Seat
from ..record.format import save_match
from .model import Replay

ACTIONS = 10_000


class _Roll(Action, frozen=True, tag="roll"):
    pass


class _Die(Action, frozen=True, tag="die"):
    face: int


class _Rolled(Event, frozen=True, tag="rolled"):
    face: int


class _State(msgspec.Struct, frozen=True):
    players: int
    totals: tuple[int, ...]
    turn: int = 0
    rolling: bool = True


class _EndlessRace(Game[_State, Action]):
    id = "replay-bench-race"
    title = "Replay bench race"
    blurb = "benchmark only"
    min_players = 2
    max_players = 2
    has_chance = True
    state_type = _State
    action_type = _Roll | _Die
    event_type = _Rolled

    def initial_state(self, options: Options) -> _State:
        return _State(options.players, (0,) * options.players)

    def to_act(self, s: _State) -> tuple[int, ...]:
        return (CHANCE,) if s.rolling else (s.turn,)

    def legal_actions(self, s: _State, seat: int) -> list[Action]:
        if seat not in self.to_act(s):
            return []
        return [_Die(f) for f in range(1, 7)] if seat == CHANCE else [_Roll()]

    def chance_outcomes(self, s: _State) -> list[tuple[Action, float]]:
        return [(_Die(f), 1 / 6) for f in range(1, 7)]

    def _apply(self, s: _State, seat: int, a: Action) -> tuple[_State, tuple[Event, ...]]:
        if isinstance(a, _Die):
            totals = list(s.totals)
            totals[s.turn] += a.face
            turn = (s.turn + 1) % s.players if a.face == 1 else s.turn
            return _State(s.players, tuple(totals), turn, a.face == 1), (_Rolled(a.face),)
        return msgspec.structs.replace(s, rolling=True), ()

    def outcome(self, s: _State) -> Outcome | None:
        return None

    def action_to_str(self, a: Action) -> str:
        return f"die{a.face}" if isinstance(a, _Die) else "roll"

    def action_from_str(self, text: str) -> Action:
        return _Roll() if text == "roll" else _Die(int(text[3:]))


GAME = _EndlessRace()


def make_record(directory: Path, actions: int = ACTIONS, seed: int = 1) -> Path:
    match = Match(GAME, Options(players=2), [Seat(name="A"), Seat(name="B")], seed)
    while len(match.steps) < actions:
        match.play(match.to_act()[0], _Roll(), t=len(match.steps) * 0.5)
    del match.steps[actions:], match.states[actions + 1:], match.events[actions:]
    match.cursor = actions
    path = directory / "bench.cellwars.json"
    save_match(match, path)
    return path


def bench_open_and_seek(quick: bool) -> list[Result]:
    with tempfile.TemporaryDirectory() as tmp:
        path = make_record(Path(tmp))
        opens, cpu_opens = [], []
        for _ in range(3 if quick else 5):
            t0, c0 = time.perf_counter(), time.process_time()
            replay = Replay.open(path, game=GAME)
            opens.append(time.perf_counter() - t0)
            cpu_opens.append(time.process_time() - c0)
        assert len(replay) == ACTIONS and replay.problem is None
        rng = random.Random(7)
        seeks, cpu_seeks = _seeks(replay, rng, 200 if quick else 1000)
        backs = []
        replay.end()
        for _ in range(min(ACTIONS, 500 if quick else 3000)):
            best = math.inf
            for _ in range(3):  # best of three: a step back is cheap to redo
                replay.seek(replay.cursor)
                t0 = time.perf_counter()
                replay.back()
                best = min(best, time.perf_counter() - t0)
                replay.forward()
            replay.back()
            backs.append(best)
    note = f"{ACTIONS} actions, {replay.snapshot_count} snapshots"
    opened = sorted(opens)[len(opens) // 2]
    cpu_opened = sorted(cpu_opens)[len(cpu_opens) // 2]
    return [
        result("replay.open 10k-action record (median)", opened * 1e3, "ms", "<=", 300,
               note=f"{note}; CPU {cpu_opened * 1e3:.0f} ms"),
        result("replay.seek any step (worst)", seeks[-1] * 1e3, "ms", "<=", 20,
               note=f"{note}; best of 3 per target; CPU worst {cpu_seeks[-1] * 1e3:.2f} ms"),
        result("replay.seek any step (median)", seeks[len(seeks) // 2] * 1e3, "ms", note=note),
        result("replay.step back (worst)", max(backs) * 1e3, "ms", "<=", 20, note=note),
    ]


def _seeks(replay: Replay, rng: random.Random, count: int) -> tuple[list[float], list[float]]:
    """Seconds to seek to ``count`` random steps from elsewhere, sorted (wall, CPU). Each target
    is timed three times from three random starts and its best kept, so the worst figure is the
    slowest step to reach rather than a moment the machine's other work took the CPU away."""
    walls, cpus = [], []
    n = len(replay)
    for _ in range(count):
        target = rng.randrange(n + 1)
        wall = cpu = math.inf
        for _ in range(3):
            replay.seek(rng.randrange(n + 1))
            if replay.cursor == target:
                replay.seek(target - 1 if target else target + 1)
            t0, c0 = time.perf_counter(), time.process_time()
            replay.seek(target)
            wall = min(wall, time.perf_counter() - t0)
            cpu = min(cpu, time.process_time() - c0)
        walls.append(wall)
        cpus.append(cpu)
    return sorted(walls), sorted(cpus)


def _random_game(game: Game, seed: int, budget: float) -> Match:
    rng = random.Random(seed)
    players = game.max_players
    match = Match(game, game.options_type(players=players),
                  [Seat(name=f"P{i + 1}") for i in range(players)], seed)
    t0 = time.perf_counter()
    while len(match.steps) < ACTIONS and time.perf_counter() - t0 < budget:
        seats = match.to_act()
        if not seats:
            break
        seat = rng.choice(seats)
        match.play(seat, rng.choice(list(match.legal_actions(seat))), t=len(match.steps) * 0.25)
    return match


def bench_each_game(quick: bool) -> list[Result]:
    from ..core.registry import all_games

    out: list[Result] = []
    for game in all_games():
        matches = [_random_game(game, seed, 1.0 if quick else 3.0) for seed in range(3 if quick else 6)]
        match = max(matches, key=lambda m: len(m.steps))
        n = len(match.steps)
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "game.cellwars.json"
            save_match(match, path)
            opens, cpu_opens = [], []
            for _ in range(3 if quick else 7):
                t0, c0 = time.perf_counter(), time.process_time()
                replay = Replay.open(path)
                opens.append(time.perf_counter() - t0)
                cpu_opens.append(time.process_time() - c0)
        assert len(replay) == n and replay.problem is None, replay.problem
        walls, cpus = _seeks(replay, random.Random(3), 100 if quick else 400)
        opened = sorted(opens)[len(opens) // 2]
        cpu_opened = sorted(cpu_opens)[len(cpu_opens) // 2]
        per_10k = cpu_opened / max(n, 1) * ACTIONS * 1e3
        note = f"{game.max_players} players, {n} actions, {replay.snapshot_count} snapshots"
        out.append(result(f"replay.open {game.id} ({n} actions, median)", opened * 1e3, "ms",
                          note=f"{note}; CPU {cpu_opened * 1e3:.1f} ms, about {per_10k:.0f} ms "
                               f"per 10,000 actions"))
        out.append(result(f"replay.seek {game.id} any step (worst)", walls[-1] * 1e3, "ms", "<=",
                          20, note=f"{note}; CPU worst {cpus[-1] * 1e3:.2f} ms"))
    return out


BENCHMARKS = [bench_open_and_seek, bench_each_game]
