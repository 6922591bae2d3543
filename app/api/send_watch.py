"""The send deadline of every socket of this process, kept by one timer.

A frame that a client does not read within ``FIVEUP_SOCKET_SEND_TIMEOUT`` seconds cuts
the socket off (docs/protocol.md, close code 1013). A timeout scope around each
send did that at the price of a timer scheduled and cancelled for every frame, though
almost every send finishes at once: uvicorn's transport takes the bytes while its buffer
is below the high-water mark. Here a send (:meth:`SendWatch.run`) only notes its
deadline and drops it when done; a single timer, scheduled only while some send is still
waiting, at the earliest deadline, cancels the waiting sends that are overdue, and
:meth:`SendWatch.run` tells that cancellation from any other (which it lets through).

>>> import asyncio
>>> async def stuck_send() -> bool:
...     return await send_watch().run(asyncio.sleep(10), 0.05)  # a client that does not read
>>> asyncio.run(stuck_send())
False
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Awaitable

_WATCHES: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, SendWatch] = (
    weakref.WeakKeyDictionary()
)


def send_watch() -> SendWatch:
    """The running event loop's watch (one per loop: its clock is the loop's)."""
    loop = asyncio.get_running_loop()
    watch = _WATCHES.get(loop)
    if watch is None:
        watch = _WATCHES[loop] = SendWatch()
    return watch


class SendWatch:
    """Deadlines of one event loop's sends in progress (per task), and one timer at the
    earliest of them."""

    def __init__(self) -> None:
        self._deadlines: dict[asyncio.Task[object], float] = {}
        self._overdue: set[asyncio.Task[object]] = set()
        self._timer: asyncio.TimerHandle | None = None

    async def run(self, sending: Awaitable[object], timeout: float) -> bool:
        """Await ``sending`` (from a task): True once it is over, False if it was not
        over within ``timeout`` seconds (it is then cancelled). Its errors and any other
        cancellation (the task stopped) go through."""
        task = asyncio.current_task()
        assert task is not None
        loop = task.get_loop()
        deadline = loop.time() + timeout
        self._deadlines[task] = deadline
        if self._timer is None or deadline < self._timer.when():
            self._schedule(loop, deadline)
        try:
            await sending
        except asyncio.CancelledError:
            if task not in self._overdue:
                raise
            task.uncancel()
            return False
        finally:
            self._deadlines.pop(task, None)
            self._overdue.discard(task)
        return True

    def _schedule(self, loop: asyncio.AbstractEventLoop, at: float) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = loop.call_at(at, self._check, loop)

    def _check(self, loop: asyncio.AbstractEventLoop) -> None:
        self._timer = None
        now = loop.time()
        for task, deadline in list(self._deadlines.items()):
            if task.done():
                del self._deadlines[task]
            elif deadline <= now and task not in self._overdue:
                self._overdue.add(task)
                task.cancel()
        waiting = [d for t, d in self._deadlines.items() if t not in self._overdue]
        if waiting:
            self._schedule(loop, min(waiting))
