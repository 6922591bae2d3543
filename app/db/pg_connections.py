"""The PostgreSQL store's connections: at most ``size`` autocommit psycopg connections
of its own, handed out one caller at a time (callers beyond that wait in memory, in
order); a connection is checked before reuse when it sat idle a while or another one
failed since, and one that failed is dropped, never reused (docs/decisions.md).

``failures`` counts the connection-level failures seen: an outage or a server restart
kills every idle connection, and a store operation that failed on one of those is worth
running once more on a fresh one (``retried_once`` in :mod:`app.db.pg_reads`).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from typing import Any

import orjson
import psycopg
from psycopg.types.json import set_json_loads

from app.core import metrics
from app.db.store import Unavailable

Conn = psycopg.AsyncConnection[Any]

#: an idle connection older than this is checked before it is used again
IDLE_CHECK_SECONDS = 5.0


class PgConnections:
    """A few connections to one database (see the module's docstring)."""

    def __init__(self, dsn: str, size: int) -> None:
        self.dsn = dsn
        self.size = size
        #: connection-level failures seen so far
        self.failures = 0
        #: idle connections, each with the failure count and the time it was put back
        self._idle: list[tuple[Conn, int, float]] = []
        self._gate = asyncio.Semaphore(size)
        metrics.db_pool(size)
        self._closed = False
        self._closing: set[asyncio.Task[None]] = set()

    @contextlib.asynccontextmanager
    async def connection(self) -> AsyncIterator[Conn]:
        """A working connection for the block; the database's errors leave it as
        :class:`~app.db.store.Unavailable` (unique and foreign-key violations as they
        are: the store maps them)."""
        metrics.db_wait(+1)
        try:
            await self._gate.acquire()
        finally:
            metrics.db_wait(-1)
        metrics.db_checkout(+1)
        try:
            conn = await self._checked_out()
            try:
                yield conn
            except (psycopg.errors.UniqueViolation, psycopg.errors.ForeignKeyViolation):
                self._put_back(conn)
                raise
            except psycopg.Error as exc:
                metrics.db_failed(link_lost=conn.broken or conn.closed)
                self._discard_or_keep(conn)
                raise Unavailable(type(exc).__name__) from exc
            except BaseException:  # cancelled mid-statement: the connection's state is unknown
                with contextlib.suppress(Exception):
                    await conn.close()
                raise
            else:
                metrics.db_reached()
                if self._closed:
                    await conn.close()
                else:
                    self._put_back(conn)
        finally:
            metrics.db_checkout(-1)
            self._gate.release()

    async def close(self) -> None:
        if not self._closed:
            metrics.db_pool(-self.size)
        self._closed = True
        while self._idle:
            await _close_quietly(self._idle.pop()[0])

    def _put_back(self, conn: Conn) -> None:
        self._idle.append((conn, self.failures, time.monotonic()))

    async def _checked_out(self) -> Conn:
        """An idle connection that still works, else a new one. A connection is checked
        (``SELECT 1``) before reuse when it sat idle a while or a connection failed since
        it was put back: after an outage or a server restart every idle connection is
        dead, and no user's action should be the one to find out."""
        while self._idle:
            conn, failures, since = self._idle.pop()
            if conn.closed or conn.broken:
                continue
            if failures == self.failures and time.monotonic() - since < IDLE_CHECK_SECONDS:
                return conn
            try:
                await conn.execute("SELECT 1")
                return conn
            except psycopg.Error:
                self.failures += 1
                metrics.db_connection_failed()
                await _close_quietly(conn)
        try:
            conn = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)
        except psycopg.Error as exc:
            metrics.db_failed(link_lost=True)
            raise Unavailable(type(exc).__name__) from exc
        set_json_loads(orjson.loads, conn)
        return conn

    def _discard_or_keep(self, conn: Conn) -> None:
        if conn.broken or conn.closed or conn.info.transaction_status != 0:  # 0: IDLE
            self.failures += 1
            metrics.db_connection_failed()
            task = asyncio.get_running_loop().create_task(_close_quietly(conn))
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)
        else:
            self._put_back(conn)


async def _close_quietly(conn: Conn) -> None:
    with contextlib.suppress(Exception):
        await conn.close()
