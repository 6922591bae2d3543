"""Slowloris: connections that trickle their headers or body, or
send nothing, are answered 408 and closed after the configured deadline; oversized
headers get 431; normal requests and WebSockets go on working.

The server is served as ``fiveup serve`` serves it (``app.core.serving.uvicorn_options``)
with 1-second deadlines. A closed connection is seen as the server's EOF; each trickling
client keeps sending for up to 30 s (30 times the deadline), so on a server without
deadlines every one of them would still be open when it gives up."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator

import httpx
import pytest
import websockets

from .hardening_support import HardenedServer
from .support import ServerProcess

TRICKLE_FOR = 30.0  # seconds a trickling client keeps going before the test gives up


@pytest.fixture(scope="module")
def slow_server(pg_url: str) -> Iterator[HardenedServer]:
    server = HardenedServer(
        pg_url, FIVEUP_HEADER_TIMEOUT="1", FIVEUP_BODY_TIMEOUT="1", FIVEUP_MAX_HEADER_BYTES="4096"
    ).start()
    yield server
    server.stop()


async def _trickle(port: int, head: bytes, drip: bytes, every: float = 0.2) -> bytes:
    """Send ``head``, then ``drip`` every ``every`` s until the server closes; return what
    the server sent (b"" never closed within TRICKLE_FOR)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    received = b""
    try:
        writer.write(head)
        await writer.drain()
        loop = asyncio.get_running_loop()
        give_up = loop.time() + TRICKLE_FOR
        while loop.time() < give_up:
            try:
                chunk = await asyncio.wait_for(reader.read(4096), every)
            except TimeoutError:
                if drip:
                    writer.write(drip)
                    with contextlib.suppress(ConnectionError):
                        await writer.drain()
                continue
            if not chunk:
                return received or b"<closed>"
            received += chunk
        return b""
    except ConnectionError:
        return received or b"<reset>"
    finally:
        writer.close()


async def test_header_trickling_connections_are_dropped(slow_server: HardenedServer) -> None:
    head = b"GET /api/tables HTTP/1.1\r\nHost: x\r\n"
    results = await asyncio.gather(
        *(_trickle(slow_server.port, head, b"X-a: b\r\n") for _ in range(50))
    )
    assert all(results), "some header-trickling connections were never closed"
    assert all(r.startswith(b"HTTP/1.1 408") for r in results), results[:3]


