"""Soak benchmark misbehaving sockets: spectators that never read, that read slowly, and
that flood ``resync`` — each kind run for one fault window by ``bench/soak.py``.

* :func:`never_reader`: a raw WebSocket (its own handshake over a socket with a 4 KiB
  receive buffer) that reads nothing after the handshake; one in two also asks for a
  whole snapshot (``resync`` from seq 0) every 2 s, so its unread frames pile up fast.
  The server must cut it off (send timeout, queue limit or ping timeout) without
  slowing anyone else; it notices the cut when a write fails, then comes back.
* :func:`slow_reader`: a spectator that reads one frame every ``slow_ms``.
* :func:`resync_flood`: a spectator that sends ``resync`` frames as fast as its
  ``rate`` allows (100/s), reading the answers; the socket quotas should refuse most
  of them and close it with 4429; it comes back a second later.

Each records what happened to it in a :class:`FaultStats` (close codes, snapshots,
cut-offs). Loopback only, like every target of the soak; bounded by its window.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import socket
import time
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake


@dataclass
class FaultStats:
    """What the misbehaving sockets of one kind saw."""

    connects: int = 0
    connect_failures: int = 0
    closes: Counter[str] = field(default_factory=Counter)
    frames: int = 0
    snapshots: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    frames_sent: int = 0
    lifetimes: list[float] = field(default_factory=list)  # seconds from connect to close/cut

    def as_dict(self) -> dict[str, object]:
        life = sorted(self.lifetimes)
        return {
            "connects": self.connects,
            "connect_failures": self.connect_failures,
            "closes": dict(self.closes),
            "frames_received": self.frames,
            "snapshots": self.snapshots,
            "errors": dict(self.errors),
            "frames_sent": self.frames_sent,
            "lifetime_s_median": round(life[len(life) // 2], 1) if life else None,
            "lifetime_s_max": round(life[-1], 1) if life else None,
        }


def client_frame(text: str, opcode: int = 0x1) -> bytes:
    """One masked client frame (RFC 6455 §5.2) with a final bit.

    >>> f = client_frame("hi"); (f[0], f[1], len(f))
    (129, 130, 8)
    """
    payload = text.encode()
    mask = os.urandom(4)
    n = len(payload)
    if n < 126:
        head = bytes([0x80 | opcode, 0x80 | n])
    elif n < 1 << 16:
        head = bytes([0x80 | opcode, 0x80 | 126]) + n.to_bytes(2, "big")
    else:
        head = bytes([0x80 | opcode, 0x80 | 127]) + n.to_bytes(8, "big")
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


async def _raw_socket(ws_url: str) -> asyncio.StreamWriter:
    """A WebSocket opened by hand: handshake read, then nothing is read ever again."""
    parts = urlsplit(ws_url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, (host, port))
    reader, writer = await asyncio.open_connection(sock=sock, limit=1024)
    key = base64.b64encode(os.urandom(16)).decode()
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    status = await asyncio.wait_for(reader.readline(), 10)
    if b" 101 " not in status:
        writer.close()
        raise InvalidHandshake(f"no upgrade: {status!r}")
    while (await asyncio.wait_for(reader.readline(), 10)) not in (b"\r\n", b""):
        pass
    return writer


async def never_reader(ws_url: str, until: float, stats: FaultStats, asks: bool) -> None:
    """Connect, never read; (``asks``) request a whole snapshot every 2 s; come back when
    cut off, until ``until`` (monotonic)."""
    while time.monotonic() < until:
        try:
            writer = await _raw_socket(ws_url)
        except (OSError, InvalidHandshake, TimeoutError):
            stats.connect_failures += 1
            await asyncio.sleep(1.0)
            continue
        stats.connects += 1
        born = time.monotonic()
        try:
            while time.monotonic() < until:
                await asyncio.sleep(2.0)
                # a probe the server ignores (an unsolicited pong), or a snapshot request
                frame = json.dumps({"type": "resync", "last_seq": 0}) if asks else ""
                writer.write(client_frame(frame, 0x1 if asks else 0xA))
                stats.frames_sent += 1
                await asyncio.wait_for(writer.drain(), 5)
                if writer.transport.is_closing():
                    raise ConnectionResetError
        except (OSError, TimeoutError):
            stats.lifetimes.append(time.monotonic() - born)
            stats.closes["cut off"] += 1
            await asyncio.sleep(1.0)
        finally:
            writer.transport.abort()


async def slow_reader(ws_url: str, until: float, stats: FaultStats, slow_ms: float) -> None:
    """A spectator that reads one frame every ``slow_ms``, reconnecting until ``until``."""
    while time.monotonic() < until:
        try:
            ws = await connect(ws_url, open_timeout=10, ping_interval=None, max_queue=4)
        except (OSError, InvalidHandshake, TimeoutError):
            stats.connect_failures += 1
            await asyncio.sleep(1.0)
            continue
        stats.connects += 1
        born = time.monotonic()
        try:
            while time.monotonic() < until:
                raw = await asyncio.wait_for(ws.recv(), max(0.1, until - time.monotonic()))
                stats.frames += 1
                stats.snapshots += '"type":"snapshot"' in str(raw)[:40]
                await asyncio.sleep(slow_ms / 1000)
        except ConnectionClosed:
            stats.lifetimes.append(time.monotonic() - born)
            stats.closes[str(ws.close_code) if ws.close_code is not None else "abrupt"] += 1
            await asyncio.sleep(1.0)
        except TimeoutError:
            pass
        finally:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), 5)


async def resync_flood(ws_url: str, until: float, stats: FaultStats, rate: float = 100) -> None:
    """A spectator sending ``resync`` from seq 0 at ``rate`` frames/s, reading every
    answer; back a second after each close, until ``until``."""
    while time.monotonic() < until:
        try:
            ws = await connect(ws_url, open_timeout=10, ping_interval=None, max_size=None)
        except (OSError, InvalidHandshake, TimeoutError):
            stats.connect_failures += 1
            await asyncio.sleep(1.0)
            continue
        stats.connects += 1
        born = time.monotonic()

        reader = asyncio.create_task(_count_answers(ws, stats))
        frame = json.dumps({"type": "resync", "last_seq": 0})
        try:
            while time.monotonic() < until and not reader.done():
                await ws.send(frame)
                stats.frames_sent += 1
                await asyncio.sleep(1 / rate)
        except ConnectionClosed:
            pass
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(), 5)
        await reader
        stats.lifetimes.append(time.monotonic() - born)
        stats.closes[str(ws.close_code) if ws.close_code is not None else "abrupt"] += 1
        await asyncio.sleep(1.0)


async def _count_answers(ws: ClientConnection, stats: FaultStats) -> None:
    with contextlib.suppress(ConnectionClosed):
        async for raw in ws:
            msg = json.loads(raw)
            stats.frames += 1
            if msg.get("type") == "snapshot":
                stats.snapshots += 1
            elif msg.get("type") == "error":
                stats.errors[str(msg.get("code"))] += 1
