"""Random full-round playouts per second, our engine against the PyPI ``dominoes`` peer.

A playout deals a round (R5, R6) and plays uniformly random legal moves — placements,
draws and passes — until a player goes out or the round blocks (R20, R21). One core,
one process. Usage::

    python bench/engine_playouts.py [--seconds 2] [--repeats 5]

Figures are recorded in docs/benchmarks.md; nothing here is asserted by a test.
"""

from __future__ import annotations

import argparse
import platform
import random
import time
from collections.abc import Callable

from app.engine import Round


def our_playouts(
    players: int, seconds: float, seed: int = 1, checked: bool = False
) -> tuple[int, int, float]:
    """Playouts and moves done by our engine in about ``seconds``.

    ``checked``: every move goes through the checking :meth:`Round.play` instead of
    :meth:`Round.play_unchecked` (what search code uses for moves from ``legal_moves``).
    """
    rng = random.Random(seed)
    choice = rng.choice
    playouts = moves = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(200):
            rnd = Round.deal(players, rng)
            play = rnd.play if checked else rnd.play_unchecked
            while rnd.turn is not None:
                play(choice(rnd.legal_moves()))
                moves += 1
            playouts += 1
        now = time.perf_counter()
        if now >= deadline:
            return playouts, moves, now - start


def peer_playouts(seconds: float, seed: int = 1) -> tuple[int, int, float]:
    """The ``dominoes`` package (two-player block game): random legal moves to the end."""
    import dominoes

    rng = random.Random(seed)
    random.seed(seed)
    playouts = moves = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(20):
            game = dominoes.Game.new()
            while game.result is None:
                game.make_move(*rng.choice(game.valid_moves))
                moves += 1
            playouts += 1
        now = time.perf_counter()
        if now >= deadline:
            return playouts, moves, now - start


def _row(label: str, run: Callable[[], tuple[int, int, float]], repeats: int) -> None:
    """Best of ``repeats`` runs: the machine is shared, and noise only ever slows a run."""
    playouts, moves, elapsed = max((run() for _ in range(repeats)), key=lambda r: r[1] / r[2])
    print(
        f"| {label} | {playouts / elapsed:,.0f} | {moves / elapsed:,.0f} | {moves / playouts:.1f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per run")
    parser.add_argument("--repeats", type=int, default=5, help="runs per row; the best is shown")
    args = parser.parse_args()
    s, n = args.seconds, args.repeats
    print(
        f"Python {platform.python_version()} on {platform.machine()}, best of {n} x {s:g} s per row\n"
    )
    print("| engine | playouts/s | moves/s | moves per playout |")
    print("|---|---:|---:|---:|")
    for players in (2, 3, 4):
        _row(f"fiveup, {players} players", lambda p=players: our_playouts(p, s), n)
    for players in (2, 4):
        _row(
            f"fiveup, {players} players, checked play()",
            lambda p=players: our_playouts(p, s, checked=True),
            n,
        )
    _row("dominoes 6.1.0 (peer), 2 players", lambda: peer_playouts(s), n)


if __name__ == "__main__":
    main()
