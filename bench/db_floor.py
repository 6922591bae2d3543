"""What a committed move could cost in Python without the ORM: a floor for the server.

Runs the database work of one move — read the table's snapshot, ``UPDATE`` it with a
version check, ``INSERT`` the event row, ``pg_notify`` — with plain psycopg 3 (async),
from ``--workers`` concurrent tasks on ``--conns`` connections, for ``--seconds``, on a
scratch database that it creates and drops. JSON sizes match a real mid-round state
(a ``Match.to_dict()`` from the engine). Reports transactions per second and this
process's CPU time per transaction, with and without psycopg's pipeline mode.

    python bench/db_floor.py --conns 20 --workers 200 --seconds 10

Only the local server (loopback) is used; the run is bounded by ``--seconds``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import time
import uuid

import psycopg
from psycopg.types.json import Jsonb

from app.engine import Match, view_for

SCHEMA = """
create table t (id int primary key, version int not null, seq int not null,
                state jsonb, info jsonb);
create table e (table_id int not null, seq int not null, move_id text, payload jsonb,
                state jsonb, info jsonb, primary key (table_id, seq));
create unique index e_move on e (table_id, move_id);
"""


def sample_documents() -> tuple[dict[str, object], dict[str, object], dict[str, object]]:
    rng = random.Random(7)
    m = Match.new(players=2, rng=rng)
    event: dict[str, object] = {}
    for _ in range(10):
        if m.turn is None:
            break
        event = m.play(m.turn, rng.choice(m.legal_moves(m.turn)))
    info = {"code": "ABCDEF", "name": "bench", "seats": view_for(m, 0)["hand_sizes"]}
    return m.to_dict(), event, info


async def run(dsn: str, args: argparse.Namespace, pipeline: bool) -> tuple[float, float]:
    state, event, info = sample_documents()
    tables = args.workers
    async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as c:
        await c.execute("truncate t, e")
        for tid in range(tables):
            await c.execute(
                "insert into t values (%s, 0, 0, %s, %s)", (tid, Jsonb(state), Jsonb(info))
            )
    conns = [await psycopg.AsyncConnection.connect(dsn) for _ in range(args.conns)]
    pool: asyncio.Queue[psycopg.AsyncConnection] = asyncio.Queue()
    for c in conns:
        pool.put_nowait(c)
    done = 0
    stop = time.perf_counter() + args.seconds

    async def one(tid: int) -> None:
        conn = await pool.get()
        try:
            batch = conn.pipeline() if pipeline else contextlib.nullcontext()
            async with conn.transaction(), batch:
                cur = await conn.execute("select version, seq, state from t where id = %s", (tid,))
                version, seq, _ = await cur.fetchone()  # type: ignore[misc]
                await conn.execute(
                    "update t set version = version + 1, seq = seq + 1, state = %s,"
                    " info = %s where id = %s and version = %s",
                    (Jsonb(state), Jsonb(info), tid, version),
                )
                await conn.execute(
                    "insert into e values (%s, %s, %s, %s, %s, %s)",
                    (tid, seq + 1, uuid.uuid4().hex, Jsonb(event), Jsonb(state), Jsonb(info)),
                )
                await conn.execute("select pg_notify('bench', %s)", (f"{tid}:{seq}",))
        finally:
            pool.put_nowait(conn)

    async def worker(tid: int) -> None:
        nonlocal done
        while time.perf_counter() < stop:
            await one(tid)
            done += 1

    cpu0, t0 = time.process_time(), time.perf_counter()
    await asyncio.gather(*(worker(i) for i in range(args.workers)))
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - t0
    for c in conns:
        await c.close()
    return done / wall, 1000 * cpu / max(done, 1)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--admin", default="postgresql://postgres@127.0.0.1:5432/postgres")
    p.add_argument("--conns", type=int, default=20)
    p.add_argument("--workers", type=int, default=200, help="concurrent tables")
    p.add_argument("--seconds", type=float, default=10.0)
    args = p.parse_args()
    if not (0 < args.seconds <= 120):
        raise SystemExit("--seconds must be in (0, 120]")
    host = psycopg.conninfo.conninfo_to_dict(args.admin).get("host", "")
    if host not in ("127.0.0.1", "localhost", "::1", "") and not str(host).startswith("/"):
        raise SystemExit("only the local PostgreSQL server is used")
    name = f"fiveup_floor_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(args.admin, autocommit=True) as c:
        c.execute(f'create database "{name}"')
    dsn = args.admin.rsplit("/", 1)[0] + "/" + name
    try:
        with psycopg.connect(dsn, autocommit=True) as c:
            c.execute(SCHEMA)
        for pipeline in (False, True):
            tps, cpu_ms = asyncio.run(run(dsn, args, pipeline))
            print(
                f"plain psycopg{' (pipeline)' if pipeline else ''}: {tps:.0f} moves/s,"
                f" {cpu_ms:.2f} ms client CPU per move"
                f" ({args.workers} tables, {args.conns} connections, {args.seconds:.0f} s)"
            )
    finally:
        with psycopg.connect(args.admin, autocommit=True) as c:
            c.execute(f'drop database if exists "{name}" with (force)')


if __name__ == "__main__":
    main()
