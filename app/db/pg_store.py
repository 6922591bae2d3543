"""The PostgreSQL store: psycopg 3 on a few autocommit connections of its own, no ORM.

A change that only updates the table and appends events (a move, a vote, a deal — the
hot path) is ONE statement, its own transaction, committed when it returns::

    WITH u AS (UPDATE game_tables SET … WHERE id = :id AND version = :old RETURNING id),
         e AS (INSERT INTO table_events … SELECT … FROM u, (VALUES …))
    SELECT pg_notify(:channel, :note) FROM u

— the events and the NOTIFY exist only if the version matched. A change that seats or
unseats players takes a few statements inside ``BEGIN … COMMIT`` on the same kind of
connection. Connections are checked before reuse after an error, and a failed connection
is dropped, never reused (docs/decisions.md).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

import orjson
import psycopg
from psycopg.types.json import set_json_loads

from app.db.records import (
    Catchup,
    Change,
    EventRecord,
    LobbyRow,
    PlayerState,
    PriorMove,
    TableState,
)
from app.db.store import CodeClash, MoveIdClash, Unavailable
from app.realtime.channel import CHANNEL, encode_note

Conn = psycopg.AsyncConnection[Any]


def dumps(obj: Any) -> str:
    """JSON text for a JSONB parameter."""
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()


_TABLE_COLS = (
    "id, code, name, players, public, status, host_seat, version, seq, match_number, state,"
    " rematch_votes, ready, round_over_at, created_at, history"
)
#: the same columns without the finished rounds (what delivery and the lobby need)
_TABLE_COLS_NOW = _TABLE_COLS.replace(", history", ", NULL::jsonb")
_PLAYERS_JSON = (
    "(SELECT coalesce(json_agg(json_build_array(p.id, p.seat, p.name, p.token_hash, p.bot)),"
    " '[]'::json) FROM players p WHERE p.table_id = t.id)"
)
_LOAD = f"SELECT {_TABLE_COLS}, {_PLAYERS_JSON} FROM game_tables t WHERE t.id = %s"
_LOAD_NOW = f"SELECT {_TABLE_COLS_NOW}, {_PLAYERS_JSON} FROM game_tables t WHERE t.id = %s"
_EVENT_COLS = "seq, kind, seat, player_id, move_id, match_number, payload"
_TABLE_SET = (
    "seq = %(seq)s, status = %(status)s, host_seat = %(host_seat)s,"
    " match_number = %(match_number)s, state = %(state)s::jsonb,"
    " rematch_votes = %(rematch_votes)s::jsonb, ready = %(ready)s::jsonb,"
    " round_over_at = %(round_over_at)s, updated_at = now()"
)


def _event_values(n: int) -> str:
    return ", ".join(
        f"(%(seq{i})s::int, %(kind{i})s::text, %(seat{i})s::int, %(pid{i})s::int,"
        f" %(mid{i})s::text, %(mn{i})s::int, %(pl{i})s::jsonb)"
        for i in range(n)
    )


def _one_statement_write(n: int, notify: bool, history: bool) -> str:
    cols = ", ".join("v." + c for c in _EVENT_COLS.split(", "))
    table_set = _TABLE_SET + (", history = %(history)s::jsonb" if history else "")
    return (
        f"WITH u AS (UPDATE game_tables SET version = version + 1, {table_set}"
        " WHERE id = %(id)s AND version = %(version)s RETURNING id),"
        f" e AS (INSERT INTO table_events (table_id, {_EVENT_COLS}, created_at)"
        f" SELECT u.id, {cols}, now() FROM u, (VALUES {_event_values(n)}) AS v({_EVENT_COLS})"
        " RETURNING 1)"
        + (" SELECT pg_notify(%(channel)s, %(note)s) FROM u" if notify else " SELECT id FROM u")
    )


_WRITE_SQL: dict[tuple[int, bool, bool], str] = {}


def _table_params(t: TableState) -> dict[str, Any]:
    return {
        "id": t.id,
        "seq": t.seq,
        "status": t.status,
        "host_seat": t.host_seat,
        "match_number": t.match_number,
        "state": dumps(t.state),
        "rematch_votes": dumps(t.rematch_votes),
        "ready": dumps(t.ready),
        "round_over_at": t.round_over_at,
    }


def _event_params(events: list[EventRecord]) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for i, e in enumerate(events):
        params[f"seq{i}"] = e.seq
        params[f"kind{i}"] = e.kind
        params[f"seat{i}"] = e.seat
        params[f"pid{i}"] = e.resolved_player_id()
        params[f"mid{i}"] = e.move_id
        params[f"mn{i}"] = e.match_number
        params[f"pl{i}"] = dumps(e.payload)
    return params


def table_state(row: Any) -> TableState:
    """A ``game_tables`` row (columns in ``_TABLE_COLS`` order) as a record."""
    return TableState(
        id=row[0],
        code=row[1],
        name=row[2],
        players=row[3],
        public=row[4],
        status=row[5],
        host_seat=row[6],
        version=row[7],
        seq=row[8],
        match_number=row[9],
        state=row[10],
        rematch_votes=list(row[11] or []),
        ready=list(row[12] or []),
        round_over_at=row[13],
        created_at=row[14],
        history=row[15],
    )


def _players(rows: Any) -> list[PlayerState]:
    """The players of ``_PLAYERS_JSON``."""
    return [PlayerState(p[0], p[1], p[2], p[3], p[4]) for p in rows]


def _event(row: Any) -> EventRecord:
    return EventRecord(
        seq=row[0],
        kind=row[1],
        seat=row[2],
        player_id=row[3],
        move_id=row[4],
        match_number=row[5],
        payload=row[6],
    )


class PgStore:
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
        #: False: the NOTIFY is left to ``on_commit`` (FIVEUP_NOTIFY=after_commit)
        self.notify_in_transaction = notify_in_transaction
        self.on_commit = on_commit
        self._idle: list[Conn] = []
        self._gate = asyncio.Semaphore(size)
        self._closed = False

    # -- connections -------------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def _conn(self) -> AsyncIterator[Conn]:
        async with self._gate:
            conn = await self._checked_out()
            try:
                yield conn
            except (psycopg.errors.UniqueViolation, psycopg.errors.ForeignKeyViolation):
                self._idle.append(conn)
                raise
            except psycopg.Error as exc:
                self._discard_or_keep(conn)
                raise Unavailable(type(exc).__name__) from exc
            except BaseException:  # cancelled mid-statement: the connection's state is unknown
                with contextlib.suppress(Exception):
                    await conn.close()
                raise
            else:
                if self._closed:
                    await conn.close()
                else:
                    self._idle.append(conn)

    async def _checked_out(self) -> Conn:
        while self._idle:
            conn = self._idle.pop()
            if not (conn.closed or conn.broken):
                return conn
        try:
            conn = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)
        except psycopg.Error as exc:
            raise Unavailable(type(exc).__name__) from exc
        set_json_loads(orjson.loads, conn)
        return conn

    def _discard_or_keep(self, conn: Conn) -> None:
        if conn.broken or conn.closed or conn.info.transaction_status != 0:  # 0: IDLE
            asyncio.get_running_loop().create_task(_close_quietly(conn))
        else:
            self._idle.append(conn)

    async def close(self) -> None:
        self._closed = True
        while self._idle:
            await _close_quietly(self._idle.pop())

    async def ping(self) -> None:
        async with self._conn() as conn:
            await conn.execute("SELECT 1")

    # -- reads -------------------------------------------------------------------------
    async def load(self, table_id: int) -> tuple[TableState, list[PlayerState]] | None:
        async with self._conn() as conn:
            row = await (await conn.execute(_LOAD, (table_id,))).fetchone()
        if row is None:
            return None
        return table_state(row), _players(row[16])

    async def table_id(self, code: str) -> int | None:
        async with self._conn() as conn:
            row = await (
                await conn.execute("SELECT id FROM game_tables WHERE code = %s", (code,))
            ).fetchone()
        return None if row is None else int(row[0])

    async def prior_move(self, table_id: int, move_id: str) -> PriorMove | None:
        async with self._conn() as conn:
            row = await (
                await conn.execute(
                    "SELECT seq, seat, payload->>'move' FROM table_events"
                    " WHERE table_id = %s AND move_id = %s",
                    (table_id, move_id),
                )
            ).fetchone()
        return None if row is None else PriorMove(int(row[0]), row[1], row[2])

    async def player_by_token(self, table_id: int, token_hash: str) -> PlayerState | None:
        async with self._conn() as conn:
            row = await (
                await conn.execute(
                    "SELECT id, seat, name, token_hash, bot FROM players"
                    " WHERE table_id = %s AND token_hash = %s",
                    (table_id, token_hash),
                )
            ).fetchone()
        return None if row is None else PlayerState(row[0], row[1], row[2], row[3], row[4])

    async def catchup(self, table_id: int, since: int, limit: int) -> Catchup | None:
        async with self._conn() as conn, conn.transaction():
            await conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            row = await (await conn.execute(_LOAD_NOW, (table_id,))).fetchone()
            if row is None:
                return None
            table = table_state(row)
            events: list[EventRecord] = []
            if 0 <= table.seq - since <= limit:
                cur = await conn.execute(
                    f"SELECT {_EVENT_COLS} FROM table_events WHERE table_id = %s AND seq > %s"
                    " ORDER BY seq",
                    (table_id, since),
                )
                events = [_event(r) for r in await cur.fetchall()]
        players = _players(row[16])
        return Catchup(table, players, events)

    async def table_seqs(self, table_ids: list[int]) -> dict[int, int]:
        async with self._conn() as conn:
            cur = await conn.execute(
                "SELECT id, seq FROM game_tables WHERE id = ANY(%s)", (table_ids,)
            )
            return {int(r[0]): int(r[1]) for r in await cur.fetchall()}

    async def lobby(self, limit: int) -> list[LobbyRow]:
        async with self._conn() as conn:
            cur = await conn.execute(
                f"SELECT {_TABLE_COLS_NOW},"
                " (SELECT count(*) FROM players p WHERE p.table_id = t.id),"
                " (SELECT count(*) FROM players p WHERE p.table_id = t.id AND p.bot IS NOT NULL)"
                " FROM game_tables t WHERE t.public AND t.status IN ('waiting', 'playing')"
                " ORDER BY t.created_at DESC, t.id DESC LIMIT %s",
                (limit,),
            )
            rows = await cur.fetchall()
        return [LobbyRow(table_state(r), int(r[16]), int(r[17])) for r in rows]

    async def round_over_tables(self) -> list[TableState]:
        async with self._conn() as conn:
            cur = await conn.execute(
                f"SELECT {_TABLE_COLS_NOW} FROM game_tables"
                " WHERE status = 'playing' AND round_over_at IS NOT NULL"
            )
            rows = await cur.fetchall()
        return [table_state(r) for r in rows]

    async def bot_tables(self) -> list[tuple[TableState, list[PlayerState]]]:
        async with self._conn() as conn:
            cur = await conn.execute(
                f"SELECT {_TABLE_COLS_NOW}, {_PLAYERS_JSON} FROM game_tables t"
                " WHERE t.status = 'playing' AND EXISTS"
                " (SELECT 1 FROM players b WHERE b.table_id = t.id AND b.bot IS NOT NULL)"
            )
            rows = await cur.fetchall()
        return [(table_state(r), _players(r[16])) for r in rows]

    # -- the one write -----------------------------------------------------------------
    async def write(self, change: Change) -> bool:
        try:
            if change.seating:
                written = await self._write_seating(change)
            else:
                written = await self._write_one_statement(change)
        except psycopg.errors.UniqueViolation as exc:
            if exc.diag.constraint_name == "uq_table_events_move_id":
                raise MoveIdClash() from exc
            if "code" in (exc.diag.constraint_name or ""):
                raise CodeClash() from exc
            raise Unavailable("UniqueViolation") from exc  # a seat raced: the version check
        except psycopg.errors.ForeignKeyViolation as exc:
            raise Unavailable("ForeignKeyViolation") from exc
        if written and not self.notify_in_transaction and self.on_commit is not None:
            self.on_commit(_note(change))
        return written

    async def _write_one_statement(self, change: Change) -> bool:
        key = (len(change.events), self.notify_in_transaction, change.history is not None)
        sql = _WRITE_SQL.get(key)
        if sql is None:
            sql = _WRITE_SQL[key] = _one_statement_write(*key)
        params = _table_params(change.table)
        params.update(_event_params(change.events))
        params["version"] = change.old_version
        if change.history is not None:
            params["history"] = dumps(change.history)
        params["channel"] = CHANNEL
        params["note"] = _note(change)
        async with self._conn() as conn:
            return await (await conn.execute(sql, params)).fetchone() is not None

    async def _write_seating(self, change: Change) -> bool:
        t = change.table
        async with self._conn() as conn, conn.transaction():
            if t.id == 0:
                row = await (
                    await conn.execute(
                        "INSERT INTO game_tables (code, name, players, public, status, host_seat,"
                        " version, seq, match_number, state, rematch_votes, ready, round_over_at,"
                        " created_at, updated_at) VALUES (%(code)s, %(name)s, %(players)s,"
                        " %(public)s, %(status)s, %(host_seat)s, 1, %(seq)s, %(match_number)s,"
                        " %(state)s::jsonb, %(rematch_votes)s::jsonb, %(ready)s::jsonb,"
                        " %(round_over_at)s, now(), now()) RETURNING id, created_at",
                        dict(
                            _table_params(t),
                            code=t.code,
                            name=t.name,
                            players=t.players,
                            public=t.public,
                        ),
                    )
                ).fetchone()
                assert row is not None
                t.id, t.created_at = int(row[0]), row[1]
            else:
                cur = await conn.execute(
                    f"UPDATE game_tables SET version = version + 1, {_TABLE_SET},"
                    " history = coalesce(%(history)s::jsonb, history)"
                    " WHERE id = %(id)s AND version = %(version)s",
                    dict(
                        _table_params(t),
                        version=change.old_version,
                        history=None if change.history is None else dumps(change.history),
                    ),
                )
                if cur.rowcount != 1:
                    raise psycopg.Rollback()
            for p in change.removed:
                await conn.execute("DELETE FROM players WHERE id = %s", (p.id,))
            for p in change.moved:
                await conn.execute(
                    "UPDATE players SET seat = %s, bot = %s WHERE id = %s", (p.seat, p.bot, p.id)
                )
            for p in change.added:
                row = await (
                    await conn.execute(
                        "INSERT INTO players (table_id, seat, name, token_hash, bot, created_at)"
                        " VALUES (%s, %s, %s, %s, %s, now()) RETURNING id",
                        (t.id, p.seat, p.name, p.token_hash, p.bot),
                    )
                ).fetchone()
                assert row is not None
                p.id = int(row[0])
            async with conn.cursor() as cur:
                await cur.executemany(
                    f"INSERT INTO table_events (table_id, {_EVENT_COLS}, created_at)"
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
                            dumps(e.payload),
                        )
                        for e in change.events
                    ],
                )
            if self.notify_in_transaction:
                await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, _note(change)))
            return True
        return False  # rolled back: the version moved on


def _note(change: Change) -> str:
    return encode_note(change.table.id, change.table.seq)


async def _close_quietly(conn: Conn) -> None:
    with contextlib.suppress(Exception):
        await conn.close()
