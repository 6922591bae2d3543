"""What a table socket must pass besides its token: the page's Origin, its share of
frames (per-socket quotas, app/core/quotas.py), and — when a client stops reading —
being cut off without waiting for a drain that never comes.

>>> origin_allowed(b"https://a.example", b"a.example", "")
True
>>> origin_allowed(b"https://evil.example", b"a.example", "")
False
>>> origin_allowed(b"https://b.example", b"a.example", "https://b.example, https://c.example")
True
>>> origin_allowed(None, b"a.example", ""), origin_allowed(b"null", b"a.example", "*")
(True, True)
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

from starlette.websockets import WebSocket

from app.core.quotas import SocketQuota

#: which per-socket quota each client frame type draws on (besides "messages")
FRAME_QUOTAS: dict[str, SocketQuota] = {
    "move": "moves",
    "next_round": "moves",
    "rematch": "moves",
    "resync": "resync",
    "chat": "chat",
    "spectator_chat": "moves",
}


def origin_allowed(origin: bytes | None, host: bytes | None, allowed: str) -> bool:
    """Same origin (the Origin's host:port is the Host header), or a listed Origin, or no
    Origin at all (not a browser: a browser always sends one on a WebSocket)."""
    if origin is None:
        return True
    extra = {o.strip().rstrip("/") for o in allowed.split(",") if o.strip()}
    text = origin.decode("latin-1").rstrip("/")
    if "*" in extra or text in extra:
        return True
    netloc = urlsplit(text).netloc
    return bool(netloc) and host is not None and netloc == host.decode("latin-1")


def header(ws: WebSocket, name: bytes) -> bytes | None:
    for key, value in ws.scope.get("headers", ()):
        if key == name:
            return bytes(value)
    return None


def abort_transport(ws: WebSocket) -> bool:
    """Drop the TCP connection at once (a close handshake would wait for the client to
    read). Finds uvicorn's transport behind the ASGI ``send``; False if there is none."""
    for owner in send_owners(ws):
        transport = getattr(owner, "transport", None)
        if transport is not None and hasattr(transport, "abort"):
            with contextlib.suppress(Exception):
                transport.abort()
            return True
    return False


def send_owners(ws: WebSocket) -> Iterator[object]:
    """The objects behind ``ws``'s ASGI ``send``, outermost first: the owner of each bound
    ``send`` through wrapping middlewares, down to the server's protocol (8 at most)."""
    send: Any = getattr(ws, "_send", None)
    for _ in range(8):
        owner = getattr(send, "__self__", None)
        if owner is not None:
            yield owner
        send = getattr(send, "__wrapped__", None) or getattr(owner, "send", None)
        if send is None:
            return
