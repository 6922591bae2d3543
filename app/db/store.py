"""The hot path's database access: load a table, write one change, no ORM.

A table change (a move, a vote, a deal) is written as ONE statement on PostgreSQL —
``UPDATE game_tables ... WHERE id = :id AND version = :v`` with the event rows inserted
and ``pg_notify`` sent only if that update matched — on an autocommit connection, so the
statement is its own transaction (one round trip, committed when it returns). SQLite
gets the same change as ``BEGIN; UPDATE ... WHERE version; INSERT ...; COMMIT`` through
SQLAlchemy Core. Either way: the version check, the event rows and the snapshot are
one transaction; a stale version writes nothing; a clashing ``(table_id, move_id)``
raises :class:`MoveIdClash` and writes nothing.

Seating changes (join, leave, kick, change seat) and reads for clients still use the
ORM (app/tables/service.py, app/realtime/hub.py): they are rare.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import orjson
import psycopg
from psycopg.types.json import set_json_loads
from sqlalchemy import Table, insert, select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.models import EventRow, PlayerRow, TableRow


class MoveIdClash(Exception):
    """The unique ``(table_id, move_id)`` key refused an event: a retried move."""


class Busy(Exception):
    """SQLite's single writer was busy: treated as a conflict."""


class Unavailable(Exception):
    """The database could not be reached or failed (not a conflict)."""


@dataclass(slots=True)
class TableState:
    """A table's columns as plain attributes (what the service changes in memory)."""

    id: int
    code: str
    name: str
    players: int
    public: bool
    status: str
    host_seat: int | None
    version: int
    seq: int
    match_number: int
    state: dict[str, Any] | None
    rematch_votes: list[int]
    ready: list[int]
    round_over_at: datetime | None


@dataclass(slots=True)
class PlayerState:
    id: int
    seat: int
    name: str
    token_hash: str


@dataclass(slots=True)
class EventRecord:
    """One event of a change, as written to ``table_events`` (and delivered as is)."""

    table_id: int
    seq: int
    kind: str
    seat: int | None
    player_id: int | None
    move_id: str | None
    match_number: int
    payload: dict[str, Any]
    state: dict[str, Any] | None
    table_info: dict[str, Any]

    def as_row(self) -> EventRow:
        return EventRow(
            table_id=self.table_id, seq=self.seq, kind=self.kind, seat=self.seat,
            player_id=self.player_id, move_id=self.move_id, match_number=self.match_number,
            payload=self.payload, state=self.state, table_info=self.table_info,
        )

    def as_params(self) -> dict[str, Any]:
        return {
            "table_id": self.table_id, "seq": self.seq, "kind": self.kind, "seat": self.seat,
            "player_id": self.player_id, "move_id": self.move_id,
            "match_number": self.match_number, "payload": self.payload, "state": self.state,
            "table_info": self.table_info,
        }


def dumps(obj: Any) -> str:
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()


_TABLE_COLS = (
    "id, code, name, players, public, status, host_seat, version, seq, match_number, state,"
    " rematch_votes, ready, round_over_at"
)
_PG_LOAD = (
    f"SELECT {_TABLE_COLS}, (SELECT coalesce(json_agg(json_build_array(p.id, p.seat, p.name,"
    " p.token_hash)), '[]'::json) FROM players p WHERE p.table_id = t.id)"
    " FROM game_tables t WHERE t.id = %s"
)
_PG_EVENT_COLS = "seq, kind, seat, player_id, move_id, match_number, payload, state, table_info"


def _pg_write_sql(n: int, notify: bool) -> str:
    values = ", ".join(
        f"(%(seq{i})s::int, %(kind{i})s::text, %(seat{i})s::int, %(pid{i})s::int,"
        f" %(mid{i})s::text, %(mn{i})s::int, %(pl{i})s::jsonb, %(st{i})s::jsonb,"
        f" %(ti{i})s::jsonb)"
        for i in range(n)
    )
    return (
        "WITH u AS (UPDATE game_tables SET version = version + 1, seq = %(seq)s,"
        " status = %(status)s, host_seat = %(host_seat)s, match_number = %(match_number)s,"
        " state = %(state)s::jsonb, rematch_votes = %(rematch_votes)s::jsonb,"
        " ready = %(ready)s::jsonb, round_over_at = %(round_over_at)s, updated_at = now()"
        " WHERE id = %(id)s AND version = %(version)s RETURNING id),"
        f" e AS (INSERT INTO table_events (table_id, {_PG_EVENT_COLS}, created_at)"
        f" SELECT u.id, {', '.join('v.' + c for c in _PG_EVENT_COLS.split(', '))}, now()"
        f" FROM u, (VALUES {values}) AS v({_PG_EVENT_COLS}) RETURNING 1)"
        + (" SELECT pg_notify(%(channel)s, %(note)s) FROM u" if notify else " SELECT id FROM u")
    )


