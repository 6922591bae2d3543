"""What this stack can do on this machine today: issue 7's deliberately minimal server,
run beside our own so that the two are compared on the same day (this virtual machine's
speed drifts by up to 2x from one hour to the next; docs/benchmarks.md).

The minimal server is FastAPI + uvicorn (the same uvicorn options as ``fiveup serve``:
uvloop, httptools, no compression) + psycopg 3 (our driver; the issue's used asyncpg),
and does for each move only what every move must: one statement (a CTE: ``UPDATE`` the
table's row with a version check — its state, a real mid-round ``Match.to_dict()`` — and
``INSERT`` the event row), then an ack to the mover and a 500-byte event frame to both
seats. No rules, no projection, no presence, no group commit. Its client, in this
process, plays 2-seat tables flat out (a seat moves once the previous move's frames
reached both seats, as ``bench/load_tables.py`` does), with no game logic of its own.

    python -m bench.stack_floor --tables 200 --seconds 15 [--pgbench]
    python -m bench.stack_floor --tables 40 --seconds 40 --driver asyncpg --callgrind

Reports committed moves/s, the server's CPU per move, this client's CPU per move and,
with ``--pgbench``, ``bench/pgbench_ceiling.sh`` at the same concurrency (the ratio
goal's yardstick). ``--callgrind`` runs the minimal server under valgrind's callgrind and
reports its instructions per committed move instead: the yardstick of
``bench/server_instructions.sh``, which does not drift with the machine's speed. It creates
and drops its own database; loopback only; bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import orjson
import psycopg
import websockets
from fastapi import FastAPI, WebSocket, WebSocketDisconnect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.engine import Match  # noqa: E402
from bench.load_tables import (  # noqa: E402
    machine_shares,
    machine_ticks,
    shares_text,
    tree_cpu_seconds,
)

SCHEMA = """
create table floor_tables (id int primary key, version int not null, seq int not null,
                           state jsonb not null);
create table floor_events (table_id int not null, seq int not null, move_id text,
                           payload jsonb not null, primary key (table_id, seq));
"""
MOVE = """
with u as (update floor_tables set version = version + 1, seq = seq + 1, state = $3
           where id = $1 and version = $2 returning seq)
insert into floor_events (table_id, seq, move_id, payload)
select $1, u.seq, $4, $5 from u returning seq
"""
PSYCOPG_MOVE = re.sub(r"\$(\d)", r"%(p\1)s", MOVE)  # the same, in psycopg's placeholders


class Database:
    """The server's connections, one statement per move: psycopg 3 (ours) or asyncpg
    (the issue's), each connection used by one move at a time (no pool reset query)."""

    def __init__(self, dsn: str, connections: int, driver: str) -> None:
        self.dsn, self.connections, self.driver = dsn, connections, driver
        self.idle: asyncio.Queue[Any] = asyncio.Queue()

    async def open(self) -> None:
        for _ in range(self.connections):
            if self.driver == "asyncpg":
                import asyncpg

                conn: Any = await asyncpg.connect(self.dsn)
            else:
                conn = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)
            self.idle.put_nowait(conn)

    async def close(self) -> None:
        while not self.idle.empty():
            await self.idle.get_nowait().close()

    async def move(self, *args: object) -> int | None:
        """The move's statement: its new seq, or None if the version check refused it."""
        conn = await self.idle.get()
        try:
            if self.driver == "asyncpg":
                seq: int | None = await conn.fetchval(MOVE, *args)
                return seq
            params = {f"p{i}": a for i, a in enumerate(args, 1)}
            cur = await conn.execute(PSYCOPG_MOVE, params, prepare=True)
            row = await cur.fetchone()
            return None if row is None else int(row[0])
        finally:
            self.idle.put_nowait(conn)


def mid_round_state() -> str:
    """A real 2-seat state a few moves into a round, as our server writes it."""
    m = Match.new(2, random.Random(7))
    for _ in range(6):
        legal = m.legal_moves(m.turn)
        if not legal or m.round.is_over:
            break
        m.play(m.turn, legal[0].text)
    return orjson.dumps(m.to_dict()).decode()


