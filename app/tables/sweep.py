"""The sweep of abandoned tables: a table waiting or in play where no person has had a
socket, on any process, for ``FIVEUP_ABANDONED_TABLE_SECONDS`` is closed — whether or
not its computer players moved meanwhile — so stalled tables never accumulate in the
lobby, and their computer players stop for good (they stop playing at a table without a
person after the grace already: :meth:`app.tables.autopilot.AutopilotRules.stopped`).

- **Every process sweeps**, every ``FIVEUP_SWEEP_INTERVAL_SECONDS``: it asks the store
  for the live tables (``Store.idle_tables`` with no idle time, the longest unchanged
  first) and looks at each one's presence (seats with a socket on any process, from the
  presence reports, app/realtime/hub_presence.py). Computer players are not persons:
  only the seats persons hold count.
- **Absence is counted by this process**: a table is remembered from the first sweep
  that saw no person at it; a person seen again, or a change of who the persons at it
  are (someone joined or left), forgets it. A change by a computer player or the
  autopilot does not. A restarted process starts counting anew (it may close a table
  later than due, never earlier).
- **Closing is a change like any other**, through the one write path
  (:meth:`app.tables.service.TableService.close_abandoned`): status ``closed`` and a
  ``closed`` event with ``"reason": "abandoned"``, delivered as every event is. It is
  decided only if the table is still at the version the sweep read; the version check
  makes another process's close of the same table a no-op (a table whose version moved
  on is looked at again at the next sweep).
- **Finished tables are not swept**: nothing runs for them (no turn, no timer; computer
  players vote for a rematch at once), they are not in the lobby of open tables, and
  they are the finished-matches list (the newest 50, their replays).

>>> from app.db.rows import IdleTable
>>> due(IdleTable(1, 3, 700.0, [0, 1]), connected=[], absent_for=650.0, timeout=600.0)
True
>>> due(IdleTable(1, 3, 700.0, [0, 1]), connected=[], absent_for=10.0, timeout=600.0)
False
>>> due(IdleTable(1, 3, 0.5, [0, 1]), connected=[], absent_for=650.0, timeout=600.0)
True
>>> due(IdleTable(1, 3, 700.0, [0, 1]), connected=[1], absent_for=650.0, timeout=600.0)
False
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from app.db.rows import IdleTable, TableStatus
from app.db.store import Store, Unavailable
from app.tables.change import TableChange
from app.tables.errors import TableError

log = logging.getLogger(__name__)

#: idle tables looked at per sweep (the longest idle first)
SWEEP_LIMIT = 5000

Close = Callable[[int, int], Awaitable[bool]]


def due(table: IdleTable, *, connected: list[int], absent_for: float, timeout: float) -> bool:
    """Whether a live table is abandoned: no person connected now, and none seen for
    ``timeout`` seconds (however recently its computer players moved)."""
    if set(connected) & set(table.person_seats):
        return False
    return absent_for >= timeout


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
        #: table id -> when this process first saw it with no person connected, and the
        #: persons' seats it had then
        self.absent_since: dict[int, tuple[float, tuple[int, ...]]] = {}

    async def once(self) -> list[int]:
        """One sweep: the ids of the tables it closed."""
        tables = await self.store.idle_tables(0.0, SWEEP_LIMIT)
        now = self.clock()
        absent: dict[int, tuple[float, tuple[int, ...]]] = {}
        closing: list[IdleTable] = []
        for t in tables:
            connected = self.connected(t.table_id)
            if set(connected) & set(t.person_seats):
                continue
            people = tuple(t.person_seats)
            seen = self.absent_since.get(t.table_id)
            since = seen[0] if seen is not None and seen[1] == people else now
            absent[t.table_id] = (since, people)
            if due(t, connected=connected, absent_for=now - since, timeout=self.timeout):
                closing.append(t)
        self.absent_since = absent  # tables gone, with a person or new persons: anew
        closed: list[int] = []
        for t in closing:
            try:
                if await self.close(t.table_id, t.version):
                    closed.append(t.table_id)
                    self.absent_since.pop(t.table_id, None)
                    log.info("table %s: closed, abandoned", t.table_id)
            except TableError as err:  # conflict: another process or a player was first
                log.info("table %s: not closed (%s)", t.table_id, err.code)
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
