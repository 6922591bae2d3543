"""The WebSocket endpoint ``/ws/profile`` (docs/protocol.md "The profile socket",
docs/invitations.md): a signed-in profile's live feed of invitations and of its
friends' online state, on every device it has open.

Refused before anything is sent: another site's Origin (4403, as table sockets), a
banned address (4451), no valid session cookie (4401); the per-address socket cap
applies as to every socket (app/core/connection_caps.py). The client sends nothing; a
socket that sends frames anyway is closed past a small allowance (4429). A socket whose
queue falls :data:`~app.realtime.profile_hub.QUEUE_MAX_FRAMES` frames behind is closed
(1013): it may reconnect and read ``GET /api/profile/invitations``.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from app.api.profile_auth import COOKIE
from app.api.quota_deps import client_address
from app.api.socket_guard import header, origin_allowed
from app.api.socket_writer import close_socket as _close
from app.core.settings import Settings
from app.db.store import Unavailable
from app.realtime.profile_hub import ProfileHub, ProfileSocket
from app.tables.moderation import CLOSE_BANNED, Moderation, address_key
from app.tables.profiles import Profiles

router = APIRouter()

CLOSE_NOT_SIGNED_IN = 4401
CLOSE_ORIGIN = 4403
CLOSE_FLOOD = 4429
CLOSE_TOO_SLOW = 1013
CLOSE_UNAVAILABLE = 1011
#: frames a client may send per :data:`FLOOD_WINDOW` seconds (it has nothing to say)
FLOOD_FRAMES = 20
FLOOD_WINDOW = 10.0


async def _write(ws: WebSocket, sock: ProfileSocket) -> None:
    while True:
        await sock.ready.wait()
        if sock.overflowed:
            await _close(ws, CLOSE_TOO_SLOW, "too slow: reconnect")
            return
        for data in sock.take():
            await ws.send_text(data.decode())


async def _read(ws: WebSocket) -> None:
    start, count = time.monotonic(), 0
    while True:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            return
        now = time.monotonic()
        if now - start > FLOOD_WINDOW:
            start, count = now, 0
        count += 1
        if count > FLOOD_FRAMES:
            await _close(ws, CLOSE_FLOOD, "this socket takes no frames")
            return


@router.websocket("/ws/profile")
async def profile_socket(ws: WebSocket) -> None:
    """A signed-in profile's invitations and friends' online state."""
    settings: Settings = ws.app.state.settings
    hub: ProfileHub = ws.app.state.profile_hub
    profiles: Profiles = ws.app.state.profiles
    moderation: Moderation = ws.app.state.moderation
    await ws.accept()
    if not origin_allowed(header(ws, b"origin"), header(ws, b"host"), settings.ws_allowed_origins):
        await _close(ws, CLOSE_ORIGIN, "origin not allowed")
        return
    if moderation.banned_until(address_key(client_address(ws))) is not None:
        await _close(ws, CLOSE_BANNED, "this address is banned")
        return
    try:
        profile = await profiles.signed_in(ws.cookies.get(COOKIE))
    except Unavailable:
        await _close(ws, CLOSE_UNAVAILABLE, "database unavailable")
        return
    if profile is None:
        await _close(ws, CLOSE_NOT_SIGNED_IN, "sign in to your profile first")
        return
    sock = ProfileSocket(profile.id)
    writer = asyncio.get_running_loop().create_task(_write(ws, sock))
    reader = asyncio.get_running_loop().create_task(_read(ws))
    try:
        await hub.add(sock)
        await asyncio.wait((writer, reader), return_when=asyncio.FIRST_COMPLETED)
    except WebSocketDisconnect:
        pass
    finally:
        for task in (writer, reader):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await hub.remove(sock)
        await _close(ws, 1000, "")
