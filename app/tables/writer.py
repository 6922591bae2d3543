"""The one write path: every change to a table — seating, a move, a vote, a deal — is
decided on the table's state and written by :meth:`Writer.change` as ONE transaction
with a version check, then delivered (only after the commit).

- The table's state comes from this process's memory when it has it (the *hot* tables:
  columns, players and the live :class:`~app.engine.Match`, keyed by version), else from
  the store. Remembered state is never trusted for the write — the version check is what
  decides. A decision on remembered state that is refused, or whose write finds the
  version moved on (another process wrote), is decided once more on fresh state: exactly
  what the change would have met had it arrived a moment later.
- A lock per table (:class:`~app.core.locks.KeyedLocks`) serialises this process's
  writers of that table; delivery is handed each commit under it, as an immutable
  :class:`~app.realtime.committed.Committed`: copies of the table's columns and players
  and the projection of the match made right after the commit
  (:class:`~app.realtime.projection.Projector`). The live match is the committed state
  only until the next change is decided on it (a refused write leaves it changed), so
  it never leaves the writer.
- Memory is updated only after a successful write; any failure forgets the table.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from app.core.locks import KeyedLocks
from app.db.rows import PlayerState, TableState
from app.db.store import Busy, CodeClash, MoveIdClash, Store, Unavailable
from app.engine import Match
from app.realtime.committed import Committed
from app.realtime.projection import Projector
from app.tables.change import TableChange
from app.tables.delivery_port import Delivery
from app.tables.errors import TableError, conflict, not_found, unavailable

log = logging.getLogger(__name__)

T = TypeVar("T")

#: tables whose state this process keeps in memory (least recently changed dropped first)
HOT_TABLES_MAX = 5000


class RetryOnRemembered(Exception):
    """Internal: the decision on remembered state must be taken again on fresh state."""


class Writer:
    """Decides and writes changes; hands ``delivery`` each commit."""

    def __init__(self, store: Store, delivery: Delivery | None = None) -> None:
        self.store = store
        self.delivery = delivery
        self._projector = Projector(HOT_TABLES_MAX)
        self._locks = KeyedLocks()
        self._hot: dict[int, tuple[TableState, list[PlayerState], Match | None]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    async def change(
        self, table_id: int, decide: Callable[[TableChange], Awaitable[T]], *, attempts: int = 1
    ) -> tuple[T, TableChange]:
        """Decide and write one change. ``attempts`` > 1: a version conflict on fresh
        state is re-decided (seating, votes, deals); moves get ``conflict`` instead."""
        for attempt in range(attempts):
            try:
                return await self._change_once(table_id, decide)
            except TableError as err:
                if err.code != "conflict" or attempt == attempts - 1:
                    raise
        raise AssertionError("unreachable")

    async def _change_once(
        self, table_id: int, decide: Callable[[TableChange], Awaitable[T]]
    ) -> tuple[T, TableChange]:
        async with self._locks(table_id):
            hot = self._hot.pop(table_id, None)
            while True:
                remembered = hot is not None
                tx = await self._begin(table_id, hot)
                hot = None
                try:
                    result = await decide(tx)
                except TableError:
                    if remembered:
                        continue  # maybe refused only because memory was behind
                    raise
                if not tx.events:
                    self._remember(tx)
                    return result, tx
                if self.delivery is not None:
                    self.delivery.expecting(table_id, tx.events[-1].seq)
                try:
                    written = await self._write(tx)
                    if written:
                        self._remember(tx)
                        await self._deliver(tx)
                finally:
                    if self.delivery is not None:
                        self.delivery.expecting(table_id, None)
                if written:
                    return result, tx
                if remembered:
                    continue  # another process wrote: decide again on fresh state
                log.info("table %s: concurrent write refused (version)", table_id)
                raise conflict()

    async def create(
        self,
        table: TableState,
        decide: Callable[[TableChange], Awaitable[T]],
        new_code: Callable[[], str],
        tries: int = 20,
    ) -> tuple[T, TableChange]:
        """Insert a new table (``table.id == 0``): a taken code draws another."""
        for _ in range(tries):
            table.code = new_code()
            tx = TableChange(table, [], None, old_version=0)
            result = await decide(tx)
            try:
                await self.store.write(tx.to_write())
            except CodeClash:
                table.seq, table.id = 0, 0
                continue
            except (Unavailable, Busy):
                raise unavailable() from None
            table.version = 1
            self._remember(tx)
            async with self._locks(table.id):
                await self._deliver(tx)
            return result, tx
        raise TableError("unavailable", "could not allocate a table code", 503)

    async def load(self, table_id: int) -> TableChange:
        """The table as stored, ready to be decided on (``not_found``, ``unavailable``)."""
        try:
            loaded = await self.store.load(table_id)
        except Unavailable:
            raise unavailable() from None
        if loaded is None:
            raise not_found()
        table, players = loaded
        match = table.match()
        table.state = table.history = None  # the Match holds them from here on
        return _change_of(table, players, match)

    async def _begin(
        self, table_id: int, hot: tuple[TableState, list[PlayerState], Match | None] | None
    ) -> TableChange:
        if hot is None:
            return await self.load(table_id)
        return _change_of(*hot)

    async def _write(self, tx: TableChange) -> bool:
        try:
            written = await self.store.write(tx.to_write())
        except (MoveIdClash, Busy) as exc:
            log.info("table %s: concurrent write refused (%s)", tx.table.id, type(exc).__name__)
            raise conflict() from None
        except Unavailable:
            raise unavailable() from None
        finally:
            tx.table.state = None  # memory keeps the Match; the dicts were for the write
        if written:
            tx.table.version = tx.old_version + 1
            if log.isEnabledFor(logging.INFO):
                log.info(
                    "table %s: committed seq %s..%s (%s)",
                    tx.table.id,
                    tx.events[0].seq,
                    tx.events[-1].seq,
                    ",".join(e.kind for e in tx.events),
                    extra={"table": tx.table.code, "seq": tx.events[-1].seq},
                )
        return written

    def _remember(self, tx: TableChange) -> None:
        self._hot[tx.table.id] = (tx.table, tx.players, tx.match)
        if len(self._hot) > HOT_TABLES_MAX:
            del self._hot[next(iter(self._hot))]

    def _committed(self, tx: TableChange, delivery: Delivery) -> Committed:
        """The commit as delivery receives it: copies, and the match projected now."""
        table = tx.table
        last = tx.events[-1].seq
        views = (
            self._projector.project(table.id, last, table.match_number, tx.match)
            if delivery.watches(table.id)
            else None
        )
        return Committed(
            table.copied(), tuple([p.copied() for p in tx.players]), tuple(tx.events), views
        )

    async def _deliver(self, tx: TableChange) -> None:
        delivery = self.delivery
        if delivery is None or not tx.events:
            return
        try:
            await delivery.committed(self._committed(tx, delivery))
        except Exception as exc:  # delivery must never undo a commit: clients catch up
            log.warning(
                "delivery of table %s failed (%s); it catches up from the database",
                tx.table.id,
                type(exc).__name__,
            )

    def forget(self, table_id: int | None, seq: int | None = None) -> None:
        """A commit seen on the database (NOTIFY): forget the table if memory is behind
        (``None``: notifications may have been missed, forget every table). Only saves
        work: the version check is what keeps remembered state from being written."""
        if table_id is None:
            self._hot.clear()
            return
        hot = self._hot.get(table_id)
        if hot is not None and (seq is None or seq > hot[0].seq):
            del self._hot[table_id]


def _change_of(table: TableState, players: list[PlayerState], match: Match | None) -> TableChange:
    """A change starting from this state (its version and its finished rounds noted)."""
    return TableChange(
        table,
        players,
        match,
        old_version=table.version,
        history_len=len(match.history) if match else 0,
        over_at_start=match.over if match else True,
    )
