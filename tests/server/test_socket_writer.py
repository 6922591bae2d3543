"""A socket's frames are written in order whichever way they go out
(app/api/socket_writer.py): at once, in one write, while the server's socket takes bytes,
or by a writer task once its buffer is full (a client that reads slowly), and the two
never overtake each other. Real uvicorn (the sans-I/O WebSocket protocol that
``fiveup serve`` runs), real sockets; the app is a minimal ASGI one around the writer.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from collections.abc import AsyncIterator
from typing import Any

import pytest
import uvicorn
import websockets
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket
from websockets.client import ClientProtocol
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
from websockets.frames import Frame, Opcode
from websockets.uri import parse_uri

from app.api.socket_writer import DirectSend, SocketWriter, text_frame
from app.realtime.connection import Connection
from app.realtime.frames import encode


def _kernel_send_buffer_max() -> int:
    try:
        with open("/proc/sys/net/ipv4/tcp_wmem") as f:
            return int(f.read().split()[2])
    except (OSError, ValueError, IndexError):
        return 4 << 20


#: frames of ~10 KB each: more than the kernel's send buffer (twice its largest size),
#: the slow client's receive buffer (64 KB) and the transport's high-water mark hold
FRAMES = max(2000, (2 * _kernel_send_buffer_max() + (2 << 20)) // 10_000)


class _App:
    """Queues ``FRAMES`` numbered frames, a few per event-loop turn, on each socket."""

    def __init__(self) -> None:
        self.direct_found: list[bool] = []
        self.tasks_started = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        ws = WebSocket(scope, receive, send)
        await ws.accept()
        conn = Connection(1, "T", None, None, None, max_bytes=1 << 30)
        writer = SocketWriter(ws, conn, timeout=30)
        self.direct_found.append(DirectSend.find(ws) is not None)
        padding = "x" * 10_000
        for n in range(FRAMES):
            conn.put(json.dumps({"n": n, "pad": padding}).encode())
            if n % 7 == 0:
                await asyncio.sleep(0)  # the flush due runs: frames go out in batches
            if writer.task is not None:
                self.tasks_started += 1
        with contextlib.suppress(Exception):
            while (await ws.receive())["type"] != "websocket.disconnect":
                pass
        await writer.stop()


@contextlib.asynccontextmanager
async def _serve(app: _App, deflate: bool = False) -> AsyncIterator[int]:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        app,
        ws="websockets-sansio",
        ws_per_message_deflate=deflate,
        log_level="warning",
        lifespan="on",
    )
    server = uvicorn.Server(config)
    task = asyncio.get_running_loop().create_task(server.serve(sockets=[sock]))
    while not server.started:
        await asyncio.sleep(0.01)
    try:
        yield port
    finally:
        server.should_exit = True
        await task


async def _numbers(ws: Any, count: int) -> list[int]:
    return [json.loads(await ws.recv())["n"] for _ in range(count)]


@pytest.mark.parametrize("deflate", [False, True], ids=["framed-here", "permessage-deflate"])
async def test_frames_written_at_once_arrive_in_order(deflate: bool) -> None:
    app = _App()
    async with (
        _serve(app, deflate) as port,
        websockets.connect(f"ws://127.0.0.1:{port}/", max_size=None) as ws,
    ):
        # the client offers deflate; the server takes it only when configured to
        assert bool(ws.protocol.extensions) is deflate
        assert await _numbers(ws, FRAMES) == list(range(FRAMES))
    assert app.direct_found == [True]  # the direct write is the one really used


async def test_a_client_that_reads_late_gets_every_frame_in_order_by_the_writer_task() -> None:
    app = _App()
    async with _serve(app) as port:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 16)  # no autotuning
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
        reader, writer = await asyncio.open_connection(sock=sock, limit=1 << 16)
        client = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}/"), max_size=None)
        request = client.connect()
        client.send_request(request)
        writer.write(b"".join(client.data_to_send()))
        await asyncio.sleep(1.0)  # not reading: the kernel's buffers, then uvicorn's, fill
        numbers: list[int] = []
        while len(numbers) < FRAMES:
            data = await reader.read(1 << 16)
            assert data, "the server closed the socket"
            client.receive_data(data)
            numbers.extend(
                json.loads(e.data)["n"]
                for e in client.events_received()
                if isinstance(e, Frame) and e.opcode is Opcode.TEXT
            )
        writer.close()
    assert numbers == list(range(FRAMES))
    # the server's buffer filled while the client did not read: a task took over
    assert app.tasks_started > 0


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65535, 65536, 70000])
def test_a_text_frame_is_framed_byte_for_byte_as_the_websockets_library_frames_it(
    size: int,
) -> None:
    data = ("é" * size).encode()[:size]  # (a cut character: the bytes are framed as given)
    theirs = Frame(Opcode.TEXT, data).serialize(mask=False, extensions=[])
    assert text_frame(data) == theirs


#: chat in Ukrainian: two bytes of UTF-8 for each letter, so characters are not bytes
UKRAINIAN = "Привіт, як справи? Ходи дублем шість-шість! "


def _chat_frames(count: int) -> list[bytes]:
    return [
        encode(
            {
                "type": "event",
                "seq": n,
                "event": {"type": "chat", "seat": n % 2, "text": UKRAINIAN * (1 + n % 40)},
            }
        )
        for n in range(count)
    ]


class _ChatApp:
    """Queues encoded chat frames on its socket in one turn of the event loop, noting the
    bytes the queue counts for them; ``direct=False`` hides the server's protocol from the
    writer (a plain ``send`` function), so the frames go by the ASGI task path."""

    def __init__(self, frames: list[bytes], direct: bool) -> None:
        self.frames = frames
        self.direct = direct
        self.counted: list[int] = []
        self.direct_found: list[bool] = []

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await _App()(scope, receive, send)
            return

        async def plain_send(message: Any) -> None:
            await send(message)

        ws = WebSocket(scope, receive, send if self.direct else plain_send)
        await ws.accept()
        conn = Connection(1, "T", None, None, None, max_bytes=1 << 30)
        writer = SocketWriter(ws, conn, timeout=30)
        self.direct_found.append(DirectSend.find(ws) is not None)
        for data in self.frames:
            before = conn.queued_bytes
            conn.put(data, kind="event")
            self.counted.append(conn.queued_bytes - before)
        with contextlib.suppress(Exception):
            while (await ws.receive())["type"] != "websocket.disconnect":
                pass
        await writer.stop()


async def _text_payloads(port: int, count: int, deflate: bool) -> list[bytes]:
    """The payloads of the first ``count`` frames the server sends, each checked to be a
    text frame (decompressed first when permessage-deflate is on)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    extensions = [ClientPerMessageDeflateFactory()] if deflate else None
    client = ClientProtocol(
        parse_uri(f"ws://127.0.0.1:{port}/"), extensions=extensions, max_size=None
    )
    client.send_request(client.connect())
    writer.write(b"".join(client.data_to_send()))
    payloads: list[bytes] = []
    try:
        while len(payloads) < count:
            data = await reader.read(1 << 16)
            assert data, "the server closed the socket"
            client.receive_data(data)
            for e in client.events_received():
                if isinstance(e, Frame):
                    assert e.opcode is Opcode.TEXT, e.opcode
                    payloads.append(bytes(e.data))
    finally:
        writer.close()
    return payloads


