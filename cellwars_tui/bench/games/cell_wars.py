"""Cell Wars benchmarks: random play speed, legal-move generation, playouts and bot strength."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from ...ai.bots import MCTSBot, RandomBot
from ...core import CHANCE
from ...games.cell_wars import bot as BOT
from ...games.cell_wars import rules as R
from ...games.cell_wars.rules import GAME, CellWarsOptions
from .. import Result, result, timed


def _random_game(seed: int, players: int = 6) -> tuple[R.CWState, int, list[R.CWState]]:
    """An all-random game to the end: final state, steps, and the decision states passed."""
    rng = random.Random(seed)
    s = GAME.initial_state(CellWarsOptions(players=players))
    steps = 0
    decisions: list[R.CWState] = []
    while True:
        seats = GAME.to_act(s)
        if not seats:
            return s, steps, decisions
        seat = seats[0]
        if seat == CHANCE:
            a = GAME.sample_chance(s, rng)
        else:
            legal = GAME.legal_actions(s, seat)
            if s.phase == R.PLAY:
                decisions.append(s)
            a = rng.choice(legal)
        s, _ = GAME._apply(s, seat, a)
        steps += 1


def bench_random_play(quick: bool) -> list[Result]:
    games = 10 if quick else 60
    t0 = time.perf_counter()
    steps = rounds = 0
    for seed in range(games):
        end, n, _ = _random_game(seed)
        steps += n
        rounds += end.round
    dt = time.perf_counter() - t0
    return [
        result("cell-wars: all-random 3v3 games to the end", games / dt, "games/s",
               note=f"{games} games, {steps / games:.0f} steps and {rounds / games:.1f} rounds "
                    "each"),
        result("cell-wars: random play", steps / dt, "steps/s",
               note="legal moves listed and applied, chance sampled"),
    ]


def bench_legal_actions(quick: bool) -> list[Result]:
    _, _, states = _random_game(3)
    sample = states[:: 4 if quick else 2]

    def run() -> None:
        for s in sample:
            GAME.legal_actions(s, GAME.to_act(s)[0])

    per, _ = timed(run, min_time=0.2 if quick else 1.0)
    return [result("cell-wars: legal-action generation", len(sample) / per, "lists/s",
                   note=f"mid-game 3v3 decision states ({len(sample)})")]


def bench_playouts(quick: bool) -> list[Result]:
    _, _, states = _random_game(5)
    sample = states[:: 10 if quick else 3]
    rng = random.Random(1)
    t0 = time.perf_counter()
    n = 0
    for s in sample:
        BOT.random_playout(GAME, s, rng)
        n += 1
    dt = time.perf_counter() - t0
    return [result("cell-wars: bot playouts (greedy, 2 rounds ahead)", n / dt, "playouts/s",
                   note="the search bot's fast playout hook")]


def _bot_game(seed: int, smart_camp: int, playouts: int) -> int:
    """A two-player game: the search bot leads ``smart_camp``, the random bot the other camp."""
    rng = random.Random(seed)
    smart, dumb = MCTSBot(max_playouts=playouts), RandomBot()
    s = GAME.initial_state(CellWarsOptions(players=2))
    while True:
        seats = GAME.to_act(s)
        if not seats:
            return s.winner
        seat = seats[0]
        if seat == CHANCE:
            a = GAME.sample_chance(s, rng)
        else:
            who = smart if R.seat_camp(2, seat) == smart_camp else dumb
            a = who.choose(GAME, GAME.view(s, seat), seat, rng, 60.0)
        s, _ = GAME._apply(s, seat, a)


def bench_bot_strength(quick: bool) -> list[Result]:
    games = 20 if quick else 200
    playouts = 16
    out = []
    for camp, name in ((R.IMMUNE, "immune"), (R.CANCER, "cancer")):
        t0 = time.perf_counter()
        wins = ties = 0
        for seed in range(games):
            w = _bot_game(1000 + seed, camp, playouts)
            wins += w == camp
            ties += w == 2
        dt = time.perf_counter() - t0
        out.append(result(f"cell-wars: search bot (mcts) win rate as {name} vs random",
                          100.0 * wins / games, "%", ">=", 90,
                          note=f"{games} games, {ties} ties, {playouts} playouts a move, "
                               f"{dt / games:.2f} s a game"))
    return out


def _judged(name: str, value: float, ci: Sequence[float] | None, lo: float, hi: float,
            note: str) -> Result:
    """A share in percent against the goal ``lo``-``hi`` (``hi`` 100: at least ``lo``), with its
    95% interval ``ci`` (fractions): met when the share is within the goal, missed when the whole
    interval lies outside it (the games show the miss), and not judged when the games are too few
    to tell either way (the bench's samples are small; ``cellwars balance`` plays more)."""
    a, b = (100.0 * ci[0], 100.0 * ci[1]) if ci else (0.0, 100.0)
    met: bool | None
    if lo <= value <= hi:
        met = True
    elif b < lo or a > hi:
        met = False
    else:
        met = None
    text = f"95% interval {a:.0f}-{b:.0f}%" + ("" if met is not None else ", too few to tell")
    return Result(name=name, value=value, unit="%", goal=f">= {lo:g}" if hi >= 100 else
                  f"{lo:g}-{hi:g}", met=met, note=f"{note}; {text}" if note else text)


def _self_play_results(rep: dict, who: str, note: str) -> list[Result]:
    from ..balance import wilson

    sp = rep["self_play"]
    out = [_judged(f"cell-wars: decisive games, {who}", 100.0 * sp["decisive_share"],
                   sp["decisive_ci95"], 70, 100, note)]
    immune, decisive = sp["wins_by_side"]["Immune"], sp["decisive"]
    share = 100.0 * sp["side_share_of_decisive"]["Immune"] if decisive else float("nan")
    out.append(_judged(f"cell-wars: immune camp's share of decisive games, {who}", share,
                       wilson(immune, decisive) if decisive else None, 40, 60,
                       f"cancer {sp['wins_by_side']['Cancer']}, immune {immune}"))
    median = sp["median_winning_round"]
    out.append(Result(name=f"cell-wars: median winning round, {who}",
                      value=float(median) if median is not None else float("nan"),
                      unit="round", goal="8-16",
                      met=median is not None and 8 <= median <= 16))
    return out


def bench_balance(quick: bool) -> list[Result]:
    """Issue 15's goals, measured as ``cellwars balance`` does at the bench's budget (16 playouts a
    move): equal-strength self-play (greedy at 2 players; search at 2, 4 and 6 players) ends with a
    winner, each camp wins as often, games last; and the search beats the greedy policy leading
    either camp (two players, same seeds both ways)."""
    from ..balance import balance

    out: list[Result] = []
    games = 40 if quick else 200
    rep = balance("cell-wars", players=2, games=games, bot="greedy", duel_games=0, seed=1,
                  progress=False)
    out += _self_play_results(rep, "greedy self-play, 2 players",
                              f"{games} games, seeds 1-{games}, {rep['seconds']:.0f} s")
    games = 6 if quick else 40
    for players in (2, 4, 6):
        duels = (6 if quick else 40) if players == 2 else 0
        rep = balance("cell-wars", players=players, games=games, bot="search", against="greedy",
                      duel_games=duels, seed=1, progress=False)
        who = f"{rep['bot_title']} self-play, {players} players"
        out += _self_play_results(rep, who, f"{games} games, seeds 1-{games}, "
                                            f"{rep['seconds']:.0f} s")
        for d in rep["duels"]:
            share = d["strong_share_of_decisive"]
            out.append(_judged(
                f"cell-wars: search's share of decisive games against greedy, leading "
                f"{d['strong_leads']}", 100.0 * share if share is not None else float("nan"),
                d["strong_share_ci95"] if share is not None else None, 75, 100,
                f"{d['games']} games, 2 players, {d['strong_wins']} won, {d['weak_wins']} lost"))
    return out


BENCHMARKS = [bench_random_play, bench_legal_actions, bench_playouts, bench_bot_strength,
              bench_balance]
