"""The hub's side of commits it did not make itself (or made but could not deliver):
the NOTIFYs heard from the database and the catch-ups they start. A part of
:class:`app.realtime.hub.Hub`.

A NOTIFY says a table was committed up to a seq (:meth:`Catchups.notice`). The
feed is brought up to it from the store, one catch-up task per table at a time, reads of
different tables side by side (:meth:`Catchups.poke`). A NOTIFY of this process's
own commit is not read back: the writer says which seq it is committing
(:meth:`Catchups.expecting`), and a NOTIFY up to that seq waits for the hub's
``committed`` (read from the store only if the write does not deliver it after all).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from app.core.locks import KeyedLocks
from app.db.rows import Catchup
from app.db.store import Store, Unavailable
from app.realtime.feed import Feed

log = logging.getLogger(__name__)

#: at most this many missed events are sent with a snapshot (else the snapshot alone)
RESYNC_EVENT_LIMIT = 500


class Catchups:
    """Catch-ups of the hub's feeds (``feeds`` and ``locks``, the hub's, shared) from
    the store; ``deliver``: the hub's delivery of what a catch-up read."""

    def __init__(
        self,
        feeds: dict[int, Feed],
        store: Store,
        locks: KeyedLocks,
        deliver: Callable[[Feed, Catchup], None],
    ) -> None:
        self.feeds = feeds
        self.store = store
        self._locks = locks
        self._catch_up = deliver
        #: tables this process is committing now, and up to which seq (the writer's word)
        self._expected: dict[int, int] = {}
        #: the highest seq of a NOTIFY that came meanwhile, per table
        self._noticed: dict[int, int] = {}
        #: tables being caught up from the store now, and the highest seq asked for since
        self._wanted: dict[int, int] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def expecting(self, table_id: int, seq: int | None) -> None:
        """The writer of this process is about to commit the table up to ``seq``; with
        ``None``, that write is over. A NOTIFY of a seq up to it meanwhile is this
        process's own commit (delivered by :meth:`committed`, not read back), or another
        process's that the write will find in its way: once the write is over, the feed
        is caught up from the store if it is still behind that NOTIFY."""
        if seq is not None:
            if table_id in self.feeds:
                self._expected[table_id] = seq
            return
        self._expected.pop(table_id, None)
        noticed = self._noticed.pop(table_id, None)
        feed = self.feeds.get(table_id)
        if noticed is not None and feed is not None and feed.seq < noticed:
            task = asyncio.get_running_loop().create_task(self._poke_later(table_id, noticed))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _poke_later(self, table_id: int, seq: int) -> None:
        try:
            await self.poke(table_id, seq)
        except Exception as exc:
            log.warning("table %s: catch-up failed (%s)", table_id, type(exc).__name__)

    def notice(self, table_id: int, seq: int) -> None:
        """A NOTIFY: the table was committed up to ``seq``. Returns at once; the catch-up
        (:meth:`poke`) runs in its own task, one per table at a time — NOTIFYs that come
        while it runs are folded into one more look — so that one slow read never holds
        up the notifications of other tables (they are read side by side)."""
        feed = self.feeds.get(table_id)
        if feed is None or feed.seq >= seq:
            return
        if self._own_in_flight(table_id, seq):
            return  # (PostgreSQL often hands it over before the write has its answer)
        running = table_id in self._wanted
        self._wanted[table_id] = max(seq, self._wanted.get(table_id, -1))
        if not running:
            task = asyncio.get_running_loop().create_task(self._catch_up_while_wanted(table_id))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _catch_up_while_wanted(self, table_id: int) -> None:
        try:
            while True:
                seq = self._wanted[table_id]
                await self.poke(table_id, seq)
                if self._wanted[table_id] == seq:
                    return
        except Exception as exc:
            log.warning("table %s: catch-up failed (%s)", table_id, type(exc).__name__)
        finally:
            self._wanted.pop(table_id, None)

    def _own_in_flight(self, table_id: int, seq: int) -> bool:
        """Whether this process is committing the table up to ``seq`` (its delivery is
        on the way); if so the NOTIFY is noted for the write's end (:meth:`expecting`)."""
        if self._expected.get(table_id, -1) < seq:
            return False
        self._noticed[table_id] = max(seq, self._noticed.get(table_id, -1))
        return True

    async def poke(self, table_id: int, seq: int | None = None) -> None:
        """A commit seen on the database (another process's, or missed): catch up."""
        feed = self.feeds.get(table_id)
        if feed is None or (seq is not None and feed.seq >= seq):
            return  # nothing to catch up (a feed's seq only grows): e.g. our own commit
        if seq is not None and self._own_in_flight(table_id, seq):
            return
        async with self._locks(table_id):
            await self.poke_locked(feed, seq)

    async def poke_all(self) -> None:
        """Catch up every table with local sockets (after a LISTEN reconnect)."""
        for table_id in list(self.feeds):
            try:
                await self.poke(table_id)
            except Unavailable:
                log.warning("table %s: catch-up failed: database unavailable", table_id)

    async def reconcile(self) -> None:
        """Catch up every local table the database has moved past (one query): a safety
        net for notifications that never came (``FIVEUP_NOTIFY=after_commit``)."""
        seen = {tid: f.seq for tid, f in self.feeds.items() if f.seq >= 0}
        if not seen:
            return
        for tid, seq in (await self.store.table_seqs(list(seen))).items():
            if seq > seen[tid]:
                await self.poke(tid, seq)

    async def poke_locked(self, feed: Feed, seq: int | None) -> None:
        if feed.seq < 0 or (seq is not None and feed.seq >= seq):
            return
        cu = await self.store.catchup(feed.table_id, feed.seq, RESYNC_EVENT_LIMIT)
        if cu is not None and cu.table.seq > feed.seq:
            self._catch_up(feed, cu)
