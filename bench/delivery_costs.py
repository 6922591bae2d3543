"""What one delivery costs the hub, per committed move, in one process without sockets or
a database: :meth:`app.realtime.hub.Hub.committed` for random 2-seat matches played move
by move, with one socket per seat (and ``--spectators`` more) at the table — the table
info and its patch, the views and their patches, the projection and the encoding, and
queueing the frames (taken off the queues, unsent).

    python -m bench.delivery_costs [--moves 10000] [--rounds 7] [--seed 1] [--spectators 0]

Each round replays the same moves (the same seed); the best and the median round are
printed (the best is the least disturbed by the rest of a shared machine).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time
from typing import cast

from app.db.rows import EventRecord, PlayerState, TableState, TableStatus
from app.db.store import Store
from app.engine import Match
from app.realtime.committed import Committed
from app.realtime.connection import Connection
from app.realtime.feed import Feed
from app.realtime.hub import Hub
from app.realtime.projection import Projector


async def run(moves: int, seed: int, spectators: int) -> tuple[float, int]:
    rng = random.Random(seed)
    hub = Hub(cast(Store, None), next_round_seconds=5.0)
    table = TableState(
        id=1, code="ABCDEF", name="bench", players=2, public=True,
        status=TableStatus.PLAYING, host_seat=0, version=1, seq=0, match_number=1,
        state=None, rematch_votes=[], ready=[], round_over_at=None,
    )  # fmt: skip
    players = [
        PlayerState(1, 0, "Ann", "x", None, False, 0, None),
        PlayerState(2, 1, "Bob", "y", None, False, 0, None),
    ]
    conns = [Connection(1, "ABCDEF", s, s + 1, f"t{s}") for s in (0, 1)]
    conns += [Connection(1, "ABCDEF", None, None, None) for _ in range(spectators)]
    match = Match.new(2, rng)
    feed = Feed(1, conns=set(conns), seq=0, info=None)
    projector = Projector()
    hub.feeds[1] = feed
    spent, frames = 0.0, 0
    for _ in range(moves):
        if match.over:
            match = Match.new(2, rng)
            payload = match.round_start_event()
        elif match.round_over:
            payload = match.next_round(rng)
        else:
            payload = match.play(match.turn, rng.choice(match.legal_moves(match.turn)).text)
        table.seq += 1
        event = EventRecord(table.seq, str(payload["type"]), payload, seat=payload.get("seat"))
        t0 = time.perf_counter()
        views = projector.project(1, table.seq, 1, match)
        await hub.committed(Committed(table, tuple(players), (event,), views))
        spent += time.perf_counter() - t0
        for c in conns:
            while c.next_frame() is not None:
                frames += 1
    return spent, frames


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=10_000)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--spectators", type=int, default=0)
    args = ap.parse_args()
    rounds = [asyncio.run(run(args.moves, args.seed, args.spectators)) for _ in range(args.rounds)]
    per = sorted(1e6 * spent / args.moves for spent, _ in rounds)
    print(
        f"per delivery: best {per[0]:.1f} µs, median {per[len(per) // 2]:.1f} µs"
        f" ({args.rounds} rounds of {args.moves} deliveries, {rounds[0][1]} frames each,"
        f" {args.spectators} spectators)"
    )


if __name__ == "__main__":
    main()
