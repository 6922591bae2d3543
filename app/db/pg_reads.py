"""The PostgreSQL store's reads: every query that changes nothing, each on one of the
store's autocommit connections (:mod:`app.db.pg_connections`), retried once on a fresh
connection when the one it had was dead (:func:`retried_once`). The write path is
:mod:`app.db.pg_store`, whose :class:`~app.db.pg_store.PgStore` is these reads plus it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Coroutine
from datetime import datetime
from typing import Any, Concatenate, ParamSpec, TypeVar

from app.db.pg_connections import PgConnections
from app.db.pg_sql import (
    EVENT_COLS,
    IDLE_TABLES,
    LIVE_CREATED_BY,
    LOAD,
    LOAD_NOW,
    PLAYERS_JSON,
    TABLE_COLS_NOW,
    players_of,
)
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

P = ParamSpec("P")
R = TypeVar("R")
S = TypeVar("S", bound="PgReads")


def retried_once(
    method: Callable[Concatenate[S, P], Coroutine[Any, Any, R]],
) -> Callable[Concatenate[S, P], Coroutine[Any, Any, R]]:
    """Run a store operation once more when it failed on a dead connection (an outage or
    a server restart killed the idle ones): every operation is safe to repeat — reads
    are, and a write that did commit finds the version moved on the second time."""

    @functools.wraps(method)
    async def run(store: S, /, *args: P.args, **kwargs: P.kwargs) -> R:
        before = store.connections.failures
        try:
            return await method(store, *args, **kwargs)
        except Unavailable:
            if store.connections.failures == before:
                raise  # not a dead connection: the database itself
            return await method(store, *args, **kwargs)

    return run


class PgReads:
    """The read half of :class:`~app.db.pg_store.PgStore`, on its ``connections``."""

    connections: PgConnections

    @retried_once
    async def ping(self) -> None:
        async with self.connections.connection() as conn:
            await conn.execute("SELECT 1")

    @retried_once
    async def load(self, table_id: int) -> tuple[TableState, list[PlayerState]] | None:
        async with self.connections.connection() as conn:
            row = await (await conn.execute(LOAD, (table_id,))).fetchone()
        if row is None:
            return None
        return TableState.from_row(row), players_of(row[AFTER_TABLE])

    @retried_once
    async def table_id(self, code: str) -> int | None:
        async with self.connections.connection() as conn:
            row = await (
                await conn.execute("SELECT id FROM game_tables WHERE code = %s", (code,))
            ).fetchone()
        return None if row is None else int(row[0])

    @retried_once
    async def prior_move(self, table_id: int, move_id: str) -> PriorMove | None:
        async with self.connections.connection() as conn:
            row = await (
                await conn.execute(
                    "SELECT seq, seat, payload->>'move' FROM table_events"
                    " WHERE table_id = %s AND move_id = %s",
                    (table_id, move_id),
                )
            ).fetchone()
        return None if row is None else PriorMove(int(row[0]), row[1], row[2])

    @retried_once
    async def player_by_token(self, table_id: int, token_hash: str) -> PlayerState | None:
        async with self.connections.connection() as conn:
            row = await (
                await conn.execute(
                    f"SELECT {', '.join(PLAYER_COLUMNS)} FROM players"
                    " WHERE table_id = %s AND token_hash = %s",
                    (table_id, token_hash),
                )
            ).fetchone()
        return None if row is None else PlayerState.from_row(row)

    @retried_once
    async def catchup(self, table_id: int, since: int, limit: int) -> Catchup | None:
        async with self.connections.connection() as conn, conn.transaction():
            await conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            row = await (await conn.execute(LOAD_NOW, (table_id,))).fetchone()
            if row is None:
                return None
            table = TableState.from_row(row)
            events: list[EventRecord] = []
            if 0 <= table.seq - since <= limit:
                cur = await conn.execute(
                    f"SELECT {EVENT_COLS} FROM table_events WHERE table_id = %s AND seq > %s"
                    " ORDER BY seq",
                    (table_id, since),
                )
                events = [EventRecord.from_row(r) for r in await cur.fetchall()]
        players = players_of(row[AFTER_TABLE])
        return Catchup(table, players, events)

    async def match_events(self, table_id: int, match_number: int) -> list[EventRecord]:
        async with self.connections.connection() as conn:
            cur = await conn.execute(
                f"SELECT {EVENT_COLS} FROM table_events WHERE table_id = %s"
                " AND match_number = %s ORDER BY seq",
                (table_id, match_number),
            )
            return [EventRecord.from_row(r) for r in await cur.fetchall()]

    @retried_once
    async def recent_events(self, table_id: int, kind: str, limit: int) -> list[EventRecord]:
        async with self.connections.connection() as conn:
            cur = await conn.execute(
                f"SELECT {EVENT_COLS} FROM table_events WHERE table_id = %s AND kind = %s"
                " ORDER BY seq DESC LIMIT %s",
                (table_id, kind, limit),
            )
            rows = await cur.fetchall()
        return [EventRecord.from_row(r) for r in reversed(rows)]

    @retried_once
    async def table_seqs(self, table_ids: list[int]) -> dict[int, int]:
        async with self.connections.connection() as conn:
            cur = await conn.execute(
                "SELECT id, seq FROM game_tables WHERE id = ANY(%s)", (table_ids,)
            )
            return {int(r[0]): int(r[1]) for r in await cur.fetchall()}

    @retried_once
    async def lobby(
        self, limit: int, *, finished: bool = False, among: Collection[int] | None = None
    ) -> list[LobbyRow]:
        # finished: a table whose current match is over, or that has played an earlier
        # match to its end (a rematch, or a new player, followed it) and is not closed
        where = (
            "(t.status = 'finished' OR (t.match_number > 1 AND t.status <> 'closed'))"
            if finished
            else "t.status IN ('waiting', 'playing')"
        )
        only = "" if among is None else " AND t.id = ANY(%s)"
        params = (limit,) if among is None else (list(among), limit)
        async with self.connections.connection() as conn:
            cur = await conn.execute(
                f"SELECT {TABLE_COLS_NOW},"
                " (SELECT count(*) FROM players p WHERE p.table_id = t.id),"
                " (SELECT count(*) FROM players p WHERE p.table_id = t.id AND p.bot IS NOT NULL)"
                f" FROM game_tables t WHERE t.public AND {where}{only}"
                " ORDER BY t.created_at DESC, t.id DESC LIMIT %s",
                params,
            )
            rows = await cur.fetchall()
        return [
            LobbyRow(TableState.from_row(r), int(r[AFTER_TABLE]), int(r[AFTER_TABLE + 1]))
            for r in rows
        ]

    @retried_once
    async def idle_tables(self, idle_for: float, limit: int) -> list[IdleTable]:
        live = [TableStatus.WAITING, TableStatus.PLAYING]
        async with self.connections.connection() as conn:
            cur = await conn.execute(IDLE_TABLES, (live, idle_for, limit))
            rows = await cur.fetchall()
        return [IdleTable(int(r[0]), int(r[1]), float(r[2]), list(r[3])) for r in rows]

    @retried_once
    async def live_tables_created_by(self, created_by: str) -> int:
        async with self.connections.connection() as conn:
            cur = await conn.execute(LIVE_CREATED_BY, (created_by,))
            row = await cur.fetchone()
        return int(row[0]) if row is not None else 0

    @retried_once
    async def round_over_tables(self) -> list[TableState]:
        async with self.connections.connection() as conn:
            cur = await conn.execute(
                f"SELECT {TABLE_COLS_NOW} FROM game_tables"
                " WHERE status = 'playing' AND round_over_at IS NOT NULL"
            )
            rows = await cur.fetchall()
        return [TableState.from_row(r) for r in rows]

    @retried_once
    async def turn_tables(
        self, overdue_before: datetime | None = None
    ) -> list[tuple[TableState, list[PlayerState]]]:
        async with self.connections.connection() as conn:
            if overdue_before is None:
                cur = await conn.execute(
                    f"SELECT {TABLE_COLS_NOW}, {PLAYERS_JSON} FROM game_tables t"
                    " WHERE t.status = 'playing' AND (t.clock <> 'none' OR EXISTS"
                    " (SELECT 1 FROM players b WHERE b.table_id = t.id"
                    " AND (b.bot IS NOT NULL OR b.autopilot)))"
                )
            else:
                cur = await conn.execute(
                    f"SELECT {TABLE_COLS_NOW}, {PLAYERS_JSON} FROM game_tables t"
                    " WHERE t.status = 'playing' AND t.turn_deadline < %s",
                    (overdue_before,),
                )
            rows = await cur.fetchall()
        return [(TableState.from_row(r), players_of(r[AFTER_TABLE])) for r in rows]
