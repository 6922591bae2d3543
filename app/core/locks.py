"""Per-key asyncio locks that live only while someone holds or waits on them."""

from __future__ import annotations

import asyncio
import weakref


class KeyedLocks:
    """One ``asyncio.Lock`` per key (e.g. a table id), without growing per key forever.

    The locks sit in a weak dictionary: a lock disappears once nobody holds or awaits it.
    """

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    def __call__(self, key: int) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[key] = lock
        return lock
