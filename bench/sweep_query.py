"""What one sweep for abandoned tables costs the database (app/tables/sweep.py).

Creates a scratch database migrated to head, fills ``game_tables`` with ``--tables``
rows (each with a real mid-round match state) of which one in ``--live-every`` is waiting or in play (the rest closed or
finished, as on a server that has run for a while), then times the store's query
(``PgStore.idle_tables``, through the lobby's ``(public, status)`` index) against the
same query without its ``public IN (true, false)`` (a scan of every row). Prints the
median of ``--runs`` runs of each, in milliseconds, and the plan's top lines. Drops the
database at the end. Only the local server is used.

    python -m bench.sweep_query --tables 300000 --live-every 50
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import statistics
import time

import psycopg
from psycopg.types.json import Jsonb

from app.db.migrate import migrate_to_head
from app.db.pg_sql import IDLE_TABLES
from app.db.pg_store import PgStore
from app.engine import Match
from app.tables.sweep import SWEEP_LIMIT

FILL = """
INSERT INTO game_tables (code, name, players, public, status, host_seat, version, seq,
  match_number, state, rematch_votes, ready, spectator_chat, created_at, updated_at)
SELECT 'B' || g, 'bench', 2, g %% 2 = 0,
  CASE WHEN g %% %(live)s = 0 THEN 'waiting' WHEN g %% %(live)s = 1 THEN 'playing'
       WHEN g %% 3 = 0 THEN 'finished' ELSE 'closed' END,
  0, 3, 3, 1, %(state)s::jsonb, '[]', '[]', true,
  now() - interval '1 day', now() - make_interval(secs => g)
FROM generate_series(1, %(n)s) g
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--admin", default="postgresql://postgres@127.0.0.1:5432/postgres")
    ap.add_argument("--tables", type=int, default=300_000)
    ap.add_argument("--live-every", type=int, default=50)
    ap.add_argument("--runs", type=int, default=20)
    args = ap.parse_args()
    name = f"fiveup_bench_sweep_{secrets.token_hex(4)}"
    base = args.admin.rsplit("/", 1)[0]
    url = f"{base}/{name}"
    with psycopg.connect(args.admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        migrate_to_head(url)
        with psycopg.connect(url, autocommit=True) as conn:
            state = Jsonb(_mid_round_state())
            conn.execute(FILL, {"n": args.tables, "live": args.live_every, "state": state})
            conn.execute("ANALYZE game_tables")
            plain = IDLE_TABLES.replace("t.public IN (true, false) AND ", "")
            live = ["waiting", "playing"]
            for label, sql in (("store query", IDLE_TABLES), ("without the index", plain)):
                plan = conn.execute("EXPLAIN " + sql, (live, 60.0, SWEEP_LIMIT)).fetchall()
                print(f"{label}: " + " / ".join(str(r[0]).strip() for r in plan[:6]))
                times = []
                for _ in range(args.runs):
                    t0 = time.perf_counter()
                    rows = conn.execute(sql, (live, 60.0, SWEEP_LIMIT)).fetchall()
                    times.append((time.perf_counter() - t0) * 1000)
                print(f"{label}: {len(rows)} rows, median {statistics.median(times):.1f} ms")
                analyzed = conn.execute(
                    "EXPLAIN (ANALYZE, BUFFERS) " + sql, (live, 60.0, SWEEP_LIMIT)
                ).fetchall()
                lines = [str(r[0]).strip() for r in analyzed]
                buffers = next((x for x in lines if x.startswith("Buffers")), "")
                print(f"{label}: {lines[-1]}; top {buffers}")
        asyncio.run(_through_the_store(url, args.runs))
    finally:
        with psycopg.connect(args.admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _mid_round_state() -> dict[str, object]:
    """A real mid-round match state (what a row holds), 20 random moves in."""
    import random

    rng = random.Random(7)
    m = Match.new(players=4, rng=rng)
    for _ in range(20):
        if m.turn is None:
            break
        m.play(m.turn, rng.choice(m.legal_moves(m.turn)))
    state = m.to_dict()
    state.pop("history")
    return state


async def _through_the_store(url: str, runs: int) -> None:
    store = PgStore(url, size=1)
    try:
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            found = await store.idle_tables(60.0, SWEEP_LIMIT)
            times.append((time.perf_counter() - t0) * 1000)
        print(f"PgStore.idle_tables: {len(found)} tables, median {statistics.median(times):.1f} ms")
    finally:
        await store.close()


if __name__ == "__main__":
    main()