_PG_WRITE_SQL: dict[tuple[int, bool], str] = {}


def _table_state(row: Any) -> TableState:
    return TableState(
        id=row[0], code=row[1], name=row[2], players=row[3], public=row[4], status=row[5],
        host_seat=row[6], version=row[7], seq=row[8], match_number=row[9], state=row[10],
        rematch_votes=list(row[11] or []), ready=list(row[12] or []), round_over_at=row[13],
    )


class PgStore:
    """Loads and writes on PostgreSQL over a few autocommit psycopg connections of its
    own (no ORM, no greenlet bridge). Concurrency is bounded by ``size``: callers
    beyond it queue in memory."""

    def __init__(
        self, dsn: str, channel: str, size: int = 8, notify_after_commit: bool = False
    ) -> None:
        self.dsn = dsn
        self.channel = channel
        self.size = size
        #: see PgNotifier; default: pg_notify inside the change's own transaction
        self.notifier = PgNotifier(dsn, channel) if notify_after_commit else None
        self._idle: list[psycopg.AsyncConnection[Any]] = []
        self._gate = asyncio.Semaphore(size)
        self._closed = False

    @contextlib.asynccontextmanager
    async def _conn(self) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
        async with self._gate:
            try:
                conn = self._idle.pop() if self._idle else await self._connect()
            except psycopg.Error as exc:
                raise Unavailable(type(exc).__name__) from exc
            try:
                yield conn
            except psycopg.errors.UniqueViolation:
                self._idle.append(conn)
                raise
            except psycopg.Error as exc:
                if conn.broken or conn.closed:
                    with contextlib.suppress(Exception):
                        await conn.close()
                else:
                    self._idle.append(conn)
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

    async def _connect(self) -> psycopg.AsyncConnection[Any]:
        conn = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)
        set_json_loads(orjson.loads, conn)
        return conn

    async def close(self) -> None:
        self._closed = True
        if self.notifier is not None:
            await self.notifier.close()
        while self._idle:
            with contextlib.suppress(Exception):
                await self._idle.pop().close()

    async def load(self, table_id: int) -> tuple[TableState, list[PlayerState]] | None:
        async with self._conn() as conn:
            cur = await conn.execute(_PG_LOAD, (table_id,))
            row = await cur.fetchone()
        if row is None:
            return None
        players = [PlayerState(p[0], p[1], p[2], p[3]) for p in row[14]]
        return _table_state(row), players

    async def write(self, table: TableState, old_version: int, events: list[EventRecord]) -> bool:
        """The change as one statement; False if the version moved on (nothing written)."""
        key = (len(events), self.notifier is None)
        sql = _PG_WRITE_SQL.get(key)
        if sql is None:
            sql = _PG_WRITE_SQL[key] = _pg_write_sql(*key)
        params: dict[str, Any] = {
            "id": table.id, "version": old_version, "seq": table.seq, "status": table.status,
            "host_seat": table.host_seat, "match_number": table.match_number,
            "state": dumps(table.state), "rematch_votes": dumps(table.rematch_votes),
            "ready": dumps(table.ready), "round_over_at": table.round_over_at,
            "channel": self.channel, "note": f"{table.id}:{table.seq}",
        }
        for i, e in enumerate(events):
            params[f"seq{i}"] = e.seq
            params[f"kind{i}"] = e.kind
            params[f"seat{i}"] = e.seat
            params[f"pid{i}"] = e.player_id
            params[f"mid{i}"] = e.move_id
            params[f"mn{i}"] = e.match_number
            params[f"pl{i}"] = dumps(e.payload)
            params[f"st{i}"] = dumps(e.state)
            params[f"ti{i}"] = dumps(e.table_info)
        try:
            async with self._conn() as conn:
                cur = await conn.execute(sql, params)
                written = await cur.fetchone() is not None
        except psycopg.errors.UniqueViolation as exc:
            raise MoveIdClash() from exc
        if written and self.notifier is not None:
            self.notifier.send(params["note"])
        return written

    async def prior_seq(self, table_id: int, move_id: str) -> int | None:
        async with self._conn() as conn:
            cur = await conn.execute(
                "SELECT seq FROM table_events WHERE table_id = %s AND move_id = %s",
                (table_id, move_id),
            )
            row = await cur.fetchone()
        return None if row is None else int(row[0])


