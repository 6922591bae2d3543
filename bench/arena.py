"""Arena: whole matches to 61 between two computer-player levels, with duplicate deals.

Every deal (the sequence of shuffles of a match, one per round) is played once per seat
arrangement so the luck of the deal cancels: with 2 players ``a|b`` then ``b|a``; with 4
players (partnerships, R2) ``a b a b`` then ``b a b a``; with 3 players ``a`` sits in
each seat in turn against two ``b``. Round ``k`` of a deal gets the same shuffle in every
game; the starter follows the rules (R7 lot for round 1 and after a block, R23 the
finisher otherwise). Matches end by R24/R25. Usage::

    python -m bench.arena --a hard --b medium --players 2 --matches 200 --seed 1 \
        [--playouts 60 | --budget-ms 300] [--jobs 1]

Reported: match wins of each level with a 95 % Wilson interval, displayed points per
round (earned less settlement, R3, R22) of each level's side, the Elo-style difference
the win rate implies, the share of rounds each side netted more in (draws half; an
Elo-style difference that stays finite when one level wins every match), and each
level's decision time (moves with a choice only).
Nothing here is asserted by a test; figures go to docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import random
import statistics
import subprocess
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import cast

from app.bots import LEVELS, Level, SeatView, choose_move
from app.engine import Match, Round, view_for
from app.engine.tiles import NAMES


@dataclass
class GameResult:
    """One match: whether level ``a`` won, rounds, and per-round points of a's and b's sides."""

    a_won: bool
    rounds: int
    a_points: float
    b_points: float
    rounds_won: int  # rounds a's side netted more than b's (mean) side
    rounds_lost: int
    times: dict[str, list[float]] = field(default_factory=dict)


def seating(players: int, game: int, a: Level, b: Level) -> list[Level]:
    """The levels of the seats in game ``game`` of a deal (see the module docstring)."""
    if players == 3:
        return [a if seat == game else b for seat in range(3)]
    first, second = (a, b) if game == 0 else (b, a)
    return [first if seat % 2 == 0 else second for seat in range(players)]


def games_per_deal(players: int) -> int:
    return 3 if players == 3 else 2


def deal_round(
    players: int, seed: int, deal: int, number: int
) -> tuple[list[list[str]], list[str], int]:
    """Round ``number``'s shuffle for ``deal``: the same in every game of the deal."""
    rng = random.Random(f"arena:{seed}:{deal}:{number}")
    rnd = Round.deal(players, rng)
    hands = [[NAMES[t] for t in rnd.hand(s)] for s in range(players)]
    return hands, [NAMES[t] for t in rnd.stock_tiles()], rnd.starter


def play_game(
    players: int,
    seats: Sequence[Level],
    a: Level,
    seed: int,
    deal: int,
    game: int,
    budget_ms: float | None,
    playouts: int | None,
) -> GameResult:
    hands, stock, starter = deal_round(players, seed, deal, 1)
    match = Match.from_deal(hands, stock, starter)
    rngs = [random.Random(f"bot:{seed}:{deal}:{game}:{s}") for s in range(players)]
    a_side = next(s % 2 if players == 4 else s for s in range(players) if seats[s] == a)
    times: dict[str, list[float]] = {level: [] for level in set(seats)}
    a_points: list[float] = []
    b_points: list[float] = []
    while True:
        before = list(match.scores)
        while not match.round_over:
            seat = match.turn
            assert seat is not None
            view = SeatView.from_view(view_for(match, seat))
            started = time.perf_counter()
            move = choose_move(
                seats[seat], view, rngs[seat], budget_ms=budget_ms, playouts=playouts
            )
            if len(view.legal) > 1:
                times[seats[seat]].append(time.perf_counter() - started)
            match.play(seat, move)
        delta = [after - b for after, b in zip(match.scores, before, strict=True)]
        a_points.append(delta[a_side])
        others = [d for side, d in enumerate(delta) if side != a_side]
        b_points.append(sum(others) / len(others))
        if match.over:
            break
        hands, stock, lot = deal_round(players, seed, deal, match.round_number + 1)
        blocked = match.round.result == "blocked"
        match.next_round_from_deal(hands, stock, lot if blocked else None)
    return GameResult(
        a_won=match.winner == a_side,
        rounds=len(a_points),
        a_points=sum(a_points),
        b_points=sum(b_points),
        rounds_won=sum(x > y for x, y in zip(a_points, b_points, strict=True)),
        rounds_lost=sum(x < y for x, y in zip(a_points, b_points, strict=True)),
        times=times,
    )


