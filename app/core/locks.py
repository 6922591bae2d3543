"""Per-key asyncio locks that live only while someone holds or waits on them.

>>> import asyncio
>>> locks = KeyedLocks()
>>> async def twice():
...     async with locks(7):
...         inside = locks.held()
...     return inside, locks.held()
>>> asyncio.run(twice())
([7], [])
"""

from __future__ import annotations

import asyncio
from collections import deque
from types import TracebackType


class KeyedLocks:
    """A mutual-exclusion lock per key (e.g. a table id), without growing per key
    forever: ``async with locks(key):``. Not an ``asyncio.Lock``: a key's entry exists
    only while someone holds or awaits its lock and is dropped when the last leaves
    (counted, not left to weak references: one entry per table in use, made and dropped
    on the move path); waiters are served in arrival order."""

    def __init__(self) -> None:
        self._entries: dict[int, _KeyLock] = {}

    def __call__(self, key: int) -> _KeyLock:
        entry = self._entries.get(key)
        if entry is None:
            entry = self._entries[key] = _KeyLock(self, key)
        return entry

    def held(self) -> list[int]:
        """The keys whose lock someone holds or awaits now."""
        return sorted(self._entries)


class _KeyLock:
    """One key's lock: held or not, its waiters in arrival order, and how many hold or
    await it (the entry goes at zero). Taking a free lock creates nothing (no
    ``asyncio.Lock``, no future): that is every take on the move path but a clash.
    A release hands the lock to the first waiter, which then holds it; a waiter
    cancelled after the hand-over passes it on."""

    __slots__ = ("_held", "_key", "_owner", "_users", "_waiters")

    def __init__(self, owner: KeyedLocks, key: int) -> None:
        self._owner = owner
        self._key = key
        self._held = False
        self._waiters: deque[asyncio.Future[None]] | None = None
        self._users = 0

    async def __aenter__(self) -> None:
        self._users += 1
        if not self._held:
            self._held = True
            return
        if self._waiters is None:
            self._waiters = deque()
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            await waiter  # resolved by the release that hands the lock over
        except BaseException:
            if waiter.done() and not waiter.cancelled():
                self._release()  # handed over, then cancelled: the next one gets it
            else:
                self._waiters.remove(waiter)
            self._leave()
            raise

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._release()
        self._leave()

    def _release(self) -> None:
        waiters = self._waiters
        while waiters:
            waiter = waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)  # it holds the lock now (still held)
                return
        self._held = False

    def _leave(self) -> None:
        self._users -= 1
        if self._users == 0 and self._owner._entries.get(self._key) is self:
            del self._owner._entries[self._key]
