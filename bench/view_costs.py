"""What building one state's views costs, per state, in one process and without sockets:
the public part of every view (``public_fields``, cached per state and reusing the
previous state's layout tiles and log), of which the layout alone (``layout_data``), and
both seats' own fields (``own_fields``) — for random 2-seat matches played move by move.

    python -m bench.view_costs [--states 20000] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import time

from app.engine import Match
from app.engine.views import layout_data, own_fields, public_fields


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--states", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    match = Match.new(2, rng)
    public = own = layout = 0.0
    for _ in range(args.states):
        if match.over:
            match = Match.new(2, rng)
        elif match.round_over:
            match.next_round(rng)
        else:
            match.play(match.turn, rng.choice(match.legal_moves(match.turn)).text)
        t0 = time.perf_counter()
        public_fields(match)
        t1 = time.perf_counter()
        own_fields(match, 0)
        own_fields(match, 1)
        t2 = time.perf_counter()
        layout_data(match.round)
        t3 = time.perf_counter()
        public, own, layout = public + t1 - t0, own + t2 - t1, layout + t3 - t2
    n = args.states
    print(
        f"per state: public_fields {1e6 * public / n:.1f} µs (layout_data alone"
        f" {1e6 * layout / n:.1f} µs), own_fields of both seats {1e6 * own / n:.1f} µs"
    )


if __name__ == "__main__":
    main()
