"""The sweep of abandoned tables (issues 9 and 10): a table waiting or in play that
nothing has changed for ``FIVEUP_ABANDONED_TABLE_SECONDS`` and where no person has had a
socket, on any process, for as long, is closed — so stalled tables never accumulate in
the lobby, and their computer players stop.

- **Every process sweeps**, every ``FIVEUP_SWEEP_INTERVAL_SECONDS``: it asks the store
  for the live tables idle for at least one interval (``Store.idle_tables``, oldest
  first) and looks at each one's presence (seats with a socket on any process, from the
  presence reports, app/realtime/hub_presence.py). Computer players are not persons:
  only the seats persons hold count.
- **Absence is counted by this process**: a table is remembered from the first sweep
  that saw no person at it; a person seen again, or a change to the table (it is no
  longer idle), forgets it. A restarted process starts counting anew (it may close a
  table later than due, never earlier).
- **Closing is a change like any other**, through the one write path
  (:meth:`app.tables.service.TableService.close_abandoned`): status ``closed`` and a
  ``closed`` event with ``"reason": "abandoned"``, delivered as every event is. It is
  decided only if the table is still at the version the sweep read (nothing happened
  since); the version check makes another process's close of the same table a no-op.
- **Finished tables are not swept**: nothing runs for them (no turn, no timer; computer
  players vote for a rematch at once), they are not in the lobby of open tables, and
  they are the finished-matches list (the newest 50, their replays).

>>> from app.db.records import IdleTable
>>> due(IdleTable(1, 3, 700.0, [0, 1]), connected=[], absent_for=650.0, timeout=600.0)
True
>>> due(IdleTable(1, 3, 700.0, [0, 1]), connected=[], absent_for=10.0, timeout=600.0)
False
>>> due(IdleTable(1, 3, 100.0, [0, 1]), connected=[], absent_for=650.0, timeout=600.0)
False
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from app.db.records import IdleTable, TableStatus
from app.db.store import Store, Unavailable
from app.tables.change import TableChange
from app.tables.errors import TableError

log = logging.getLogger(__name__)

#: idle tables looked at per sweep (the longest idle first)
SWEEP_LIMIT = 5000

Close = Callable[[int, int], Awaitable[bool]]


def due(table: IdleTable, *, connected: list[int], absent_for: float, timeout: float) -> bool:
    """Whether an idle table is abandoned: unchanged for ``timeout`` seconds, no person
    connected now, and none seen for ``timeout`` seconds."""
    if set(connected) & set(table.person_seats):
        return False
    return table.idle_seconds >= timeout and absent_for >= timeout


def close_abandoned(tx: TableChange, version: int) -> None:
    """The decision: close the table if it is still live and still at ``version`` (what
    the sweep saw idle); else change nothing."""
    if tx.table.status not in (TableStatus.WAITING, TableStatus.PLAYING):
        return
    if tx.table.version != version:
        return  # something happened since it was found idle
    tx.table.status = TableStatus.CLOSED
    tx.table.round_over_at = None
    tx.table.ready = []
    tx.table.rematch_votes = []
    tx.emit("closed", {"type": "closed", "reason": "abandoned"})


class Sweep:
    """This process's sweep: which idle tables it has seen without a person, since when."""

    def __init__(
        self,
        store: Store,
        close: Close,
        connected: Callable[[int], list[int]],
        *,
        timeout: float,
        interval: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.close = close
        self.connected = connected
        self.timeout = timeout
        self.interval = interval
        self.clock = clock
        #: table id -> when this process first saw it idle with no person connected
        self.absent_since: dict[int, float] = {}

    async def once(self) -> list[int]:
        """One sweep: the ids of the tables it closed."""
        tables = await self.store.idle_tables(min(self.interval, self.timeout), SWEEP_LIMIT)
        now = self.clock()
        absent: dict[int, float] = {}
        closing: list[IdleTable] = []
        for t in tables:
            connected = self.connected(t.table_id)
            if set(connected) & set(t.person_seats):
                continue
            since = absent[t.table_id] = self.absent_since.get(t.table_id, now)
            if due(t, connected=connected, absent_for=now - since, timeout=self.timeout):
                closing.append(t)
        self.absent_since = absent  # tables changed or with a person: counted anew
        closed: list[int] = []
        for t in closing:
            try:
                if await self.close(t.table_id, t.version):
                    closed.append(t.table_id)
                    log.info("table %s: closed, abandoned", t.table_id)
            except TableError as err:  # conflict: another process or a player was first
                log.info("table %s: not closed (%s)", t.table_id, err.code)
            self.absent_since.pop(t.table_id, None)
        return closed

    async def run(self) -> None:
        """Sweep every ``interval`` seconds until cancelled."""
        while True:
            await asyncio.sleep(self.interval)
            try:
                await self.once()
            except Unavailable:
                log.warning("sweep: database unavailable; the next sweep tries again")
            except Exception as exc:  # never let the loop die
                log.warning("sweep failed (%s)", type(exc).__name__)
