"""Timed actions: the next-round countdown. A deadline is derived from stored state
(``round_over_at`` + the countdown), so every process — and a restarted one — is due at
the same moment; the writer's version check makes a second firing a no-op.

A firing that meets a database outage is retried with back-off until the database is
back (it is never dropped); one that is no longer applicable (the round was dealt by
every seat's ``next_round``) does nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from app.tables.errors import TableError

log = logging.getLogger(__name__)

#: delays between attempts of a timed action whose database is unavailable
OUTAGE_RETRY_DELAYS = (0.25, 0.5, 1.0, 2.0, 5.0)


class Timers:
    """Background tasks of this process (cancelled on shutdown)."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()
        #: the timed actions being carried out now (not waiting for their moment)
        self._acting: set[asyncio.Task[Any]] = set()

    def spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        # a fresh context: not the request id and seat of the socket that scheduled it
        task = asyncio.get_running_loop().create_task(coro, context=contextvars.Context())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def at(self, delay: float, action: Callable[[], Awaitable[None]], what: str) -> None:
        """Run ``action`` after ``delay`` seconds, retrying through database outages."""

        async def fire() -> None:
            await asyncio.sleep(max(0.0, delay))
            attempt = 0
            me = asyncio.current_task()
            assert me is not None
            while True:
                self._acting.add(me)
                try:
                    await action()
                    return
                except TableError as err:
                    if err.code not in ("unavailable", "conflict"):
                        log.info("%s skipped (%s)", what, err.code)
                        return
                finally:
                    self._acting.discard(me)
                wait = OUTAGE_RETRY_DELAYS[min(attempt, len(OUTAGE_RETRY_DELAYS) - 1)]
                attempt += 1
                log.warning("%s: database unavailable; retrying in %.2f s", what, wait)
                await asyncio.sleep(wait)

        self.spawn(fire())

    async def settle(self) -> None:
        """Let the actions being carried out finish (and any they start); cancel every
        timer still waiting, and every background loop. For a process that drains: the
        state they were waiting on is stored, another process acts on it."""
        while True:
            for task in list(self._tasks):
                if task not in self._acting:
                    task.cancel()
            if not self._acting:
                return
            await asyncio.wait(list(self._acting), timeout=0.05)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