@pytest.mark.parametrize(
    ("direct", "deflate"),
    [(True, False), (True, True), (False, False)],
    ids=["framed-here", "permessage-deflate", "asgi-task-path"],
)
async def test_the_bytes_a_queue_counts_for_a_frame_are_the_bytes_the_client_receives(
    direct: bool, deflate: bool
) -> None:
    frames = _chat_frames(200)
    app = _ChatApp(frames, direct)
    async with _serve(app, deflate) as port:
        payloads = await _text_payloads(port, len(frames), deflate)
    assert app.direct_found == [direct]
    assert payloads == frames  # byte for byte, as text frames, in order
    assert app.counted == [len(p) for p in payloads]
    # (bytes, not characters: each Ukrainian letter is two of them)
    assert sum(app.counted) > sum(len(p.decode()) for p in payloads)


def test_the_queue_bound_counts_the_bytes_of_multibyte_text_not_its_characters() -> None:
    conn = Connection(1, "T", None, None, None, max_bytes=8192)
    frame = encode({"type": "event", "seq": 1, "event": {"type": "chat", "text": "ї" * 2500}})
    # two such frames fit under the bound in characters, not in bytes
    assert 2 * len(frame.decode()) < conn.max_bytes < 2 * len(frame)
    conn.put(frame, kind="event")
    assert conn.queued_bytes == len(frame) and not conn.overflowed
    conn.put(frame, kind="event")  # 5 000+ characters waiting, 10 000+ bytes: too many
    assert conn.overflowed and conn.queued_bytes == 0
