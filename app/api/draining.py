"""Draining: how a process leaves the pool on SIGTERM without losing anybody.

On the first SIGTERM (docs/deployment.md, "Restarts and probes") the process, before
uvicorn's own shutdown begins:

1. **drains**: ``/readyz`` answers 503 ``draining``; a new HTTP request other than a
   probe or ``/metrics`` (:data:`PROBE_PATHS`) gets ``503 draining`` with
   ``Retry-After: 1``; a new WebSocket upgrade gets ``503 draining`` instead of ``101``;
2. lets the HTTP requests and the socket frames it is handling finish (a move being
   written is committed and acknowledged on its socket);
3. closes every socket with **1012** ("service restart"), once the frames queued for it
   went out: its client reconnects at once, to another process. A frame that arrives
   after the close frame was sent is not applied (its sender resends it with the same
   ``move_id`` after reconnecting, as for any lost connection);
4. stops its timers (a turn or a deal being played finishes; the ones still waiting
   are dropped) and says goodbye on the presence channel: every other process then
   schedules the pending turns and deals it finds in the database
   (:func:`adopt_on_goodbye`), as a (re)started process does;
5. hands over to uvicorn, which closes the listening socket, the idle connections and
   runs the lifespan shutdown.

Steps 2–4 take ``FIVEUP_DRAIN_SECONDS`` at most: a socket still busy then is closed with
1012 all the same and its handler cancelled, and a timed action still running (a
computer player in its pause, a write stuck in the database) is cancelled — the others
play that turn. A second SIGTERM skips what is left.

The signal is taken from uvicorn's own handler (installed before the lifespan starts)
and given back to it afterwards, so this works under ``fiveup serve``, ``--workers N``
(the supervisor sends each worker SIGTERM) and a plain ``uvicorn --factory``. Where no
handler of the server's is installed (a test's in-thread lifespan), nothing is hooked.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import threading
import time
from collections.abc import Callable
from types import FrameType
from typing import Any

import orjson
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketState

from app.api.metrics_route import PATH as METRICS_PATH
from app.api.socket_writer import close_socket
from app.core.connection_caps import EXEMPT_PATHS
from app.db.pg_listener import PgListener
from app.realtime import presence
from app.realtime.connection import Connection
from app.realtime.hub import Hub
from app.tables.service import TableService

log = logging.getLogger(__name__)

#: answered while draining: a load balancer's probes (never refused by the HTTP budget)
#: and the metrics on the main port (a scrape sees the drain)
PROBE_PATHS = EXEMPT_PATHS | {METRICS_PATH}
CLOSE_SERVICE_RESTART = 1012
RESTART_REASON = "service restart"
DRAINING_MESSAGE = "this server is restarting; retry (another one answers)"
#: the processes whose goodbye was heard that are remembered (not taken over twice)
SEEN_GOODBYES = 256

SignalHandler = Callable[[int, FrameType | None], Any]


class LiveSocket:
    """One open table socket as the drain sees it: whether a frame of it is being
    handled, and whether its 1012 close was sent (frames after it are not applied)."""

    __slots__ = ("busy", "closed", "conn", "idle", "left", "task", "ws")

    def __init__(self, ws: WebSocket, conn: Connection) -> None:
        self.ws = ws
        self.conn = conn
        self.task = asyncio.current_task()
        self.busy = False
        self.idle = asyncio.Event()
        self.idle.set()
        self.closed = False
        #: its handler is over (the socket is gone)
        self.left = False

    def begin(self) -> bool:
        """A frame is about to be handled: False if the socket was closed for the
        restart (the frame is dropped)."""
        if self.closed:
            return False
        self.busy = True
        self.idle.clear()
        return True

    def end(self) -> None:
        self.busy = False
        self.idle.set()

    async def close_for_restart(self) -> None:
        """Wait for the frame being handled, then close 1012 through the socket's writer
        (:meth:`~app.realtime.connection.Connection.close_after`): the frames queued
        before go out first, in order, and nothing more is queued. Returns once the
        close was sent (or the socket is gone)."""
        await self.idle.wait()
        self.closed = True
        self.conn.close_after(CLOSE_SERVICE_RESTART, RESTART_REASON)
        while self.open:
            await asyncio.sleep(0.01)

    @property
    def open(self) -> bool:
        """Its handler runs and no close was sent on it yet."""
        return not self.left and self.ws.application_state != WebSocketState.DISCONNECTED

    async def shut(self) -> None:
        self.closed = True
        await close_socket(self.ws, CLOSE_SERVICE_RESTART, RESTART_REASON)


class Drain:
    """This process's drain state and sequence (one per application)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.draining = False
        self.sockets: set[LiveSocket] = set()
        #: HTTP requests (not probes) being answered
        self.requests = 0
        self._original: SignalHandler | None = None
        self._task: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._hub: Hub | None = None
        self._service: TableService | None = None

    # -- the sockets ---------------------------------------------------------------------
    def enter(self, ws: WebSocket, conn: Connection) -> LiveSocket | None:
        """Track a socket just accepted; None while draining (close it with 1012)."""
        if self.draining:
            return None
        live = LiveSocket(ws, conn)
        self.sockets.add(live)
        return live

    def leave(self, live: LiveSocket | None) -> None:
        if live is not None:
            live.left = True
            self.sockets.discard(live)

    # -- the signal ----------------------------------------------------------------------
    def install(self, hub: Hub, service: TableService, listener: PgListener | None) -> bool:
        """Take SIGTERM from the server's handler (main thread only; whether it did),
        and, with PostgreSQL, take over the tables of the others when they drain."""
        self._hub, self._service = hub, service
        if listener is not None:
            me = hub.remote.process if hub.remote is not None else None
            listener.presence_subscribers.append(adopt_on_goodbye(service, me))
        if threading.current_thread() is not threading.main_thread():
            return False
        current = signal.getsignal(signal.SIGTERM)
        if not callable(current):
            return False  # nobody serves us who would shut down on it
        self._original = current
        self._loop = asyncio.get_running_loop()
        signal.signal(signal.SIGTERM, self._on_sigterm)
        return True

    def uninstall(self) -> None:
        """Give SIGTERM back to the server's handler (lifespan shutdown)."""
        if self._original is not None and signal.getsignal(signal.SIGTERM) == self._on_sigterm:
            signal.signal(signal.SIGTERM, self._original)
        if self._task is not None and not self._task.done():
            self._task.cancel()

    def _on_sigterm(self, sig: int, frame: FrameType | None) -> None:
        if self._task is not None or self._loop is None:
            self._pass_on(sig, frame)  # the second one: shut down now
            return
        self._loop.call_soon_threadsafe(self._start, sig, frame)

    async def begin(self) -> None:
        """Drain now, as on SIGTERM (the operator's page, app/api/routes_admin.py): the
        same sequence in the background; then, if the server gave a SIGTERM handler to
        pass on, the process exits as on SIGTERM. Twice, or during a drain: nothing."""
        if self._task is None:
            self._start(signal.SIGTERM, None)

    def _start(self, sig: int, frame: FrameType | None) -> None:
        self._task = asyncio.get_running_loop().create_task(self.run())
        self._task.add_done_callback(lambda _: self._pass_on(sig, frame))

    def _pass_on(self, sig: int, frame: FrameType | None) -> None:
        if self._original is not None:
            self._original(sig, frame)

    # -- the sequence --------------------------------------------------------------------
    async def run(self) -> None:
        """Drain (the module's steps 1–4) within ``seconds``."""
        self.draining = True
        began = time.monotonic()
        log.warning(
            "draining: %d sockets, %d requests; at most %.0f s",
            len(self.sockets),
            self.requests,
            self.seconds,
        )
        try:
            async with asyncio.timeout(self.seconds):
                while self.requests:
                    await asyncio.sleep(0.01)
                await asyncio.gather(*(s.close_for_restart() for s in list(self.sockets)))
                if self._service is not None:
                    await self._service.timers.settle()
        except TimeoutError:
            stuck = [s for s in self.sockets if s.open]
            log.warning("drain deadline: %d sockets closed while busy", len(stuck))
            for s in stuck:
                await s.shut()
                if s.task is not None and s.busy:
                    s.task.cancel()
            if self._service is not None:  # (a turn still being played: another plays it)
                await self._service.timers.close()
        if self._hub is not None:
            self._hub.goodbye()  # the others take this process's tables' timers over
        log.warning("drained in %.2f s", time.monotonic() - began)


