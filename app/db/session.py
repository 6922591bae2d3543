"""The SQLAlchemy async engine for a database URL (used by the SQLite store)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from app.core.urls import async_url

POOL_SIZE = 10
MAX_OVERFLOW = 20


def make_engine(
    database_url: str, pool_size: int = POOL_SIZE, max_overflow: int = MAX_OVERFLOW
) -> AsyncEngine:
    """Create the async engine for a user-supplied URL (drivers chosen here; the pool's
    sizes apply to PostgreSQL)."""
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
        url, pool_size=pool_size, max_overflow=max_overflow, pool_pre_ping=True
    )
