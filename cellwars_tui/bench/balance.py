"""``cellwars balance``: equal-strength self-play, and the figures game designers judge a game by.

Every seat is played by the same bot, each seeing only its own view (``Game.view``), over many
games in a process pool; game ``i`` of a run uses seed ``S + i`` for its dice, shuffles and bots, so
a run is reproducible whatever the number of processes. The report (a table, or ``--json``):

* decisive share: games with a winner (not a tie, a draw or a safety stop), with a 95% interval;
* wins by side (``Game.sides``: Cell Wars' camps) and by seat;
* how games end (each termination, numbers folded to ``#``) and their length in rounds and actions;
* the stronger bot against the weaker (the level below, or ``--against``), once for each side it
  leads: does skill decide games?
* round by round, the game's own figures (``Game.round_figures``: Cell Wars' cancer tiles) and
  each side's mix of decisions (``Game.action_family``: Cell Wars names the cards).

Bot levels are named in ``LEVELS`` (weakest first); the budget of the search bot is a number of
playouts a move, never seconds, so figures do not depend on the machine's load.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

import msgspec

from ..cli_types import parse_whole, shown
from ..core.api import CHANCE, Game
from ..core.errors import CellwarsError

DEFAULT_PLAYOUTS = 16  # the bench's budget for the search bot
MAX_GAMES = 100_000
MAX_PLAYOUTS = 10_000
MAX_JOBS = 256
SAFETY_STEPS = 50_000  # actions (chance included) before a game is stopped as endless


def _random_bot(playouts: int):
    from ..ai.bots import RandomBot

    return RandomBot()


def _greedy_bot(playouts: int):
    from ..ai.bots import GreedyBot

    return GreedyBot()


def _search_bot(playouts: int):
    from ..ai.bots import MCTSBot

    return MCTSBot(max_playouts=playouts)


@dataclass(frozen=True)
class Level:
    name: str
    make: Callable[[int], Any]  # playouts -> a Bot
    uses_playouts: bool = False

    def title(self, playouts: int) -> str:
        return f"{self.name} ({playouts} playouts a move)" if self.uses_playouts else self.name


def _level_bot(name: str) -> Callable[[int], Any]:
    def make(playouts: int):
        from ..ai.levels import make_bot

        return make_bot(name)  # a level is its own budget (ai/levels.py)
    return make


# Every bot the tool knows: its own (random, greedy, search with --playouts), weakest first, then
# the levels a seat plays at (ai/levels.py: easy, normal, hard; random is the same bot).
TOOL_LEVELS = ("random", "greedy", "search")
PLAY_LEVELS = ("random", "easy", "normal", "hard")
LEVELS: dict[str, Level] = {
    "random": Level("random", _random_bot),
    "greedy": Level("greedy", _greedy_bot),
    "search": Level("search", _search_bot, uses_playouts=True),
    **{name: Level(name, _level_bot(name)) for name in PLAY_LEVELS[1:]},
}


def weaker_level(name: str) -> str | None:
    """The level below ``name``: in the tool's own order, or in the levels' ladder."""
    names = list(TOOL_LEVELS if name in TOOL_LEVELS else PLAY_LEVELS)
    i = names.index(name)
    return names[i - 1] if i > 0 else None


# ----------------------------------------------------------------------------------------------
# One game
# ----------------------------------------------------------------------------------------------
@dataclass
class GameResult:
    seed: int
    winners: tuple[int, ...]  # seats; () or every seat: not decisive
    termination: str
    rounds: int
    actions: int  # decisions (chance steps not counted)
    families: dict[int, dict[str, int]] = field(default_factory=dict)  # seat -> family -> count
    round_figures: dict[int, dict[str, float]] = field(default_factory=dict)  # end of each round


def fold_numbers(text: str) -> str:
    """"safety stop after 50000 steps" -> "safety stop after # steps" (a game's own endings are
    grouped by its ``ending_kind``)."""
    return re.sub(r"\d+", "#", text)


def play_game(game_id: str, options: dict[str, Any], bots: Sequence[str], playouts: int,
              seed: int) -> GameResult:
    """One game, seat ``i`` played by level ``bots[i]`` from its view; chance and bots drawn from
    ``random.Random(seed)``."""
    from ..core.registry import get_game

    game = get_game(game_id)
    opts = game.options_from_dict(dict(options))
    players = opts.players
    seat_bots = [LEVELS[b].make(playouts) for b in bots]
    rng = random.Random(seed)
    state = game.initial_state(opts)
    families: dict[int, Counter] = {seat: Counter() for seat in range(players)}
    figures: dict[int, dict[str, float]] = {}
    actions = 0
    for _ in range(SAFETY_STEPS):
        rnd, figs = game.round_figures(state)
        if rnd > 0 and figs:
            figures[rnd] = figs
        seats = game.to_act(state)
        if not seats:
            break
        seat = seats[0] if len(seats) == 1 else rng.choice(seats)
        if seat == CHANCE:
            action = game.sample_chance(state, rng)
        else:
            action = seat_bots[seat].choose(game, game.view(state, seat), seat, rng, 3600.0)
            families[seat][game.action_family(action)] += 1
            actions += 1
        state, _ = game.apply(state, seat, action)
    outcome = game.outcome(state)
    rnd, _ = game.round_figures(state)
    winners: tuple[int, ...]
    if outcome is None:
        winners, termination = (), fold_numbers(f"safety stop after {SAFETY_STEPS} steps")
    else:
        winners = tuple(outcome.winners)
        termination = game.ending_kind(
            outcome.termination or ("draw" if len(winners) == players else "win"))
    return GameResult(seed=seed, winners=winners, termination=termination,
                      rounds=rnd, actions=actions,
                      families={s: dict(c) for s, c in families.items()},
                      round_figures=figures)


def _play_task(task: tuple) -> tuple[int, int, GameResult]:
    series, index, game_id, options, bots, playouts, seed = task
    return series, index, play_game(game_id, options, bots, playouts, seed)


# ----------------------------------------------------------------------------------------------
# A run
# ----------------------------------------------------------------------------------------------
@dataclass
class Series:
    """Games with one assignment of bots to seats."""

    label: str
    bots: tuple[str, ...]
    results: list[GameResult | None]


class Progress:
    """A progress bar on stderr (one line redrawn on a terminal, a line per tenth otherwise)."""

    def __init__(self, total: int, label: str, stream=None) -> None:
        self.total, self.label, self.done = total, label, 0
        self.stream = stream if stream is not None else sys.stderr
        self.tty = self.stream.isatty()
        self.start = time.perf_counter()
        self._last_tenth = -1

    def step(self) -> None:
        self.done += 1
        elapsed = time.perf_counter() - self.start
        if self.tty:
            width = 30
            full = width * self.done // self.total
            bar = "#" * full + "-" * (width - full)
            self.stream.write(f"\r{self.label} [{bar}] {self.done}/{self.total} games "
                              f"{elapsed:.0f} s")
            if self.done == self.total:
                self.stream.write("\n")
        else:
            tenth = 10 * self.done // self.total
            if tenth != self._last_tenth:
                self._last_tenth = tenth
                self.stream.write(f"{self.label}: {self.done}/{self.total} games, "
                                  f"{elapsed:.0f} s\n")
        self.stream.flush()


def run_series(game: Game, options: dict[str, Any], series: list[Series], playouts: int,
               seed: int, jobs: int, progress: Progress | None) -> None:
    tasks = [(k, i, game.id, options, sr.bots, playouts, seed + i)
             for k, sr in enumerate(series) for i in range(len(sr.results))]
    if jobs <= 1 or len(tasks) <= 1:
        for task in tasks:
            k, i, res = _play_task(task)
            series[k].results[i] = res
            if progress:
                progress.step()
        return
    with ProcessPoolExecutor(max_workers=min(jobs, len(tasks))) as pool:
        futures = [pool.submit(_play_task, task) for task in tasks]
        for fut in as_completed(futures):
            k, i, res = fut.result()
            series[k].results[i] = res
            if progress:
                progress.step()


# ----------------------------------------------------------------------------------------------
# Figures
# ----------------------------------------------------------------------------------------------
def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion k/n."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, mid - half), min(1.0, mid + half)


def is_decisive(r: GameResult, players: int) -> bool:
    return 0 < len(r.winners) < players


def side_of(sides: Sequence[str], r: GameResult) -> str:
    return sides[r.winners[0]]


def summarise(game: Game, players: int, results: list[GameResult]) -> dict[str, Any]:
    sides = game.sides(players)
    side_names = list(dict.fromkeys(sides))
    n = len(results)
    decisive = [r for r in results if is_decisive(r, players)]
    lo, hi = wilson(len(decisive), n)
    by_side = Counter(side_of(sides, r) for r in decisive)
    by_seat = Counter(w for r in decisive for w in r.winners)
    endings = Counter(r.termination for r in results)
    kinds = Counter(r.termination.partition(":")[0] for r in results)
    rounds = [r.rounds for r in results if r.rounds]
    win_rounds = sorted(r.rounds for r in decisive if r.rounds)
    out: dict[str, Any] = {
        "games": n,
        "decisive": len(decisive),
        "decisive_share": len(decisive) / n if n else 0.0,
        "decisive_ci95": [lo, hi],
        "wins_by_side": {s: by_side.get(s, 0) for s in side_names},
        "side_share_of_decisive": {s: (by_side.get(s, 0) / len(decisive) if decisive else 0.0)
                                   for s in side_names},
        "wins_by_seat": {game.seat_label(q): by_seat.get(q, 0) for q in range(players)},
        "endings": dict(endings.most_common()),
        "endings_ci95": {why: list(wilson(k, n)) for why, k in endings.most_common()},
        # the kind of each ending, before what decided it ("stalemate at the round limit: most
        # spares" is a "stalemate at the round limit")
        "ending_kinds": dict(kinds.most_common()),
        "ending_kinds_ci95": {why: list(wilson(k, n)) for why, k in kinds.most_common()},
        "mean_rounds": statistics.fmean(rounds) if rounds else None,
        "median_winning_round": statistics.median(win_rounds) if win_rounds else None,
        "winning_round_quartiles": (list(statistics.quantiles(win_rounds, n=4))
                                    if len(win_rounds) >= 2 else None),
        "mean_actions": statistics.fmean(r.actions for r in results) if results else 0.0,
    }
    # round-by-round figures, averaged over the games that reached each round
    per_round: dict[str, dict[int, list[float]]] = {}
    for r in results:
        for rnd, figs in r.round_figures.items():
            for name, value in figs.items():
                per_round.setdefault(name, {}).setdefault(rnd, []).append(value)
    out["round_figures"] = {name: {str(rnd): statistics.fmean(vals)
                                   for rnd, vals in sorted(rounds_.items())}
                            for name, rounds_ in per_round.items()}
    # decision mix per side
    mix: dict[str, Counter] = {s: Counter() for s in side_names}
    for r in results:
        for seat, fams in r.families.items():
            mix[sides[int(seat)]].update(fams)
    out["action_mix"] = {s: {fam: cnt / max(1, sum(c.values())) for fam, cnt in c.most_common()}
                         for s, c in mix.items()}
    return out


def duel_summary(game: Game, players: int, strong: str, leads: str,
                 results: list[GameResult]) -> dict[str, Any]:
    sides = game.sides(players)
    decisive = [r for r in results if is_decisive(r, players)]
    strong_wins = sum(1 for r in decisive if side_of(sides, r) == leads)
    lo, hi = wilson(strong_wins, len(decisive))
    return {"strong_leads": leads, "games": len(results), "decisive": len(decisive),
            "strong_wins": strong_wins, "weak_wins": len(decisive) - strong_wins,
            "strong_share_of_decisive": strong_wins / len(decisive) if decisive else None,
            "strong_share_ci95": [lo, hi]}


# ----------------------------------------------------------------------------------------------
# The command
# ----------------------------------------------------------------------------------------------
def _count(what: str, lo: int, hi: int) -> Callable[[str], int]:
    """A whole number lo..hi in plain ASCII digits ("٣" and 5,000 digits are refused in one line,
    as every option of the command line does: :mod:`cellwars_tui.cli_types`)."""
    def parse(text: str) -> int:
        value = parse_whole(text)
        if value is None:
            raise argparse.ArgumentTypeError(f"{what} must be a whole number, not {shown(text)}")
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"{what} must be between {lo} and {hi}, not {value}")
        return value
    return parse


def _level(text: str) -> str:
    name = text.strip().lower()
    if name not in LEVELS:
        raise argparse.ArgumentTypeError(
            f"bot must be one of {', '.join(LEVELS)}, not {shown(text)}")
    return name


def _option(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, not {shown(text)}")
    return key.strip().replace("-", "_"), value.strip()


def add_balance_arguments(p: argparse.ArgumentParser) -> None:
    """The arguments of ``cellwars balance`` (cli.py adds the subcommand and calls run_balance)."""
    p.description = ("Equal-strength self-play: every seat the same bot, seeing only its own "
                     "view; prints the decisive share, wins by side and seat, how games end, "
                     "their length, the stronger bot against the weaker, and the game's own "
                     "round-by-round figures. Reproducible by seed.")
    p.add_argument("game", help="game id (a competitive, turn-based game)")
    p.add_argument("--players", type=_count("players", 1, 99), help="number of players "
                   "(default: the game's default)")
    p.add_argument("--games", type=_count("games", 1, MAX_GAMES), default=100,
                   help="games of self-play (default 100)")
    p.add_argument("--bot", type=_level, default="search",
                   help=f"the bot in every seat: {', '.join(LEVELS)} (default search)")
    p.add_argument("--playouts", type=_count("playouts", 1, MAX_PLAYOUTS),
                   default=DEFAULT_PLAYOUTS,
                   help=f"the search bot's playouts a move (default {DEFAULT_PLAYOUTS})")
    p.add_argument("--against", type=_level, default=None,
                   help="the weaker bot of the stronger-vs-weaker games (default: the level "
                        "below --bot)")
    p.add_argument("--duel-games", type=_count("duel games", 0, MAX_GAMES), default=None,
                   help="stronger-vs-weaker games for each side the stronger bot leads "
                        "(default: --games; 0 skips them)")
    p.add_argument("--seed", type=_count("seed", 0, 2**62), default=1,
                   help="seed of the first game; game i uses seed+i (default 1)")
    p.add_argument("--jobs", type=_count("jobs", 1, MAX_JOBS), default=None,
                   help="processes (default: the machine's cores)")
    p.add_argument("--option", "-o", type=_option, action="append", default=[],
                   metavar="NAME=VALUE", help="a game option, as for cellwars play")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument("--ladder", action="store_true",
                   help="instead: each bot level against the level below (random < easy < "
                        "normal < hard), --games games for each side the stronger leads")


def checked_options(game: Game, players: int | None,
                    options: dict[str, str] | None) -> dict[str, Any]:
    """The options ``--option`` gives (and the number of players), checked as ``cellwars play``
    checks them and given their types; BadOptions (one line) for an option the game does not
    have, a value it cannot take, or a wrong count (a rules edition no player chooses may be
    given: ``-o rules_edition=4``). The report names the options given."""
    from ..ui.request import game_options

    base = game_options(game, players, options, hidden=True)
    given = {key.replace("-", "_") for key in (options or {})}
    opts: dict[str, Any] = {k: v for k, v in msgspec.to_builtins(base).items() if k in given}
    opts["players"] = base.players
    return opts


def balance(game_id: str, *, players: int | None = None, games: int = 100, bot: str = "search",
            playouts: int = DEFAULT_PLAYOUTS, against: str | None = None,
            duel_games: int | None = None, seed: int = 1, jobs: int | None = None,
            options: dict[str, str] | None = None, progress: bool = True) -> dict[str, Any]:
    """Run the self-play and the duels; return the report (what ``--json`` prints).

    Raises CellwarsError (one line) for a game that cannot be measured or bad options."""
    from ..core.registry import get_game

    game = get_game(game_id)
    if game.max_players < 2:
        raise CellwarsError(f"{game.title} is a solitaire: balance measures games between players")
    if game.real_time:
        raise CellwarsError(f"{game.title} is played in real time: balance measures turn-based "
                            "games")
    if bot not in LEVELS or (against is not None and against not in LEVELS):
        raise CellwarsError(f"bot must be one of {', '.join(LEVELS)}")
    if not 1 <= games <= MAX_GAMES:
        raise CellwarsError(f"games must be between 1 and {MAX_GAMES}, not {games}")
    if not 1 <= playouts <= MAX_PLAYOUTS:
        raise CellwarsError(f"playouts must be between 1 and {MAX_PLAYOUTS}, not {playouts}")
    opts = checked_options(game, players, options)
    players = opts["players"]
    sides = game.sides(players)
    side_names = list(dict.fromkeys(sides))
    weak = against if against is not None else weaker_level(bot)
    if weak == bot:
        weak = None
    duel_n = games if duel_games is None else duel_games
    series = [Series("self-play", (bot,) * players, [None] * games)]
    if weak is not None and duel_n > 0 and len(side_names) > 1:
        for side in side_names:
            series.append(Series(f"{bot} leads {side}",
                                 tuple(bot if sides[q] == side else weak for q in range(players)),
                                 [None] * duel_n))
    jobs = jobs or os.cpu_count() or 1
    total = sum(len(sr.results) for sr in series)
    bar = Progress(total, f"balance {game.id}") if progress else None
    t0 = time.perf_counter()
    run_series(game, opts, series, playouts, seed, jobs, bar)
    elapsed = time.perf_counter() - t0
    self_play = [r for r in series[0].results if r is not None]
    report: dict[str, Any] = {
        "game": game.id, "title": game.title, "rules_version": game.rules_version,
        "rules": game.rules_text(game.options_from_dict(opts)),
        "options": {k: v for k, v in opts.items()}, "players": players,
        "bot": bot, "bot_title": LEVELS[bot].title(playouts), "playouts": playouts,
        "seeds": [seed, seed + games - 1], "jobs": jobs, "seconds": round(elapsed, 1),
        "load": _load(), "sides": side_names,
        "self_play": summarise(game, players, self_play),
        "duels": [],
    }
    if weak is not None:
        report["against"] = weak
        report["against_title"] = LEVELS[weak].title(playouts)
    for sr in series[1:]:
        side = sr.label.split(" leads ", 1)[1]
        report["duels"].append(duel_summary(game, players, bot, side,
                                            [r for r in sr.results if r is not None]))
    return report


def _load() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.0f}%"


def _shares(counts: dict[str, int], ci95: dict[str, list[float]], games: int) -> str:
    """"win 9 (90%; 95% interval 60%-98%) · draw 1 (...)"."""
    return " · ".join(f"{why} {n} ({_pct(n / games)}; 95% interval {_pct(ci95[why][0])}-"
                      f"{_pct(ci95[why][1])})" for why, n in counts.items())


def format_report(rep: dict[str, Any]) -> str:
    sp = rep["self_play"]
    lines = [
        f"{rep['title']} balance: {sp['games']} games, {rep['players']} players, "
        f"{rep['bot_title']} in every seat, seeds {rep['seeds'][0]}-{rep['seeds'][1]} "
        f"({rep['rules']})",
    ]
    extra = {k: v for k, v in rep["options"].items() if k != "players"}
    if extra:
        lines.append("options        " + ", ".join(f"{k}={v}" for k, v in extra.items()))
    lo, hi = sp["decisive_ci95"]
    lines.append(f"decisive       {sp['decisive']} of {sp['games']} ({_pct(sp['decisive_share'])}; "
                 f"95% interval {_pct(lo)}-{_pct(hi)})")
    lines.append("wins by side   " + " · ".join(
        f"{s} {n} ({_pct(sp['side_share_of_decisive'][s])} of decisive)"
        for s, n in sp["wins_by_side"].items()))
    if len(rep["sides"]) != rep["players"]:
        lines.append("wins by seat   " + " · ".join(f"{s} {n}" for s, n in sp["wins_by_seat"].items()))
    lines.append("endings        " + _shares(sp["endings"], sp["endings_ci95"], sp["games"]))
    if sp["ending_kinds"] != sp["endings"]:
        lines.append("ended by       " + _shares(sp["ending_kinds"], sp["ending_kinds_ci95"],
                                                 sp["games"]))
    length = f"{sp['mean_actions']:.0f} decisions a game"
    if sp["mean_rounds"] is not None:
        length = f"{sp['mean_rounds']:.1f} rounds, " + length
        if sp["median_winning_round"] is not None:
            q = sp["winning_round_quartiles"]
            quart = f", quartiles {q[0]:g}-{q[2]:g}" if q else ""
            length += f"; median winning round {sp['median_winning_round']:g}{quart}"
    lines.append("length         " + length)
    if rep["duels"]:
        lines.append(f"stronger vs weaker: {rep['bot_title']} against {rep['against_title']}")
        for d in rep["duels"]:
            lo, hi = d["strong_share_ci95"]
            lines.append(f"  {rep['bot']} leads {d['strong_leads']}: wins {d['strong_wins']}, "
                         f"loses {d['weak_wins']}, undecided {d['games'] - d['decisive']} "
                         f"of {d['games']} -> {_pct(d['strong_share_of_decisive'])} of decisive "
                         f"games (95% interval {_pct(lo)}-{_pct(hi)})")
    for name, per_round in sp["round_figures"].items():
        lines.append(f"{name} at the end of each round (mean): " + " ".join(
            f"r{rnd} {v:.1f}" for rnd, v in per_round.items()))
    for side, mix in sp["action_mix"].items():
        top = list(mix.items())[:14]
        lines.append(f"{side} decisions: " + ", ".join(f"{fam} {100 * share:.1f}%"
                                                        for fam, share in top))
    load = rep.get("load")
    lines.append(f"{rep['seconds']:.0f} s with {rep['jobs']} processes"
                 + (f"; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}" if load else ""))
    return "\n".join(lines)


def run_balance(args: argparse.Namespace) -> int:
    """``cellwars balance``: print the report; CellwarsError becomes cli's one-line error."""
    import json

    rep = balance(args.game, players=args.players, games=args.games, bot=args.bot,
                  playouts=args.playouts, against=args.against, duel_games=args.duel_games,
                  seed=args.seed, jobs=args.jobs, options=dict(args.option),
                  progress=True)
    if args.json:
        print(json.dumps(rep, indent=2))
    else:
        print(format_report(rep))
    return 0
