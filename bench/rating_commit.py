"""What writing a match's result and ratings adds to the commit of the move that ends
the match (docs/ratings.md): the same match-ending change written three ways, each on
fresh tables of a scratch PostgreSQL database migrated to head —

- ``plain``: without a result (the one-statement write every other move takes);
- ``result``: with its result at an unrated table (the transaction path: the result's
  row and one row per seat);
- ``rated``: with its result at a rated table whose seats are bound to profiles (the
  ratings of both pools read ``FOR UPDATE``, computed by openskill, written back; the
  profiles' running totals upserted).

Each table is made by the table service (created, joined, bound, started) and the
match-ending change is built by ending a copy of its match (a resignation: the writer's
own ``to_write`` and the same ``match_result``); only the store's ``write`` is timed.
Prints the median and p99 of ``--tables`` writes of each, in milliseconds, interleaved
so that the machine's load falls on all three alike. Drops the database at the end.

    python -m bench.rating_commit --tables 200
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import statistics
import time

import psycopg

from app.core.security import hash_token
from app.core.settings import Settings
from app.db.migrate import migrate_to_head
from app.db.profile_rows import NewPasskey
from app.db.profile_store import make_profile_store
from app.db.rows import Change, EventRecord
from app.main import make_store
from app.tables.results import match_result
from app.tables.service import TableService

ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"


async def one_table(svc: TableService, rated: bool, profiles: list[int], url: str) -> int:
    created = await svc.create("Bench", 2, False, "Ann", rated=rated)
    joined = await svc.join(created.code, "Bea", 1, signed_in=True)
    tid = await svc.table_id(created.code)
    if rated:
        store = make_profile_store(url)
        try:
            for seat, (profile, token) in enumerate(
                zip(profiles, (created.token, joined.token), strict=True)
            ):
                await store.bind_seat(profile, tid, seat, hash_token(token))
        finally:
            await store.close()
    await svc.start(created.code, created.token)
    return tid


async def timed_write(svc: TableService, tid: int, with_result: bool) -> float:
    loaded = await svc.store.load(tid)
    assert loaded is not None
    table, players = loaded
    match = table.match()
    assert match is not None
    event = match.resign(0)
    state = match.to_dict()
    state.pop("history")
    table.state, table.status, table.resigned = state, "finished", 0
    table.seq += 1
    change = Change(
        table,
        table.version,
        [EventRecord(seq=table.seq, kind="resigned", payload=event, seat=0)],
        result=match_result(table, players, match) if with_result else None,
    )
    started = time.perf_counter()
    assert await svc.store.write(change)
    return (time.perf_counter() - started) * 1000


async def run(url: str, n: int) -> None:
    svc = TableService(make_store(Settings(database_url=url)), next_round_seconds=0)
    store = make_profile_store(url)
    profiles = []
    for i in range(2):
        key = NewPasskey(secrets.token_hex(8), secrets.token_hex(16), 0)
        handle = f"bench{i}"
        profiles.append((await store.create_profile(handle, handle, handle, handle, key)).id)
    await store.close()
    times: dict[str, list[float]] = {"plain": [], "result": [], "rated": []}
    try:
        for _ in range(n):
            for kind in times:
                tid = await one_table(svc, kind == "rated", profiles, url)
                times[kind].append(await timed_write(svc, tid, kind != "plain"))
    finally:
        await svc.close()
    print(f"{n} match-ending writes of each kind (ms)")
    print("| write | median | p99 |")
    print("|---|---|---|")
    for kind, values in times.items():
        values.sort()
        p99 = values[min(len(values) - 1, int(0.99 * len(values)))]
        print(f"| {kind} | {statistics.median(values):.2f} | {p99:.2f} |")
    base = statistics.median(times["result"])
    print(
        f"rating update adds {statistics.median(times['rated']) - base:.2f} ms (median)"
        f" over the result alone, {statistics.median(times['rated']) - statistics.median(times['plain']):.2f} ms over a plain write"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    args = parser.parse_args()
    name = f"fiveup_bench_{secrets.token_hex(4)}"
    with psycopg.connect(ADMIN, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = f"postgresql://postgres@127.0.0.1:5432/{name}"
    try:
        migrate_to_head(url)
        asyncio.run(run(url, args.tables))
    finally:
        with psycopg.connect(ADMIN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    main()
