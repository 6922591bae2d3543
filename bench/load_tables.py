"""Load benchmark: many Five Up tables played at once over real WebSockets.

Plays ``--tables`` tables concurrently against a running server (protocol:
docs/protocol.md). Each table bot creates a private table over HTTP, fills the other
seats with ``join`` (one seat token each), connects one WebSocket per seat, starts the
match and then, whenever a seat's view says it is that seat's turn, sends a move picked
from the view's ``legal`` list (a random placement, else ``draw``; a forced ``pass`` is
left to the server, which plays it itself in the same transaction). Rounds
are continued with ``next_round`` and finished matches with ``rematch``, so every table
keeps playing for the whole run. With ``--think-ms T`` each bot waits a random
0..2T ms before answering its turn, so many tables play at a human pace.

Measured, over the window after ``--warmup`` seconds:

* committed moves per second: ``ack`` frames received for moves the bots sent;
* move latency: from sending a ``move`` frame to the moment the LAST of the table's
  sockets has received the ``event`` frame with that move (its ``seq``).

The run is bounded by ``--duration`` (and optionally ``--max-moves``), targets only a
loopback address (anything else is refused) and stops by itself. The latency clock
runs in this client, on the same machine: time the client spends decoding other
tables' frames is included, so the figures are an upper bound on the server's share.

Usage (server already running on PostgreSQL; bench/run_load.sh does all of it)::

    python bench/load_tables.py --url http://127.0.0.1:8000 --tables 500 --duration 30
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import ipaddress
import json
import multiprocessing
import os
import random
import resource
import socket
import sys
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

#: wall-clock time minus the perf counter, to date the moves of --timeline
WALL_OFFSET = time.time() - time.perf_counter()


def require_loopback(url: str) -> None:
    """Refuse any target that does not resolve only to loopback addresses."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise SystemExit(f"--url must be http://host:port, got {url!r}")
    infos = socket.getaddrinfo(parts.hostname, parts.port or 80, proto=socket.IPPROTO_TCP)
    addrs = {info[4][0] for info in infos}
    if not addrs or not all(ipaddress.ip_address(a.split("%")[0]).is_loopback for a in addrs):
        raise SystemExit(f"refusing to load a non-loopback host: {parts.hostname} -> {addrs}")


def raise_fd_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def machine_ticks() -> list[int]:
    """The whole machine's CPU ticks so far (/proc/stat): user, nice, system, idle,
    iowait, irq, softirq, steal."""
    with open("/proc/stat") as fh:
        return [int(x) for x in fh.readline().split()[1:9]]


def machine_shares(before: list[int], after: list[int]) -> dict[str, float]:
    """The shares of the machine's CPU time between two :func:`machine_ticks`, all cores
    and all processes: busy (user, system, interrupts), idle (with I/O wait) and steal
    (time the hypervisor gave our virtual cores to someone else: a noisy neighbour)."""
    d = [b - a for a, b in zip(before, after, strict=True)]
    total = sum(d) or 1
    user, nice, system, idle, iowait, irq, softirq, steal = d
    return {
        "busy": round((user + nice + system + irq + softirq) / total, 3),
        "idle": round((idle + iowait) / total, 3),
        "steal": round(steal / total, 3),
    }


def shares_text(shares: dict[str, float]) -> str:
    """:func:`machine_shares` as the line both load benchmarks print."""
    parts = ", ".join(f"{k} {100 * v:.0f} %" for k, v in shares.items())
    return f"machine CPU in window (all cores): {parts}"


def tree_cpu_seconds(roots: list[int]) -> float:
    """CPU time (user + system) of the given processes and all their descendants."""
    stats: dict[int, tuple[int, float]] = {}  # pid -> (ppid, cpu seconds)
    tick = os.sysconf("SC_CLK_TCK")
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        stats[int(entry)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / tick)
    total, todo, seen = 0.0, list(roots), set()
    while todo:
        pid = todo.pop()
        if pid in seen or pid not in stats:
            continue
        seen.add(pid)
        total += stats[pid][1]
        todo += [child for child, (ppid, _) in stats.items() if ppid == pid]
    return total


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    k = max(0, min(len(sorted_values) - 1, round(q / 100 * (len(sorted_values) - 1))))
    return sorted_values[k]


