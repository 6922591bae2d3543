"""Slow clients (slowloris): header and body read deadlines in uvicorn's HTTP protocol.

uvicorn has a keep-alive timeout but no limit on how long a client may take to send a
request: a connection that trickles its headers (or its body) one byte at a time stays
open for ever, and a few hundred of them hold the process's sockets and memory.
``DeadlineHttpToolsProtocol`` is uvicorn's httptools protocol plus three
limits per request, selected with ``uvicorn.run(..., http=DeadlineHttpToolsProtocol)``
(``app/core/serving.py`` does this and sets the limits from the settings):

* **header deadline** — the request line and headers must arrive within
  ``header_timeout`` seconds, counted from the connection (or from the first byte of
  the next request on a kept-alive connection); an idle new connection counts too;
* **body deadline** — the whole body must arrive within ``body_timeout`` seconds after
  the headers, whether or not the application reads it;
* **header size** — more than ``max_header_bytes`` of request line and headers gets
  431: counted from the bytes as they arrive, before the parser sees them (a header
  block that arrives in one read is measured up to its blank line), and again from
  what the parser hands over, for requests pipelined behind another in one read
  (httptools itself sets no limit; h11 has ``h11_max_incomplete_event_size``).

The same protocol applies the HTTP caps of ``app/core/connection_caps.py``: open
connections per client address (one over is closed before a byte is read) and the
budget of HTTP requests running at once (``503 overloaded``; ``/healthz`` exempt), which
WebSockets do not count against.

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
from typing import Any, ClassVar

import httptools
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol, RequestResponseCycle
from uvicorn.protocols.utils import get_remote_addr

from app.core import metrics
from app.core.connection_caps import HttpCaps, HttpLoad, overloaded
from app.core.settings import Settings, get_settings

_HEAD_END = b"\r\n\r\n"


class _HeadersTooLarge(Exception):
    """Raised from a parser callback to stop parsing a request refused with 431."""


@dataclass(frozen=True)
class SlowClientLimits:
    """The three limits, in seconds and bytes."""

    header_timeout: float = 10.0
    body_timeout: float = 15.0
    max_header_bytes: int = 16384

    @classmethod
    def from_settings(cls, settings: Settings) -> SlowClientLimits:
        return cls(settings.header_timeout, settings.body_timeout, settings.max_header_bytes)


def http_caps(settings: Settings) -> HttpCaps:
    """The HTTP caps the settings name (trusted proxies as ``FIVEUP_FORWARDED_ALLOW_IPS``)."""
    trusted = tuple(p.strip() for p in settings.forwarded_allow_ips.split(",") if p.strip())
    return HttpCaps(settings.max_connections_per_address, settings.limit_concurrency, trusted)


class DeadlineHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with header/body deadlines, a header size limit and
    the HTTP connection caps.

    A module-level class (uvicorn pickles its config, ``http=`` included, for each
    ``--workers`` process), so the limits are not baked into a subclass: ``configure``
    sets them for this process, and a process where nobody did (a spawned worker) reads
    them from the environment's settings, which ``fiveup serve`` was started with.
    uvicorn's own ``limit_concurrency`` must stay off (``None``): it counts WebSockets.
    """

    limits: ClassVar[SlowClientLimits | None] = None
    caps: ClassVar[HttpCaps | None] = None
    #: this process's open HTTP connections and running requests
    load: ClassVar[HttpLoad] = HttpLoad()

    @classmethod
    def configure(cls, limits: SlowClientLimits, caps: HttpCaps | None = None) -> None:
        cls.limits = limits
        cls.caps = caps

    @classmethod
    def current_limits(cls) -> SlowClientLimits:
        if cls.limits is None:
            cls.limits = SlowClientLimits.from_settings(get_settings())
        return cls.limits

    @classmethod
    def current_caps(cls) -> HttpCaps:
        if cls.caps is None:
            cls.caps = http_caps(get_settings())
        return cls.caps

    header_timeout: float
    body_timeout: float
    max_header_bytes: int
    _deadline: asyncio.TimerHandle | None = None
    _in_headers: bool = False
    _upgraded: bool = False
    # the size limit: wire bytes counted before parsing, and what the parser handed over
    _counting_head: bool = False
    _header_bytes: int = 0
    _head_tail: bytes = b""
    _parsed_bytes: int = 0
    _too_large: bool = False
    # the connection cap: the address this connection is counted under, if any
    _counted: str | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        limits = self.current_limits()
        self.header_timeout = limits.header_timeout
        self.body_timeout = limits.body_timeout
        self.max_header_bytes = limits.max_header_bytes
        super().connection_made(transport)  # type: ignore[arg-type]
        caps = self.current_caps()
        peer = get_remote_addr(self.transport)
        host = peer[0] if peer else "unknown"
        if not caps.is_trusted(host):
            if not self.load.connections.enter(host, caps.connections_per_address):
                metrics.refused("connections_per_address")
                self.transport.close()  # over the address's cap: closed before a byte is read
                return
            self._counted = host
        self._begin_headers()
        self._count_next_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._clear_deadline()
        self._uncount()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        """uvicorn's, with the header bytes counted before the parser sees them."""
        counting = self._counting_head and not self._upgraded and not self.transport.is_closing()
        if counting and self._count_head_bytes(data) > self.max_header_bytes:
            self._refuse_too_large()
            return
        self._unset_keepalive_if_required()
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserError:
            if self._too_large:
                return  # refused with 431 from a parser callback
            self.logger.warning("Invalid HTTP request received.")
            self.send_400_response("Invalid HTTP request received.")
        except httptools.HttpParserUpgrade:
            if self._should_upgrade():
                self.handle_websocket_upgrade()
            else:
                self._unsupported_upgrade_warning()

    def handle_websocket_upgrade(self) -> None:
        self._upgraded = True
        self._in_headers = False
        self._counting_head = False
        self._clear_deadline()
        self._uncount()  # from here on a socket: app/core/connection_caps.SocketCaps counts it
        super().handle_websocket_upgrade()
        # the socket's protocol took the transport: this one gets no connection_lost,
        # which is where uvicorn drops the parser whose callbacks are this protocol's
        # methods (a reference cycle holding the transport and the socket's protocol
        # until a full collection: docs/benchmarks.md, "Memory per socket lifetime")
        self.parser = None  # type: ignore[assignment]

    def _start_asgi_task(self, cycle: RequestResponseCycle, app: Any) -> None:
        load = self.load
        if load.over_budget(self.current_caps(), cycle.scope["path"]):
            self.logger.warning("HTTP budget spent: a request answered 503")
            super()._start_asgi_task(cycle, overloaded)  # type: ignore[arg-type]
            return
        load.requests += 1  # counted now, so requests started in one loop pass all count

        async def counted(scope: Any, receive: Any, send: Any) -> None:
            try:
                await app(scope, receive, send)
            finally:
                load.requests -= 1

        super()._start_asgi_task(cycle, counted)

    # parser callbacks
    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._parsed_bytes = 0
        if not self._in_headers:
            self._begin_headers()

    def on_url(self, url: bytes) -> None:
        self._count_parsed(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._count_parsed(len(name) + len(value) + 4)
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._in_headers = False
        self._counting_head = False
        self._clear_deadline()
        super().on_headers_complete()
        if not self._upgraded and not self.transport.is_closing():
            self._set_deadline(self.body_timeout)

    def on_message_complete(self) -> None:
        self._clear_deadline()
        super().on_message_complete()
        self._count_next_head()  # what follows a whole request is the next one's head

    # header size
    def _count_next_head(self) -> None:
        self._counting_head = True
        self._header_bytes = 0
        self._head_tail = b""

    def _count_head_bytes(self, data: bytes) -> int:
        """Add the bytes of ``data`` up to the end of the header block (all of it if the
        block does not end in it); return the request's header bytes so far."""
        seen = self._head_tail + data
        end = seen.find(_HEAD_END)
        if end < 0:
            self._header_bytes += len(data)
            self._head_tail = seen[-3:]
        else:
            self._header_bytes += end + len(_HEAD_END) - len(self._head_tail)
            self._counting_head = False
        return self._header_bytes

    def _count_parsed(self, size: int) -> None:
        """Count what the parser handed over; past the limit, refuse and stop parsing."""
        self._parsed_bytes += size
        if self._parsed_bytes > self.max_header_bytes and not self._too_large:
            self._refuse_too_large()
            raise _HeadersTooLarge

    def _refuse_too_large(self) -> None:
        self._too_large = True
        self._refuse(431, b"Request Header Fields Too Large")

    # the connection cap
    def _uncount(self) -> None:
        if self._counted is not None:
            self.load.connections.leave(self._counted)
            self._counted = None

    # deadlines
    def _begin_headers(self) -> None:
        self._in_headers = True
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
        metrics.refused("request_timeout" if status == 408 else "headers_too_large")
        self._clear_deadline()
        self._in_headers = False
        cycle = self.cycle  # the previous request's, if its response is complete
        midway = cycle is not None and cycle.response_started and not cycle.response_complete
        if not midway:
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
