"""What the stores off the move path share (profiles, moderation, ...): one SQLAlchemy
Core engine of their own, one transaction per call, and the database's failures as the
store's errors (``Unavailable``; a store may map an integrity error to its own)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from sqlalchemy import Table
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.db.store import Unavailable

R = TypeVar("R")


def table_of(model: type[Any]) -> Table:
    """The Core table of a declarative model."""
    table: Table = model.__table__
    return table


class CoreStore:
    """A store over SQLAlchemy Core (PostgreSQL or SQLite) with its own engine."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def close(self) -> None:
        await self.engine.dispose()

    def integrity_error(self, exc: IntegrityError) -> Exception:
        """The error an integrity violation is raised as (default: ``Unavailable``)."""
        return Unavailable(type(exc).__name__)

    async def _run(self, fn: Callable[[AsyncConnection], Awaitable[R]]) -> R:
        """``fn`` in one transaction, committed when it returns."""
        try:
            async with self.engine.begin() as conn:
                return await fn(conn)
        except IntegrityError as exc:
            raise self.integrity_error(exc) from exc
        except SQLAlchemyError as exc:
            raise Unavailable(type(exc).__name__) from exc