@dataclass
class Stats:
    acked: int = 0  # acks received inside the window
    sent: int = 0  # moves sent inside the window
    latencies: list[float] = field(default_factory=list)  # seconds, moves sent in window
    #: (wall-clock time sent, latency in seconds) of each of those moves (--timeline)
    timeline: list[tuple[float, float]] = field(default_factory=list)
    frames: int = 0  # frames received inside the window (all types, all sockets)
    event_frames: int = 0  # `event` frames received inside the window
    event_bytes: int = 0  # their size on the wire (JSON text, bytes)
    errors: dict[str, int] = field(default_factory=dict)
    rounds: int = 0
    matches: int = 0
    setup_failures: int = 0
    closed_early: int = 0
    window: float = 0.0  # seconds actually measured
    server_cpu: float = 0.0  # CPU seconds of --server-pid (and children) in the window
    client_cpu: float = 0.0  # CPU seconds of this client process in the window
    #: the whole machine's CPU over the window: busy, idle, steal (machine_shares)
    machine: dict[str, float] = field(default_factory=dict)

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1

    def merge(self, other: Stats) -> None:
        self.acked += other.acked
        self.sent += other.sent
        self.latencies += other.latencies
        self.timeline += other.timeline
        self.frames += other.frames
        self.event_frames += other.event_frames
        self.event_bytes += other.event_bytes
        self.rounds += other.rounds
        self.matches += other.matches
        self.setup_failures += other.setup_failures
        self.closed_early += other.closed_early
        self.window = max(self.window, other.window)
        self.server_cpu = max(self.server_cpu, other.server_cpu)
        self.client_cpu += other.client_cpu
        self.machine = self.machine or other.machine
        for k, v in other.errors.items():
            self.errors[k] = self.errors.get(k, 0) + v


