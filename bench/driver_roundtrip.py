"""The database driver's own CPU per statement on this machine: one connection, one
prepared statement after another (``select length($1::text)`` with a parameter of a
given size), over TCP (127.0.0.1) and over the Unix socket, with psycopg 3 (our driver)
and, when installed (``pip install -e .[bench]``), asyncpg.

    python -m bench.driver_roundtrip [--statements 500]

Prints this process's CPU time and the wall time per statement. Nothing is written; the
local server only.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import time
from collections.abc import Awaitable, Callable

import psycopg

SIZES = (1_000, 25_000)
HOSTS = {"tcp": "127.0.0.1", "unix": "/var/run/postgresql"}


async def measure(run: Callable[[str], Awaitable[object]], size: int, n: int) -> str:
    text = "x" * size
    for _ in range(20):
        await run(text)
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(n):
        await run(text)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return f"CPU {1e6 * cpu / n:4.0f} µs, wall {1e6 * wall / n:4.0f} µs per statement"


async def main(n: int) -> None:
    for way, host in HOSTS.items():
        conn = await psycopg.AsyncConnection.connect(
            f"host={host} user=postgres dbname=postgres", autocommit=True
        )

        async def with_psycopg(text: str, conn: psycopg.AsyncConnection[object] = conn) -> None:
            await conn.execute("select length(%s::text)", (text,), prepare=True)

        for size in SIZES:
            print(f"psycopg {way:4} {size:6d} B: {await measure(with_psycopg, size, n)}")
        await conn.close()
        if importlib.util.find_spec("asyncpg") is None:
            continue
        import asyncpg

        apg = await asyncpg.connect(host=host, user="postgres", database="postgres")

        async def with_asyncpg(text: str, apg: asyncpg.Connection = apg) -> None:
            await apg.fetchval("select length($1::text)", text)

        for size in SIZES:
            print(f"asyncpg {way:4} {size:6d} B: {await measure(with_asyncpg, size, n)}")
        await apg.close()


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--statements", type=int, default=500)
    asyncio.run(main(ap.parse_args().statements))