class PgNotifier:
    """``pg_notify`` right AFTER the change's commit instead of inside it (opt-in,
    ``FIVEUP_NOTIFY=after_commit``).

    Why: PostgreSQL serialises the commits of all transactions that issued a NOTIFY
    (a cluster-wide lock held until the commit record is flushed), so with NOTIFY inside
    every move's transaction the commits cannot share a WAL flush and the move rate is
    capped near 1 / fsync time (measured: ~150–300 moves/s here, against ~590 without).
    Here one connection per process sends the notifications of recently committed
    changes in batches, as its own transactions with ``synchronous_commit = off``
    (a NOTIFY-only transaction has nothing to make durable), so they hold that lock only
    for a moment. Delivery order per table is the commit order (one writer per table).

    The cost: a process that dies between its commit and this send leaves other
    processes un-notified of that event; in this mode every process therefore checks its
    tables against the database every 2 s (``Hub.reconcile``, one query), so such an
    event reaches their sockets within about 2 s instead of at once.
    """

    def __init__(self, dsn: str, channel: str) -> None:
        self.dsn = dsn
        self.channel = channel
        self._pending: list[str] = []
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._conn: psycopg.AsyncConnection[Any] | None = None

    def send(self, payload: str) -> None:
        self._pending.append(payload)
        if self._task is None:
            self._wake = asyncio.Event()
            self._task = asyncio.get_running_loop().create_task(self._run())
        assert self._wake is not None
        self._wake.set()

    async def _run(self) -> None:
        assert self._wake is not None
        conn: psycopg.AsyncConnection[Any] | None = None
        delay = 0.1
        try:
            await self._loop(conn, delay)
        finally:
            if self._conn is not None:
                with contextlib.suppress(Exception):
                    await self._conn.close()

    async def _loop(self, conn: psycopg.AsyncConnection[Any] | None, delay: float) -> None:
        assert self._wake is not None
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self._pending = self._pending, []
            while batch:
                try:
                    if conn is None or conn.closed or conn.broken:
                        conn = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)
                        self._conn = conn
                        await conn.execute("SET synchronous_commit = off")
                    await conn.execute("SELECT pg_notify(%s, x) FROM unnest(%s::text[]) AS x",
                                       (self.channel, batch))
                    batch = []
                    delay = 0.1
                except psycopg.Error:
                    await asyncio.sleep(delay)  # keep the batch: it must go out
                    delay = min(delay * 2, 5.0)
                    batch += self._pending
                    self._pending = []

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task


def _table(model: type[Any]) -> Table:
    table = model.__table__
    assert isinstance(table, Table)
    return table


class CoreStore:
    """The same operations with SQLAlchemy Core (used for SQLite; no NOTIFY)."""

    def __init__(self, engine: AsyncEngine, gate: asyncio.Semaphore) -> None:
        self.engine = engine
        self._gate = gate

    async def close(self) -> None:
        return None

    async def load(self, table_id: int) -> tuple[TableState, list[PlayerState]] | None:
        t, p = _table(TableRow), _table(PlayerRow)
        async with self._gate, self.engine.connect() as conn:
            row = (await conn.execute(select(*(t.c[c] for c in _TABLE_COLS.split(", ")))
                                      .where(t.c.id == table_id))).first()
            if row is None:
                return None
            prows = (await conn.execute(select(p.c.id, p.c.seat, p.c.name, p.c.token_hash)
                                        .where(p.c.table_id == table_id))).all()
        players = [PlayerState(r[0], r[1], r[2], r[3]) for r in prows]
        return _table_state(row), players

    async def write(self, table: TableState, old_version: int, events: list[EventRecord]) -> bool:
        t, e = _table(TableRow), _table(EventRow)
        now = datetime.now(UTC)
        try:
            async with self._gate, self.engine.begin() as conn:
                res = await conn.execute(
                    update(t).where(t.c.id == table.id, t.c.version == old_version).values(
                        version=old_version + 1, seq=table.seq, status=table.status,
                        host_seat=table.host_seat, match_number=table.match_number,
                        state=table.state, rematch_votes=table.rematch_votes,
                        ready=table.ready, round_over_at=table.round_over_at, updated_at=now,
                    )
                )
                if res.rowcount != 1:
                    return False
                await conn.execute(insert(e), [dict(ev.as_params(), created_at=now)
                                               for ev in events])
        except IntegrityError as exc:
            raise MoveIdClash() from exc
        except OperationalError as exc:
            if "locked" in str(exc.orig).lower():  # SQLite's busy writer only
                raise Busy() from exc
            raise
        return True

    async def prior_seq(self, table_id: int, move_id: str) -> int | None:
        e = _table(EventRow)
        async with self._gate, self.engine.connect() as conn:
            seq = await conn.scalar(select(e.c.seq).where(e.c.table_id == table_id,
                                                          e.c.move_id == move_id))
        return None if seq is None else int(seq)
