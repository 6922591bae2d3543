"""How long backups and the restore drill take on a database of many tables.

Fills a fresh PostgreSQL database with ``--tables`` tables in play (2-4 players, each
with a dealt round and up to ``--moves`` moves played by the engine, stored as the
server stores them: the table's state and its event log), then times ``pg_dump -Fc``,
``scripts/restore-drill`` on the dump (restore, migrate, check every table), and the
drill's check alone (``--check``), and drops everything.

    python -m bench.restore_drill --tables 5000 --moves 30

Numbers are for docs/benchmarks.md and docs/deployment.md ("Backups and restore").
"""

from __future__ import annotations

import argparse
import json
import os
import random
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import psycopg

from app.core.urls import libpq_dsn
from app.db.migrate import migrate_to_head
from app.fairness import DealIds, new_seed, start_match

REPO = Path(__file__).resolve().parents[1]
ADMIN = os.environ.get("FIVEUP_TEST_PG_ADMIN", "postgresql://postgres@127.0.0.1:5432/postgres")


def table_rows(i: int, moves: int, rng: random.Random) -> tuple[str, int, Any, Any, list[Any]]:
    """One table in play: its code, players, stored state, finished rounds and event
    payloads (a round may end within the moves: then it is in the finished rounds)."""
    players = 2 + i % 3
    code = f"B{i:05d}"
    match = start_match(new_seed(), players, DealIds(code, 1, 1))
    start = match.to_dict()["round"]
    deal = {"hands": start["hands"], "stock": start["stock"], "starter": start["starter"]}
    events: list[Any] = [{"type": "started", "match": 1, "round": 1, "deal": deal}]
    for _ in range(moves):
        if match.round_over or match.turn is None:
            break
        events.append(match.play(match.turn, str(rng.choice(match.legal_moves(match.turn)))))
    state = match.to_dict()
    history = state.pop("history")
    return code, players, state, history, events


def fill(url: str, tables: int, moves: int) -> int:
    """Insert the tables; returns how many events were stored."""
    rng = random.Random(1)
    stored = 0
    with psycopg.connect(libpq_dsn(url)) as conn:
        for i in range(tables):
            code, players, state, history, events = table_rows(i, moves, rng)
            row = conn.execute(
                "INSERT INTO game_tables (code, name, players, public, status, version, seq,"
                " match_number, state, history, rematch_votes, ready, created_at, updated_at)"
                " VALUES (%s, 'bench', %s, true, 'playing', %s, %s, 1, %s::jsonb, %s::jsonb,"
                " '[]'::jsonb, '[]'::jsonb, now(), now()) RETURNING id",
                (code, players, len(events), len(events), json.dumps(state), json.dumps(history)),
            ).fetchone()
            assert row is not None
            with conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO table_events (table_id, seq, kind, match_number, payload,"
                    " created_at) VALUES (%s, %s, %s, 1, %s::jsonb, now())",
                    [(row[0], n, e["type"], json.dumps(e)) for n, e in enumerate(events, 1)],
                )
            stored += len(events)
    return stored


def timed(cmd: list[str]) -> tuple[float, str]:
    began = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    took = time.perf_counter() - began
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return took, done.stdout


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--tables", type=int, default=2000)
    p.add_argument("--moves", type=int, default=30)
    args = p.parse_args()
    name = f"fiveup_bench_restore_{secrets.token_hex(4)}"
    url = f"{ADMIN.rsplit('/', 1)[0]}/{name}"
    with psycopg.connect(libpq_dsn(ADMIN), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        migrate_to_head(url)
        events = fill(url, args.tables, args.moves)
        with tempfile.TemporaryDirectory() as tmp:
            dump = Path(tmp) / "fiveup.dump"
            dump_s, _ = timed(["pg_dump", "-Fc", "-f", str(dump), libpq_dsn(url)])
            os.environ["FIVEUP_PYTHON"] = sys.executable  # the drill runs with this Python
            drill = [str(REPO / "scripts" / "restore-drill"), "--admin", ADMIN]
            drill_s, out = timed([*drill, str(dump)])
            check_s, _ = timed([*drill, "--check", url])
            size = dump.stat().st_size
        print(f"tables {args.tables}, events {events}, dump {size / 2**20:.1f} MiB")
        print(f"pg_dump -Fc            {dump_s:6.2f} s")
        print(f"restore-drill (whole)  {drill_s:6.2f} s   {out.splitlines()[-1]}")
        print(f"restore-drill --check  {check_s:6.2f} s")
    finally:
        with psycopg.connect(libpq_dsn(ADMIN), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    main()
