"""Replay benchmarks: opening a 10,000-action record and seeking to any step of it.

The record is made here, of a tiny endless dice race private to this module (not registered, so it
never shows in the launcher): players roll until a 1 passes the turn, with every die a chance step.
"""

from __future__ import annotations

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
        opens = []
        for _ in range(2 if quick else 5):
            t0 = time.perf_counter()
            replay = Replay.open(path, game=GAME)
            opens.append(time.perf_counter() - t0)
        assert len(replay) == ACTIONS and replay.problem is None
        rng = random.Random(7)
        seeks = []
        for _ in range(200 if quick else 2000):
            target = rng.randrange(ACTIONS + 1)
            t0 = time.perf_counter()
            replay.seek(target)
            seeks.append(time.perf_counter() - t0)
        seeks.sort()
        backs = []
        replay.end()
        for _ in range(min(ACTIONS, 500 if quick else 3000)):
            t0 = time.perf_counter()
            replay.back()
            backs.append(time.perf_counter() - t0)
    note = f"{ACTIONS} actions, {replay.snapshot_count} snapshots"
    return [
        result("replay.open 10k-action record (median)", sorted(opens)[len(opens) // 2] * 1e3,
               "ms", "<=", 300, note=note),
        result("replay.seek any step (worst)", seeks[-1] * 1e3, "ms", "<=", 20, note=note),
        result("replay.seek any step (median)", seeks[len(seeks) // 2] * 1e3, "ms", note=note),
        result("replay.step back (worst)", max(backs) * 1e3, "ms", "<=", 20, note=note),
    ]


BENCHMARKS = [bench_open_and_seek]
