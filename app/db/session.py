"""Async engine and session factory."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from app.core.urls import async_url

POOL_SIZE = 10
MAX_OVERFLOW = 20


def make_engine(database_url: str) -> AsyncEngine:
    """Create the async engine for a user-supplied URL (drivers chosen here)."""
    url = async_url(database_url)
    if url.startswith("sqlite"):
        engine = create_async_engine(url, connect_args={"timeout": 30})

        @event.listens_for(engine.sync_engine, "connect")
        def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

        return engine
    return create_async_engine(
        url, pool_size=POOL_SIZE, max_overflow=MAX_OVERFLOW, pool_pre_ping=True
    )


class GatedSessions:
    """A session factory that bounds how many sessions are open at once.

    Waiting for a slot here (in memory, in order) instead of inside the connection pool
    means a burst of requests queues up rather than failing with a pool timeout.
    ``async with sessions() as s`` works like ``async_sessionmaker``.
    """

    def __init__(self, maker: async_sessionmaker[AsyncSession], limit: int) -> None:
        self.maker = maker
        self.kw = maker.kw
        self.limit = limit
        self._gate = asyncio.Semaphore(limit)

    @asynccontextmanager
    async def __call__(self) -> AsyncIterator[AsyncSession]:
        async with self._gate, self.maker() as session:
            yield session


def make_sessionmaker(engine: AsyncEngine) -> GatedSessions:
    """Sessions that keep loaded attributes after commit, at most the pool's size open."""
    limit = 8 if engine.dialect.name == "sqlite" else POOL_SIZE + MAX_OVERFLOW - 2
    return GatedSessions(async_sessionmaker(engine, expire_on_commit=False), limit)