def create_server_app(db: Database) -> FastAPI:
    """The minimal server (``--serve``): one statement per move, ack, frame to both."""
    state = mid_round_state()
    event = orjson.dumps({"kind": "place", "tile": "3|4", "pad": "x" * 430}).decode()
    sockets: dict[int, dict[int, WebSocket]] = {}
    versions: dict[int, int] = {}

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await db.open()
        yield
        await db.close()

    app = FastAPI(lifespan=lifespan)

    @app.websocket("/ws/{table}/{seat}")
    async def play(ws: WebSocket, table: int, seat: int) -> None:
        await ws.accept()
        sockets.setdefault(table, {})[seat] = ws
        try:
            while True:
                msg = orjson.loads(await ws.receive_text())
                version = versions.get(table, 0)
                seq = await db.move(table, version, state, msg["move_id"], event)
                if seq is None:
                    await ws.send_text('{"type":"error","code":"stale"}')
                    continue
                versions[table] = version + 1
                await ws.send_text(f'{{"type":"ack","move_id":"{msg["move_id"]}","seq":{seq}}}')
                frame = f'{{"type":"event","seq":{seq},"event":{event}}}'
                for other in list(sockets[table].values()):
                    await other.send_text(frame)
        except WebSocketDisconnect:
            pass

    return app


def serve(port: int, db: Database) -> None:
    import uvicorn

    from app.core.serving import uvicorn_options
    from app.core.settings import Settings

    options = uvicorn_options(Settings(database_url="sqlite+aiosqlite://", log_level="WARNING"))
    options.pop("http")  # (our HTTP protocol class adds only header deadlines)
    uvicorn.run(create_server_app(db), host="127.0.0.1", port=port, **options)


class Counts:
    def __init__(self) -> None:
        self.moves = 0
        self.counting = False


async def play_table(url: str, table: int, counts: Counts, stop: asyncio.Event) -> None:
    async with (
        websockets.connect(f"{url}/ws/{table}/0", compression=None) as a,
        websockets.connect(f"{url}/ws/{table}/1", compression=None) as b,
    ):
        seats, turn, n = (a, b), 0, 0
        while not stop.is_set():
            mover, other = seats[turn], seats[1 - turn]
            n += 1
            await mover.send(orjson.dumps({"type": "move", "move_id": f"m{n}"}).decode())
            frames = [orjson.loads(await mover.recv()), orjson.loads(await mover.recv())]
            frames.append(orjson.loads(await other.recv()))
            if frames[0]["type"] != "ack" and frames[1]["type"] != "ack":
                raise RuntimeError(f"table {table}: {frames}")
            if counts.counting:
                counts.moves += 1
            turn = 1 - turn


async def run_load(url: str, tables: int, seconds: float, server_pid: int) -> dict[str, Any]:
    counts, stop = Counts(), asyncio.Event()
    players = [asyncio.create_task(play_table(url, t, counts, stop)) for t in range(1, tables + 1)]
    await asyncio.sleep(3)  # connected and warm
    cpu0, mine0, t0 = tree_cpu_seconds([server_pid]), time.process_time(), time.monotonic()
    ticks0 = machine_ticks()
    counts.counting = True
    await asyncio.sleep(seconds)
    counts.counting = False
    cpu, mine, wall = (
        tree_cpu_seconds([server_pid]) - cpu0,
        time.process_time() - mine0,
        time.monotonic() - t0,
    )
    machine = machine_shares(ticks0, machine_ticks())
    stop.set()
    await asyncio.wait(players, timeout=10)
    for p in players:
        if p.done() and not p.cancelled() and p.exception() is not None:
            raise p.exception()  # type: ignore[misc]
    moves = max(counts.moves, 1)
    return {
        "moves_per_s": counts.moves / wall,
        "server_ms": 1000 * cpu / moves,
        "client_ms": 1000 * mine / moves,
        "machine": machine,
    }


