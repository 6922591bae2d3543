"""The WebSocket endpoint ``/ws/tables/{code}[?token=...]`` (docs/protocol.md).

One reader loop (this coroutine) per socket, and its writer (:mod:`app.api.socket_writer`);
every outbound frame goes through the connection's byte-bounded queue, so the order is
exactly the order frames were produced (snapshot, events in seq order, acks, errors,
presence).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect
from structlog.contextvars import bound_contextvars

from app.api.draining import CLOSE_SERVICE_RESTART, RESTART_REASON, Drain, LiveSocket
from app.api.quota_deps import client_address
from app.api.socket_guard import FRAME_QUOTAS, header, origin_allowed
from app.api.socket_writer import SocketWriter
from app.api.socket_writer import close_socket as _close
from app.core import metrics
from app.core.quotas import Quotas, Verdict, quotas_for
from app.core.security import hash_token
from app.core.settings import Settings
from app.db.store import Unavailable
from app.realtime.connection import Connection
from app.realtime.frames import encode, error_frame
from app.realtime.hub import Hub
from app.tables.errors import TableError
from app.tables.moderation import CLOSE_BANNED, CLOSE_REMOVED, Moderation, address_key
from app.tables.service import TableService

log = logging.getLogger(__name__)
router = APIRouter()

CLOSE_BAD_FRAME = 4400
CLOSE_BAD_TOKEN = 4401
CLOSE_ORIGIN = 4403
CLOSE_SPECTATORS_FULL = 4409
CLOSE_FLOOD = 4429
CLOSE_TOO_MANY_LOOKUPS = 4430
CLOSE_UNKNOWN_TABLE = 4404
CLOSE_TOO_BIG = 1009
CLOSE_UNAVAILABLE = 1011
MAX_BAD_FRAMES = 10


class DirectSockets:
    """ASGI middleware: ``/ws/tables/{code}`` goes straight to :func:`table_socket`.

    An open socket keeps its whole call stack suspended for as long as it lives; skipping
    the router, the dependency machinery and the HTTP-only middlewares below this one
    saves about 10 KB of server memory per idle socket (docs/benchmarks.md).
    """

    PREFIX = "/ws/tables/"

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] == "websocket" and path.startswith(self.PREFIX):
            code = path[len(self.PREFIX) :]
            if code and "/" not in code:
                ws = WebSocket(scope, receive, send)
                await table_socket(ws, code, ws.query_params.get("token"))
                return
        await self.app(scope, receive, send)


@router.websocket("/ws/tables/{code}")
async def table_socket(ws: WebSocket, code: str, token: str | None = None) -> None:
    """A client's live connection to one table, as a seat (token) or a spectator."""
    service: TableService = ws.app.state.service
    hub: Hub = ws.app.state.hub
    settings: Settings = ws.app.state.settings
    await ws.accept()
    if not origin_allowed(header(ws, b"origin"), header(ws, b"host"), settings.ws_allowed_origins):
        await _close(ws, CLOSE_ORIGIN, "origin not allowed")
        return
    quotas = quotas_for(ws.app)
    address = client_address(ws)
    if not await _lookups_allowed(ws, quotas, address):
        return
    moderation: Moderation = ws.app.state.moderation
    address_hash = address_key(address)
    if moderation.banned_until(address_hash) is not None:
        await _close(ws, CLOSE_BANNED, "this address is banned")
        return
    try:
        ident = await service.identify(code[:16], token[:256] if token is not None else None)
    except TableError as err:
        if err.code == "not_found":
            await quotas.hit("lookup_miss", address)  # code guessing, as over HTTP
            await _close(ws, CLOSE_UNKNOWN_TABLE, "unknown table")
        elif err.code == "unavailable":
            await _close(ws, CLOSE_UNAVAILABLE, "database unavailable")
        else:
            await _close(ws, CLOSE_BAD_TOKEN, "bad seat token")
        return
    spectator = ident.seat is None
    if (
        moderation.blocked(ident.table_id, address_hash)
        if spectator
        else token is not None and moderation.token_blocked(ident.table_id, hash_token(token))
    ):
        await _close(ws, CLOSE_REMOVED, "the host has blocked you at this table")
        return
    if spectator and not await quotas.enter_spectator(str(ident.table_id)):
        await _close(ws, CLOSE_SPECTATORS_FULL, "no more spectators at this table")
        return
    conn = Connection(
        ident.table_id,
        ident.code,
        ident.seat,
        ident.player_id,
        token,
        max_bytes=settings.socket_queue_bytes,
    )
    drain: Drain = ws.app.state.drain
    live = drain.enter(ws, conn)
    if live is None:  # the process began to drain meanwhile
        await _close(ws, CLOSE_SERVICE_RESTART, RESTART_REASON)
        if spectator:
            await quotas.leave_spectator(str(ident.table_id))
        return
    writer = SocketWriter(ws, conn, settings.socket_send_timeout)
    moderation.book.add(conn, address_hash)
    try:
        await hub.attach(conn)
        metrics.socket_opened(conn, spectator)
        guard = Guard(quotas, settings, moderation, address_hash)
        with bound_contextvars(**socket_fields(ident.code, ident.seat)):
            await _read_loop(ws, conn, service, hub, guard, live)
    except WebSocketDisconnect:
        pass
    except Unavailable:
        await _close(ws, CLOSE_UNAVAILABLE, "database unavailable")
    finally:
        drain.leave(live)
        metrics.socket_closed(conn, spectator)
        moderation.book.remove(conn)
        await hub.detach(conn)
        await writer.stop()
        if spectator:
            await quotas.leave_spectator(str(ident.table_id))


