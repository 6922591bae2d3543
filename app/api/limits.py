"""Request body size limit (pure ASGI middleware): bodies over ``max_bytes`` (or over the
limit ``per_path`` gives an exact path) get 413 before the app reads them, with or
without a Content-Length header."""

from __future__ import annotations

from collections.abc import Mapping

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.core.asgi_errors import send_json_error


class BodyTooLarge(Exception):
    """Raised inside ``receive`` when a streamed body passes the limit."""


class BodySizeLimit:
    """Refuse HTTP request bodies larger than ``max_bytes`` with 413."""

    def __init__(
        self, app: ASGIApp, max_bytes: int = 64 * 1024, per_path: Mapping[str, int] | None = None
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.per_path = dict(per_path or {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.per_path.get(scope.get("path", ""), self.max_bytes)
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            await send_json_error(send, 413, "too_large", "request body too large")
            return
        seen = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise BodyTooLarge
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except BodyTooLarge:
            if not started:
                await send_json_error(send, 413, "too_large", "request body too large")
