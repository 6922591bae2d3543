"""``pg_notify`` right AFTER a change's commit instead of inside it (opt-in,
``FIVEUP_NOTIFY=after_commit``).

Why: PostgreSQL serialises the commits of all transactions that issued a NOTIFY (a
cluster-wide lock held until the commit record is flushed), so with NOTIFY inside every
move's transaction the commits cannot share a WAL flush and the move rate is capped near
1 / fsync time. Here one connection per process sends the notifications of recently
committed changes in batches, as its own transactions with ``synchronous_commit = off``
(a NOTIFY-only transaction has nothing to make durable), so they hold that lock only for
a moment. Delivery order per table is the commit order (one writer per table).

The cost: a process that dies between its commit and this send leaves other processes
un-notified of that event; in this mode every process therefore checks its tables
against the database every 2 s (:meth:`app.realtime.hub.Hub.reconcile`), so such an
event reaches their sockets within about 2 s instead of at once.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import psycopg

from app.db.channel import CHANNEL

#: payloads kept while the database is unreachable; older ones are dropped first (a lost
#: commit note is caught up by ``Hub.reconcile``, a lost presence report by the next
#: heartbeat), so an outage cannot grow this without bound
MAX_PENDING = 10_000


class PgNotifier:
    """Sends queued NOTIFY payloads in batches on a connection of its own (also used for
    presence reports, on their own channel)."""

    def __init__(self, dsn: str, channel: str = CHANNEL) -> None:
        self.dsn = dsn
        self.channel = channel
        self._pending: list[str] = []
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._conn: psycopg.AsyncConnection[Any] | None = None

    def send(self, payload: str) -> None:
        """Queue one payload (called right after a commit)."""
        self._pending.append(payload)
        if len(self._pending) > MAX_PENDING:
            del self._pending[: len(self._pending) - MAX_PENDING]
        if self._task is None:
            self._wake = asyncio.Event()
            self._task = asyncio.get_running_loop().create_task(self._run())
        assert self._wake is not None
        self._wake.set()

    async def _run(self) -> None:
        assert self._wake is not None
        delay = 0.1
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                batch, self._pending = self._pending, []
                while batch:
                    try:
                        conn = await self._connection()
                        await conn.execute(
                            "SELECT pg_notify(%s, x) FROM unnest(%s::text[]) AS x",
                            (self.channel, batch),
                        )
                        batch = []
                        delay = 0.1
                    except psycopg.Error:
                        await asyncio.sleep(delay)  # keep the batch: it must go out
                        delay = min(delay * 2, 5.0)
                        batch = (batch + self._pending)[-MAX_PENDING:]
                        self._pending = []
        finally:
            if self._conn is not None:
                with contextlib.suppress(Exception):
                    await self._conn.close()

    async def _connection(self) -> psycopg.AsyncConnection[Any]:
        conn = self._conn
        if conn is None or conn.closed or conn.broken:
            conn = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)
            await conn.execute("SET synchronous_commit = off")
            self._conn = conn
        return conn

    async def close(self) -> None:
        """Send what is still queued (for a moment at most), then stop."""
        if self._pending and self._task is not None:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(1.0):
                    conn = await self._connection()
                    await conn.execute(
                        "SELECT pg_notify(%s, x) FROM unnest(%s::text[]) AS x",
                        (self.channel, self._pending),
                    )
                    self._pending = []
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
