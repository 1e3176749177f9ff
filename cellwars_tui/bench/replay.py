"""Replay benchmarks: opening 10,000 recorded actions, seeking to any step, and autosaving.

One 10,000-action record is made here, of a tiny endless dice race private to this module (not
registered, so it never shows in the launcher): players roll until a 1 passes the turn, with every
die a chance step. It measures the replay's own machinery (reading, the digest, snapshots, seeks)
and the autosave of a record that long, against the save as it was before records carried snapshots
and a digest (every action re-encoded on every save).

Every registered game is then measured on 10,000 real actions of it: random play (avoiding, when it
can, an action that ends the game, so games run long) over as many games as it takes, each saved as
the app saves it; the last game is cut where the total reaches 10,000 (an unfinished game's record).
No Cell Wars or Cellulis Bellum game lasts 10,000 actions (Cell Wars ends after 16 rounds), so their
figure is the time to open all those records one after another, which also counts one file open per
record. The same records opened with their digest ignored (every step checked through the rules, as
for a hand-edited record) give the fallback's figure.
"""

from __future__ import annotations

import math
import random
import tempfile
import time
from pathlib import Path

import msgspec

from . import Result, result
from ..core.api import CHANCE, Action, Event, Game, GameType, Options, Outcome
from ..core.match import Match, Seat
from ..record.format import (
    FORMAT_VERSION, Record, RecordedStep, _caches, encode_record, match_to_record,
    save_match, write_atomic,
)
from ..replay.model import Replay

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
    meta = GameType(
        id="replay-bench-race",
        title="Replay bench race",
        blurb="benchmark only",
        min_players=2,
        max_players=2,
        has_chance=True,
    )
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


def race_match(actions: int = ACTIONS, seed: int = 1) -> Match:
    match = Match(GAME, Options(players=2), [Seat(name="A"), Seat(name="B")], seed)
    while len(match.steps) < actions:
        match.play(match.to_act()[0], _Roll(), t=len(match.steps) * 0.5)
    del match.steps[actions:], match.states[actions + 1:], match.events[actions:]
    match.cursor = actions
    return match


def make_record(directory: Path, actions: int = ACTIONS, seed: int = 1) -> Path:
    path = directory / "bench.cellwars.json"
    save_match(race_match(actions, seed), path)
    return path


def save_as_before(match: Match, path: Path) -> None:
    """The autosave as it was before sealed records: every action encoded again on every save,
    no snapshots, no digest."""
    game = match.game
    record = match_to_record(match)
    steps = [RecordedStep(s.seat, msgspec.Raw(game.encode_action(s.action)), s.t)
             for s in match.history]
    write_atomic(path, encode_record(Record(format_version=FORMAT_VERSION, header=record.header,
                                            steps=steps)))


def unsealed(path: Path, game: Game | None = None) -> Path:
    """A copy of a record without its digest (as a hand edit leaves it): opened step by step."""
    record = Replay.open(path, game=game).to_record()
    copy = path.with_name("unsealed-" + path.name)
    write_atomic(copy, encode_record(record))
    return copy


def _autosave_times(match: Match, path: Path, saver: object, count: int) -> list[float]:
    """Seconds per autosave after an action, as a table saves: play, then save the whole record."""
    times = []
    for _ in range(count):
        match.resolve_chance()
        match.play(match.to_act()[0], _Roll())
        t0 = time.perf_counter()
        saver(match, path)  # type: ignore[operator]
        times.append(time.perf_counter() - t0)
    return sorted(times)


