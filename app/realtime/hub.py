"""The connection hub: who is connected to which table as which seat, and delivery.

Delivery is pull-based and idempotent: :meth:`Hub.poke` (called after a local commit, or
when a Postgres NOTIFY arrives from another process) reads the committed event rows that
some local connection has not yet been sent and queues them, in seq order, per
connection. Each connection therefore receives a gapless, increasing seq after its
snapshot, whichever process committed the events.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select

from app.core.locks import KeyedLocks
from app.db.models import EventRow, PlayerRow, TableRow
from app.db.session import GatedSessions
from app.db.store import EventRecord
from app.realtime.projection import RowFrames, snapshot_frame

log = logging.getLogger(__name__)

Send = Callable[[dict[str, Any]], Awaitable[None]]

QUEUE_LIMIT = 2000
RESYNC_EVENT_LIMIT = 500


@dataclass(eq=False)
class Connection:
    """One client socket on one table. ``seat`` is None for spectators."""

    table_id: int
    code: str
    seat: int | None
    player_id: int | None
    token: str | None
    last_seq: int = -1  # -1 until the snapshot was queued
    # frames as dicts or already-encoded JSON text; None tells the sender to close
    queue: asyncio.Queue[dict[str, Any] | str | None] = field(
        default_factory=lambda: asyncio.Queue(QUEUE_LIMIT)
    )
    overflowed: bool = False

    def put(self, frame: dict[str, Any] | str) -> None:
        """Queue a frame; a client too slow to keep up is dropped (it can resync)."""
        try:
            self.queue.put_nowait(frame)
        except asyncio.QueueFull:
            self.overflowed = True
            with contextlib.suppress(asyncio.QueueEmpty):
                self.queue.get_nowait()
            self.queue.put_nowait(None)  # tells the sender to close


class Hub:
    """All connections of this process, per table."""

    def __init__(self, sessionmaker: GatedSessions) -> None:
        self.sessionmaker = sessionmaker
        self.tables: dict[int, set[Connection]] = {}
        self.table_ids: dict[str, int] = {}  # code -> id, for tables with connections
        self._lock = KeyedLocks()  # one lock per table, alive while in use

    def connected_seats(self, table_id: int) -> list[int]:
        """Seats with at least one open socket on this process (presence)."""
        return sorted({c.seat for c in self.tables.get(table_id, ()) if c.seat is not None})

    # -- attach / detach ---------------------------------------------------------------
    async def attach(self, conn: Connection) -> None:
        """Register a connection and queue its snapshot (then presence for everyone)."""
        before = self.connected_seats(conn.table_id)
        async with self._lock(conn.table_id):
            self.tables.setdefault(conn.table_id, set()).add(conn)
            self.table_ids[conn.code] = conn.table_id
            await self._send_snapshot(conn, None)
        self._presence_changed(conn.table_id, before, force_to=conn)

    async def detach(self, conn: Connection) -> None:
        before = self.connected_seats(conn.table_id)
        conns = self.tables.get(conn.table_id)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.tables[conn.table_id]
                self.table_ids.pop(conn.code, None)
        self._presence_changed(conn.table_id, before)

    def _presence_changed(
        self, table_id: int, before: list[int], force_to: Connection | None = None
    ) -> None:
        now = self.connected_seats(table_id)
        frame = {"type": "presence", "connected": now}
        for c in self.tables.get(table_id, ()):
            if now != before or c is force_to:
                c.put(frame)

    async def resync(self, conn: Connection, last_seq: int | None) -> None:
        """Queue a fresh snapshot, with the events missed since ``last_seq`` if few."""
        async with self._lock(conn.table_id):
            await self._send_snapshot(conn, last_seq)

    async def _send_snapshot(self, conn: Connection, last_seq: int | None) -> None:
        """The snapshot is the newest event row: it holds the state and table info after
        the table's latest change (every change, creation included, is an event)."""
        async with self.sessionmaker() as s:
            latest = await s.scalar(
                select(EventRow)
                .where(EventRow.table_id == conn.table_id)
                .order_by(EventRow.seq.desc())
                .limit(1)
            )
            if latest is None:
                return
            missed: list[EventRow] = []
            if last_seq is not None and 0 <= latest.seq - last_seq <= RESYNC_EVENT_LIMIT:
                missed = list(await s.scalars(
                    select(EventRow)
                    .where(EventRow.table_id == conn.table_id, EventRow.seq > last_seq)
                    .order_by(EventRow.seq)
                ))
            if conn.player_id is not None:
                me = await s.get(PlayerRow, conn.player_id)
                if me is None or me.table_id != conn.table_id:
                    conn.seat = conn.player_id = conn.token = None
                else:
                    conn.seat = me.seat
        conn.put(snapshot_frame(
            seq=latest.seq,
            recipient=conn.seat,
            info=latest.table_info,
            state=latest.state,
            connected=self.connected_seats(conn.table_id),
            missed=missed,
        ))
        conn.last_seq = latest.seq

    # -- delivery ----------------------------------------------------------------------
    async def poke(
        self,
        table_id: int,
        committed: list[EventRecord] | None = None,
        upto: int | None = None,
    ) -> None:
        """Deliver committed events this process's connections have not had yet.

        ``committed``: rows this process just committed (consecutive seqs), used as they
        are when they follow on from what every connection has; otherwise the rows are
        read from the database. ``upto``: a notified seq; nothing to do if every
        connection already has it.
        """
        if table_id not in self.tables:
            return
        async with self._lock(table_id):
            conns = [c for c in self.tables.get(table_id, ()) if c.last_seq >= 0]
            if not conns:
                return
            since = min(c.last_seq for c in conns)
            if upto is not None and since >= upto:
                return
            rows: list[EventRow] | list[EventRecord]
            if committed and committed[0].seq <= since + 1:
                rows = [r for r in committed if r.seq > since]
            else:
                async with self.sessionmaker() as s:
                    rows = list(await s.scalars(
                        select(EventRow)
                        .where(EventRow.table_id == table_id, EventRow.seq > since)
                        .order_by(EventRow.seq)
                    ))
            for row in rows:
                frames = RowFrames(row)
                self._apply_seat_change(table_id, row)
                connected = self.connected_seats(table_id)
                for c in conns:
                    if row.seq > c.last_seq:
                        c.put(frames.encoded(c.seat, connected))
                        c.last_seq = row.seq

    def _apply_seat_change(self, table_id: int, row: EventRow | EventRecord) -> None:
        """Follow a player's seat changes/removal before projecting for them."""
        if row.player_id is None or row.kind not in ("moved_seat", "left", "kicked"):
            return
        before = self.connected_seats(table_id)
        for c in self.tables.get(table_id, ()):
            if c.player_id == row.player_id:
                if row.kind == "moved_seat":
                    c.seat = row.payload["to"]
                else:  # removed: the socket stays open as a spectator
                    c.seat = c.player_id = c.token = None
        self._presence_changed(table_id, before)

    async def reconcile(self) -> None:
        """Catch up every local table the database has moved past (one query). A safety
        net for notifications that never came (``FIVEUP_NOTIFY=after_commit``: a
        process that died between its commit and its NOTIFY)."""
        behind = {tid: min((c.last_seq for c in conns if c.last_seq >= 0), default=None)
                  for tid, conns in self.tables.items()}
        ids = [tid for tid, seen in behind.items() if seen is not None]
        if not ids:
            return
        async with self.sessionmaker() as s:
            rows = (await s.execute(
                select(TableRow.id, TableRow.seq).where(TableRow.id.in_(ids))
            )).all()
        for tid, seq in rows:
            seen = behind.get(tid)
            if seen is not None and seq > seen:
                await self.poke(tid, upto=seq)

    async def poke_all(self) -> None:
        """Catch up every table with local connections (after a LISTEN reconnect)."""
        for table_id in list(self.tables):
            await self.poke(table_id)

