"""Rolling restarts that lose nobody (not run in CI; its small form is the test
``tests/server/test_drain.py``): two ``fiveup serve`` processes on one PostgreSQL
database, no proxy, ``--tables`` 2-player tables at a human pace whose seats choose
either process; each process in turn gets SIGTERM (it drains, app/api/draining.py),
exits and is started again, while play goes on.

    python -m bench.restarts                     # 200 tables, 2 rounds of restarts
    python -m bench.restarts --tables 20 --rounds 1 --json /tmp/restarts.json

The seats are the soak's (``bench/soak_clients.py``: each move has a ``move_id`` and is
sent again under it after a reconnect), except that a socket closed with 1012 reconnects
at once to the other process, as the browser does. A prober asks table info of a process
every 0.1 s and, answered ``503 draining``, asks the other one (as a client told
``Retry-After`` by a process leaving would). At the end it checks from the database:
every acknowledged ``move_id`` stored as the event the ack named (lost: 0), no
``move_id`` stored twice at a table (duplicated: 0), seqs 1..N without a gap; and that
every seat is back (connected and in sync); it reports the time from each 1012 close to
the seat's snapshot on the other process ("back"), the drains (SIGTERM to exit) and
the HTTP 5xx answers (other than ``503 draining``, which is retried elsewhere: 0).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import secrets
import signal
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import psycopg
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidHandshake

from bench.load_tables import Run, raise_fd_limit
from bench.soak import think_range
from bench.soak_clients import Ledger, Seat, SoakTable
from bench.soak_report import check_database
from bench.soak_servers import Server, free_port

CLOSE_SERVICE_RESTART = 1012


class RestartSeat(Seat):
    """A soak seat that, closed with 1012, reconnects at once to the other process and
    notes how long it took to be back in sync (its snapshot there)."""

    def __init__(self, table: SoakTable, seat: int, token: str, home: int) -> None:
        super().__init__(table, seat, token, home)
        self.home_at = float("inf")
        self.closed_at: float | None = None
        self.backs: list[float] = []
        self.restart_closes = 0

    async def run_forever(self) -> None:
        backoff = 0.1
        while not self.ledger.stopping:
            base = self.table.ws_bases[self.server]
            try:
                ws = await connect(
                    f"{base}/ws/tables/{self.table.code}?token={self.token}",
                    open_timeout=10,
                    ping_interval=None,
                    max_size=None,
                )
            except (OSError, InvalidHandshake, TimeoutError):
                self.ledger.connect_failures += 1
                self.server = (self.server + 1) % len(self.table.ws_bases)
                await asyncio.sleep(backoff * (0.5 + self.rng.random()))
                backoff = min(backoff * 2, 2.0)
                continue
            backoff = 0.1
            self.ledger.connects += 1
            self.ws = ws
            ticker = asyncio.create_task(self.tick(ws))
            try:
                await self.read(ws)
            finally:
                ticker.cancel()
                self.ws = None
                self.synced = False
                self.thinking = False
            code = ws.close_code
            self.ledger.closes[str(code) if code is not None else "abrupt"] += 1
            if self.ledger.stopping:
                break
            self.ledger.reconnects += 1
            self.server = (self.server + 1) % len(self.table.ws_bases)
            if code == CLOSE_SERVICE_RESTART:
                self.restart_closes += 1
                self.closed_at = time.monotonic()  # and again at once, elsewhere
            else:
                await asyncio.sleep(self.rng.uniform(0.1, 0.6))
        self.done.set()

    async def on_frame(self, msg: dict[str, Any]) -> None:
        if msg.get("type") == "snapshot" and self.closed_at is not None:
            self.backs.append(time.monotonic() - self.closed_at)
            self.closed_at = None
        await super().on_frame(msg)


class RestartTable(SoakTable):
    def begin_play(self) -> list[asyncio.Task[None]]:
        self.seats = [
            RestartSeat(self, s, tok, (self.index + s) % len(self.ws_bases))
            for s, tok in enumerate(self.tokens)
        ]
        return [asyncio.create_task(seat.run_forever()) for seat in self.seats]


class Restarts:
    """One run: its servers, tables, prober and findings (on a migrated database)."""

    def __init__(self, db_url: str, args: argparse.Namespace) -> None:
        self.db_url = db_url
        self.args = args
        self.ledger = Ledger()
        self.tables: list[RestartTable] = []
        self.drains: list[dict[str, Any]] = []
        self.probes = 0
        self.draining_refusals = 0
        self.http_5xx: list[str] = []
        env = {
            "DATABASE_URL": db_url,
            "FIVEUP_LOG_LEVEL": "WARNING",
            "FIVEUP_RATE_LIMIT_ENABLED": "false",
            "FIVEUP_NEXT_ROUND_SECONDS": "3",
            "FIVEUP_DB_WRITERS": "4",
            "FIVEUP_DRAIN_SECONDS": str(args.drain_seconds),
            # every seat of the bench is one address (127.0.0.1), and while one process
            # restarts the other holds them all: the per-address caps (256 by default,
            # for a NAT of real people) would refuse most of them 429
            "FIVEUP_MAX_SOCKETS_PER_ADDRESS": str(4 * args.tables + 64),
            "FIVEUP_MAX_CONNECTIONS_PER_ADDRESS": str(4 * args.tables + 64),
        }
        logs = Path(args.log_dir)
        logs.mkdir(parents=True, exist_ok=True)
        self.servers = [
            Server(i, free_port(), env, logs / f"restarts-server-{i}.log") for i in range(2)
        ]

    async def run(self) -> dict[str, Any]:
        try:
            for server in self.servers:
                server.start()
                await server.wait_healthy(120)
            await self.seat_tables()
            seat_tasks = [task for t in self.tables for task in t.begin_play()]
            prober = asyncio.create_task(self.prober())
            await self.all_back(60)
            await asyncio.sleep(self.args.settle)
            for _ in range(self.args.rounds):
                for server in self.servers:
                    await self.restart(server)
                    await self.all_back(60)
                    await asyncio.sleep(self.args.settle)
            back = await self.all_back(60)
            self.ledger.stopping = True
            until = time.monotonic() + 30
            while time.monotonic() < until and any(
                s.inflight is not None for t in self.tables for s in t.seats
            ):
                await asyncio.sleep(0.1)
            prober.cancel()
            for t in self.tables:
                for seat in t.seats:
                    if seat.ws is not None:
                        with contextlib.suppress(Exception):
                            await asyncio.wait_for(seat.ws.close(), 5)
            for task in [*seat_tasks, *self.tables[0].run.tasks]:
                task.cancel()
            await asyncio.gather(*seat_tasks, prober, return_exceptions=True)
            return self.findings(back)
        finally:
            self.ledger.stopping = True
            for server in self.servers:
                server.stop()

    async def seat_tables(self) -> None:
        ns = argparse.Namespace(players=2, seed=self.args.seed, max_moves=None)
        ns.think = self.args.think
        run = Run(ns)
        bases = [s.ws for s in self.servers]
        self.tables = [RestartTable(run, i, self.ledger, bases) for i in range(self.args.tables)]
        gate = asyncio.Semaphore(10)
        async with contextlib.AsyncExitStack() as stack:
            clients = [
                await stack.enter_async_context(httpx.AsyncClient(base_url=s.http, timeout=60))
                for s in self.servers
            ]

            async def prepare(t: RestartTable) -> None:
                async with gate:
                    await t.setup(clients[t.index % 2])
                    await t.start(clients[t.index % 2])

            await asyncio.gather(*(prepare(t) for t in self.tables))

    async def restart(self, server: Server) -> None:
        """SIGTERM, wait for the exit (bounded), start again, wait until ready."""
        assert server.proc is not None
        sockets = sum(1 for t in self.tables for s in t.seats if s.server == server.slot)
        t0 = time.monotonic()
        server.proc.send_signal(signal.SIGTERM)
        code = await asyncio.to_thread(server.proc.wait, self.args.drain_seconds * 3 + 30)
        took = time.monotonic() - t0
        server.start()
        await server.wait_healthy(120)
        self.drains.append(
            {"server": server.slot, "sockets": sockets, "exit_s": round(took, 2), "rc": code}
        )

    async def all_back(self, timeout: float) -> bool:
        """Wait until every seat is connected and in sync (False at the timeout)."""
        until = time.monotonic() + timeout
        while time.monotonic() < until:
            seats = [s for t in self.tables for s in t.seats]
            if all(s.ws is not None and s.synced and s.closed_at is None for s in seats):
                return True
            await asyncio.sleep(0.05)
        return False

    async def prober(self) -> None:
        rng = random.Random(self.args.seed)
        async with httpx.AsyncClient(timeout=10) as http:
            while True:
                await asyncio.sleep(0.1)
                code = rng.choice(self.tables).code
                first = rng.randrange(2)
                for slot in (first, 1 - first):
                    url = f"{self.servers[slot].http}/api/tables/{code}"
                    try:
                        r = await http.get(url)
                    except httpx.HTTPError:
                        continue  # not listening (restarting): the other one
                    self.probes += 1
                    if r.status_code == 503 and r.json()["detail"]["code"] == "draining":
                        self.draining_refusals += 1
                        continue
                    if r.status_code >= 500:
                        self.http_5xx.append(f"{url}: {r.status_code} {r.text[:100]}")
                    break

    def findings(self, back: bool) -> dict[str, Any]:
        with psycopg.connect(self.db_url) as conn:
            duplicated = conn.execute(
                "SELECT count(*) FROM (SELECT table_id, move_id FROM table_events"
                " WHERE move_id IS NOT NULL GROUP BY table_id, move_id"
                " HAVING count(*) > 1) d"
            ).fetchone()
        backs = sorted(b for t in self.tables for s in t.seats for b in s.backs)
        db = check_database(self.db_url, list(self.tables), self.ledger)
        logs = {s.slot: s.log.read_text(errors="replace") for s in self.servers}
        return {
            "tables": len(self.tables),
            "restarts": len(self.drains),
            "drains": self.drains,
            "acked_moves": len(self.ledger.acked),
            "acked_moves_lost": db["acked_moves_lost"],
            "lost_examples": db["lost_examples"],
            "moves_duplicated": int(duplicated[0]) if duplicated else 0,
            "ack_mismatch": len(self.ledger.ack_mismatch),
            "tables_with_stored_seq_gaps": db["tables_with_stored_seq_gaps"],
            "every_client_back": back,
            "restart_closes_1012": sum(s.restart_closes for t in self.tables for s in t.seats),
            "back_after_1012": len(backs),
            "back_s_median": round(statistics.median(backs), 3) if backs else None,
            "back_s_p95": round(backs[int(0.95 * (len(backs) - 1))], 3) if backs else None,
            "back_s_max": round(backs[-1], 3) if backs else None,
            "closes": dict(self.ledger.closes),
            "connect_failures": self.ledger.connect_failures,
            "resends": self.ledger.resends,
            "duplicate_acks": self.ledger.duplicates,
            "probes": self.probes,
            "probe_draining_refusals": self.draining_refusals,
            "http_5xx": len(self.http_5xx),
            "http_5xx_examples": self.http_5xx[:5],
            "server_tracebacks": {k: v.count("Traceback") for k, v in logs.items()},
        }


def ok(result: dict[str, Any]) -> bool:
    """Nobody lost: no acked move lost or duplicated, no 5xx, everyone back."""
    return (
        result["acked_moves_lost"] == 0
        and result["moves_duplicated"] == 0
        and result["ack_mismatch"] == 0
        and result["tables_with_stored_seq_gaps"] == 0
        and result["http_5xx"] == 0
        and result["every_client_back"]
        and not any(result["server_tracebacks"].values())
    )


def options(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--rounds", type=int, default=2, help="restarts of each process")
    p.add_argument("--think-ms", type=think_range, default=(1500.0, 3000.0), dest="think")
    p.add_argument("--settle", type=float, default=10.0, help="s of play between restarts")
    p.add_argument("--drain-seconds", type=float, default=10.0, help="FIVEUP_DRAIN_SECONDS")
    p.add_argument("--seed", default="restarts")
    p.add_argument("--admin", default="postgresql://postgres@127.0.0.1:5432/postgres")
    p.add_argument("--log-dir", default="/tmp/fiveup-restarts")
    p.add_argument("--json", metavar="FILE", help="also write the findings as JSON")
    args = p.parse_args(argv)
    if not (1 <= args.tables <= 2000 and 1 <= args.rounds <= 20):
        raise SystemExit("bounds: 1 <= --tables <= 2000, 1 <= --rounds <= 20")
    return args


def main(argv: list[str] | None = None) -> int:
    args = options(argv)
    raise_fd_limit()
    name = f"fiveup_restarts_{secrets.token_hex(4)}"
    db_url = f"{args.admin.rsplit('/', 1)[0]}/{name}"
    with psycopg.connect(args.admin, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        result = asyncio.run(asyncio.wait_for(Restarts(db_url, args).run(), 3600))
    finally:
        with psycopg.connect(args.admin, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    print(json.dumps(result, indent=2))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))
    return 0 if ok(result) else 1


if __name__ == "__main__":
    sys.exit(main())