def socket_fields(code: str, seat: int | None) -> dict[str, str | int]:
    """What every line logged for an attached socket carries: its table's code, and its
    seat unless it is a spectator's (with the request id, app/api/request_id.py).

    >>> socket_fields("AB12", 0), socket_fields("AB12", None)
    ({'table': 'AB12', 'seat': 0}, {'table': 'AB12'})
    """
    return {"table": code} if seat is None else {"table": code, "seat": seat}


async def _lookups_allowed(ws: WebSocket, quotas: Quotas, address: str) -> bool:
    """False (the socket closed with 4430) while ``address`` is over its look-up-miss
    quota: before the code is looked up, so an existing table is not told apart."""
    verdict = await quotas.check("lookup_miss", address)
    if not verdict.allowed:
        reason = f"too many look-ups; retry in {verdict.retry_after} s"
        await _close(ws, CLOSE_TOO_MANY_LOOKUPS, reason)
    return verdict.allowed


class Guard:
    """One socket's frame quotas: a refused frame gets ``rate_limited``; a flood of them
    (``FIVEUP_SOCKET_FLOOD_REFUSALS`` in a row) closes the socket with 4429. And its
    chat's moderation: a muted socket's chat is refused, a sent one's author noted."""

    def __init__(
        self, quotas: Quotas, settings: Settings, moderation: Moderation, address_hash: str
    ) -> None:
        self.quotas = quotas
        self.moderation = moderation
        self.address_hash = address_hash
        self.max_bytes = settings.max_frame_bytes
        self.flood = settings.socket_flood_refusals
        self.counter = quotas.socket_counter()
        self.refused = 0

    async def admit(self, kind: str) -> Verdict:
        verdict = self.counter.hit("messages")
        quota = FRAME_QUOTAS.get(kind)
        if verdict.allowed and quota is not None:
            verdict = self.counter.hit(quota)
        self.refused = 0 if verdict.allowed else self.refused + 1
        return verdict


