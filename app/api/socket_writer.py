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

A frame is bytes from its encoding to the socket (:func:`app.realtime.frames.encode`:
UTF-8 JSON), so the queue's byte bound counts what goes on the wire. The direct write is
uvicorn's own: its sans-I/O WebSocket protocol (``ws="websockets-sansio"``, the one
``fiveup serve`` runs) frames the bytes as a WebSocket *text* frame (opcode 1) with the
``websockets`` library and writes it to the asyncio transport, which is what its ASGI
``send`` does once the transport is writable. The task path goes through ASGI, whose
``websocket.send`` carries a text frame only as ``str`` (``bytes`` would make it a
binary frame, which a client must not get): it decodes each frame there, once, at the
very end. Under any other server the task path alone is used.
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

    def write(self, frames: list[bytes]) -> None:
        """Frame each frame's bytes (UTF-8 JSON) as a text frame and write them all in
        one call (raises if the WebSocket is no longer open).

        Without an extension (permessage-deflate is off unless ``FIVEUP_WS_DEFLATE``) a
        server's text frame is its header and the bytes as they are, framed here
        (:func:`text_frame`); otherwise, or in any state but open, the ``websockets``
        protocol frames them (``send_text``, which takes the encoded bytes, and refuses
        them when it must)."""
        p = self._protocol
        ws = p.conn
        metrics.payloads_sent(frames)
        if ws.extensions or ws.debug or ws.expect_continuation_frame or ws.state is not OPEN:
            for data in frames:
                ws.send_text(data)
            p.transport.write(b"".join(ws.data_to_send()))
            return
        out = ws.data_to_send()  # (anything the protocol queued first goes first)
        for data in frames:
            out.append(text_frame(data))
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
            frames = conn.take_all()
            if not frames:
                return
            try:
                direct.write(frames)
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
            data = conn.next_frame()
            if data is None:
                if conn.closing is not None:  # asked by the hub (4410/4411: revoked)
                    conn.closed = True
                    await close_socket(self.ws, *conn.closing)
                return
            # the deadline is kept by the loop's one send watch, not a timeout scope per
            # frame (a timer scheduled and cancelled per frame, though almost every send
            # is over at once, costs more than the send: docs/benchmarks.md)
            # ASGI sends a text frame only from str: decoded here, at the very end
            try:
                sent = await watch.run(self.ws.send_text(data.decode()), self.timeout)
            except Exception:  # the socket is gone: the reader ends the connection
                conn.closed = True
                return
            if not sent:  # the client does not read: cut it off, no handshake
                metrics.cut_off("send_timeout")
                conn.closed = True
                if not abort_transport(self.ws):
                    await close_socket(self.ws, CLOSE_TOO_SLOW, "too slow; reconnect and resync")
                return
            metrics.payloads_sent((data,))

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