async def count_instructions(
    url: str, tables: int, seconds: float, server_pid: int, work: str
) -> tuple[int, int]:
    """The moves committed and the server's instructions between callgrind's zeroing
    and its dump, ``seconds`` apart (as bench/server_instructions.sh does for ours)."""
    counts, stop = Counts(), asyncio.Event()
    players = [asyncio.create_task(play_table(url, t, counts, stop)) for t in range(1, tables + 1)]
    await asyncio.sleep(20)  # connected and warm (about 50 times slower under valgrind)
    subprocess.run(["callgrind_control", "-z", str(server_pid)], check=True, capture_output=True)
    counts.counting = True
    await asyncio.sleep(seconds)
    subprocess.run(["callgrind_control", "-d", str(server_pid)], check=True, capture_output=True)
    counts.counting = False
    stop.set()
    await asyncio.wait(players, timeout=30)
    dumps = sorted(Path(work).glob("callgrind.out.*"), key=lambda p: p.stat().st_mtime)
    text = dumps[-1].read_text()
    found = re.search(r"^(?:summary|totals): (\d+)", text, re.M)
    assert found is not None, "no totals in the callgrind dump"
    return counts.moves, int(found.group(1))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=15)
    ap.add_argument("--connections", type=int, default=20, help="the server's connections")
    ap.add_argument("--driver", choices=("psycopg", "asyncpg"), default="psycopg")
    ap.add_argument("--admin", default="postgresql://postgres@127.0.0.1:5432/postgres")
    ap.add_argument("--pgbench", action="store_true", help="then pgbench_ceiling.sh")
    ap.add_argument(
        "--callgrind",
        action="store_true",
        help="count the server's instructions per move under valgrind's callgrind instead",
    )
    ap.add_argument("--serve", type=int, metavar="PORT", help=argparse.SUPPRESS)
    ap.add_argument("--dsn", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        serve(args.serve, Database(args.dsn, args.connections, args.driver))
        return 0
    if not args.admin.startswith(("postgresql://postgres@127.", "postgresql://postgres@localhost")):
        raise SystemExit("refusing: loopback PostgreSQL only")

    db = f"fiveup_floor_{os.getpid()}"
    dsn = args.admin.rsplit("/", 1)[0] + "/" + db
    with psycopg.connect(args.admin, autocommit=True) as admin:
        admin.execute(f"create database {db}")
    server = None
    work = tempfile.mkdtemp()
    try:
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(SCHEMA)
            conn.execute(
                "insert into floor_tables select g, 0, 0, %s from generate_series(1, %s) g",
                (mid_round_state(), args.tables),
            )
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        wrap = (
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={work}/callgrind.out"]
            if args.callgrind
            else []
        )
        server = subprocess.Popen(
            [
                *wrap,
                sys.executable,
                "-m",
                "bench.stack_floor",
                "--serve",
                str(port),
                "--dsn",
                dsn,
                "--connections",
                str(args.connections),
                "--driver",
                args.driver,
            ],
            cwd=ROOT,
        )
        for _ in range(100 * (30 if args.callgrind else 1)):
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
                break
            time.sleep(0.1)
        if args.callgrind:
            moves, instructions = asyncio.run(
                count_instructions(
                    f"ws://127.0.0.1:{port}", args.tables, args.seconds, server.pid, work
                )
            )
            print(
                f"minimal server ({args.driver}) under callgrind, {args.tables} tables,"
                f" {args.seconds:.0f} s: committed moves={moves} instructions={instructions}"
                f" per move={instructions // max(moves, 1)}",
                flush=True,
            )
            return 0
        result = asyncio.run(
            run_load(f"ws://127.0.0.1:{port}", args.tables, args.seconds, server.pid)
        )
        print(
            f"minimal server ({args.driver}), {args.tables} tables, {args.seconds:.0f} s:"
            f" committed moves/s={result['moves_per_s']:.0f}"
            f" server CPU {result['server_ms']:.3f} ms per move;"
            f" client CPU {result['client_ms']:.3f} ms per move; " + shares_text(result["machine"]),
            flush=True,
        )
    finally:
        if server is not None:
            server.terminate()
            server.wait(30)
        shutil.rmtree(work, ignore_errors=True)
        with psycopg.connect(args.admin, autocommit=True) as admin:
            admin.execute(f"drop database if exists {db} with (force)")
    if args.pgbench:
        subprocess.run(
            ["bash", str(ROOT / "bench" / "pgbench_ceiling.sh"), str(args.tables), "20"],
            check=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