async def _read_loop(
    ws: WebSocket,
    conn: Connection,
    service: TableService,
    hub: Hub,
    guard: Guard,
    live: LiveSocket,
) -> None:
    """Read and handle the socket's frames; a frame read after the drain's 1012 close
    is not applied (its client sends it again after reconnecting)."""
    max_bytes = guard.max_bytes
    bad = 0
    while True:
        msg = await ws.receive()
        if msg["type"] == "websocket.disconnect":
            return
        text = msg.get("text")
        metrics.frame_received()
        if text is None:
            await _close(ws, CLOSE_BAD_FRAME, "binary frames are not supported")
            return
        if len(text) > max_bytes or len(text.encode("utf-8", "surrogatepass")) > max_bytes:
            await _close(ws, CLOSE_TOO_BIG, "frame too large")
            return
        try:
            data = orjson.loads(text)  # strict JSON: no NaN, no lone surrogates
            if not isinstance(data, dict) or not isinstance(data.get("type"), str):
                raise ValueError("a frame is a JSON object with a string 'type'")
            verdict = await guard.admit(data["type"])
            if not verdict.allowed:
                if guard.refused >= guard.flood:
                    await _close_after_queue(ws, conn, CLOSE_FLOOD, "too many messages")
                    return
                conn.put(
                    encode(
                        error_frame(
                            "rate_limited",
                            f"too many messages ({verdict.limit}); retry in "
                            f"{verdict.retry_after} s",
                            data.get("move_id"),
                        )
                    )
                )
                continue
            if not live.begin():
                continue
            try:
                await _dispatch(data, conn, service, hub, guard)
            except Unavailable:
                raise TableError("unavailable", "the database is unavailable; retry", 503) from None
            finally:
                live.end()  # (a draining process waits for this)
        except TableError as err:
            conn.put(encode(error_frame(err.code, err.message)))
        except ValueError as exc:  # (orjson's errors, a nesting too deep included)
            bad += 1
            conn.put(encode(error_frame("bad_message", _short(exc))))
            if bad >= MAX_BAD_FRAMES:
                await _close_after_queue(ws, conn, CLOSE_BAD_FRAME, "too many bad frames")
                return


async def _close_after_queue(ws: WebSocket, conn: Connection, code: int, reason: str) -> None:
    """Close once the queued frames went out (2 s at most)."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(2):
            while not conn.empty():
                await asyncio.sleep(0.01)
    await _close(ws, code, reason)


def _short(exc: BaseException) -> str:
    return str(exc)[:200] or type(exc).__name__


async def _dispatch(
    data: dict[str, Any], conn: Connection, service: TableService, hub: Hub, guard: Guard
) -> None:
    """Handle one well-formed client frame. Raises ValueError for a bad one."""
    kind = data["type"]
    if kind == "ping":
        conn.put(encode({"type": "pong"}))
    elif kind == "resync":
        last = data.get("last_seq")
        if last is not None and (not isinstance(last, int) or isinstance(last, bool)):
            raise ValueError("last_seq must be an integer")
        metrics.resync("client")
        await hub.resync(conn, last)
    elif kind == "describe":
        await hub.describe(conn)
    elif kind in ("move", "next_round", "rematch", "spectator_chat"):
        await _act(kind, data, conn, service, hub)
    elif kind == "chat":
        mod = guard.moderation
        if mod.muted(guard.address_hash, conn.token_digest()):
            raise TableError("muted", "the operator has muted your chat", 403)
        seq = await service.chat(conn.table_id, conn.token, data.get("text"), data.get("quick"))
        mod.note_chat(conn.table_id, seq, guard.address_hash)
    elif kind == "presence":
        state = data.get("state")
        if state not in ("away", "here"):
            raise ValueError("state must be 'away' or 'here'")
        hub.set_away(conn, state == "away")  # a spectator's is ignored
    else:
        raise ValueError(f"unknown message type {kind[:40]!r}")


async def _act(
    kind: str, data: dict[str, Any], conn: Connection, service: TableService, hub: Hub
) -> None:
    move_id = data.get("move_id")
    if conn.token is None:
        code = "spectator" if conn.player_id is None and conn.seat is None else "unauthorized"
        conn.put(encode(error_frame(code, "spectators cannot act", move_id)))
        return
    try:
        if kind == "move":
            result = await service.act(
                conn.table_id, conn.token, data.get("move"), move_id, data.get("seq")
            )
            conn.put(
                encode(
                    {
                        "type": "ack",
                        "move_id": move_id if isinstance(move_id, str) else None,
                        "seq": result.seq,
                        "duplicate": result.duplicate,
                    }
                )
            )
        elif kind == "next_round":
            await service.ready(conn.table_id, conn.token)
        elif kind == "spectator_chat":
            await service.spectator_chat(conn.table_id, conn.token, data.get("on"))
        else:
            await service.rematch(conn.table_id, conn.token)
    except TableError as err:
        conn.put(encode(error_frame(err.code, err.message, move_id, err.rule)))
        if err.code in ("stale", "conflict"):
            metrics.resync(err.code)
            await hub.resync(conn, conn.last_seq)
