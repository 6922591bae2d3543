"""Writes one socket's queued frames to the client, in the order they were queued.

Two ways, the same order and the same bounds:

* **At once.** When frames wait and nothing is writing them, the socket's flush runs at
  the end of the event loop's current turn (``call_soon``, no task). If the server's
  socket takes bytes (its buffer is below the transport's high-water mark), every waiting
  frame goes out in ONE write to the transport: a move's event frame and its ``ack``
  travel together, one system call. That is almost every frame, at any load.
* **By a task.** When the socket's buffer is full (the client reads slowly), or the
  server is not one whose socket can be written directly, a writer task awaits each
  send under the send deadline (:mod:`app.api.send_watch`): a client that does not read
  within ``FIVEUP_SOCKET_SEND_TIMEOUT`` is cut off without a close handshake, and one
  that falls ``FIVEUP_SOCKET_QUEUE_BYTES`` behind is closed with 1013.

The direct write is uvicorn's own: its sans-I/O WebSocket protocol
(``ws="websockets-sansio"``, the one ``fiveup serve`` runs) frames the text with the
``websockets`` library and writes it to the asyncio transport, which is what its ASGI
``send`` does once the transport is writable. Under any other server the task path
alone is used.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from starlette.websockets import WebSocket, WebSocketState
from websockets.protocol import OPEN

from app.api.send_watch import send_watch
from app.api.socket_guard import abort_transport, send_owners
from app.core import metrics
from app.realtime.connection import Connection

CLOSE_TOO_SLOW = 1013


async def close_socket(ws: WebSocket, code: int, reason: str) -> None:
    """Close the socket with ``code`` and ``reason``, if it is still open."""
    with contextlib.suppress(Exception):
        if ws.application_state != WebSocketState.DISCONNECTED:
            metrics.socket_closed_with(code)
            await ws.close(code=code, reason=reason)


class DirectSend:
    """Writes frames to uvicorn's sans-I/O WebSocket protocol without awaiting: only
    while its transport takes bytes (:meth:`ready`)."""

    def __init__(self, protocol: Any) -> None:
        self._protocol = protocol

    @classmethod
    def find(cls, ws: WebSocket) -> DirectSend | None:
        """The direct writer behind ``ws``'s ASGI ``send``, if the server is uvicorn's
        sans-I/O protocol (through wrapping middlewares, if any); None otherwise."""
        for owner in send_owners(ws):
            if _is_sans_io_protocol(owner):
                return cls(owner)
        return None

    def ready(self) -> bool:
        """True when a write goes straight to the transport (open, not paused)."""
        p = self._protocol
        return (
            p.handshake_complete
            and not p.close_sent
            and p.initial_response is None
            and p.writable.is_set()
            and not p.transport.is_closing()
        )

    def write(self, texts: list[str]) -> None:
        """Frame each text and write them all in one call (raises if the WebSocket is
        no longer open).

        Without an extension (permessage-deflate is off unless ``FIVEUP_WS_DEFLATE``) a
        server's text frame is its header and the text as it is, framed here
        (:func:`text_frame`); otherwise, or in any state but open, the ``websockets``
        protocol frames it (and refuses it when it must)."""
        p = self._protocol
        ws = p.conn
        payloads = [text.encode() for text in texts]
        metrics.payloads_sent(payloads)
        if ws.extensions or ws.debug or ws.expect_continuation_frame or ws.state is not OPEN:
            for payload in payloads:
                ws.send_text(payload)
            p.transport.write(b"".join(ws.data_to_send()))
            return
        out = ws.data_to_send()  # (anything the protocol queued first goes first)
        for payload in payloads:
            out.append(text_frame(payload))
        p.transport.write(b"".join(out))


def text_frame(data: bytes) -> bytes:
    """A final, unmasked text frame (RFC 6455 §5.2: what a server sends) of ``data``.

    >>> text_frame(b"hi"), text_frame(b"x" * 126)[:4], len(text_frame(b"x" * 65536))
    (b'\\x81\\x02hi', b'\\x81~\\x00~', 65546)
    """
    n = len(data)
    if n < 126:
        return bytes((0x81, n)) + data
    if n < 65536:
        return b"\x81\x7e" + n.to_bytes(2, "big") + data
    return b"\x81\x7f" + n.to_bytes(8, "big") + data


def _is_sans_io_protocol(owner: object) -> bool:
    return all(
        hasattr(owner, name)
        for name in ("conn", "transport", "writable", "close_sent", "handshake_complete")
    ) and hasattr(getattr(owner, "conn", None), "data_to_send")


class SocketWriter:
    """Writes a socket's queued frames in order (see the module's docstring): at once
    when the transport takes them, else in a task that exists only while frames wait; a
    client too far behind, or not reading, is closed (1013)."""

    def __init__(self, ws: WebSocket, conn: Connection, timeout: float) -> None:
        self.ws = ws
        self.conn = conn
        self.timeout = timeout
        self.task: asyncio.Task[None] | None = None
        self._direct = DirectSend.find(ws)
        self._flush_due = False
        # the socket's loop, asked once (each asking costs a getpid system call, 3.11)
        self._loop = asyncio.get_running_loop()
        conn.on_ready = self.wake

    def wake(self) -> None:
        """Frames wait: flush them at the end of this turn of the event loop."""
        if self._flush_due or (self.task is not None and not self.task.done()):
            return
        self._flush_due = True
        self._loop.call_soon(self._flush)

    def _flush(self) -> None:
        self._flush_due = False
        if self.task is not None and not self.task.done():
            return  # the writer task is at work; it takes what was queued since
        conn, direct = self.conn, self._direct
        if (
            direct is not None
            and not conn.overflowed
            and conn.closing is None
            and not conn.closed
            and direct.ready()
        ):
            texts = conn.take_all()
            if not texts:
                return
            try:
                direct.write(texts)
            except Exception:  # the socket is gone: the reader ends the connection
                conn.closed = True
            return
        self.task = self._loop.create_task(self._drain())

    async def _drain(self) -> None:
        conn, watch = self.conn, send_watch()
        while True:
            if conn.overflowed:  # too far behind: cut it off (a close would queue too)
                metrics.cut_off("queue_full")
                conn.closed = True
                if not abort_transport(self.ws):
                    await close_socket(self.ws, CLOSE_TOO_SLOW, "too slow; reconnect and resync")
                return
            text = conn.next_frame()
            if text is None:
                if conn.closing is not None:  # asked by the hub (4410/4411: revoked)
                    conn.closed = True
                    await close_socket(self.ws, *conn.closing)
                return
            # the deadline is kept by the loop's one send watch, not a timeout scope per
            # frame (a timer scheduled and cancelled per frame, though almost every send
            # is over at once: about 4 % of the server's CPU per move in the profile)
            try:
                sent = await watch.run(self.ws.send_text(text), self.timeout)
            except Exception:  # the socket is gone: the reader ends the connection
                conn.closed = True
                return
            if not sent:  # the client does not read: cut it off, no handshake
                metrics.cut_off("send_timeout")
                conn.closed = True
                if not abort_transport(self.ws):
                    await close_socket(self.ws, CLOSE_TOO_SLOW, "too slow; reconnect and resync")
                return
            metrics.text_sent(text)

    async def stop(self) -> None:
        """Let already-queued frames (e.g. a final error) go out for a moment, then stop;
        the connection no longer wakes this writer."""
        if self._flush_due:
            await asyncio.sleep(0)  # the flush due this turn runs first
        if self.task is not None and not self.task.done():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self.task), timeout=2)
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
            self.task = None
        # the connection's wake-up is this writer's method: drop it, so that neither
        # outlives the socket in a cycle only a full collection would free
        self.conn.on_ready = None
