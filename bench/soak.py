"""Soak benchmark (issue 10; not run in CI): many tables for a long time on two server
processes and one PostgreSQL database, with faults injected on a schedule.

    python -m bench.soak                       # 30 minutes, 200 tables
    python -m bench.soak --minutes 2 --tables 20 --json /tmp/soak.json

It creates its own database (``fiveup_soak_<hex>`` on ``--admin``, dropped at the end
unless ``--keep-db``), starts two ``fiveup serve`` processes on it (the first applies
the migrations) on two loopback ports, seats and starts ``--tables`` 2-player tables
and plays them with the seats of ``bench/soak_clients.py`` (each table's two seats on
different processes; a human pace, ``--think-ms``). Faults, at fractions of the run
(``--minutes``), each marked as a window of monotonic and UTC times (``--faults``
picks some of them by name, ``none`` for a baseline):

* ``slow_readers`` (0.10–0.20): spectators reading one frame every ``--slow-ms``;
* ``kill_0`` (0.25), ``kill_1`` (0.80): SIGKILL of one server process,
  restarted after ``--restart-after`` seconds; the window ends when it is healthy;
* ``db_outage`` (0.40, ``--outage-s``): this database only refuses connections
  (``ALTER DATABASE … ALLOW_CONNECTIONS false`` + ``pg_terminate_backend``);
* ``never_readers`` (0.50–0.60): spectators that never read (``bench/soak_faults.py``);
* ``resync_flood`` (0.65–0.70): spectators sending ``resync`` at 100 frames/s.

At the end it checks from the database that every acknowledged ``move_id`` is stored
as the event the ack named (acked moves lost: must be 0), that each table's seqs are
1..N with no gap and that no client saw a seq beyond what is stored; it reports the
seq gaps clients saw (and how each was repaired), the server processes' max RSS
(``VmRSS``, sampled every 2 s), HTTP 5xx seen by a prober (two requests every 2 s) and
in the server logs (with tracebacks), move→ack latency outside and inside the fault
windows (a move counts as inside when its send→ack span meets a window, widened by
``--grace`` seconds after it), moves committed and reconnects. It prints a JSON
summary (``--json`` also writes it) and a markdown table. Loopback only; bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import secrets
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import psycopg

from bench.load_tables import Run, raise_fd_limit
from bench.soak_clients import Ledger, SoakTable
from bench.soak_faults import FaultStats, never_reader, resync_flood, slow_reader
from bench.soak_report import check_database, latency_summary, markdown
from bench.soak_servers import FaultLog, Server, cut_off, free_port

REPO = Path(__file__).resolve().parents[1]
FAULTS = ("slow_readers", "kill_0", "db_outage", "never_readers", "resync_flood", "kill_1")


def think_range(text: str) -> tuple[float, float]:
    """``--think-ms``: ``LO-HI`` or one number (ms).

    >>> think_range("1500-3000"), think_range("800")
    ((1500.0, 3000.0), (800.0, 800.0))
    """
    lo, _, hi = text.partition("-")
    return float(lo), float(hi or lo)


class Soak:
    """One soak run: its database, its two servers, its tables, faults and findings."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.duration = args.minutes * 60
        self.db_name = f"fiveup_soak_{secrets.token_hex(4)}"
        self.db_url = f"{args.admin.rsplit('/', 1)[0]}/{self.db_name}"
        self.faults = FaultLog()
        self.ledger = Ledger()
        self.fault_stats: dict[str, FaultStats] = {}
        self.probe: dict[str, int] = {}
        self.probe_5xx: list[dict[str, Any]] = []
        self.tables: list[SoakTable] = []
        self.servers: list[Server] = []
        self.t_play = 0.0
        self.progress: list[dict[str, Any]] = []
        self.setup_retries = 0  # tables seated again after a 503 during the setup

    # -- the run -----------------------------------------------------------------------
    async def run(self) -> dict[str, Any]:
        args = self.args
        with psycopg.connect(args.admin, autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{self.db_name}"')
        env = {
            "DATABASE_URL": self.db_url,
            "FIVEUP_LOG_LEVEL": args.log_level,
            "FIVEUP_DB_WRITERS": str(args.db_writers),
            # one client address plays every table: the per-address quotas are raised,
            # the per-socket ones (moves, resync, flood close 4429) stay as shipped
            "FIVEUP_RATE_LIMIT_CREATE": "100000/minute",
            "FIVEUP_RATE_LIMIT_JOIN": "100000/minute",
            "FIVEUP_RATE_LIMIT_HTTP": "100000/minute",
            "FIVEUP_RATE_LIMIT_LOOKUP_MISS": "100000/minute",
        }
        if args.no_quotas:  # every quota off, the socket ones too (as bench/run_load.sh)
            env["FIVEUP_RATE_LIMIT_ENABLED"] = "false"
        logs = Path(args.log_dir)
        logs.mkdir(parents=True, exist_ok=True)
        self.servers = [
            Server(i, free_port(), env, logs / f"soak-server-{i}.log") for i in range(2)
        ]
        try:
            for server in self.servers:  # one after the other: the first migrates
                server.start()
                await server.wait_healthy(120)
            load0 = os.getloadavg()
            await self.seat_tables()
            return await self.play(load0)
        finally:
            self.ledger.stopping = True
            for server in self.servers:
                server.stop()
            with contextlib.suppress(Exception):
                cut_off(args.admin, self.db_name, allow=True)
            if not args.keep_db:
                with psycopg.connect(args.admin, autocommit=True) as admin:
                    admin.execute(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')

    async def seat_tables(self) -> None:
        args = self.args
        ns = argparse.Namespace(players=2, seed=args.seed, max_moves=None, think=args.think)
        run = Run(ns)
        ws_bases = [s.ws for s in self.servers]
        self.tables = [SoakTable(run, i, self.ledger, ws_bases) for i in range(args.tables)]
        gate = asyncio.Semaphore(10)
        clients = [httpx.AsyncClient(base_url=s.http, timeout=60) for s in self.servers]
        try:

            async def prepare(t: SoakTable) -> None:
                async with gate:
                    http = clients[t.index % 2]
                    for attempt in range(6):  # a 503 (the database busy elsewhere): again
                        try:
                            t.tokens = []
                            await t.setup(http)
                            await t.start(http)
                            return
                        except httpx.HTTPStatusError as exc:
                            if exc.response.status_code != 503 or attempt == 5:
                                raise
                            self.setup_retries += 1
                            await asyncio.sleep(2.0)

            t0 = time.monotonic()
            await asyncio.gather(*(prepare(t) for t in self.tables))
            print(
                f"soak: {len(self.tables)} tables seated and started in"
                f" {time.monotonic() - t0:.1f}s",
                file=sys.stderr,
            )
        finally:
            for c in clients:
                await c.aclose()

    async def play(self, load0: tuple[float, float, float]) -> dict[str, Any]:
        args = self.args
        self.t_play = time.monotonic()
        self.faults.origin = self.t_play
        seat_tasks = [task for t in self.tables for task in t.begin_play()]
        helpers = [
            asyncio.create_task(self.sample_rss()),
            asyncio.create_task(self.prober()),
            asyncio.create_task(self.report_progress()),
        ]
        schedule = asyncio.create_task(self.fault_schedule())
        await asyncio.sleep(self.duration)
        schedule.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await schedule
        # stop: no new moves; let the moves in flight be answered (resent if need be)
        self.ledger.stopping = True
        t_stop = time.monotonic()
        drain_until = t_stop + args.drain
        while time.monotonic() < drain_until and any(
            seat.inflight is not None for t in self.tables for seat in t.seats
        ):
            await asyncio.sleep(0.2)
        unanswered = sum(seat.inflight is not None for t in self.tables for seat in t.seats)
        stalled = sum(t_stop - t.last_event_at > 60 for t in self.tables)
        for t in self.tables:
            for seat in t.seats:
                if seat.ws is not None:
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(seat.ws.close(), 5)
        for task in [*seat_tasks, *helpers, *self.tables[0].run.tasks] if self.tables else []:
            task.cancel()
        await asyncio.gather(*seat_tasks, *helpers, return_exceptions=True)
        for server in self.servers:
            server.stop()
        return self.findings(load0, unanswered, stalled)

    # -- faults ------------------------------------------------------------------------
    async def at(self, fraction: float) -> None:
        await asyncio.sleep(max(0.0, self.t_play + fraction * self.duration - time.monotonic()))

    async def fault_schedule(self) -> None:
        a, d = self.args, self.duration
        plan: list[tuple[float, str, Callable[[], Awaitable[None]]]] = [
            (
                0.10,
                "slow_readers",
                lambda: self.spectators("slow_readers", 0.10 * d, a.slow_sockets),
            ),
            (0.25, "kill_0", lambda: self.kill(0)),
            (0.40, "db_outage", self.db_outage),
            (
                0.50,
                "never_readers",
                lambda: self.spectators("never_readers", 0.10 * d, a.never_sockets),
            ),
            (
                0.65,
                "resync_flood",
                lambda: self.spectators("resync_flood", 0.05 * d, a.flood_sockets),
            ),
            (0.80, "kill_1", lambda: self.kill(1)),
        ]
        for fraction, name, fault in plan:
            if name in a.faults:
                await self.at(fraction)
                await fault()

    async def kill(self, slot: int) -> None:
        server = self.servers[slot]
        w = self.faults.open(f"kill_{slot}", f"SIGKILL server {slot} (pid {server.pid})")
        server.kill()
        await asyncio.sleep(self.args.restart_after)
        server.start()
        await server.wait_healthy(120)
        self.faults.close(w, f"restarted as pid {server.pid}")

    async def db_outage(self) -> None:
        w = self.faults.open("db_outage", f"{self.db_name} refuses connections")
        await asyncio.to_thread(cut_off, self.args.admin, self.db_name, False)
        try:
            await asyncio.sleep(self.args.outage_s)
        finally:
            await asyncio.to_thread(cut_off, self.args.admin, self.db_name, True)
        for server in self.servers:
            await server.wait_healthy(120)
        self.faults.close(w, "allowed again; both servers healthy")

    async def spectators(self, kind: str, seconds: float, count: int) -> None:
        stats = self.fault_stats.setdefault(kind, FaultStats())
        w = self.faults.open(kind, f"{count} sockets")
        until = time.monotonic() + seconds
        jobs = []
        for i in range(count):
            table = self.tables[(7 * i + len(kind)) % len(self.tables)]
            url = f"{self.servers[i % 2].ws}/ws/tables/{table.code}"
            if kind == "slow_readers":
                jobs.append(slow_reader(url, until, stats, self.args.slow_ms))
            elif kind == "never_readers":
                jobs.append(never_reader(url, until, stats, asks=i % 2 == 0))
            else:
                jobs.append(resync_flood(url, until, stats))
        await asyncio.gather(*jobs, return_exceptions=True)
        self.faults.close(w, "")

    # -- watching ----------------------------------------------------------------------
    async def sample_rss(self) -> None:
        while True:
            for server in self.servers:
                server.sample_rss()
            await asyncio.sleep(2.0)

    async def prober(self) -> None:
        """Two HTTP requests every 2 s (a table's info, alternating servers): 5xx counted."""
        async with httpx.AsyncClient(timeout=10) as http:
            i = 0
            while True:
                i += 1
                server = self.servers[i % 2]
                code = self.tables[i % len(self.tables)].code
                for path in (f"/api/tables/{code}", "/healthz"):
                    t = time.monotonic()
                    try:
                        r = await http.get(f"{server.http}{path}")
                        key = str(r.status_code)
                        if r.status_code >= 500:
                            self.probe_5xx.append(
                                {
                                    "t_s": round(t - self.t_play, 1),
                                    "status": r.status_code,
                                    "path": path.split("/")[1],
                                    "server": server.slot,
                                    "in_window": self.faults.kinds_at(t, t, self.args.grace),
                                }
                            )
                    except httpx.HTTPError as exc:
                        key = type(exc).__name__
                    self.probe[key] = self.probe.get(key, 0) + 1
                await asyncio.sleep(2.0)

    async def report_progress(self) -> None:
        last = 0
        while True:
            await asyncio.sleep(self.args.progress_s)
            led = self.ledger
            row = {
                "t_s": round(time.monotonic() - self.t_play),
                "acked": len(led.acked),
                "moves_per_s": round((len(led.acked) - last) / self.args.progress_s, 1),
                "reconnects": led.reconnects,
                "gaps": led.gaps_seen,
                "rss_mib": [s.rss_mib() for s in self.servers],
                "load": round(os.getloadavg()[0], 2),
            }
            last = len(led.acked)
            self.progress.append(row)
            print(f"soak: {json.dumps(row)}", file=sys.stderr, flush=True)

    # -- the findings ------------------------------------------------------------------
    def findings(
        self, load0: tuple[float, float, float], unanswered: int, stalled: int
    ) -> dict[str, Any]:
        args, led = self.args, self.ledger
        outside: list[float] = []
        inside: list[float] = []
        per_kind: dict[str, list[float]] = {}
        for s in led.samples:
            kinds = self.faults.kinds_at(s.t0, s.t1, args.grace)
            (inside if kinds else outside).append(s.t1 - s.t0)
            for k in kinds:
                per_kind.setdefault(k, []).append(s.t1 - s.t0)
        db = check_database(self.db_url, self.tables, self.ledger)
        logs = {f"server {s.slot}": s.log_findings() for s in self.servers}
        window_s = sum(w.end - w.start for w in self.faults.windows if w.end)
        return {
            "command": " ".join([Path(sys.executable).name, "-m", "bench.soak", *sys.argv[1:]]),
            "started_utc": self.faults.utc(self.t_play),
            "minutes": args.minutes,
            "tables": args.tables,
            "think_ms": list(args.think),
            "faults": sorted(args.faults),
            "quotas": not args.no_quotas,
            "machine": {
                "cores": os.cpu_count(),
                "load_avg_before": [round(x, 2) for x in load0],
                "load_avg_after": [round(x, 2) for x in os.getloadavg()],
            },
            "database": db,
            "seq_gaps_seen_by_clients": led.gaps_seen,
            "seq_gaps_repaired_by_resync": led.gaps_repaired_resync,
            "seq_gaps_repaired_by_reconnect": led.gaps_repaired_reconnect,
            "seq_gaps_unrepaired": led.gaps_seen
            - led.gaps_repaired_resync
            - led.gaps_repaired_reconnect,
            "ack_mismatches": led.ack_mismatch[:10],
            "setup_retries_after_503": self.setup_retries,
            "moves_sent": led.sent,
            "moves_resent": led.resends,
            "duplicate_acks": led.duplicates,
            "moves_refused": dict(led.given_up),
            "moves_unanswered_at_stop": unanswered,
            "tables_stalled_60s_at_stop": stalled,
            "moves_per_s": round(len(led.acked) / self.duration, 1),
            "rounds": led.rounds,
            "rematches": led.rematches,
            "seat_connects": led.connects,
            "seat_reconnects": led.reconnects,
            "seat_connect_failures": led.connect_failures,
            "seat_go_home": led.go_home,
            "seat_closes": dict(led.closes),
            "error_frames": dict(led.errors),
            "latency_outside_windows": latency_summary(outside),
            "latency_inside_windows": latency_summary(inside),
            "latency_by_window_kind": {k: latency_summary(v) for k, v in per_kind.items()},
            "fault_windows": [w.as_dict(self.faults) for w in self.faults.windows],
            "fault_window_seconds": round(window_s, 1),
            "fault_sockets": {k: v.as_dict() for k, v in self.fault_stats.items()},
            "server_processes": [p for s in self.servers for p in s.incarnations_dict()],
            "client_max_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
            "client_cpu_s": round(time.process_time(), 1),
            "probe_statuses": self.probe,
            "probe_5xx": self.probe_5xx[:20],
            "probe_5xx_outside_windows": sum(not p["in_window"] for p in self.probe_5xx),
            "server_logs": logs,
            "progress": self.progress,
        }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--minutes", type=float, default=30.0, help="minutes of play")
    p.add_argument("--tables", type=int, default=200)
    p.add_argument(
        "--think-ms",
        type=think_range,
        default=(1500.0, 3000.0),
        dest="think",
        help="a player's pause before a move, ms: LO-HI (uniform) or one number",
    )
    p.add_argument("--seed", default="soak")
    p.add_argument(
        "--faults",
        type=lambda text: {f for f in text.split(",") if f and f != "none"},
        default=set(FAULTS),
        help=f"the faults to inject, comma-separated, or none (default: {','.join(FAULTS)})",
    )
    p.add_argument(
        "--no-quotas", action="store_true", help="FIVEUP_RATE_LIMIT_ENABLED=false on the servers"
    )
    p.add_argument("--log-level", default="INFO", help="FIVEUP_LOG_LEVEL of the servers")
    p.add_argument("--keep-db", action="store_true", help="do not drop the database")
    p.add_argument("--admin", default="postgresql://postgres@127.0.0.1:5432/postgres")
    p.add_argument("--db-writers", type=int, default=8, help="FIVEUP_DB_WRITERS per process")
    p.add_argument("--restart-after", type=float, default=10.0, help="s a killed server is down")
    p.add_argument("--outage-s", type=float, default=10.0, help="s the database refuses us")
    p.add_argument("--grace", type=float, default=5.0, help="s after a window still inside it")
    p.add_argument("--slow-sockets", type=int, default=10)
    p.add_argument("--slow-ms", type=float, default=2000.0)
    p.add_argument("--never-sockets", type=int, default=10)
    p.add_argument("--flood-sockets", type=int, default=3)
    p.add_argument("--drain", type=float, default=30.0, help="s to wait for moves in flight")
    p.add_argument("--progress-s", type=float, default=30.0)
    p.add_argument("--log-dir", default="/tmp/fiveup-soak")
    p.add_argument("--json", metavar="FILE", help="also write the summary as JSON")
    args = p.parse_args(argv)
    if not (0 < args.minutes <= 120 and 1 <= args.tables <= 2000):
        raise SystemExit("bounds: 0 < --minutes <= 120, 1 <= --tables <= 2000")
    raise_fd_limit()
    with contextlib.suppress(ImportError):
        import uvloop

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    soak = Soak(args)
    limit = args.minutes * 60 + 900  # setup, faults, drain: the run stops by itself
    result = asyncio.run(asyncio.wait_for(soak.run(), limit))
    print(json.dumps({k: v for k, v in result.items() if k != "progress"}, indent=2))
    print(markdown(result))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))
    db = result["database"]
    bad = (
        db["acked_moves_lost"]
        or db["tables_with_stored_seq_gaps"]
        or db["tables_where_a_client_saw_an_unstored_seq"]
        or result["seq_gaps_unrepaired"]
        or result["probe_5xx_outside_windows"]
        or any(x["http_500_lines"] or x["tracebacks"] for x in result["server_logs"].values())
    )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
