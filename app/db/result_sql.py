"""The two stores' :class:`~app.db.result_writer.Sql`: statements with ``:name``
parameters on an open transaction — psycopg's (which takes ``%(name)s``, and sends a
batch in one round trip through its pipeline) and SQLAlchemy Core's on SQLite (which
stores times as naive UTC text)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

import psycopg
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection

_NAMED = re.compile(r"(?<!:):(\w+)")


@lru_cache(maxsize=64)
def _pg_text(sql: str) -> str:
    return _NAMED.sub(r"%(\1)s", sql)


class PgSql:
    """Statements on a psycopg connection inside its transaction; reads lock their rows."""

    locks = True

    def __init__(self, conn: psycopg.AsyncConnection[Any]) -> None:
        self.conn = conn

    async def batch(
        self, statements: Sequence[tuple[str, dict[str, Any]]]
    ) -> list[Sequence[Sequence[Any]]]:
        async with self.conn.pipeline() as pipeline:
            cursors = [await self.conn.execute(_pg_text(q), p) for q, p in statements]
            await pipeline.sync()
            return [await c.fetchall() if c.description is not None else [] for c in cursors]


class SqliteSql:
    """Statements on SQLAlchemy's SQLite connection inside its transaction (the one
    writer: nothing to lock)."""

    locks = False

    def __init__(self, conn: AsyncConnection) -> None:
        self.conn = conn

    async def batch(
        self, statements: Sequence[tuple[str, dict[str, Any]]]
    ) -> list[Sequence[Sequence[Any]]]:
        answers: list[Sequence[Sequence[Any]]] = []
        for q, params in statements:
            values = {k: _sqlite_value(v) for k, v in params.items()}
            res = await self.conn.execute(text(q), values)
            answers.append([tuple(r) for r in res.fetchall()] if res.returns_rows else [])
        return answers


def _sqlite_value(value: Any) -> Any:
    """A time as SQLAlchemy's SQLite DateTime stores it (naive UTC text)."""
    if isinstance(value, datetime):
        return value.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")
    return value
