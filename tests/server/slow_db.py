"""A slow database for tests: a TCP proxy on 127.0.0.1 in front of PostgreSQL that holds
every chunk the database sends back for a fixed delay (what a database 25 ms away looks
like to the server). The proxy runs its own asyncio loop in a thread, so a test may
start a server process through it synchronously (``ServerProcess.start``)."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from typing import Self
from urllib.parse import urlsplit, urlunsplit


class SlowProxy:
    """Forwards 127.0.0.1:<port> to ``upstream``; each chunk from upstream is handed on
    ``delay`` seconds after it arrived (in order; chunks to upstream go at once)."""

    def __init__(self, upstream_url: str, delay: float = 0.025) -> None:
        parts = urlsplit(upstream_url)
        self.upstream_url = upstream_url
        self.host = parts.hostname or "127.0.0.1"
        self.upstream_port = parts.port or 5432
        self.delay = delay
        self.port = 0
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def url(self) -> str:
        """``upstream_url`` with its host and port replaced by the proxy's."""
        parts = urlsplit(self.upstream_url)
        user = f"{parts.username}@" if parts.username else ""
        return urlunsplit(parts._replace(netloc=f"{user}127.0.0.1:{self.port}"))

    def start(self) -> Self:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._listen(), self._loop).result(10)
        return self

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self._close(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)

    async def _listen(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = int(self._server.sockets[0].getsockname()[1])

    async def _close(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _serve(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            up_r, up_w = await asyncio.open_connection(self.host, self.upstream_port)
        except OSError:
            client_w.close()
            self._tasks.discard(task)
            return
        try:
            await asyncio.gather(
                self._pipe(client_r, up_w, 0.0), self._pipe(up_r, client_w, self.delay)
            )
        except (OSError, asyncio.CancelledError):
            pass
        finally:
            for w in (up_w, client_w):
                with contextlib.suppress(Exception):
                    w.close()
            self._tasks.discard(task)

    @staticmethod
    async def _pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter, delay: float) -> None:
        """Copy ``src`` to ``dst``, each chunk ``delay`` seconds after it was read (reading
        goes on meanwhile: the delay is a latency, not a throughput limit)."""
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def send() -> None:
            while True:
                due, chunk = await queue.get()
                if not chunk:
                    break
                wait = due - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                dst.write(chunk)
                await dst.drain()
            with contextlib.suppress(Exception):
                dst.write_eof()

        sender = asyncio.create_task(send())
        try:
            while True:
                chunk = await src.read(65536)
                queue.put_nowait((time.monotonic() + delay, chunk))
                if not chunk:
                    break
            await sender
        finally:
            sender.cancel()
