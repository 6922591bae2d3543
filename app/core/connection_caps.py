"""Connection caps: what one client address (or one seat token) may hold open at once.

Without them one client could take a whole process: every open WebSocket and every
idle TCP connection counted against uvicorn's ``limit_concurrency``, so a few thousand
of either, from one address, made every other client's requests (``/healthz`` too)
answer 503. Three caps and one budget replace that (docs/configuration.md lists the
settings, docs/deployment.md why the defaults fit, docs/protocol.md what a refused
client sees):

* **connections per address** (``FIVEUP_MAX_CONNECTIONS_PER_ADDRESS``) — open HTTP
  connections (not yet WebSockets) from one peer address. Counted in the HTTP protocol
  (``app/core/slow_clients.py``) at ``connection_made``; one over the cap is closed at
  once, before a byte is read. Connections from a trusted proxy
  (``FIVEUP_FORWARDED_ALLOW_IPS``) are not counted: the proxy caps its clients.
* **sockets per address** (``FIVEUP_MAX_SOCKETS_PER_ADDRESS``) and **sockets per seat
  token** (``FIVEUP_MAX_SOCKETS_PER_SEAT_TOKEN``) — open WebSockets, counted by
  :class:`SocketCaps` (ASGI middleware, so the address is the one the proxy headers
  name) when the upgrade request reaches the application; one over a cap is answered
  ``429`` with a JSON body instead of ``101`` — the handshake never completes.
* **the HTTP budget** (``FIVEUP_LIMIT_CONCURRENCY``) — HTTP requests running at once
  in this process; more get ``503``. WebSockets and idle connections do not count,
  and the probes (:data:`EXEMPT_PATHS`) are never refused.

All counts are per process (a second process has its own): they bound what a process
holds, which is what they protect.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from urllib.parse import unquote_to_bytes

from starlette.types import ASGIApp, Receive, Scope, Send

from app.core import metrics
from app.core.asgi_errors import send_json_error

#: paths answered whatever the HTTP budget says (a load balancer's probes)
EXEMPT_PATHS = frozenset({"/healthz", "/livez", "/readyz"})


class Counts:
    """Open things per key, each key under one cap; a key at zero is forgotten.

    >>> c = Counts()
    >>> c.enter("a", 2), c.enter("a", 2), c.enter("a", 2), c.enter("b", 2)
    (True, True, False, True)
    >>> c.leave("a"); c.get("a"), c.total
    (1, 2)
    >>> c.leave("b"); "b" in c._counts
    False
    """

    def __init__(self) -> None:
        self._counts: dict[str, int] = {}
        self.total = 0

    def enter(self, key: str, cap: int) -> bool:
        """Count one more for ``key`` unless it already holds ``cap``; True if counted."""
        held = self._counts.get(key, 0)
        if held >= cap:
            return False
        self._counts[key] = held + 1
        self.total += 1
        return True

    def leave(self, key: str) -> None:
        """One fewer for ``key`` (which must have been entered)."""
        held = self._counts[key] - 1
        self.total -= 1
        if held:
            self._counts[key] = held
        else:
            del self._counts[key]

    def get(self, key: str) -> int:
        return self._counts.get(key, 0)


@dataclass(frozen=True)
class HttpCaps:
    """The HTTP side: connections per address, requests at once, trusted proxies."""

    connections_per_address: int = 256
    requests_at_once: int = 2000
    trusted: tuple[str, ...] = ()

    def is_trusted(self, host: str) -> bool:
        """Whether ``host`` is one of the trusted proxies (IPs, CIDRs, ``*``).

        >>> caps = HttpCaps(trusted=("10.0.0.0/24", "::1"))
        >>> caps.is_trusted("10.0.0.7"), caps.is_trusted("10.0.1.7"), caps.is_trusted("::1")
        (True, False, True)
        >>> HttpCaps(trusted=("*",)).is_trusted("x"), HttpCaps().is_trusted("1.2.3.4")
        (True, False)
        """
        if not self.trusted:
            return False
        if "*" in self.trusted:
            return True
        try:
            ip = ipaddress.ip_address(host)
        except ValueError:
            return host in self.trusted
        for entry in self.trusted:
            try:
                if ip in ipaddress.ip_network(entry, strict=False):
                    return True
            except ValueError:
                continue
        return False


class HttpLoad:
    """This process's open HTTP connections per address and HTTP requests running."""

    def __init__(self) -> None:
        self.connections = Counts()
        self.requests = 0

    def over_budget(self, caps: HttpCaps, path: str) -> bool:
        """Whether a new request for ``path`` is refused (503): the budget is spent and
        the path is not a probe."""
        return self.requests >= caps.requests_at_once and path not in EXEMPT_PATHS


async def overloaded(scope: Scope, receive: Receive, send: Send) -> None:
    """The answer to an HTTP request over the budget: ``503 overloaded``, retry in 1 s."""
    metrics.refused("http_budget")
    await send_json_error(
        send,
        503,
        "overloaded",
        "the server is busy; retry in a second",
        headers=[(b"retry-after", b"1"), (b"connection", b"close")],
    )


def _seat_token(scope: Scope) -> str | None:
    """The ``token`` query parameter of a socket's URL (the first, at most 256 chars)."""
    query: bytes = scope.get("query_string", b"")
    for part in query.split(b"&"):
        name, _, value = part.partition(b"=")
        if name == b"token" and value:
            return unquote_to_bytes(value[:768]).decode("utf-8", "replace")[:256]
    return None


class SocketCaps:
    """ASGI middleware: caps open WebSockets per client address and per seat token.

    A socket over a cap is refused before it is accepted: ``429`` (with the
    ``websocket.http.response`` extension, which uvicorn offers; otherwise a close
    before accept, which uvicorn answers ``403``). A socket is counted from its upgrade
    request reaching the application until its application call returns. HTTP passes
    through untouched.
    """

    def __init__(self, app: ASGIApp, per_address: int, per_token: int) -> None:
        self.app = app
        self.per_address = per_address
        self.per_token = per_token
        self.addresses = Counts()
        self.tokens = Counts()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = client[0] if client else "unknown"
        token = _seat_token(scope)
        if not self.addresses.enter(address, self.per_address):
            metrics.refused("sockets_per_address")
            await self._refuse(scope, send, "too many open sockets from this address")
            return
        if token is not None and not self.tokens.enter(token, self.per_token):
            metrics.refused("sockets_per_token")
            self.addresses.leave(address)
            await self._refuse(scope, send, "too many open sockets for this seat")
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self.addresses.leave(address)
            if token is not None:
                self.tokens.leave(token)

    @staticmethod
    async def _refuse(scope: Scope, send: Send, message: str) -> None:
        if "websocket.http.response" not in scope.get("extensions", {}):
            await send({"type": "websocket.close", "code": 1008, "reason": message})
            return
        await send_json_error(
            send,
            429,
            "too_many_connections",
            message,
            headers=[(b"retry-after", b"10")],
            websocket=True,
        )