def adopt_on_goodbye(service: TableService, me: str | None) -> Callable[[str], None]:
    """A presence subscriber: when another process says goodbye (it drained or shut
    down), schedule every pending turn and deal in the database here — whoever comes
    first plays each, once (the write path's version check)."""
    seen: set[str] = set()  # (a draining process says goodbye twice: drained, shut down)

    def hear(payload: str) -> None:
        decoded = presence.decode(payload)
        if decoded is None or decoded[1] != "bye":
            return
        process = decoded[0]
        if process == me or process in seen:
            return
        if len(seen) >= SEEN_GOODBYES:
            seen.clear()  # (bounded; a repeat only schedules the turns once more)
        seen.add(process)
        service.timers.at(0, service.timed.adopt_timers, f"tables of process {process}")

    return hear


def _refusal() -> tuple[bytes, list[tuple[bytes, bytes]]]:
    body = orjson.dumps({"detail": {"code": "draining", "message": DRAINING_MESSAGE}})
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"retry-after", b"1"),
    ]
    return body, headers


class DrainGate:
    """ASGI middleware: while draining, new HTTP requests (not probes) and new
    WebSockets are refused ``503 draining``; HTTP requests are counted while they run,
    so the drain can wait for them."""

    def __init__(self, app: ASGIApp, drain: Drain) -> None:
        self.app = app
        self.drain = drain

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        drain = self.drain
        if kind == "http" and scope.get("path", "") not in PROBE_PATHS:
            if drain.draining:
                body, headers = _refusal()
                headers.append((b"connection", b"close"))
                await send({"type": "http.response.start", "status": 503, "headers": headers})
                await send({"type": "http.response.body", "body": body})
                return
            drain.requests += 1
            try:
                await self.app(scope, receive, send)
            finally:
                drain.requests -= 1
            return
        if kind == "websocket" and drain.draining:
            if "websocket.http.response" not in scope.get("extensions", {}):
                await send({"type": "websocket.close", "code": CLOSE_SERVICE_RESTART})
                return
            body, headers = _refusal()
            await send({"type": "websocket.http.response.start", "status": 503, "headers": headers})
            await send({"type": "websocket.http.response.body", "body": body})
            return
        await self.app(scope, receive, send)
