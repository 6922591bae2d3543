"""The send deadline of every socket of this process, kept by one timer.

A frame that a client does not read within ``FIVEUP_SOCKET_SEND_TIMEOUT`` seconds cuts
the socket off (docs/protocol.md, close code 1013). A timeout scope around each
send did that at the price of a timer scheduled and cancelled for every frame, though
almost every send finishes at once: uvicorn's transport takes the bytes while its buffer
is below the high-water mark. Here a send only notes its deadline (:meth:`SendWatch.begin`)
and drops it when done (:meth:`SendWatch.end`); a single timer, scheduled only while
some send is still waiting, at the earliest deadline, cancels the waiting sends that are
overdue. The cancelled sender tells its own cancellation from any other by
:meth:`SendWatch.overdue`.

>>> import asyncio
>>> async def stuck_send() -> str:
...     watch, task = send_watch(), asyncio.current_task()
...     assert task is not None
...     watch.begin(task, 0.05)
...     try:
...         await asyncio.sleep(10)  # a client that does not read
...     except asyncio.CancelledError:
...         if not watch.overdue(task):
...             raise
...         return "cut off"
...     finally:
...         watch.end(task)
...     return "sent"
>>> asyncio.run(stuck_send())
'cut off'
"""

from __future__ import annotations

import asyncio
import weakref

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
        self._deadlines: dict[asyncio.Task[None], float] = {}
        self._overdue: set[asyncio.Task[None]] = set()
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at = 0.0

    def begin(self, task: asyncio.Task[None], timeout: float) -> None:
        """``task`` starts a send that must be over within ``timeout`` seconds."""
        loop = task.get_loop()
        deadline = loop.time() + timeout
        self._deadlines[task] = deadline
        if self._timer is None or deadline < self._timer_at:
            self._schedule(loop, deadline)

    def end(self, task: asyncio.Task[None]) -> None:
        """``task``'s send is over (done, failed or cancelled)."""
        self._deadlines.pop(task, None)
        self._overdue.discard(task)

    def overdue(self, task: asyncio.Task[None]) -> bool:
        """Whether ``task`` was cancelled by this watch (its send was overdue)."""
        return task in self._overdue

    def _schedule(self, loop: asyncio.AbstractEventLoop, at: float) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer_at = at
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
