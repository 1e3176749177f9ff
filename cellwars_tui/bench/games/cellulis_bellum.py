"""Cellulis Bellum benchmarks: playouts the search bot runs, public-API games, bot strength, and
how self-play games end (the share ended by a destroyed nucleus; ``cellwars balance
cellulis-bellum`` gives the full measures)."""

from __future__ import annotations

import random
import sys
import time

from ...ai.bots import Bot, MCTSBot, RandomBot, candidate_actions
from ...games.cellulis_bellum.rules import GAME, CellulisBellumOptions
from .. import Result, result, timed

BOT_BUDGET = 0.5  # seconds a move, as the issue asks
FULL_GAMES = 200
QUICK_GAMES = 4


def midgame_state(seed: int = 3, plies: int = 60):
    rng = random.Random(seed)
    s = GAME.initial_state(CellulisBellumOptions())
    for _ in range(plies):
        if not GAME.to_act(s):
            break
        s, _ = GAME.apply(s, s.seat, rng.choice(GAME.bot_actions(s, s.seat)))
    return s


def bench_playouts(quick: bool) -> list[Result]:
    rng = random.Random(1)
    s = midgame_state()
    per, n = timed(lambda: GAME.random_playout(s, rng), min_time=0.5 if quick else 2.0)
    out = [result("cellulis-bellum: search playouts (mid-game)", 1 / per, "playouts/s",
                  note=f"{n} playouts: end the turn, 2 random turns, heuristic; one core")]
    start = GAME.initial_state(CellulisBellumOptions())

    def game() -> None:
        st = start
        while GAME.to_act(st):
            st, _ = GAME.apply(st, st.seat, rng.choice(GAME.legal_actions(st, st.seat)))

    per2, n2 = timed(game, min_time=0.5 if quick else 2.0)
    out.append(result("cellulis-bellum: random games through the public API", 1 / per2,
                      "games/s", note=f"{n2} games to their end (at most {start.turn_limit} "
                      "turns), legal_actions + validated apply"))
    return out


def play_match(bots, seed: int, budget: float, times: list[float] | None = None
               ) -> tuple[int, ...]:
    """One game; ``times`` gets the seconds of each search (a search bot's decision among more
    than one candidate: a forced one takes no search)."""
    rng = random.Random(seed)
    s = GAME.initial_state(CellulisBellumOptions())
    while GAME.to_act(s):
        seat = s.seat
        bot, view = bots[seat], GAME.view(s, seat)
        searched = times is not None and isinstance(bot, MCTSBot) and len(
            candidate_actions(GAME, view, seat)) > 1
        t0 = time.perf_counter()
        action = bot.choose(GAME, view, seat, rng, budget)
        if searched and times is not None:
            times.append(time.perf_counter() - t0)
        s, _ = GAME.apply(s, seat, action)
    end = GAME.outcome(s)
    assert end is not None
    return end.winners


def bot_win_rate(games: int, budget: float, seed: int = 0, log=None,
                 times: list[float] | None = None) -> tuple[float, int]:
    """MCTS against random, seats alternating; a draw is not a win."""
    wins = 0
    for i in range(games):
        me = i % 2
        bots: list[Bot] = [RandomBot(), RandomBot()]
        bots[me] = MCTSBot()
        won = play_match(bots, seed + i, budget, times) == (me,)
        wins += won
        if log is not None:
            print(f"game {i + 1}: search bot as {GAME.seat_label(me)} "
                  f"{'wins' if won else 'does not win'} ({wins}/{i + 1})", file=log, flush=True)
    return wins / games, wins


def time_rows(times: list[float], budget: float) -> list[Result]:
    """The search bot's time a move: the mean of its searches against the budget (plus the
    last playout begun before the deadline: 10%), and the longest in the note."""
    mean = sum(times) / len(times) if times else 0.0
    return [result(f"cellulis-bellum: search bot time a move ({budget} s budget)", mean, "s",
                   "<=", round(budget * 1.1, 3),
                   note=f"mean of {len(times)} searches, longest {max(times, default=0):.3f} s")]


def bench_bot(quick: bool) -> list[Result]:
    games = QUICK_GAMES if quick else FULL_GAMES
    t0 = time.perf_counter()
    times: list[float] = []
    rate, wins = bot_win_rate(games, BOT_BUDGET, times=times)
    dt = time.perf_counter() - t0
    return [result(f"cellulis-bellum: MCTS vs random, {BOT_BUDGET} s/move", rate * 100, "% wins",
                   ">=", 95, note=f"{wins}/{games} games, seats alternate, {dt:.0f} s"
                   + (" (quick sample)" if quick else "")), *time_rows(times, BOT_BUDGET)]


SELF_PLAY_GAMES, SELF_PLAY_QUICK = 10, 2
SELF_PLAY_PLAYOUTS, SELF_PLAY_QUICK_PLAYOUTS = 100, 20


def bench_self_play(quick: bool) -> list[Result]:
    """The search bot on both seats (through ``cellwars balance``): the share of games ended by a
    destroyed nucleus (the seed's only end) before the safety turn limit, with seats and length
    in the note. The rules page's figures come from a longer run of the same command."""
    from ..balance import balance

    games = SELF_PLAY_QUICK if quick else SELF_PLAY_GAMES
    playouts = SELF_PLAY_QUICK_PLAYOUTS if quick else SELF_PLAY_PLAYOUTS
    rep = balance(GAME.id, games=games, playouts=playouts, duel_games=0, seed=1000, jobs=1,
                  progress=False)
    s = rep["self_play"]
    by_nucleus = sum(n for end, n in s["endings"].items() if end.startswith("nucleus destroyed"))
    limit = sum(n for end, n in s["endings"].items() if end.startswith("turn limit"))
    seats = s["wins_by_seat"]
    note = (f"{by_nucleus}/{games} games, {playouts} playouts a decision, turn limit {limit}; "
            f"decisive {s['decisive']} (Yellow {seats['Yellow']}, Violet {seats['Violet']}); "
            f"mean {s['mean_rounds'] or 0:.0f} rounds of two turns; {rep['seconds']:.0f} s"
            + (" (quick sample)" if quick else ""))
    return [result("cellulis-bellum: self-play ended by a destroyed nucleus",
                   100 * by_nucleus / games, "% of games", ">=", 70, note=note)]


BENCHMARKS = [bench_playouts, bench_bot, bench_self_play]

if __name__ == "__main__":  # python -m cellwars_tui.bench.games.cellulis_bellum GAMES [SEED]
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    first = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    times: list[float] = []
    rate, wins = bot_win_rate(n, BOT_BUDGET, first, log=sys.stdout, times=times)
    print(f"{wins}/{n} = {rate:.1%}")
    row = time_rows(times, BOT_BUDGET)[0]
    print(f"search bot: {row.value:.3f} s a move ({row.note})")
