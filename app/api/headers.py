"""Security headers on every HTTP response (pure ASGI middleware).

* ``Content-Security-Policy`` — only this origin's scripts (no inline script, no
  ``eval``), styles and fonts; images from this origin and ``data:``; network
  connections to this origin and its ``ws://``/``wss://`` twin (the table socket);
  no plugins, no ``<base>``, forms only to this origin, and no framing
  (``frame-ancestors 'none'``). The client sets styles only through the CSSOM
  (``el.style.x = ...``), which ``style-src 'self'`` allows, so no ``'unsafe-inline'``
  is needed anywhere (proved by tests/browser/test_security_headers.py).
* ``X-Frame-Options: DENY`` (older browsers), ``X-Content-Type-Options: nosniff``,
  ``Referrer-Policy: no-referrer`` (invite links and tokens never leak in a Referer),
  ``Cross-Origin-Opener-Policy: same-origin``.

Headers the application already set are kept.

>>> csp_for(b"example.org:8000")
"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
font-src 'self'; connect-src 'self' ws://example.org:8000 wss://example.org:8000; \
object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
>>> "ws://" in csp_for(b"evil\\r\\nx: y")
False
"""

from __future__ import annotations

import re

from starlette.types import ASGIApp, Message, Receive, Scope, Send

_HOST = re.compile(rb"^[A-Za-z0-9.\-]+(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?$")

_BASE = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'{ws}; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)

STATIC_HEADERS: list[tuple[bytes, bytes]] = [
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


def csp_for(host: bytes | None) -> str:
    """The policy for a request to ``host`` (the Host header; ignored unless well formed)."""
    ws = ""
    if host and _HOST.match(host):
        h = host.decode("ascii")
        ws = f" ws://{h} wss://{h}"
    return _BASE.format(ws=ws)


class SecurityHeaders:
    """Add the security headers to every HTTP response that lacks them."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = next((v for k, v in scope.get("headers") or [] if k == b"host"), None)
        policy = csp_for(host).encode("ascii")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers") or [])
                present = {k.lower() for k, _ in headers}
                extra = [*STATIC_HEADERS, (b"content-security-policy", policy)]
                headers += [(k, v) for k, v in extra if k not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)
