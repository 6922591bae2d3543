"""Fan-out between processes: PostgreSQL LISTEN/NOTIFY.

The table service commits with ``pg_notify('fiveup_events', '<table_id>:<seq>')``
(delivered by Postgres only on commit). Every process listens on its own connection and
pokes its hub, which reads the new rows itself — the payload never carries game data.
After a lost LISTEN connection the hub catches up every table it serves.
In-process delivery needs no broker: the service calls the hub directly after commit.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

import psycopg

from app.realtime.hub import Hub

log = logging.getLogger(__name__)

CHANNEL = "fiveup_events"


class PgBroker:
    """Listens for commit notifications and pokes the local hub."""

    def __init__(self, dsn: str, hub: Hub) -> None:
        self.dsn = dsn
        self.hub = hub
        self._task: asyncio.Task[None] | None = None
        self.listening = asyncio.Event()
        #: called with (table_id, seq or None) for every notification, before the poke,
        #: and with (None, None) after (re)connecting: anything may have been missed.
        #: An observer returning True takes over that notification's delivery (the
        #: table service, for a commit of its own it is delivering itself).
        self.observers: list[Callable[[int | None, int | None], bool]] = []

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def _run(self) -> None:
        delay = 0.2
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    delay = 0.2
                    for observe in self.observers:
                        observe(None, None)
                    await self.hub.poke_all()  # catch up on anything missed while away
                    async for note in conn.notifies():
                        table_id, _, seq = note.payload.partition(":")
                        if table_id.isdigit():
                            tid, upto = int(table_id), int(seq) if seq.isdigit() else None
                            taken = [observe(tid, upto) for observe in self.observers]
                            if not any(taken):
                                await self.hub.poke(tid, upto=upto)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.listening.clear()
                log.warning("LISTEN connection lost (%s); retrying", type(exc).__name__)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)
