"""What one socket may cost the server: the page's Origin only, a share of
spectator places, a share of frames (a flood is closed), a bounded queue, and a client
that stops reading is cut off. Real server processes with the quotas on."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import httpx
import pytest
import websockets

from .support import ServerProcess, WsClient, seat_table


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


@pytest.fixture
def guarded(pg_url: str) -> ServerProcess:
    server = ServerProcess(
        pg_url,
        FIVEUP_RATE_LIMIT_ENABLED="true",
        FIVEUP_MAX_SPECTATORS_PER_TABLE="2",
        FIVEUP_SOCKET_FLOOD_REFUSALS="20",
        FIVEUP_WS_ALLOWED_ORIGINS="https://friends.example",
    ).start()
    yield server  # type: ignore[misc]
    server.kill()


async def _close_code(url: str, **kwargs: object) -> int | None:
    async with websockets.connect(url, **kwargs) as ws:  # type: ignore[arg-type]
        try:
            async with asyncio.timeout(10):
                async for _ in ws:
                    pass
        except TimeoutError:
            return None
        except websockets.ConnectionClosed:
            pass
        return ws.close_code


async def test_a_socket_from_another_site_is_closed_4403(guarded: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=guarded.http) as http:
        code, _ = await seat_table(http, 2, start=False)
    url = f"{guarded.ws}/ws/tables/{code}"
    assert await _close_code(url, origin="https://evil.example") == 4403
    for origin in (f"http://127.0.0.1:{guarded.port}", "https://friends.example", None):
        client = await WsClient(url, str(origin)).connect()  # same site, listed, no Origin
        if origin is not None:
            await client.close()
            async with websockets.connect(url, origin=origin) as ws:  # type: ignore[arg-type]
                first = await asyncio.wait_for(ws.recv(), 10)
                assert '"snapshot"' in str(first)
        else:
            assert client.frames[0]["type"] == "snapshot"
            await client.close()


async def test_spectator_places_are_limited_per_table(guarded: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=guarded.http) as http:
        code, tokens = await seat_table(http, 2, start=False)
    url = f"{guarded.ws}/ws/tables/{code}"
    watchers = [await WsClient(url, f"w{i}").connect() for i in range(2)]
    assert await _close_code(url) == 4409
    seat = await WsClient(f"{url}?token={tokens[1]}", "seat").connect()  # seats are not limited
    assert seat.frames[0]["type"] == "snapshot"
    await watchers[0].close()
    await asyncio.sleep(0.3)
    again = await WsClient(url, "w-again").connect()  # a place was given back
    assert again.frames[0]["type"] == "snapshot"
    for c in (watchers[1], seat, again):
        await c.close()


async def test_a_resync_flood_is_refused_then_closed_and_memory_stays_bounded(
    guarded: ServerProcess,
) -> None:
    """A spectator that sends resync after resync and never reads: refused past its
    quota (2/s), closed with 4429 after 20 refusals in a row; the server's memory grows
    by less than 20 MiB."""
    async with httpx.AsyncClient(base_url=guarded.http) as http:
        code, _ = await seat_table(http, 2)
    assert guarded.proc is not None
    before = rss_kib(guarded.proc.pid)
    async with websockets.connect(f"{guarded.ws}/ws/tables/{code}") as ws:
        for _ in range(2000):
            try:
                await ws.send('{"type": "resync", "last_seq": 0}')
            except websockets.ConnectionClosed:
                break
        with pytest.raises(websockets.ConnectionClosed):
            async with asyncio.timeout(15):
                while True:
                    await ws.recv()
        assert ws.close_code == 4429
    assert rss_kib(guarded.proc.pid) - before < 20 * 1024


TCP_CLOSE, TCP_CLOSE_WAIT = 7, 8  # linux/tcp_states.h


def masked_text_frame(text: str) -> bytes:
    """A client's WebSocket text frame (RFC 6455: clients mask), payload < 126 bytes."""
    payload = text.encode()
    mask = b"\x01\x02\x03\x04"
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x81, 0x80 | len(payload)]) + mask + masked


async def test_a_socket_that_never_reads_is_cut_off(pg_url: str) -> None:
    """A spectator with a tiny receive window asks for snapshot after snapshot and never
    reads: once a write cannot finish within the bound (2 s here) the server drops the
    connection (a reset: it does not wait for a close handshake the client will never
    read), and the table's players go on undisturbed."""
    server = ServerProcess(
        pg_url,
        FIVEUP_SOCKET_SEND_TIMEOUT="2",
        FIVEUP_RATE_LIMIT_ENABLED="true",
        # quotas far above the client's pace: a refused resync is an error frame, and
        # 50 refusals in a row close the socket as a flood (4429) — which, depending on
        # the machine's speed, came first and left nothing for the deadline to prove
        FIVEUP_RATE_LIMIT_SOCKET_RESYNC="1000000/second",
        FIVEUP_RATE_LIMIT_SOCKET_MESSAGES="1000000/second",
    ).start()
    try:
        async with httpx.AsyncClient(base_url=server.http) as http:
            code, tokens = await seat_table(http, 2)
        raw = socket.socket()
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        raw.connect(("127.0.0.1", server.port))
        raw.sendall(
            f"GET /ws/tables/{code} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        frame = masked_text_frame('{"type": "resync", "last_seq": 0}')
        raw.setblocking(False)
        reset = False
        sent = 0
        async with asyncio.timeout(90):
            while not reset:
                # more snapshots than the kernel's and the transport's buffers hold
                # (each is about 850 bytes; the kernel buffers up to 4 MB)
                if sent < 12000:
                    try:
                        raw.send(frame * 100)
                        sent += 100
                    except BlockingIOError:
                        pass
                    except (ConnectionResetError, BrokenPipeError):
                        reset = True
                await asyncio.sleep(0.02)
                # the unread data stays queued here: ask the kernel for the TCP state
                state = raw.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 1)[0]
                reset = reset or state in (TCP_CLOSE, TCP_CLOSE_WAIT)
        raw.close()
        seat = await WsClient(f"{server.ws}/ws/tables/{code}?token={tokens[0]}").connect()
        assert seat.frames[0]["type"] == "snapshot"  # the table is fine
        await seat.close()
    finally:
        server.kill()
