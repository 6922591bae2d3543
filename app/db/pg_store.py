"""The PostgreSQL store: psycopg 3 on a few autocommit connections of its own, no ORM.

A change that only updates the table and appends events (a move, a vote, a deal — the
hot path) is ONE statement, its own transaction, committed when it returns::

    WITH u AS (UPDATE game_tables SET … WHERE id = :id AND version = :old RETURNING id),
         e AS (INSERT INTO table_events … SELECT … FROM u, (VALUES …))
    SELECT pg_notify(:channel, :note) FROM u

— the events and the NOTIFY exist only if the version matched. A change that seats or
unseats players, or ends a match (its result and ratings, app/db/result_writer.py),
takes a few statements inside ``BEGIN … COMMIT`` on the same kind of
connection (:mod:`app.db.pg_connections`: checked before reuse after an error, dropped
when one failed). The reads are :class:`~app.db.pg_reads.PgReads`, which this class
extends with the write path.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from datetime import UTC, datetime
from typing import Any

import psycopg

from app.core.json_text import json_text
from app.db.channel import CHANNEL, encode_note
from app.db.pg_connections import PgConnections
from app.db.pg_group import GroupCommit, group_params, group_write_sql
from app.db.pg_reads import PgReads, retried_once
from app.db.pg_sql import (
    EVENT_COLS,
    INSERT_PLAYER,
    TABLE_SET,
    UPDATE_PLAYER,
    WRITE_SQL,
    event_params,
    one_statement_write,
    table_params,
)
from app.db.result_sql import PgSql
from app.db.result_writer import record_result
from app.db.rows import Change
from app.db.store import CodeClash, MoveIdClash, Unavailable


class PgStore(PgReads):
    """The :class:`~app.db.store.Store` on PostgreSQL. At most ``size`` connections; callers
    beyond that wait in memory, in order."""

    def __init__(
        self,
        dsn: str,
        size: int = 8,
        *,
        notify_in_transaction: bool = True,
        on_commit: Callable[[str], None] | None = None,
    ) -> None:
        self.dsn = dsn
        self.size = size
        self.connections = PgConnections(dsn, size)
        #: False: the NOTIFY is left to ``on_commit`` (FIVEUP_NOTIFY=after_commit)
        self.notify_in_transaction = notify_in_transaction
        self.on_commit = on_commit
        #: the one-statement writes of many tables, committed together (app/db/pg_group.py)
        self.group = GroupCommit(
            self._write_batch, self._write_alone, lambda: self.connections.failures
        )
        self._group_sql = group_write_sql(notify_in_transaction)

    async def close(self) -> None:
        await self.connections.close()

    # -- the one write -----------------------------------------------------------------
    @retried_once
    async def write(self, change: Change) -> bool:
        if change.seating:
            written = await self._mapped(self._write_seating, change)
        else:
            written = await self.group.write(change)
        if written and not self.notify_in_transaction and self.on_commit is not None:
            self.on_commit(_note(change))
        return written

    async def _write_alone(self, change: Change) -> bool:
        return await self._mapped(self._write_one_statement, change)

    @staticmethod
    async def _mapped(write: Callable[[Change], Coroutine[Any, Any, bool]], change: Change) -> bool:
        """``write(change)`` with the database's refusals as the store's errors."""
        try:
            return await write(change)
        except psycopg.errors.UniqueViolation as exc:
            if exc.diag.constraint_name == "uq_table_events_move_id":
                raise MoveIdClash() from exc
            if "code" in (exc.diag.constraint_name or ""):
                raise CodeClash() from exc
            raise Unavailable("UniqueViolation") from exc  # a seat raced: the version check
        except psycopg.errors.ForeignKeyViolation as exc:
            raise Unavailable("ForeignKeyViolation") from exc

    async def _write_batch(self, changes: list[Change]) -> set[int]:
        """Many tables' changes in one statement: the ids of the tables written."""
        params = group_params(changes, CHANNEL)
        async with self.connections.connection() as conn:
            cur = await conn.execute(self._group_sql, params)
            return {int(r[0]) for r in await cur.fetchall()}

    async def _write_one_statement(self, change: Change) -> bool:
        key = (len(change.events), self.notify_in_transaction, change.history is not None)
        sql = WRITE_SQL.get(key)
        if sql is None:
            sql = WRITE_SQL[key] = one_statement_write(*key)
        params = table_params(change.table)
        params.update(event_params(change.events))
        params["version"] = change.old_version
        if change.history is not None:
            params["history"] = json_text(change.history)
        params["channel"] = CHANNEL
        params["note"] = _note(change)
        async with self.connections.connection() as conn:
            return await (await conn.execute(sql, params)).fetchone() is not None

    async def _write_seating(self, change: Change) -> bool:
        t = change.table
        async with self.connections.connection() as conn, conn.transaction():
            if t.id == 0:
                row = await (
                    await conn.execute(
                        "INSERT INTO game_tables (code, name, players, public, status, host_seat,"
                        " version, seq, match_number, state, rematch_votes, ready, round_over_at,"
                        " commitment, deal_seed, history, spectator_chat, clock, turn_deadline, banks,"
                        " resigned, created_by, rated, created_at, updated_at)"
                        " VALUES (%(code)s, %(name)s, %(players)s, %(public)s, %(status)s,"
                        " %(host_seat)s, 1, %(seq)s, %(match_number)s, %(state)s::jsonb,"
                        " %(rematch_votes)s::jsonb, %(ready)s::jsonb, %(round_over_at)s,"
                        " %(commitment)s, %(deal_seed)s, %(history)s::jsonb,"
                        " %(spectator_chat)s, %(clock)s, %(turn_deadline)s, %(banks)s::jsonb,"
                        " %(resigned)s, %(created_by)s, %(rated)s, now(), now()) RETURNING id, created_at",
                        dict(
                            table_params(t),
                            code=t.code,
                            name=t.name,
                            players=t.players,
                            public=t.public,
                            clock=t.clock,
                            created_by=t.created_by,
                            rated=t.rated,
                            history=None if change.history is None else json_text(change.history),
                        ),
                    )
                ).fetchone()
                assert row is not None
                t.id, t.created_at = int(row[0]), row[1]
            else:
                cur = await conn.execute(
                    f"UPDATE game_tables SET version = version + 1, {TABLE_SET},"
                    " history = coalesce(%(history)s::jsonb, history)"
                    " WHERE id = %(id)s AND version = %(version)s",
                    dict(
                        table_params(t),
                        version=change.old_version,
                        history=None if change.history is None else json_text(change.history),
                    ),
                )
                if cur.rowcount != 1:
                    raise psycopg.Rollback()
            for p in change.removed:
                await conn.execute("DELETE FROM players WHERE id = %s", (p.id,))
            for p in change.moved:
                await conn.execute(UPDATE_PLAYER, {**p.columns(), "id": p.id})
            for p in change.added:
                row = await (
                    await conn.execute(
                        INSERT_PLAYER,
                        {**p.columns(), "table_id": t.id},
                    )
                ).fetchone()
                assert row is not None
                p.id = int(row[0])
            async with conn.cursor() as cur:
                await cur.executemany(
                    f"INSERT INTO table_events (table_id, {EVENT_COLS}, created_at)"
                    " VALUES (%s, %s, %s, %s, %s, %s, %s, %s::jsonb, now())",
                    [
                        (
                            t.id,
                            e.seq,
                            e.kind,
                            e.seat,
                            e.resolved_player_id(),
                            e.move_id,
                            e.match_number,
                            json_text(e.payload),
                        )
                        for e in change.events
                    ],
                )
            if change.result is not None:
                await record_result(PgSql(conn), t.id, change.result, datetime.now(UTC))
            if self.notify_in_transaction:
                await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, _note(change)))
            return True
        return False  # rolled back: the version moved on


def _note(change: Change) -> str:
    return encode_note(change.table.id, change.table.seq)
