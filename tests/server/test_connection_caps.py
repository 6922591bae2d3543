"""Connection caps: one client address cannot take the server from the others.

Floods come from their own loopback addresses (127.0.0.3-5) while an honest client at
127.0.0.2 keeps using the server: 3,000 idle TCP connections that send nothing, 3,000
WebSocket upgrades with one seat token and 3,000 spectator upgrades. Each flood is held
to its cap (the default ones) and the honest client's ``/healthz``, table info, table
creation and moves keep working. Before the caps, every open socket and idle connection
counted against uvicorn's ``limit_concurrency`` and other clients got 503.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
import websockets

from .hardening_support import HardenedServer
from .support import WsClient, seat_table

FLOOD = 3000
BATCH = 100  # connections opened at once by a flood
HONEST = "127.0.0.2"
DEFAULTS = {"connections": 256, "sockets": 256, "per_token": 8}  # app/core/settings.py


@pytest.fixture(scope="module")
def capped(pg_url: str) -> Iterator[HardenedServer]:
    server = HardenedServer(
        pg_url,
        FIVEUP_MAX_SPECTATORS_PER_TABLE="100000",  # the per-address cap must be what stops
        FIVEUP_HEADER_TIMEOUT="300",  # idle connections stay until the test closes them
    ).start()
    yield server
    server.stop()


def _client(server: HardenedServer, address: str) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=address)
    return httpx.AsyncClient(base_url=server.http, transport=transport, timeout=20)


class BoundWsClient(WsClient):
    """The recording client, its socket bound to one local address."""

    def __init__(self, url: str, address: str, label: str = "") -> None:
        super().__init__(url, label)
        self.address = address

    async def connect(self) -> BoundWsClient:
        self.conn = await websockets.connect(self.url, max_size=2**24, local_addr=(self.address, 0))
        self._reader = asyncio.create_task(self._read())
        await self.wait_for(lambda c: c.last_seq >= 0 or c.closed is not None)
        return self


Conn = tuple[asyncio.StreamReader, asyncio.StreamWriter]


async def _open(port: int, address: str) -> Conn:
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))


async def _batched(n: int, make: Any) -> list[Any]:
    out: list[Any] = []
    for start in range(0, n, BATCH):
        out += await asyncio.gather(*(make() for _ in range(start, min(n, start + BATCH))))
    return out


async def _still_open(conn: Conn) -> bool:
    """True if the server has not closed the connection within a second."""
    try:
        return await asyncio.wait_for(conn[0].read(1), 1.0) != b""
    except TimeoutError:
        return True
    except ConnectionError:
        return False


async def _upgrade(port: int, address: str, path: str) -> tuple[int, bytes, Conn]:
    """A raw WebSocket upgrade: (status, body, connection)."""
    conn = await _open(port, address)
    conn[1].write(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = await asyncio.wait_for(conn[0].readuntil(b"\r\n\r\n"), 30)
    status = int(head.split(b" ", 2)[1])
    body = b""
    if status != 101:
        length = next(
            int(line.split(b":", 1)[1])
            for line in head.split(b"\r\n")
            if line.lower().startswith(b"content-length:")
        )
        body = await conn[0].readexactly(length)
    return status, body, conn


def _close_all(conns: list[Conn]) -> None:
    for _, writer in conns:
        writer.close()


@pytest.fixture
async def table(capped: HardenedServer) -> AsyncIterator[tuple[str, list[str]]]:
    async with _client(capped, HONEST) as http:
        yield await seat_table(http, 2)


async def _honest_client_is_served(server: HardenedServer, code: str, tokens: list[str]) -> None:
    """/healthz, table info, a new table and a move, all from the honest address."""
    async with _client(server, HONEST) as http:
        assert (await http.get("/healthz")).status_code == 200
        assert (await http.get(f"/api/tables/{code}")).status_code == 200
        r = await http.post("/api/tables", json={"name": "N", "players": 2, "host_name": "A"})
        assert r.status_code == 201, r.text
    seats = [
        await BoundWsClient(f"{server.ws}/ws/tables/{code}?token={t}", HONEST, f"s{i}").connect()
        for i, t in enumerate(tokens)
    ]
    try:
        assert all(s.closed is None for s in seats), [s.closed for s in seats]
        mover = next(s for s in seats if s.view and s.view["legal"])
        seq = mover.last_seq
        move = mover.view["legal"][0]["move"]  # type: ignore[index]
        ack = await mover.request(
            {"type": "move", "move": move, "move_id": f"m{seq}", "seq": seq}, ("ack", "error")
        )
        assert ack["type"] == "ack", ack
        for s in seats:
            await s.wait_for(lambda c: c.last_seq > seq)
    finally:
        for s in seats:
            await s.close()


async def test_one_address_is_held_to_its_caps_while_another_is_served(
    capped: HardenedServer, table: tuple[str, list[str]]
) -> None:
    code, tokens = table
    port = capped.port
    async with _client(capped, "127.0.0.4") as http:
        own = await http.post("/api/tables", json={"name": "F", "players": 2, "host_name": "F"})
        flood_token = own.json()["token"]
    held: list[Conn] = []
    try:
        # idle TCP connections that send nothing, from 127.0.0.3
        idle = await _batched(FLOOD, lambda: _open(port, "127.0.0.3"))
        held += idle
        open_idle = sum(await asyncio.gather(*(_still_open(c) for c in idle)))
        assert open_idle == DEFAULTS["connections"], open_idle

        # sockets with one seat token, from 127.0.0.4
        path = f"/ws/tables/{own.json()['code']}?token={flood_token}"
        token_flood = await _batched(FLOOD, lambda: _upgrade(port, "127.0.0.4", path))
        held += [c for _, _, c in token_flood]
        statuses = [s for s, _, _ in token_flood]
        assert statuses.count(101) == DEFAULTS["per_token"], statuses.count(101)
        assert statuses.count(429) == FLOOD - DEFAULTS["per_token"]
        refused = next(json.loads(b) for s, b, _ in token_flood if s == 429)
        assert refused["detail"]["code"] == "too_many_connections"

        # spectator sockets at the honest client's table, from 127.0.0.5
        spectate = f"/ws/tables/{code}"
        spectators = await _batched(FLOOD, lambda: _upgrade(port, "127.0.0.5", spectate))
        held += [c for _, _, c in spectators]
        statuses = [s for s, _, _ in spectators]
        assert statuses.count(101) == DEFAULTS["sockets"], statuses.count(101)
        assert statuses.count(429) == FLOOD - DEFAULTS["sockets"]

        # everything the floods got is still open, and the honest address is served
        await _honest_client_is_served(capped, code, tokens)
    finally:
        _close_all(held)


async def test_a_refused_address_gets_room_again_once_its_connections_close(
    capped: HardenedServer,
) -> None:
    full = await _batched(DEFAULTS["connections"], lambda: _open(capped.port, "127.0.0.6"))
    try:
        extra = await _open(capped.port, "127.0.0.6")
        assert not await _still_open(extra)
    finally:
        _close_all(full)
    await asyncio.sleep(0.5)
    again = await _open(capped.port, "127.0.0.6")
    try:
        assert await _still_open(again)
    finally:
        again[1].close()


@pytest.fixture(scope="module")
def tight_budget(pg_url: str) -> Iterator[HardenedServer]:
    """An HTTP budget of 5 requests running at once."""
    server = HardenedServer(pg_url, FIVEUP_LIMIT_CONCURRENCY="5").start()
    yield server
    server.stop()


async def test_open_sockets_do_not_take_from_the_http_budget(tight_budget: HardenedServer) -> None:
    async with _client(tight_budget, HONEST) as http:
        code, _ = await seat_table(http, 2)
        sockets = await asyncio.gather(
            *(_upgrade(tight_budget.port, "127.0.0.7", f"/ws/tables/{code}") for _ in range(50))
        )
        try:
            assert [s for s, _, _ in sockets].count(101) == 50
            for _ in range(5):
                assert (await http.get(f"/api/tables/{code}")).status_code == 200
        finally:
            _close_all([c for _, _, c in sockets])


async def test_a_spent_http_budget_answers_503_overloaded_but_healthz_still_answers(
    tight_budget: HardenedServer,
) -> None:
    # five requests whose bodies never finish keep five requests running
    head = (
        b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 1000\r\n\r\n{"
    )
    running = [await _open(tight_budget.port, "127.0.0.8") for _ in range(5)]
    try:
        for _, writer in running:
            writer.write(head)
        await asyncio.sleep(0.5)
        async with _client(tight_budget, HONEST) as http:
            r = await http.get("/api/tables")
            assert r.status_code == 503, r.text
            assert r.json()["detail"]["code"] == "overloaded"
            assert r.headers["retry-after"] == "1"
            assert (await http.get("/healthz")).status_code == 200
    finally:
        _close_all(running)
    await asyncio.sleep(0.5)
    async with _client(tight_budget, HONEST) as http:
        assert (await http.get("/api/tables")).status_code == 200


@pytest.fixture(scope="module")
def behind_proxy(pg_url: str) -> Iterator[HardenedServer]:
    """127.0.0.1 is a trusted proxy; small caps."""
    server = HardenedServer(
        pg_url,
        FIVEUP_FORWARDED_ALLOW_IPS="127.0.0.1",
        FIVEUP_MAX_CONNECTIONS_PER_ADDRESS="5",
        FIVEUP_MAX_SOCKETS_PER_ADDRESS="3",
        FIVEUP_HEADER_TIMEOUT="300",
    ).start()
    yield server
    server.stop()


async def _forwarded_upgrade(port: int, path: str, client: str) -> tuple[int, Conn]:
    conn = await _open(port, "127.0.0.1")
    conn[1].write(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nX-Forwarded-For: {client}\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = await asyncio.wait_for(conn[0].readuntil(b"\r\n\r\n"), 30)
    return int(head.split(b" ", 2)[1]), conn


async def test_behind_a_trusted_proxy_sockets_count_per_forwarded_client(
    behind_proxy: HardenedServer,
) -> None:
    port = behind_proxy.port
    async with _client(behind_proxy, "127.0.0.1") as http:
        code, _ = await seat_table(http, 2)
    idle = [await _open(port, "127.0.0.1") for _ in range(20)]  # the proxy's: not counted
    path = f"/ws/tables/{code}"
    first = [await _forwarded_upgrade(port, path, "10.0.0.1") for _ in range(4)]
    other = await _forwarded_upgrade(port, path, "10.0.0.2")
    try:
        assert all(await asyncio.gather(*(_still_open(c) for c in idle)))
        assert [s for s, _ in first] == [101, 101, 101, 429]
        assert other[0] == 101
    finally:
        _close_all(idle + [c for _, c in first] + [other[1]])
