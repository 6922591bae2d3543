"""Calibration of the computer players' ratings (docs/ratings.md): the three levels play
two-player matches to 61 against one another — every pairing, duplicate deals (each deal
once with each level first, bench/arena.py) — and each match moves their openskill
ratings exactly as a rated match on the server does (app/ratings: Plackett–Luce, the
winner first). The levels start at a new player's rating; the pairings are interleaved,
deal by deal, so that no pairing's order weighs more.

Usage::

    python -m bench.bot_calibration --deals 40 --seed 1 [--playouts 30] [--jobs 1]

Prints each level's μ, σ and shown rating, and the lines of app/ratings/calibration.py
(the ratings a level starts from on a server where it has not played yet). Nothing here
is asserted by a test; the figures go to docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from itertools import combinations

from app.bots import LEVELS, Level
from app.ratings import DEFAULT_MU, DEFAULT_SIGMA, Rating, displayed, rate_match
from bench.arena import GameResult, play_deal

#: each pairing, the stronger level named first (the arena's ``a``)
PAIRINGS: list[tuple[Level, Level]] = [(b, a) for a, b in combinations(LEVELS, 2)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=40, help="deals per pairing (2 matches each)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--playouts", type=int, default=30, help="hard's determinisations")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()

    jobs = [
        (2, a, b, args.seed, deal * len(PAIRINGS) + i, None, args.playouts)
        for deal in range(args.deals)
        for i, (a, b) in enumerate(PAIRINGS)
    ]
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        played: list[list[GameResult]] = list(pool.map(play_deal, jobs))
    elapsed = time.perf_counter() - started

    ratings = {level: Rating(DEFAULT_MU, DEFAULT_SIGMA) for level in LEVELS}
    wins = {pair: 0 for pair in PAIRINGS}
    for (_, a, b, *_), games in zip(jobs, played, strict=True):
        for game in games:
            ranks = [1, 2] if game.a_won else [2, 1]
            [[new_a], [new_b]] = rate_match([[ratings[a]], [ratings[b]]], ranks)
            ratings[a], ratings[b] = new_a, new_b
            wins[(a, b)] += game.a_won
    matches = 2 * args.deals
    print(
        f"{matches} matches per pairing, seed {args.seed}, hard playouts {args.playouts},"
        f" {elapsed:.0f} s"
    )
    for a, b in PAIRINGS:
        print(
            f"  {a} beat {b} in {wins[(a, b)]} of {matches} ({100 * wins[(a, b)] / matches:.1f} %)"
        )
    print("| level | μ | σ | shown rating |")
    print("|---|---|---|---|")
    for level in LEVELS:
        r = ratings[level]
        print(f"| {level} | {r.mu:.2f} | {r.sigma:.2f} | {displayed(r)} |")
    print("\n# app/ratings/calibration.py")
    for level in LEVELS:
        r = ratings[level]
        print(f'    "{level}": Rating({r.mu:.2f}, {r.sigma:.2f}),')


if __name__ == "__main__":
    main()