class Run:
    """Shared state of one process's bots: the clock window and the counters."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.stats = Stats()
        self.window_start = float("inf")
        self.window_end = float("inf")
        self.stopping = False
        self.rng = random.Random(args.seed)
        self.tasks: set[asyncio.Task[None]] = set()  # bots thinking (--think-ms)

    def in_window(self, t: float) -> bool:
        return self.window_start <= t < self.window_end

    def budget_left(self) -> bool:
        return not self.stopping and (
            self.args.max_moves is None or self.stats.sent < self.args.max_moves
        )


class TableBot:
    def __init__(self, run: Run, index: int) -> None:
        self.run = run
        self.index = index
        self.players: int = run.args.players
        self.code = ""
        self.tokens: list[str] = []
        self.sockets: list[ClientConnection] = []
        self.readers: list[asyncio.Task[None]] = []
        # per seat: a move of ours not yet acked / refused
        self.inflight: list[str | None] = [None] * self.players
        self.last: list[tuple[int, dict[str, Any] | None]] = [(0, None)] * self.players
        # seq of a move in flight -> (send time, seat that moved, seats that got it)
        self.pending: dict[int, tuple[float, int, set[int]]] = {}
        self.next_round_sent: list[tuple[int, int]] = [(0, 0)] * self.players
        self.rematch_sent: list[int] = [0] * self.players
        self.moves_sent = 0  # numbers the move ids
        self.match_no = 0
        # --think-ms: the seq each seat has finished thinking about, and who is thinking
        self.thought: list[int] = [-1] * self.players
        self.thinking: list[bool] = [False] * self.players

    async def setup(self, http: httpx.AsyncClient) -> None:
        r = await http.post(
            "/api/tables",
            json={
                "name": f"bench {self.index}",
                "players": self.players,
                "public": False,
                "host_name": "bot 0",
            },
        )
        r.raise_for_status()
        body = r.json()
        self.code = body["code"]
        self.tokens = [body["token"]]
        for seat in range(1, self.players):
            r = await http.post(
                f"/api/tables/{self.code}/join", json={"name": f"bot {seat}", "seat": seat}
            )
            r.raise_for_status()
            self.tokens.append(r.json()["token"])

    async def connect(self, ws_base: str) -> None:
        for token in self.tokens:
            ws = await connect(
                f"{ws_base}/ws/tables/{self.code}?token={token}",
                compression="deflate" if self.run.args.deflate else None,
                max_size=None,
                open_timeout=30,
                ping_interval=None,
            )
            self.sockets.append(ws)
        for seat, ws in enumerate(self.sockets):
            self.readers.append(asyncio.create_task(self.reader(seat, ws)))

    async def start(self, http: httpx.AsyncClient) -> None:
        url, auth = f"/api/tables/{self.code}/start", {"Authorization": f"Bearer {self.tokens[0]}"}
        try:
            r = await http.post(url, headers=auth)
        except (httpx.ReadError, httpx.RemoteProtocolError):
            # HTTP keep-alive's race: a pooled connection reused just as the server closes
            # it for idleness (uvicorn, after 5 s) answers nothing; the request was not
            # read, so it is sent once more on a fresh connection
            r = await http.post(url, headers=auth)
        r.raise_for_status()

    async def close(self) -> None:
        for ws in self.sockets:
            with contextlib.suppress(Exception):
                await ws.close()
        for task in self.readers:
            task.cancel()
        await asyncio.gather(*self.readers, return_exceptions=True)

    async def reader(self, seat: int, ws: ClientConnection) -> None:
        run, stats = self.run, self.run.stats
        try:
            async for raw in ws:
                now = time.perf_counter()
                if run.in_window(now):
                    stats.frames += 1
                msg = orjson.loads(raw)
                kind = msg.get("type")
                if kind == "event" and run.in_window(now):
                    stats.event_frames += 1
                    stats.event_bytes += len(raw)
                if kind == "event" or kind == "snapshot":
                    seq = msg["seq"]
                    self.got(seat, seq, now)
                    view = self.last[seat][1]
                    if kind == "snapshot" or "view" in msg:
                        view = msg.get("view")
                    elif "view_patch" in msg and view is not None:
                        view = apply_patch(view, msg["view_patch"])
                    self.last[seat] = (seq, view)
                    table = msg.get("table") or (msg.get("table_patch") or {}).get("set", {})
                    if table.get("match"):
                        self.match_no = table["match"]
                    await self.act(seat)
                elif kind == "ack":
                    if self.inflight[seat] == msg.get("move_id"):
                        self.inflight[seat] = None
                        if run.in_window(now):
                            stats.acked += 1
                        await self.act(seat)
                elif kind == "error":
                    stats.error(str(msg.get("code")))
                    if msg.get("move_id") is not None and self.inflight[seat] == msg["move_id"]:
                        self.inflight[seat] = None
                        self.pending = {s: p for s, p in self.pending.items() if p[1] != seat}
                    # after stale/conflict a snapshot follows and re-triggers act()
        except ConnectionClosed:
            if not run.stopping:
                stats.closed_early += 1

    async def think(self, seat: int, seq: int, delay: float) -> None:
        await asyncio.sleep(delay)
        self.thought[seat] = seq
        self.thinking[seat] = False
        with contextlib.suppress(ConnectionClosed):
            await self.act(seat)

    def got(self, seat: int, seq: int, now: float) -> None:
        entry = self.pending.get(seq)
        if entry is None:
            return
        t0, _mover, seen = entry
        seen.add(seat)
        if len(seen) == self.players:
            del self.pending[seq]
            if self.run.in_window(t0):
                self.run.stats.latencies.append(now - t0)
                if self.run.args.timeline:
                    self.run.stats.timeline.append((t0 + WALL_OFFSET, now - t0))

    async def act(self, seat: int) -> None:
        run = self.run
        if not run.budget_left() or self.inflight[seat] is not None:
            return
        seq, view = self.last[seat]
        if view is None:
            return
        ws = self.sockets[seat]
        phase = view.get("phase")
        if phase == "playing":
            legal = view.get("legal") or []
            if view.get("turn") != seat or not legal:
                return
            if len(legal) == 1 and legal[0]["kind"] == "pass":
                return  # the server plays a forced pass itself, in the same transaction
            if run.args.think_ms > 0 and self.thought[seat] != seq:
                if not self.thinking[seat]:  # like a person: wait 0..2x think, then move
                    self.thinking[seat] = True
                    delay = run.rng.uniform(0, 2 * run.args.think_ms) / 1000
                    task = asyncio.create_task(self.think(seat, seq, delay))
                    run.tasks.add(task)
                    task.add_done_callback(run.tasks.discard)
                return
            places = [m for m in legal if m["kind"] in ("place", "open")]
            # a placement if there is one, else draw, else pass
            choice = run.rng.choice(places)["move"] if places else legal[0]["move"]
            self.moves_sent += 1
            move_id = f"m{self.moves_sent}"  # unique at its table, as the protocol asks
            self.inflight[seat] = move_id
            t0 = time.perf_counter()
            self.pending[seq + 1] = (t0, seat, set())
            if run.in_window(t0):
                run.stats.sent += 1
            await ws.send(
                orjson.dumps(
                    {"type": "move", "move": choice, "move_id": move_id, "seq": seq}
                ).decode()
            )
        elif phase == "round_over":
            key = (self.match_no, int(view.get("round") or 0))
            if self.next_round_sent[seat] != key:
                self.next_round_sent[seat] = key
                if seat == 0:
                    run.stats.rounds += 1
                await ws.send('{"type": "next_round"}')
        elif phase == "match_over" and self.rematch_sent[seat] != self.match_no:
            self.rematch_sent[seat] = self.match_no
            if seat == 0:
                run.stats.matches += 1
            await ws.send('{"type": "rematch"}')


def apply_patch(view: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """A view with an event frame's patch applied (docs/protocol.md, Event frames):
    ``set`` replaces the value at each dotted path, then ``append`` extends each list.
    The bot owns its view, so this edits a shallow copy in place."""
    out = dict(view)
    for op in ("set", "append"):
        for path, value in patch.get(op, {}).items():
            *parents, key = path.split(".")
            node = out
            for p in parents:
                node[p] = dict(node[p])
                node = node[p]
            node[key] = value if op == "set" else [*node[key], *value]
    return out


async def run_bots(
    args: argparse.Namespace, tables: int, first_index: int, barrier: Any = None
) -> Stats:
    run = Run(args)
    run.rng.seed(f"{args.seed}-{first_index}")
    base = args.url.rstrip("/")
    ws_base = "ws" + base[len("http") :]
    bots = [TableBot(run, first_index + i) for i in range(tables)]
    gate = asyncio.Semaphore(args.setup_concurrency)
    # idle connections are dropped here before the server's keep-alive timeout (5 s by
    # default) closes them: a request sent on a connection the server is closing at that
    # moment fails with ReadError (it cost a table's setup now and then at 500 tables)
    limits = httpx.Limits(max_connections=args.setup_concurrency, keepalive_expiry=2.0)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:

        async def prepare(bot: TableBot) -> TableBot | None:
            async with gate:
                try:
                    await bot.setup(http)
                    await bot.connect(ws_base)
                    return bot
                except Exception as exc:  # reported in the summary, the run goes on
                    run.stats.setup_failures += 1
                    if run.stats.setup_failures <= 3:
                        print(f"table {bot.index}: setup failed: {exc!r}", file=sys.stderr)
                    await bot.close()
                    return None

        t_setup = time.perf_counter()
        ready = [b for b in await asyncio.gather(*(prepare(b) for b in bots)) if b]
        setup_s = time.perf_counter() - t_setup
        if barrier is not None:
            await asyncio.get_running_loop().run_in_executor(None, barrier.wait)
        if not args.quiet:
            print(
                f"[pid {os.getpid()}] {len(ready)} tables seated and connected"
                f" in {setup_s:.1f}s; starting",
                file=sys.stderr,
            )

        async def begin(bot: TableBot) -> None:
            async with gate:
                try:
                    await bot.start(http)
                except Exception as exc:
                    run.stats.setup_failures += 1
                    print(f"table {bot.index}: start failed: {exc!r}", file=sys.stderr)

        t_start = time.perf_counter()
        await asyncio.gather(*(begin(b) for b in ready))
        # The window opens --warmup seconds after the LAST table has started.
        started = time.perf_counter()
        run.window_start = started + args.warmup
        run.window_end = run.window_start + args.duration
        if not args.quiet:
            print(
                f"[pid {os.getpid()}] all tables started in {started - t_start:.1f}s",
                file=sys.stderr,
            )
        await asyncio.sleep(args.warmup)
        cpu0 = tree_cpu_seconds(args.server_pid), time.process_time()
        ticks0 = machine_ticks()
        deadline = run.window_end
        while time.perf_counter() < deadline and run.budget_left():
            await asyncio.sleep(0.1)
        run.window_end = min(run.window_end, time.perf_counter())
        run.stats.server_cpu = tree_cpu_seconds(args.server_pid) - cpu0[0]
        run.stats.client_cpu = time.process_time() - cpu0[1]
        run.stats.machine = machine_shares(ticks0, machine_ticks())
        run.stopping = True
        await asyncio.sleep(args.drain)  # let in-flight moves land
        await asyncio.gather(*(b.close() for b in ready))
        for task in list(run.tasks):
            task.cancel()
    run.stats.window = run.window_end - run.window_start
    return run.stats


def hard_limit(args: argparse.Namespace) -> float:
    """Seconds after which a run is abandoned, whatever state it is in."""
    return args.setup_timeout + args.warmup + args.duration + args.drain + 30


async def bounded(args: argparse.Namespace, tables: int, first: int, barrier: Any = None) -> Stats:
    try:
        return await asyncio.wait_for(run_bots(args, tables, first, barrier), hard_limit(args))
    except TimeoutError:
        raise SystemExit(f"load_tables: gave up after {hard_limit(args):.0f}s") from None


def _child(args: argparse.Namespace, tables: int, first: int, barrier: Any, out: Any) -> None:
    _use_uvloop()
    stats = asyncio.run(bounded(args, tables, first, barrier))
    out.put(stats)


def _use_uvloop() -> None:
    with contextlib.suppress(ImportError):
        import uvloop

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--url", default="http://127.0.0.1:8000", help="server base URL (loopback)")
    p.add_argument("--tables", type=int, default=500, help="tables in play at once")
    p.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    p.add_argument("--duration", type=float, default=30.0, help="measured seconds")
    p.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring")
    p.add_argument("--max-moves", type=int, default=None, help="stop after this many moves")
    p.add_argument("--procs", type=int, default=1, help="client processes sharing the tables")
    p.add_argument("--setup-concurrency", type=int, default=50)
    p.add_argument("--drain", type=float, default=1.0, help="seconds to wait before closing")
    p.add_argument(
        "--setup-timeout", type=float, default=300.0, help="bound on seating and starting"
    )
    p.add_argument(
        "--think-ms",
        type=float,
        default=0.0,
        help="pace the bots like people: wait a random 0..2x this many ms before each move",
    )
    p.add_argument("--deflate", action="store_true", help="offer permessage-deflate")
    p.add_argument("--seed", default="fiveup", help="seed for the bots' move choice")
    p.add_argument(
        "--server-pid",
        type=int,
        action="append",
        default=[],
        help="server process (with its children) whose CPU time to report per move",
    )
    p.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    p.add_argument(
        "--timeline",
        metavar="FILE",
        help="also write each measured move as a line: wall-clock time sent, latency in ms",
    )
    p.add_argument("--quiet", action="store_true")
    p.add_argument(
        "--gc-threshold",
        type=int,
        default=None,
        help="this client's young-generation collector threshold (default: Python's)",
    )
    args = p.parse_args(argv)
    if args.gc_threshold is not None:  # is the client's own collector in the latency tail?
        gc.set_threshold(args.gc_threshold, *gc.get_threshold()[1:])
    if args.duration <= 0 or args.duration > 600 or args.tables < 1 or args.tables > 5000:
        raise SystemExit("bounds: 0 < --duration <= 600, 1 <= --tables <= 5000")
    require_loopback(args.url)
    raise_fd_limit()

    total = Stats()
    if args.procs <= 1:
        _use_uvloop()
        total = asyncio.run(bounded(args, args.tables, 0))
    else:
        ctx = multiprocessing.get_context("fork")
        barrier = ctx.Barrier(args.procs)
        out = ctx.Queue()
        share = [
            args.tables // args.procs + (i < args.tables % args.procs) for i in range(args.procs)
        ]
        procs, first = [], 0
        for n in share:
            proc = ctx.Process(target=_child, args=(args, n, first, barrier, out), daemon=True)
            proc.start()
            procs.append(proc)
            first += n
        hard = time.monotonic() + hard_limit(args) + 10
        for _ in procs:
            total.merge(out.get(timeout=max(1.0, hard - time.monotonic())))
        for proc in procs:
            proc.join(timeout=10)

    lat = sorted(total.latencies)
    window = total.window
    result = {
        "url": args.url,
        "tables": args.tables,
        "players": args.players,
        "procs": args.procs,
        "deflate": args.deflate,
        "think_ms": args.think_ms,
        "window_s": round(window, 2),
        "moves_sent": total.sent,
        "moves_acked": total.acked,
        "moves_per_s": round(total.acked / window, 1) if window > 0 else None,
        "latency_samples": len(lat),
        "latency_ms": {
            "p50": round(percentile(lat, 50) * 1000, 2),
            "p90": round(percentile(lat, 90) * 1000, 2),
            "p99": round(percentile(lat, 99) * 1000, 2),
            "max": round(lat[-1] * 1000, 2) if lat else None,
        },
        "frames_per_s": round(total.frames / window, 1) if window > 0 else None,
        "event_frame_bytes_avg": (
            round(total.event_bytes / total.event_frames) if total.event_frames else None
        ),
        "server_cpu_s": round(total.server_cpu, 2) if args.server_pid else None,
        "server_cpu_ms_per_move": (
            round(1000 * total.server_cpu / total.acked, 2)
            if args.server_pid and total.acked
            else None
        ),
        "client_cpu_s": round(total.client_cpu, 2),
        "machine_cpu_shares": total.machine,
        "rounds_continued": total.rounds,
        "rematches": total.matches,
        "errors": total.errors,
        "setup_failures": total.setup_failures,
        "sockets_closed_early": total.closed_early,
    }
    ms: dict[str, Any] = result["latency_ms"]  # type: ignore[assignment]
    print(
        f"tables={args.tables} players={args.players} procs={args.procs}"
        f" think_ms={args.think_ms:g}"
        f" window={result['window_s']}s: committed moves/s={result['moves_per_s']}"
        f" latency(send->last recipient) p50={ms['p50']}ms p90={ms['p90']}ms"
        f" p99={ms['p99']}ms max={ms['max']}ms"
        f" samples={len(lat)} errors={total.errors or 0}"
        f" setup_failures={total.setup_failures} closed_early={total.closed_early}"
    )
    if args.server_pid:
        print(
            f"server CPU in window: {result['server_cpu_s']}s"
            f" = {result['server_cpu_ms_per_move']} ms per committed move;"
            f" client CPU {result['client_cpu_s']}s"
        )
    if total.machine:
        print(shares_text(total.machine))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(result, fh, indent=2)
    if args.timeline:
        with open(args.timeline, "w") as fh:
            fh.writelines(f"{sent:.4f} {1000 * latency:.2f}\n" for sent, latency in total.timeline)
    return 0 if total.acked > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