def play_deal(
    args: tuple[int, Level, Level, int, int, float | None, int | None],
) -> list[GameResult]:
    players, a, b, seed, deal, budget_ms, playouts = args
    return [
        play_game(players, seating(players, g, a, b), a, seed, deal, g, budget_ms, playouts)
        for g in range(games_per_deal(players))
    ]


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate.

    >>> [round(x, 3) for x in wilson(60, 100)]
    [0.502, 0.691]
    """
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def elo(rate: float) -> float:
    """Elo-style rating difference implied by a win rate (clamped away from 0 and 1).

    >>> round(elo(0.75))
    191
    """
    rate = min(max(rate, 1e-3), 1 - 1e-3)
    return 400 * math.log10(rate / (1 - rate))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def commit() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True
        )
        return out.stdout.strip() or "?"
    except OSError:
        return "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--a", choices=LEVELS, default="hard")
    parser.add_argument("--b", choices=LEVELS, default="medium")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    parser.add_argument("--matches", type=int, default=100, help="rounded up to whole deals")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget-ms", type=float, default=None, help="hard: time per move")
    parser.add_argument(
        "--playouts", type=int, default=None, help="hard: determinisations per move"
    )
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = parser.parse_args()
    a, b = cast(Level, args.a), cast(Level, args.b)
    per_deal = games_per_deal(args.players)
    deals = -(-args.matches // per_deal)
    started = time.time()
    load = os.getloadavg()
    revision = commit()
    work = [(args.players, a, b, args.seed, d, args.budget_ms, args.playouts) for d in range(deals)]
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            groups = list(pool.map(play_deal, work))
    else:
        groups = [play_deal(w) for w in work]
    results = [r for group in groups for r in group]
    n = len(results)
    wins = sum(r.a_won for r in results)
    rounds = sum(r.rounds for r in results)
    low, high = wilson(wins, n)
    fair = 1 / 3 if args.players == 3 else 1 / 2
    budget = (
        f"playouts={args.playouts}" if args.playouts is not None else f"budget_ms={args.budget_ms}"
    )
    print(
        f"arena: {a} vs {b}, {args.players} players, {n} matches ({deals} deals x {per_deal}), "
        f"seed {args.seed}, hard {budget}, jobs {args.jobs}"
    )
    print(
        f"commit {revision}, Python {platform.python_version()}, load average at start "
        f"{load[0]:.1f}/{load[1]:.1f}/{load[2]:.1f}, wall {time.time() - started:.0f} s"
    )
    print(
        f"{a} won {wins}/{n} = {wins / n:.1%} (95 % CI {low:.1%}–{high:.1%}; "
        f"an even contest is {fair:.0%})"
    )
    if args.players != 3:
        print(
            f"Elo-style difference {a} − {b}: {elo(wins / n):+.0f} (CI {elo(low):+.0f} to {elo(high):+.0f})"
        )
    a_per_round = [r.a_points / r.rounds for r in results]
    b_per_round = [r.b_points / r.rounds for r in results]
    diff = [x - y for x, y in zip(a_per_round, b_per_round, strict=True)]
    half = 1.96 * statistics.stdev(diff) / math.sqrt(n) if n > 1 else float("nan")
    print(
        f"points per round: {a} {sum(r.a_points for r in results) / rounds:+.2f}, "
        f"{b} {sum(r.b_points for r in results) / rounds:+.2f}; difference per match "
        f"{statistics.fmean(diff):+.2f} ± {half:.2f} (95 %); {rounds / n:.1f} rounds per match"
    )
    won = sum(r.rounds_won for r in results)
    lost = sum(r.rounds_lost for r in results)
    share = (won + (rounds - won - lost) / 2) / rounds
    print(
        f"rounds: {a}'s side netted more in {won}, less in {lost}, as much in "
        f"{rounds - won - lost} of {rounds}: score {share:.1%}, Elo-style {elo(share):+.0f}"
    )
    for level in sorted({a, b}):
        times = [t * 1000 for r in results for t in r.times.get(level, [])]
        if times:
            print(
                f"{level} decision time (moves with a choice, {len(times)}): "
                f"p50 {percentile(times, 0.5):.1f} ms, p99 {percentile(times, 0.99):.1f} ms, "
                f"max {max(times):.1f} ms"
            )


if __name__ == "__main__":
    main()
