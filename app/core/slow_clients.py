"""Slow clients (slowloris): header and body read deadlines in uvicorn's HTTP protocol.

uvicorn has a keep-alive timeout but no limit on how long a client may take to send a
request: a connection that trickles its headers (or its body) one byte at a time stays
open for ever, and a few hundred of them hold the process's sockets and memory (issue
10, finding 7). ``DeadlineHttpToolsProtocol`` is uvicorn's httptools protocol plus three
limits per request, selected with ``uvicorn.run(..., http=DeadlineHttpToolsProtocol)``
(``app/core/serving.py`` does this and sets the limits from the settings):

* **header deadline** — the request line and headers must arrive within
  ``header_timeout`` seconds, counted from the connection (or from the first byte of
  the next request on a kept-alive connection); an idle new connection counts too;
* **body deadline** — the whole body must arrive within ``body_timeout`` seconds after
  the headers, whether or not the application reads it;
* **header size** — more than ``max_header_bytes`` before the headers end gets 431
  (httptools itself sets no limit; h11 has ``h11_max_incomplete_event_size``).

A request that misses a deadline is answered ``408 Request Timeout`` with
``Connection: close`` if no response has started, and the transport is closed either way.
WebSocket upgrades stop the deadlines (their idle sockets are the ping timeout's job).
Done in the protocol rather than as ASGI middleware because a middleware only runs
while the application awaits ``receive()``: it cannot see a client that trickles
headers, nor the body of a request the application answers without reading.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from app.core.settings import Settings, get_settings


@dataclass(frozen=True)
class SlowClientLimits:
    """The three limits, in seconds and bytes."""

    header_timeout: float = 10.0
    body_timeout: float = 15.0
    max_header_bytes: int = 16384

    @classmethod
    def from_settings(cls, settings: Settings) -> SlowClientLimits:
        return cls(settings.header_timeout, settings.body_timeout, settings.max_header_bytes)


class DeadlineHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with header/body deadlines and a header size limit.

    A module-level class (uvicorn pickles its config, ``http=`` included, for each
    ``--workers`` process), so the limits are not baked into a subclass: ``configure``
    sets them for this process, and a process where nobody did (a spawned worker) reads
    them from the environment's settings, which ``fiveup serve`` was started with.
    """

    limits: ClassVar[SlowClientLimits | None] = None

    @classmethod
    def configure(cls, limits: SlowClientLimits) -> None:
        cls.limits = limits

    @classmethod
    def current_limits(cls) -> SlowClientLimits:
        if cls.limits is None:
            cls.limits = SlowClientLimits.from_settings(get_settings())
        return cls.limits

    header_timeout: float
    body_timeout: float
    max_header_bytes: int
    _deadline: asyncio.TimerHandle | None = None
    _in_headers: bool = False
    _header_bytes: int = 0
    _upgraded: bool = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        limits = self.current_limits()
        self.header_timeout = limits.header_timeout
        self.body_timeout = limits.body_timeout
        self.max_header_bytes = limits.max_header_bytes
        super().connection_made(transport)  # type: ignore[arg-type]
        self._begin_headers()

    def connection_lost(self, exc: Exception | None) -> None:
        self._clear_deadline()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self._in_headers and not self._upgraded and not self.transport.is_closing():
            self._header_bytes += len(data)
            if self._header_bytes > self.max_header_bytes:
                self._refuse(431, b"Request Header Fields Too Large")

    def handle_websocket_upgrade(self) -> None:
        self._upgraded = True
        self._in_headers = False
        self._clear_deadline()
        super().handle_websocket_upgrade()
        # the socket's protocol took the transport: this one gets no connection_lost,
        # which is where uvicorn drops the parser whose callbacks are this protocol's
        # methods (a reference cycle holding the transport and the socket's protocol
        # until a full collection: docs/benchmarks.md, "Memory per socket lifetime")
        self.parser = None  # type: ignore[assignment]

    # parser callbacks
    def on_message_begin(self) -> None:
        super().on_message_begin()
        if not self._in_headers:
            self._begin_headers()

    def on_headers_complete(self) -> None:
        self._in_headers = False
        self._clear_deadline()
        super().on_headers_complete()
        if not self._upgraded and not self.transport.is_closing():
            self._set_deadline(self.body_timeout)

    def on_message_complete(self) -> None:
        self._clear_deadline()
        super().on_message_complete()

    # deadlines
    def _begin_headers(self) -> None:
        self._in_headers = True
        self._header_bytes = 0
        self._set_deadline(self.header_timeout)

    def _set_deadline(self, seconds: float) -> None:
        self._clear_deadline()
        self._deadline = self.loop.call_later(seconds, self._deadline_passed)

    def _clear_deadline(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _deadline_passed(self) -> None:
        self._deadline = None
        if self._upgraded or self.transport.is_closing():
            return
        self._refuse(408, b"Request Timeout")

    def _refuse(self, status: int, reason: bytes) -> None:
        """Answer ``status`` (unless a response has started) and close the connection."""
        self._clear_deadline()
        self._in_headers = False
        started = self.cycle is not None and self.cycle.response_started
        if not started:
            self.transport.write(
                b"HTTP/1.1 %d %s\r\ncontent-type: text/plain; charset=utf-8\r\n"
                b"content-length: %d\r\nconnection: close\r\n\r\n%s"
                % (status, reason, len(reason), reason)
            )
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.disconnected = True
            self.cycle.keep_alive = False
            self.cycle.message_event.set()
        self.transport.close()
