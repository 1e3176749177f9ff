"""Virus Fight benchmarks: random playouts, perft beside python-chess, snapshots, bot strength."""

from __future__ import annotations

import random
import time

from ...ai.bots import Bot, MCTSBot, RandomBot
from .. import Result, result, timed
from ...core.api import CHANCE
from ...games.virus_fight import notation as N
from ...games.virus_fight.bot import finish_setup
from ...games.virus_fight.rules import GAME, PLAY, VirusFightOptions

PERFT_DEPTH = 3


def bench_playouts(quick: bool) -> list[Result]:
    """Whole random games from the empty board: random legal programs and placements, then
    uniformly random turns (the fast playout path the search bot uses)."""
    start = GAME.initial_state(VirusFightOptions(players=2))
    rng = random.Random(2008)
    cpu0 = time.process_time()
    per, n = timed(lambda: GAME.random_playout(start, rng, 10_000), min_time=0.5 if quick else 2.0)
    cpu = (time.process_time() - cpu0) / max(1, n)
    out = [result("virus-fight: random playouts (2 players)", 1 / per, "games/s", ">=", 2000,
                  note=f"{n} games, one core; {1 / cpu:.0f} games per CPU-second "
                       "(less sensitive to other load)")]
    # the same through the public API (legal_actions + apply), for comparison
    def slow() -> None:
        s = start
        while True:
            seats = GAME.to_act(s)
            if not seats:
                return
            seat = seats[0]
            a = (GAME.sample_chance(s, rng) if seat == CHANCE
                 else rng.choice(GAME.legal_actions(s, seat)))
            s, _ = GAME.apply(s, seat, a)

    per2, n2 = timed(slow, min_time=0.3 if quick else 1.0)
    out.append(result("virus-fight: random games through the public API", 1 / per2, "games/s",
                      note=f"{n2} games, legal_actions + validated apply + events"))
    return out


def _chess_perft_rate(quick: bool) -> tuple[float, str]:
    try:
        import chess
    except ImportError:
        return float("nan"), "python-chess not installed"

    def perft(board, depth: int) -> int:  # python-chess's own examples/perft algorithm
        if depth > 1:
            count = 0
            for move in board.legal_moves:
                board.push(move)
                count += perft(board, depth - 1)
                board.pop()
            return count
        return board.legal_moves.count()

    fens = [chess.STARTING_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"]
    nodes, t0 = 0, time.perf_counter()
    for fen in fens[:1] if quick else fens:
        nodes += perft(chess.Board(fen), 3)
    dt = time.perf_counter() - t0
    return nodes / dt, f"python-chess {chess.__version__}, perft 3 of {len(fens[:1] if quick else fens)} FENs"


def bench_perft(quick: bool) -> list[Result]:
    positions = list(N.STANDARD.items())
    if quick:
        positions = positions[:3]
    nodes, t0 = 0, time.perf_counter()
    for _, text in positions:
        nodes += N.perft(GAME, N.position_from_str(GAME, text), PERFT_DEPTH)
    ours = nodes / (time.perf_counter() - t0)
    chess_rate, chess_note = _chess_perft_rate(quick)
    out = [result(f"virus-fight: perft depth {PERFT_DEPTH}", ours, "nodes/s", ">=",
                  round(chess_rate) if chess_rate == chess_rate else 0,
                  note=f"{nodes} nodes over {len(positions)} openings and mid-games; "
                       "goal: python-chess's rate")]
    out.append(result("python-chess: perft depth 3 (same run)", chess_rate, "nodes/s",
                      note=chess_note))
    return out


def midgame_state():
    rng = random.Random(5)
    s = finish_setup(GAME, GAME.initial_state(VirusFightOptions(players=2)), rng)
    for _ in range(8):
        if s.phase != PLAY:
            break
        seat = s.queue[0]
        s, _ = GAME._apply(s, seat, rng.choice(GAME.bot_actions(s, seat)))
    return s


def bench_snapshots(quick: bool) -> list[Result]:
    s = midgame_state()
    data = GAME.encode_state(s)
    enc, _ = timed(lambda: GAME.encode_state(s), min_time=0.2 if quick else 0.5)
    dec, _ = timed(lambda: GAME.decode_state(data), min_time=0.2 if quick else 0.5)
    assert GAME.decode_state(data) == s
    return [
        result("virus-fight: snapshot encode (mid-game)", enc * 1e6, "µs", "<=", 20,
               note=f"{len(data)} bytes"),
        result("virus-fight: snapshot decode (mid-game)", dec * 1e6, "µs", "<=", 20),
    ]


def play_match(bots, seed: int, budget: float) -> tuple[int, ...]:
    """One game between ``bots`` (one per seat); returns the winners."""
    rng = random.Random(seed)
    s = GAME.initial_state(VirusFightOptions(players=len(bots)))
    while True:
        seats = GAME.to_act(s)
        if not seats:
            end = GAME.outcome(s)
            assert end is not None
            return end.winners
        seat = seats[0]
        if seat == CHANCE:
            a = GAME.sample_chance(s, rng)
        else:
            a = bots[seat].choose(GAME, GAME.view(s, seat), seat, rng, budget)
        s, _ = GAME.apply(s, seat, a)


def bot_win_rate(games: int, budget: float, seed: int = 0) -> tuple[float, int]:
    wins = 0
    for i in range(games):
        mcts_seat = i % 2
        bots: list[Bot] = [RandomBot(), RandomBot()]
        bots[mcts_seat] = MCTSBot()
        winners = play_match(bots, seed + i, budget)
        wins += winners == (mcts_seat,)
    return wins / games, wins


def bench_bot(quick: bool) -> list[Result]:
    games = 10 if quick else 200
    t0 = time.perf_counter()
    rate, wins = bot_win_rate(games, 0.2)
    dt = time.perf_counter() - t0
    return [result("virus-fight: MCTS vs random, 0.2 s/move", rate * 100, "% wins", ">=", 95,
                   note=f"{wins}/{games} two-player games, seats alternate, {dt:.0f} s")]


BENCHMARKS = [bench_playouts, bench_perft, bench_snapshots, bench_bot]
