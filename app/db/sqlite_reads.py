"""The SQLite store's reads: every query that changes nothing, through SQLAlchemy Core,
each on a connection of its own taken under the store's gate (at most ``size`` at once);
a database error is :class:`~app.db.store.Unavailable`. The write path is
:mod:`app.db.sqlite_store`, whose :class:`~app.db.sqlite_store.SqliteStore` is these
reads plus it. ``T``, ``P`` and ``E`` are the tables, ``game_tables``, ``players`` and
``table_events``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Table, and_, func, null, or_, select, text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.db.models import EventRow, PlayerRow, TableRow
from app.db.rows import (
    AFTER_TABLE,
    PLAYER_COLUMNS,
    Catchup,
    EventRecord,
    IdleTable,
    LobbyRow,
    PlayerState,
    PriorMove,
    TableState,
    TableStatus,
)
from app.db.store import Unavailable


def _table(model: type[Any]) -> Table:
    table = model.__table__
    assert isinstance(table, Table)
    return table


T, P, E = _table(TableRow), _table(PlayerRow), _table(EventRow)
_TABLE_COLS = (
    "id",
    "code",
    "name",
    "players",
    "public",
    "status",
    "host_seat",
    "version",
    "seq",
    "match_number",
    "state",
    "rematch_votes",
    "ready",
    "round_over_at",
    "created_at",
)


def _cols(*, history: bool) -> list[Any]:
    """The table's columns in :meth:`TableState.from_row` order; the finished rounds and
    the running round's secret seed only if asked (only the write path's ``load`` asks)."""
    return [
        *(T.c[c] for c in _TABLE_COLS),
        T.c.history if history else null(),
        T.c.commitment,
        T.c.deal_seed if history else null(),
        T.c.spectator_chat,
        T.c.clock,
        T.c.turn_deadline,
        T.c.banks,
        T.c.resigned,
        T.c.rated,
    ]


_EVENT_COLS = ("seq", "kind", "seat", "player_id", "move_id", "match_number", "payload")


class SqliteReads:
    """The read half of :class:`~app.db.sqlite_store.SqliteStore`, on its ``engine``."""

    engine: AsyncEngine
    _gate: asyncio.Semaphore

    async def ping(self) -> None:
        await self._read(lambda c: c.execute(text("SELECT 1")))

    async def _read(self, fn: Any) -> Any:
        try:
            async with self._gate, self.engine.connect() as conn:
                return await fn(conn)
        except SQLAlchemyError as exc:
            raise Unavailable(type(exc).__name__) from exc

    async def _players(self, conn: AsyncConnection, table_id: int) -> list[PlayerState]:
        rows = (
            await conn.execute(
                select(*(P.c[c] for c in PLAYER_COLUMNS)).where(P.c.table_id == table_id)
            )
        ).all()
        return [PlayerState.from_row(r) for r in rows]

    async def load(self, table_id: int) -> tuple[TableState, list[PlayerState]] | None:
        async def run(conn: AsyncConnection) -> tuple[TableState, list[PlayerState]] | None:
            row = (
                await conn.execute(select(*_cols(history=True)).where(T.c.id == table_id))
            ).first()
            if row is None:
                return None
            return TableState.from_row(row), await self._players(conn, table_id)

        result: tuple[TableState, list[PlayerState]] | None = await self._read(run)
        return result

    async def table_id(self, code: str) -> int | None:
        async def run(conn: AsyncConnection) -> Any:
            return await conn.scalar(select(T.c.id).where(T.c.code == code))

        tid = await self._read(run)
        return None if tid is None else int(tid)

    async def prior_move(self, table_id: int, move_id: str) -> PriorMove | None:
        async def run(conn: AsyncConnection) -> Any:
            return (
                await conn.execute(
                    select(E.c.seq, E.c.seat, E.c.payload).where(
                        E.c.table_id == table_id, E.c.move_id == move_id
                    )
                )
            ).first()

        row = await self._read(run)
        return None if row is None else PriorMove(int(row[0]), row[1], row[2].get("move"))

    async def player_by_token(self, table_id: int, token_hash: str) -> PlayerState | None:
        async def run(conn: AsyncConnection) -> Any:
            return (
                await conn.execute(
                    select(*(P.c[c] for c in PLAYER_COLUMNS)).where(
                        P.c.table_id == table_id, P.c.token_hash == token_hash
                    )
                )
            ).first()

        row = await self._read(run)
        return None if row is None else PlayerState.from_row(row)

    async def catchup(self, table_id: int, since: int, limit: int) -> Catchup | None:
        async def run(conn: AsyncConnection) -> Catchup | None:
            async with conn.begin():  # one read transaction: a consistent snapshot
                row = (
                    await conn.execute(select(*_cols(history=False)).where(T.c.id == table_id))
                ).first()
                if row is None:
                    return None
                table = TableState.from_row(row)
                events: list[EventRecord] = []
                if 0 <= table.seq - since <= limit:
                    rows = (
                        await conn.execute(
                            select(*(E.c[c] for c in _EVENT_COLS))
                            .where(E.c.table_id == table_id, E.c.seq > since)
                            .order_by(E.c.seq)
                        )
                    ).all()
                    events = [EventRecord.from_row(r) for r in rows]
                return Catchup(table, await self._players(conn, table_id), events)

        result: Catchup | None = await self._read(run)
        return result

    async def match_events(self, table_id: int, match_number: int) -> list[EventRecord]:
        async def run(conn: AsyncConnection) -> list[EventRecord]:
            rows = (
                await conn.execute(
                    select(*(E.c[c] for c in _EVENT_COLS))
                    .where(E.c.table_id == table_id, E.c.match_number == match_number)
                    .order_by(E.c.seq)
                )
            ).all()
            return [EventRecord.from_row(r) for r in rows]

        result: list[EventRecord] = await self._read(run)
        return result

    async def table_seqs(self, table_ids: list[int]) -> dict[int, int]:
        async def run(conn: AsyncConnection) -> dict[int, int]:
            rows = (await conn.execute(select(T.c.id, T.c.seq).where(T.c.id.in_(table_ids)))).all()
            return {int(r[0]): int(r[1]) for r in rows}

        result: dict[int, int] = await self._read(run)
        return result

    async def recent_events(self, table_id: int, kind: str, limit: int) -> list[EventRecord]:
        async def run(conn: AsyncConnection) -> list[EventRecord]:
            rows = (
                await conn.execute(
                    select(*(E.c[c] for c in _EVENT_COLS))
                    .where(E.c.table_id == table_id, E.c.kind == kind)
                    .order_by(E.c.seq.desc())
                    .limit(limit)
                )
            ).all()
            return [EventRecord.from_row(r) for r in reversed(rows)]

        result: list[EventRecord] = await self._read(run)
        return result

    async def lobby(
        self, limit: int, *, finished: bool = False, among: Collection[int] | None = None
    ) -> list[LobbyRow]:
        # finished: a table whose current match is over, or that has played an earlier
        # match to its end (a rematch, or a new player, followed it) and is not closed
        which = (
            or_(
                T.c.status == TableStatus.FINISHED,
                and_(T.c.match_number > 1, T.c.status != TableStatus.CLOSED),
            )
            if finished
            else T.c.status.in_([TableStatus.WAITING, TableStatus.PLAYING])
        )
        taken = select(func.count()).select_from(P).where(P.c.table_id == T.c.id).scalar_subquery()
        bots = (
            select(func.count())
            .select_from(P)
            .where(P.c.table_id == T.c.id, P.c.bot.is_not(None))
            .scalar_subquery()
        )

        async def run(conn: AsyncConnection) -> list[LobbyRow]:
            rows = (
                await conn.execute(
                    select(*_cols(history=False), taken, bots)
                    .where(
                        T.c.public.is_(True),
                        which,
                        *(() if among is None else (T.c.id.in_(list(among)),)),
                    )
                    .order_by(T.c.created_at.desc(), T.c.id.desc())
                    .limit(limit)
                )
            ).all()
            return [
                LobbyRow(TableState.from_row(r), int(r[AFTER_TABLE]), int(r[AFTER_TABLE + 1]))
                for r in rows
            ]

        result: list[LobbyRow] = await self._read(run)
        return result

    async def live_tables_created_by(self, created_by: str) -> int:
        live = [TableStatus.WAITING, TableStatus.PLAYING]
        query = (
            select(func.count())
            .select_from(T)
            .where(T.c.created_by == created_by, T.c.status.in_(live))
        )
        count = await self._read(lambda c: c.scalar(query))
        return int(count or 0)

    async def idle_tables(self, idle_for: float, limit: int) -> list[IdleTable]:
        now = datetime.now(UTC)

        async def run(conn: AsyncConnection) -> list[IdleTable]:
            rows = (
                await conn.execute(
                    select(T.c.id, T.c.version, T.c.updated_at)
                    .where(
                        T.c.status.in_([TableStatus.WAITING, TableStatus.PLAYING]),
                        T.c.updated_at < now - timedelta(seconds=idle_for),
                    )
                    .order_by(T.c.updated_at)
                    .limit(limit)
                )
            ).all()
            ids = [int(r[0]) for r in rows]
            seats: dict[int, list[int]] = {i: [] for i in ids}
            if ids:
                people = await conn.execute(
                    select(P.c.table_id, P.c.seat)
                    .where(P.c.table_id.in_(ids), P.c.bot.is_(None))
                    .order_by(P.c.seat)
                )
                for table_id, seat in people.all():
                    seats[int(table_id)].append(int(seat))
            return [
                IdleTable(
                    int(r[0]),
                    int(r[1]),
                    (now - r[2].replace(tzinfo=r[2].tzinfo or UTC)).total_seconds(),
                    seats[int(r[0])],
                )
                for r in rows
            ]

        result: list[IdleTable] = await self._read(run)
        return result

    async def round_over_tables(self) -> list[TableState]:
        async def run(conn: AsyncConnection) -> list[TableState]:
            rows = (
                await conn.execute(
                    select(*_cols(history=False)).where(
                        T.c.status == TableStatus.PLAYING, T.c.round_over_at.is_not(None)
                    )
                )
            ).all()
            return [TableState.from_row(r) for r in rows]

        result: list[TableState] = await self._read(run)
        return result

    async def turn_tables(
        self, overdue_before: datetime | None = None
    ) -> list[tuple[TableState, list[PlayerState]]]:
        has_bot = (
            select(P.c.id)
            .where(P.c.table_id == T.c.id, or_(P.c.bot.is_not(None), P.c.autopilot.is_(True)))
            .exists()
        )

        async def run(conn: AsyncConnection) -> list[tuple[TableState, list[PlayerState]]]:
            rows = (
                await conn.execute(
                    select(*_cols(history=False)).where(
                        T.c.status == TableStatus.PLAYING,
                        or_(has_bot, T.c.clock != "none")
                        if overdue_before is None
                        else T.c.turn_deadline < overdue_before,
                    )
                )
            ).all()
            return [(TableState.from_row(r), await self._players(conn, int(r[0]))) for r in rows]

        result: list[tuple[TableState, list[PlayerState]]] = await self._read(run)
        return result
