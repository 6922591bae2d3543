"""CPU per committed move inside one server process, without sockets: the write path
alone, and the write path with delivery to two seats and a spectator (projection, view
patches, encoding, queueing) — against the real PostgreSQL store.

    python -m bench.move_path --tables 50 --moves 3000 [--together] [--profile]

It creates and drops its own database (``--admin`` URL). Sequential moves, so the
figure is CPU per move, not throughput (bench/run_load.sh measures that). With
``--together`` every table moves at once (one move per table per step, awaited
together), as under load: the store's group commit then writes them together.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import random
import time
import uuid
from collections.abc import Callable

import psycopg

from app.core.settings import Settings
from app.db.migrate import migrate_to_head
from app.main import make_store
from app.realtime.connection import Connection
from app.realtime.hub import Hub
from app.tables.service import TableService


def _discarder(conn: Connection) -> Callable[[], None]:
    def take_all() -> None:
        while conn.next_frame() is not None:
            pass

    return take_all


async def run(url: str, tables: int, moves: int, deliver: bool, together: bool) -> float:
    store = make_store(Settings(database_url=url))
    hub = Hub(store, next_round_seconds=0)
    svc = TableService(store, next_round_seconds=0, delivery=hub if deliver else None)
    rng = random.Random(2)
    seated = []
    for _ in range(tables):
        host = await svc.create("bench", 2, False, "A")
        guest = await svc.join(host.code, "B", 1)
        await svc.start(host.code, host.token)
        tid = await svc.table_id(host.code)
        if deliver:
            for seat, token in ((0, host.token), (1, guest.token), (None, None)):
                conn = Connection(tid, host.code, seat, None, token, max_bytes=1 << 30)
                conn.on_ready = _discarder(conn)  # a socket that takes every frame at once
                await hub.attach(conn)
        seated.append((tid, [host.token, guest.token]))
    done = 0
    t0 = time.process_time()

    async def play(tid: int, tokens: list[str]) -> int:
        table, _players, match = svc.writer._hot[tid]
        assert match is not None
        seat = match.turn
        assert seat is not None
        move = rng.choice(match.legal_moves(seat))
        await svc.act(tid, tokens[seat], str(move), uuid.uuid4().hex, table.seq)
        return 1

    while done < moves:
        if together:
            done += sum(await asyncio.gather(*(play(tid, tokens) for tid, tokens in seated)))
        else:
            for tid, tokens in seated:
                done += await play(tid, tokens)
    cpu = time.process_time() - t0
    group = getattr(store, "group", None)
    if group is not None and group.batches:
        print(f"  group commit: {group.changes / group.batches:.1f} changes per commit")
    await svc.close()
    return 1000 * cpu / done


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--admin", default="postgresql://postgres@127.0.0.1:5432/postgres")
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--moves", type=int, default=3000)
    ap.add_argument("--together", action="store_true", help="every table moves at once")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--profile-out", default="/tmp/fiveup-move-path.prof")
    args = ap.parse_args()
    name = f"fiveup_movepath_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(args.admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = args.admin.rsplit("/", 1)[0] + f"/{name}"
    try:
        migrate_to_head(url)
        for deliver in (False, True):
            if args.profile and deliver:
                prof = cProfile.Profile()
                prof.enable()
            ms = asyncio.run(run(url, args.tables, args.moves, deliver, args.together))
            label = "write + delivery to 2 seats and a spectator" if deliver else "write only"
            print(f"{label}: {ms:.3f} ms CPU per move")
            if args.profile and deliver:
                prof.disable()
                prof.dump_stats(args.profile_out)
                pstats.Stats(prof).sort_stats("tottime").print_stats(20)
    finally:
        with psycopg.connect(args.admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    main()
