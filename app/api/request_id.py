"""Request ids (pure ASGI middleware): every HTTP request and every WebSocket gets one,
bound to the log's context (``request_id`` on each line logged while it runs: uvicorn's
request line, the app's lines, a commit it makes) and echoed in its answer's
``X-Request-ID`` header (an HTTP response's, a WebSocket's ``101`` or refusal).

An incoming ``X-Request-ID`` (a proxy's, e.g. nginx's ``$request_id``) is kept if it is
1 to :data:`MAX_LENGTH` characters of letters, digits, ``.``, ``_``, ``-`` and ``:``;
any other value (too long, a space, a quote, a control character) is replaced by a new
id, 32 hex digits, so a client cannot write what it likes into the log.

>>> valid_request_id(b"f81d4fae-7dec-11d0-a765-00a0c91e6bf6"), valid_request_id(b'x" y')
('f81d4fae-7dec-11d0-a765-00a0c91e6bf6', None)
>>> valid_request_id(b"a" * 129), valid_request_id(b""), valid_request_id(None)
(None, None, None)
"""

from __future__ import annotations

import functools
import re
import uuid

from starlette.types import ASGIApp, Message, Receive, Scope, Send
from structlog.contextvars import bound_contextvars

HEADER = b"x-request-id"
MAX_LENGTH = 128
_VALID = re.compile(rb"[A-Za-z0-9._:-]{1,%d}" % MAX_LENGTH)
#: the messages that start an answer, whose headers get the id
_STARTS = ("http.response.start", "websocket.accept", "websocket.http.response.start")


def valid_request_id(value: bytes | None) -> str | None:
    """``value`` as a request id if it is one we keep, else None."""
    if value is None or not _VALID.fullmatch(value):
        return None
    return value.decode("ascii")


def new_request_id() -> str:
    """A fresh request id: 32 hex digits (random)."""
    return uuid.uuid4().hex


class RequestIds:
    """ASGI middleware: the request id of each HTTP request and WebSocket, bound to the
    log context for its whole life and echoed in ``X-Request-ID``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        incoming = next((v for k, v in scope.get("headers", ()) if k == HEADER), None)
        request_id = valid_request_id(incoming) or new_request_id()
        echoed = (HEADER, request_id.encode("ascii"))

        async def send_with_id(message: Message) -> None:
            if message["type"] in _STARTS:
                headers = [(k, v) for k, v in message.get("headers", ()) if k.lower() != HEADER]
                message = {**message, "headers": [*headers, echoed]}
            await send(message)

        # the socket guard and the direct write find uvicorn's transport by following
        # ``__wrapped__`` through the middlewares' sends (app/api/socket_guard.py)
        functools.update_wrapper(send_with_id, send)
        with bound_contextvars(request_id=request_id):
            await self.app(scope, receive, send_with_id)
