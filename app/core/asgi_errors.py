"""The one way a pure ASGI middleware answers an error: the API's error shape
(``{"detail": {"code", "message"}}``, docs/protocol.md) as a whole JSON response.

The middlewares that refuse a request before the application sees it (body size and
body deadline in ``app/api``, the HTTP budget and the socket caps in
``app/core/connection_caps.py``) all answer through :func:`send_json_error`; a refused
WebSocket handshake is answered with the ``websocket.http.response`` extension.

>>> error_body("x", "y")
b'{"detail":{"code":"x","message":"y"}}'
"""

from __future__ import annotations

from collections.abc import Iterable

import orjson
from starlette.types import Send


def error_body(code: str, message: str) -> bytes:
    """The JSON body of an error answer: ``{"detail": {"code": code, "message": message}}``."""
    return orjson.dumps({"detail": {"code": code, "message": message}})


async def send_json_error(
    send: Send,
    status: int,
    code: str,
    message: str,
    *,
    headers: Iterable[tuple[bytes, bytes]] = (),
    websocket: bool = False,
) -> None:
    """Send a whole ``status`` response with :func:`error_body` and ``headers`` after the
    content type and length (``websocket``: as the answer to a refused handshake, through
    the ``websocket.http.response`` extension, which the caller has checked is offered)."""
    body = error_body(code, message)
    kind = "websocket.http.response" if websocket else "http.response"
    await send(
        {
            "type": f"{kind}.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *headers,
            ],
        }
    )
    await send({"type": f"{kind}.body", "body": body})
