"""Request body read deadline (pure ASGI middleware).

The application must have received a request's whole body within ``seconds`` of the
request reaching it; a client that trickles its body is answered ``408`` with
``Connection: close`` (uvicorn then closes the connection) and the request is dropped.
Only reads of the body are timed: once the body is complete, waiting on ``receive`` for
a disconnect is not.

This is the server-agnostic half: it works under any ASGI server, including a plain
``uvicorn app.main:create_app --factory``. ``fiveup serve`` also selects
``app/core/slow_clients.py``'s protocol, which additionally bounds the header phase and
bodies the application never reads, neither of which an ASGI middleware can see.
"""

from __future__ import annotations

import asyncio

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.core.asgi_errors import send_json_error


class BodyTimedOut(Exception):
    """Raised inside ``receive`` when the body deadline has passed."""


class BodyReadTimeout:
    """Answer 408 to requests whose body does not arrive within ``seconds``."""

    def __init__(self, app: ASGIApp, seconds: float = 15.0) -> None:
        self.app = app
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.seconds
        body_done = False
        started = False
        timed_out = False

        async def timed_receive() -> Message:
            nonlocal body_done, timed_out
            if body_done:
                return await receive()
            try:
                async with asyncio.timeout_at(deadline):
                    message = await receive()
            except TimeoutError:
                timed_out = True
                raise BodyTimedOut from None
            if message["type"] != "http.request" or not message.get("more_body", False):
                body_done = True
            return message

        async def guarded_send(message: Message) -> None:
            # Frameworks may turn the exception into an answer of their own (FastAPI
            # answers 400 "error parsing the body"): a timed-out request gets the 408.
            nonlocal started
            if message["type"] == "http.response.start":
                if timed_out and not started:
                    started = True
                    await _request_timeout(send)
                    return
                started = True
            if not timed_out:
                await send(message)

        try:
            await self.app(scope, timed_receive, guarded_send)
        except BodyTimedOut:
            if not started:
                await _request_timeout(send)


async def _request_timeout(send: Send) -> None:
    await send_json_error(
        send, 408, "timeout", "the request body took too long", headers=[(b"connection", b"close")]
    )
