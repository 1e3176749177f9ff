"""Measure Infection's win rate with bot teams on a simulated clock (nothing waits for real).

    python -m cellwars_tui.bench.games.infection_winrate [--games 300] [--seed 0] [--tense]
    python -m cellwars_tui.bench.games.infection_winrate --sweep 100,110,120,130,140 [--games 300]

prints, for 1-4 players and each bot pace (easy, normal, fast), the share of games won, the mean
time of a win (seconds of play out of the three rounds) and the mean cards left in a loss; with
``--tense`` each team plays the tense team game's round length for its size. ``--sweep`` prints
the win share of 2, 3 and 4 normal-pace bots for each round length given (how the tense lengths
in ``clarifications.TENSE_ROUND_SECONDS`` were chosen). These are the figures quoted in rules.md;
``cellwars bench`` measures a smaller sample.
"""

from __future__ import annotations

import argparse
import statistics
import time

from ...games.infection import clarifications as C
from ...games.infection.simulate import simulate
from ...games.infection.rules import CLEARED, cards_left


def measure(players: int, pace: float, games: int, seed: int = 0,
            round_seconds: int = C.ROUND_SECONDS_DEFAULT) -> dict[str, float]:
    """``{"win": share, "win_time": mean seconds, "left": mean cards left when lost}``."""
    wins, left = [], []
    for g in range(games):
        s, steps = simulate(players, pace, seed * 100_003 + g, round_seconds=round_seconds,
                            keep_steps=True)
        if s.result == CLEARED:
            wins.append(steps[-1][0])
        else:
            left.append(cards_left(s))
    return {
        "win": len(wins) / games,
        "win_time": statistics.fmean(wins) if wins else float("nan"),
        "left": statistics.fmean(left) if left else 0.0,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300, help="games per player count and pace")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--tense", action="store_true",
                    help="each team size plays the tense team game's round length")
    ap.add_argument("--sweep", metavar="SECONDS,...",
                    help="win share of 2-4 normal-pace bots at each of these round lengths")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    if args.sweep:
        lengths = [int(w) for w in args.sweep.split(",") if w.strip()]
        print(f"{args.games} games each, normal-pace bots; win share by round length (s)")
        print("players  " + "".join(f"{secs:>6}" for secs in lengths))
        for players in (2, 3, 4):
            row = [measure(players, C.PACES["normal"], args.games, args.seed, secs)["win"]
                   for secs in lengths]
            print(f"{players:>7}  " + "".join(f"{w:>6.0%}" for w in row))
    else:
        print(f"{args.games} games each, rounds of "
              + (", ".join(f"{C.tense_round_seconds(n)} s ({n}p)" for n in (1, 2, 3, 4))
                 if args.tense else f"{C.ROUND_SECONDS_DEFAULT} s"))
        print("players  pace     win    mean win time   cards left in a loss")
        for players in (1, 2, 3, 4):
            secs = C.tense_round_seconds(players) if args.tense else C.ROUND_SECONDS_DEFAULT
            for name, pace in C.PACES.items():
                m = measure(players, pace, args.games, args.seed, secs)
                print(f"{players:>7}  {name:<7} {m['win']:>4.0%}   {m['win_time']:>8.0f} s"
                      f"      {m['left']:>5.1f}")
    print(f"({time.perf_counter() - t0:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
