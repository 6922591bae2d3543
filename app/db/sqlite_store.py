"""The SQLite store: the same contract as the PostgreSQL one, through SQLAlchemy Core.

SQLite is the zero-setup default (one process). A change is ``BEGIN; UPDATE … WHERE
version = :old; …; COMMIT``; a writer that finds the database locked gets :class:`Busy`
(a conflict for the caller). There is no NOTIFY: one process delivers its own commits.
The reads are :class:`~app.db.sqlite_reads.SqliteReads`, which this class extends with
the write path.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, insert, update
from sqlalchemy.exc import IntegrityError, OperationalError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.result_sql import SqliteSql
from app.db.result_writer import record_result
from app.db.rows import Change, TableState
from app.db.sqlite_reads import E, P, SqliteReads, T
from app.db.store import Busy, CodeClash, MoveIdClash, Unavailable


def _columns(t: TableState, history: list[Any] | None = None) -> dict[str, Any]:
    extra = {} if history is None else {"history": history}
    return extra | t.columns()


class SqliteStore(SqliteReads):
    """The :class:`~app.db.store.Store` on SQLite (one writer at a time)."""

    def __init__(self, engine: AsyncEngine, size: int = 8) -> None:
        self.engine = engine
        self._gate = asyncio.Semaphore(size)

    async def close(self) -> None:
        await self.engine.dispose()

    async def write(self, change: Change) -> bool:
        t = change.table
        now = datetime.now(UTC)
        try:
            async with self._gate, self.engine.begin() as conn:
                if t.id == 0:
                    res = await conn.execute(
                        insert(T).values(
                            code=t.code,
                            name=t.name,
                            players=t.players,
                            clock=t.clock,
                            public=t.public,
                            created_by=t.created_by,
                            rated=t.rated,
                            version=1,
                            created_at=now,
                            updated_at=now,
                            **_columns(t, change.history),
                        )
                    )
                    assert res.inserted_primary_key is not None
                    t.id, t.created_at = int(res.inserted_primary_key[0]), now
                else:
                    res = await conn.execute(
                        update(T)
                        .where(T.c.id == t.id, T.c.version == change.old_version)
                        .values(
                            version=change.old_version + 1,
                            updated_at=now,
                            **_columns(t, change.history),
                        )
                    )
                    if res.rowcount != 1:
                        await conn.rollback()
                        return False
                for p in change.removed:
                    await conn.execute(delete(P).where(P.c.id == p.id))
                for p in change.moved:
                    await conn.execute(update(P).where(P.c.id == p.id).values(**p.columns()))
                for p in change.added:
                    res = await conn.execute(
                        insert(P).values(table_id=t.id, created_at=now, **p.columns())
                    )
                    assert res.inserted_primary_key is not None
                    p.id = int(res.inserted_primary_key[0])
                await conn.execute(
                    insert(E),
                    [e.row(t.id) | {"created_at": now} for e in change.events],
                )
                if change.result is not None:
                    await record_result(SqliteSql(conn), t.id, change.result, now)
        except IntegrityError as exc:
            message = str(exc.orig).lower()
            if "move_id" in message:
                raise MoveIdClash() from exc
            if "code" in message:
                raise CodeClash() from exc
            raise Busy() from exc  # a seat raced: another change won
        except OperationalError as exc:
            if "locked" in str(exc.orig).lower():
                raise Busy() from exc
            raise Unavailable(type(exc).__name__) from exc
        except SQLAlchemyError as exc:
            raise Unavailable(type(exc).__name__) from exc
        return True