async def test_body_trickling_connections_are_dropped(slow_server: HardenedServer) -> None:
    head = (
        b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 50000\r\n\r\n{"
    )
    results = await asyncio.gather(*(_trickle(slow_server.port, head, b" ") for _ in range(50)))
    assert all(results), "some body-trickling connections were never closed"
    assert all(r.startswith(b"HTTP/1.1 408") for r in results), results[:3]


async def test_body_trickling_is_dropped_even_where_the_app_never_reads_the_body(
    slow_server: HardenedServer,
) -> None:
    head = b"GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n"
    result = await _trickle(slow_server.port, head, b"x")
    assert result, "the connection was never closed"


async def test_silent_connections_are_dropped(slow_server: HardenedServer) -> None:
    assert await _trickle(slow_server.port, b"", b"")


async def test_oversized_headers_are_refused_with_431(slow_server: HardenedServer) -> None:
    head = b"GET /api/tables HTTP/1.1\r\nHost: x\r\n" + b"X-Big: " + b"a" * 8000 + b"\r\n"
    result = await _trickle(slow_server.port, head, b"")
    assert result.startswith(b"HTTP/1.1 431"), result[:80]


async def test_normal_requests_keep_alive_and_websockets_still_work(
    slow_server: HardenedServer,
) -> None:
    async with httpx.AsyncClient(base_url=slow_server.http) as http:
        r = await http.post("/api/tables", json={"name": "T", "players": 2, "host_name": "Ann"})
        assert r.status_code == 201, r.text
        code = r.json()["code"]
        for _ in range(3):  # one kept-alive connection, several requests
            assert (await http.get(f"/api/tables/{code}")).status_code == 200
    async with websockets.connect(f"{slow_server.ws}/ws/tables/{code}") as ws:
        first = await asyncio.wait_for(ws.recv(), 10)
        assert '"snapshot"' in str(first)
        await asyncio.sleep(2.5)  # longer than both deadlines: an open socket is not a request
        await ws.send('{"type":"ping"}')
        async with asyncio.timeout(10):
            while '"pong"' not in str(await ws.recv()):
                pass


async def test_body_deadline_holds_under_a_plain_uvicorn_too(pg_url: str) -> None:
    """Without the serving options (``uvicorn app.main:create_app --factory``), the ASGI
    middleware still answers a trickled body with 408."""
    server = ServerProcess(pg_url, FIVEUP_BODY_TIMEOUT="1").start()
    try:
        head = (
            b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 50000\r\n\r\n{"
        )
        results = await asyncio.gather(*(_trickle(server.port, head, b" ") for _ in range(10)))
    finally:
        server.stop()
    assert all(r.startswith(b"HTTP/1.1 408") for r in results), results[:3]
    assert all(b'"code":"timeout"' in r.replace(b" ", b"") for r in results)


async def test_worker_processes_enforce_the_header_deadline_too(pg_url: str) -> None:
    """With ``--workers 2`` uvicorn sends the options to spawned processes: the deadline
    protocol must survive that trip and find its limits there."""
    server = HardenedServer(pg_url, FIVEUP_HEADER_TIMEOUT="1")
    server.workers = 2
    server.start()
    try:
        head = b"GET /api/tables HTTP/1.1\r\nHost: x\r\n"
        results = await asyncio.gather(
            *(_trickle(server.port, head, b"X-a: b\r\n") for _ in range(10))
        )
        async with httpx.AsyncClient(base_url=server.http) as http:
            assert (await http.get("/api/tables")).status_code == 200
    finally:
        server.stop()
    assert all(r.startswith(b"HTTP/1.1 408") for r in results), results[:3]


@pytest.fixture(scope="module")
def default_server(pg_url: str) -> Iterator[HardenedServer]:
    """Served with the default header limit (16 KiB)."""
    server = HardenedServer(pg_url).start()
    yield server
    server.stop()


async def _send_all(port: int, request: bytes, chunk: int | None = None) -> bytes:
    """Write ``request`` in one write (or in ``chunk``-byte writes, stopping once the
    server has answered) and return what the server sent before closing (10 s at most)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    received = bytearray()

    async def read() -> None:
        with contextlib.suppress(ConnectionError):
            while data := await reader.read(65536):
                received.extend(data)

    reading = asyncio.create_task(read())
    try:
        step = chunk or len(request)
        with contextlib.suppress(ConnectionError):
            for at in range(0, len(request), step):
                if received or reading.done():
                    break
                writer.write(request[at : at + step])
                await writer.drain()
                if chunk:
                    await asyncio.sleep(0.002)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(reading), 10)
        return bytes(received)
    finally:
        reading.cancel()
        writer.close()


def _request_with_header(size: int) -> bytes:
    return b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * size + b"\r\n\r\n"


@pytest.mark.parametrize("size", [20_000, 60_000])
async def test_oversized_headers_in_one_write_are_refused_with_431(
    default_server: HardenedServer, size: int
) -> None:
    result = await _send_all(default_server.port, _request_with_header(size))
    assert result.startswith(b"HTTP/1.1 431"), result[:80]


@pytest.mark.parametrize("size", [20_000, 60_000])
async def test_oversized_headers_in_small_chunks_are_refused_with_431(
    default_server: HardenedServer, size: int
) -> None:
    result = await _send_all(default_server.port, _request_with_header(size), chunk=512)
    assert result.startswith(b"HTTP/1.1 431"), result[:80]


async def test_headers_under_the_limit_in_one_write_are_answered(
    default_server: HardenedServer,
) -> None:
    request = _request_with_header(15_000)[:-2] + b"Connection: close\r\n\r\n"
    result = await _send_all(default_server.port, request)
    assert result.startswith(b"HTTP/1.1 200"), result[:80]


async def test_a_body_in_the_same_write_as_small_headers_is_not_counted_as_headers(
    default_server: HardenedServer,
) -> None:
    body = b'{"name": "' + b"n" * 40_000 + b'"}'
    request = (
        b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Connection: close\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)
    )
    result = await _send_all(default_server.port, request)
    assert result.startswith(b"HTTP/1.1 4") and not result.startswith(b"HTTP/1.1 431")


async def test_an_oversized_request_pipelined_behind_another_in_one_write_gets_431(
    default_server: HardenedServer,
) -> None:
    first = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
    result = await _send_all(default_server.port, first + _request_with_header(20_000))
    assert b"HTTP/1.1 431" in result, result[-200:]  # (the connection is closed with it)


async def test_an_oversized_second_request_on_a_kept_alive_connection_gets_431(
    default_server: HardenedServer,
) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", default_server.port)
    try:
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
        assert head.startswith(b"HTTP/1.1 200"), head
        length = int(head.lower().split(b"content-length:")[1].split(b"\r\n")[0])
        await reader.readexactly(length)
        writer.write(_request_with_header(20_000))
        answer = await asyncio.wait_for(reader.read(65536), 10)
        assert answer.startswith(b"HTTP/1.1 431"), answer[:80]
    finally:
        writer.close()
