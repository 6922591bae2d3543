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
from types import TracebackType


class KeyedLocks:
    """One ``asyncio.Lock`` per key (e.g. a table id), without growing per key forever:
    ``async with locks(key):``. A key's lock is dropped once nobody holds or awaits it
    (counted, not left to weak references: one lock and one dictionary entry per
    table in use, made and dropped on the move path)."""

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
    """One key's lock and how many hold or await it (the entry goes at zero)."""

    __slots__ = ("_key", "_lock", "_owner", "_users")

    def __init__(self, owner: KeyedLocks, key: int) -> None:
        self._owner = owner
        self._key = key
        self._lock = asyncio.Lock()
        self._users = 0

    async def __aenter__(self) -> None:
        self._users += 1
        try:
            await self._lock.acquire()
        except BaseException:
            self._leave()
            raise

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._lock.release()
        self._leave()

    def _leave(self) -> None:
        self._users -= 1
        if self._users == 0 and self._owner._entries.get(self._key) is self:
            del self._owner._entries[self._key]
