"""Computer players under load, in the real table service on PostgreSQL.

``--tables`` practice tables (one person and ``--players - 1`` bots of ``--level``) play
for ``--seconds`` on a scratch database (created and dropped): the bots through the
server's bot turns (``BotTurns``: the pool of ``--pool`` processes, ``hard``'s budget of
``--budget`` ms shrunk under load), the people by a task that plays a greedy move through
``TableService.act`` as soon as it is their turn (rematches included). After
``--warmup`` seconds (the pool's processes start), it reports bot moves
per second, each bot turn's time from the commit that made it due to the commit of its
move (no delay: ``FIVEUP_BOT_DELAY_MS`` = 0), the budgets ``hard`` was given, and the
latency of the people's ``act`` calls — what bot thinking costs people.

    python -m bench.bot_turns --tables 1 --seconds 20
    python -m bench.bot_turns --tables 16 --seconds 20

Only the local PostgreSQL (``--admin``) is used.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import secrets
import statistics
import time
from collections.abc import Awaitable, Callable

import psycopg

from app.core.settings import Settings
from app.db.migrate import migrate_to_head
from app.engine.views import legal_entries
from app.main import make_store
from app.realtime.committed import Committed
from app.tables.bot_turns import BotSettings
from app.tables.delivery_port import NoDelivery
from app.tables.service import TableService


class Watching(NoDelivery):
    """Every commit, projected, to ``deliver``."""

    def __init__(self, deliver: Callable[[Committed], Awaitable[None]]) -> None:
        super().__init__()
        self._deliver = deliver

    def watches(self, table_id: int) -> bool:
        return True

    async def committed(self, c: Committed) -> None:
        await self._deliver(c)


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


async def run(url: str, args: argparse.Namespace) -> None:
    due_at: dict[int, float] = {}  # table -> when a bot became due
    turn_ms: list[float] = []
    act_ms: list[float] = []
    bot_moves = 0
    person_due: asyncio.Queue[int] = asyncio.Queue()
    svc: TableService

    async def deliver(c: Committed) -> None:
        nonlocal bot_moves
        now = time.perf_counter()
        tid = c.table.id
        if tid in due_at and any(e.move_id and e.move_id.startswith("bot-") for e in c.events):
            turn_ms.append((now - due_at.pop(tid)) * 1000)
            bot_moves += 1
        views = c.views
        public = views.public if views is not None else None
        if c.table.status == "finished":
            person_due.put_nowait(tid)
        elif (
            public is not None
            and views is not None
            and views.summary is not None
            and not views.summary.round_over
            and public["turn"] is not None
        ):
            if public["turn"] == 0:
                person_due.put_nowait(tid)
            else:
                due_at[tid] = now

    svc = TableService(
        make_store(Settings(database_url=url)),
        next_round_seconds=0,
        delivery=Watching(deliver),
        bot_settings=BotSettings(hard_budget_ms=args.budget, pool=args.pool),
    )
    tokens: dict[int, str] = {}
    codes: dict[int, str] = {}
    rng = random.Random(1)

    async def person() -> None:
        while True:
            tid = await person_due.get()
            loaded = await svc.store.load(tid)
            assert loaded is not None
            table, _ = loaded
            m = table.match()
            t0 = time.perf_counter()
            if table.status == "finished":
                await svc.rematch(codes[tid], tokens[tid])
                continue
            if m is None or m.turn != 0:
                continue
            legal = legal_entries(m, 0)
            best = max(e.get("points", 0) for e in legal)
            move = rng.choice([e for e in legal if e.get("points", 0) == best])["move"]
            await svc.act(tid, tokens[tid], move, seq=table.seq)
            act_ms.append((time.perf_counter() - t0) * 1000)

    workers = [asyncio.create_task(person()) for _ in range(4)]
    for i in range(args.tables):
        joined = await svc.practice(args.players, args.level, f"P{i}")
        tid = await svc.table_id(joined.code)
        tokens[tid], codes[tid] = joined.token, joined.code
    await asyncio.sleep(args.warmup)  # the pool's processes start (spawn) meanwhile
    turn_ms.clear()
    act_ms.clear()
    bot_moves = 0
    svc.bot_turns.hard_budgets.clear()
    start = time.perf_counter()
    await asyncio.sleep(args.seconds)
    elapsed = time.perf_counter() - start
    for w in workers:
        w.cancel()
    budgets = list(svc.bot_turns.hard_budgets)
    await svc.close()
    print(
        f"tables={args.tables} players={args.players} level={args.level} pool={args.pool}"
        f" budget={args.budget:g}ms seconds={elapsed:.0f}"
    )
    print(f"  bot moves/s {bot_moves / elapsed:.1f}")
    print(
        f"  bot turn ms (due -> committed): p50 {pct(turn_ms, 0.5):.0f}"
        f" p99 {pct(turn_ms, 0.99):.0f} max {max(turn_ms, default=float('nan')):.0f}"
    )
    if budgets:
        print(
            f"  hard budget ms given: mean {statistics.mean(budgets):.0f}"
            f" min {min(budgets):.0f} (last {len(budgets)} turns)"
        )
    print(
        f"  people's act ms: p50 {pct(act_ms, 0.5):.1f} p99 {pct(act_ms, 0.99):.1f}"
        f" ({len(act_ms)} moves)"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=1)
    ap.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    ap.add_argument("--level", default="hard", choices=("easy", "medium", "hard"))
    ap.add_argument("--pool", type=int, default=1)
    ap.add_argument("--budget", type=float, default=300.0)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--warmup", type=float, default=8.0, help="seconds not measured first")
    ap.add_argument("--admin", default="postgresql://postgres@127.0.0.1:5432/postgres")
    args = ap.parse_args()
    name = f"fiveup_bench_bots_{secrets.token_hex(4)}"
    with psycopg.connect(args.admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = f"{args.admin.rsplit('/', 1)[0]}/{name}"
    try:
        migrate_to_head(url)
        asyncio.run(run(url, args))
    finally:
        with psycopg.connect(args.admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    main()