def bench_open_and_seek(quick: bool) -> list[Result]:
    with tempfile.TemporaryDirectory() as tmp:
        path = make_record(Path(tmp))
        opens, cpu_opens = [], []
        for _ in range(3 if quick else 5):
            t0, c0 = time.perf_counter(), time.process_time()
            replay = Replay.open(path, game=GAME)
            opens.append(time.perf_counter() - t0)
            cpu_opens.append(time.process_time() - c0)
        assert len(replay) == ACTIONS and replay.problem is None and replay.trusted
        checked_path = unsealed(path, GAME)
        t0 = time.perf_counter()
        checked = Replay.open(checked_path, game=GAME)
        full_check = time.perf_counter() - t0
        assert not checked.trusted and len(checked) == ACTIONS
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
        saves = _autosave(quick, Path(tmp))
    note = f"{ACTIONS} actions, {replay.snapshot_count} snapshots"
    opened = sorted(opens)[len(opens) // 2]
    cpu_opened = sorted(cpu_opens)[len(cpu_opens) // 2]
    return [
        result("replay.open 10k-action record (median)", opened * 1e3, "ms", "<=", 300,
               note=f"{note}; CPU {cpu_opened * 1e3:.0f} ms; every step checked (no digest): "
                    f"{full_check * 1e3:.0f} ms"),
        result("replay.seek any step (worst)", seeks[-1] * 1e3, "ms", "<=", 20,
               note=f"{note}; best of 3 per target; CPU worst {cpu_seeks[-1] * 1e3:.2f} ms"),
        result("replay.seek any step (median)", seeks[len(seeks) // 2] * 1e3, "ms", note=note),
        result("replay.step back (worst)", max(backs) * 1e3, "ms", "<=", 20, note=note),
        *saves,
    ]


def _autosave(quick: bool, directory: Path) -> list[Result]:
    """Autosave of a 10,000-action record after an action: now (sealed, snapshots cached) and as
    it was before; and the first save of a match (nothing cached yet)."""
    count = 10 if quick else 40
    path = directory / "autosave.cellwars.json"
    before = _autosave_times(race_match(), path, save_as_before, count)
    match = race_match()
    save_match(match, path)  # the saves during play have cached the encoded steps and snapshots
    after = _autosave_times(match, path, save_match, count)
    firsts = []
    for _ in range(3):
        _caches.pop(match, None)
        t0 = time.perf_counter()
        save_match(match, path)
        firsts.append(time.perf_counter() - t0)
    size = path.stat().st_size
    median = len(after) // 2
    return [
        result("replay.autosave 10k-action record (median)", after[median] * 1e3, "ms",
               note=f"sealed, {size // 1024} KB; before snapshots and digest: "
                    f"{before[median] * 1e3:.1f} ms; first save of a match (nothing cached): "
                    f"{min(firsts) * 1e3:.1f} ms; includes fsync"),
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


def long_random_game(game: Game, seed: int, actions: int) -> Match:
    """A random game of ``game`` of at most ``actions`` steps, avoiding (among a few random
    legal actions) one that ends the game, so games run as long as the rules let them."""
    rng = random.Random(seed)
    players = game.max_players
    match = Match(game, game.options_type(players=players),
                  [Seat(name=f"P{i + 1}") for i in range(players)], seed)
    while len(match.steps) < actions:
        seats = match.to_act()
        if not seats:
            break
        seat = rng.choice(seats)
        legal = list(match.legal_actions(seat))
        choice = legal[0]
        for choice in rng.sample(legal, min(4, len(legal))):
            if not game.is_terminal(game._apply(match.state, seat, choice)[0]):
                break
        match.play(seat, choice, t=len(match.steps) * 0.25)
    if len(match.steps) > actions:  # chance steps after the last action: an unfinished game
        match.cursor = actions
    return match


LOG_LINES = 40  # the event log lines a game screen shows (ui/game_screen.py)


def _cold_jumps(path: Path, targets: list[int]) -> list[float]:
    """CPU seconds to jump to each target on a just-opened replay and read the events of the
    ``LOG_LINES`` steps before it (what a screen's event log shows), best of two, sorted. On a
    trusted record nothing is known yet: the states and events come from the snapshots."""
    out = []
    for target in targets:
        best = math.inf
        for _ in range(2):
            replay = Replay.open(path)
            c0 = time.process_time()
            replay.seek(target)
            assert len(replay.events[max(0, target - LOG_LINES):target]) == min(target, LOG_LINES)
            best = min(best, time.process_time() - c0)
        out.append(best)
    return sorted(out)


def game_records(game: Game, directory: Path, actions: int = ACTIONS) -> list[tuple[Path, int]]:
    """Records of random games of ``game`` totalling ``actions`` steps, saved as the app saves
    them: (path, steps) each."""
    out: list[tuple[Path, int]] = []
    total = seed = 0
    while total < actions:
        match = long_random_game(game, seed, actions - total)
        seed += 1
        if not match.cursor:
            continue
        path = directory / f"{game.id}-{seed}.cellwars.json"
        save_match(match, path)
        out.append((path, match.cursor))
        total += match.cursor
    return out


def _open_all(paths: list[Path]) -> tuple[float, float, list[Replay]]:
    t0, c0 = time.perf_counter(), time.process_time()
    replays = [Replay.open(path) for path in paths]
    return time.perf_counter() - t0, time.process_time() - c0, replays


def bench_each_game(quick: bool) -> list[Result]:
    from ..core.registry import all_games

    out: list[Result] = []
    for game in all_games():
        with tempfile.TemporaryDirectory() as tmp:
            records = game_records(game, Path(tmp))
            paths = [path for path, _ in records]
            total = sum(n for _, n in records)
            opens, cpu_opens = [], []
            for _ in range(3 if quick else 5):
                wall, cpu, replays = _open_all(paths)
                opens.append(wall)
                cpu_opens.append(cpu)
            assert all(r.trusted and r.problem is None for r in replays)
            assert sum(len(r) for r in replays) == total == ACTIONS
            checked_paths = [unsealed(path) for path in paths]
            checked_wall, _, checked = _open_all(checked_paths)
            assert not any(r.trusted for r in checked)
            longest_path = max(records, key=lambda r: r[1])[0]
            rng = random.Random(5)
            longest = max(replays, key=len)
            targets = [rng.randrange(len(longest) + 1) for _ in range(30 if quick else 100)]
            jumps = _cold_jumps(longest_path, targets)
        walls, cpus = _seeks(longest, random.Random(3), 100 if quick else 400)
        opened = sorted(opens)[len(opens) // 2]
        cpu_opened = sorted(cpu_opens)[len(cpu_opens) // 2]
        count = len(records)
        how = ("one record" if count == 1 else
               f"{count} records (games of up to {len(longest)} actions), opened one after another")
        players = f"{game.max_players} player{'s' if game.max_players > 1 else ''}"
        out.append(result(f"replay.open {game.id} 10k actions (median)", opened * 1e3, "ms", "<=",
                          300, note=f"{players}, {ACTIONS} actions in {how}; CPU "
                                    f"{cpu_opened * 1e3:.0f} ms; every step checked (no digest): "
                                    f"{checked_wall * 1e3:.0f} ms"))
        out.append(result(f"replay.seek {game.id} any step (worst)", walls[-1] * 1e3, "ms", "<=",
                          20, note=f"on its longest record, {len(longest)} actions, "
                                   f"{longest.snapshot_count} snapshots; CPU worst "
                                   f"{cpus[-1] * 1e3:.2f} ms"))
        out.append(result(f"replay.jump {game.id} with its event log, just opened (worst CPU)",
                          jumps[-1] * 1e3, "ms", "<=", 20,
                          note=f"seek and the {LOG_LINES} log lines before it, nothing computed yet; "
                               f"{len(targets)} targets on the longest record; median "
                               f"{jumps[len(jumps) // 2] * 1e3:.2f} ms"))
    return out


BENCHMARKS = [bench_open_and_seek, bench_each_game]
