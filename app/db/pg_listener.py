"""Fan-out between processes: LISTEN on the commit channel (:mod:`app.db.channel`)
and tell the subscribers — the writer (forget a table changed elsewhere) and the hub
(deliver it). After a lost LISTEN connection, subscribers hear ``(None, None)``:
anything may have been missed, and the hub catches up every table it serves.
The same connection listens for presence reports (:data:`~app.db.channel.PRESENCE_CHANNEL`;
their payloads, handed on as they are, are :mod:`app.realtime.presence`'s), and for
any further channel a subscriber registers in :attr:`PgListener.channels` (e.g.
:data:`~app.db.channel.PROFILES_CHANNEL`, :mod:`app.realtime.profile_hub`'s notes).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

import psycopg

from app.core import metrics
from app.db.channel import CHANNEL, PRESENCE_CHANNEL, decode_note, note_stamp

log = logging.getLogger(__name__)

Subscriber = Callable[[int | None, int | None], Awaitable[None]]


class PgListener:
    """Listens for commit notifications on its own PostgreSQL connection."""

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        self.subscribers: list[Subscriber] = []
        #: called with every presence report's payload
        self.presence_subscribers: list[Callable[[str], None]] = []
        #: further channels (set before :meth:`start`): each payload, as it is, to each
        self.channels: dict[str, list[Callable[[str], None]]] = {}
        self.listening = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def _tell(self, table_id: int | None, seq: int | None) -> None:
        for subscriber in self.subscribers:
            try:
                await subscriber(table_id, seq)
            except Exception as exc:  # one table's failure must not stop the listener
                log.warning(
                    "commit subscriber failed for table %s (%s)", table_id, type(exc).__name__
                )

    async def _run(self) -> None:
        delay = 0.2
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    await conn.execute(f"LISTEN {PRESENCE_CHANNEL}")
                    for channel in self.channels:
                        await conn.execute(f"LISTEN {channel}")
                    self.listening.set()
                    metrics.db_reached()
                    delay = 0.2
                    await self._tell(None, None)  # catch up on anything missed while away
                    async for note in conn.notifies():
                        if note.channel == PRESENCE_CHANNEL:
                            for hear in self.presence_subscribers:
                                hear(note.payload)
                            continue
                        if note.channel in self.channels:
                            for hear in self.channels[note.channel]:
                                hear(note.payload)
                            continue
                        stamp = note_stamp(note.payload)
                        if stamp is not None and not stamp.own:
                            metrics.notify_heard(stamp.sent_at)
                        decoded = decode_note(note.payload)
                        if decoded is not None:
                            await self._tell(*decoded)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.listening.clear()
                metrics.db_lost()  # (retried every few seconds: an outage shows at once)
                log.warning("LISTEN connection lost (%s); retrying", type(exc).__name__)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)
