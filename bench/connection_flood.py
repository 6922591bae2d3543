"""Floods from one address: what one client address can hold, what another still gets.

    python -m bench.connection_flood --port 8000 --flood 3000

Against a running ``fiveup serve`` on 127.0.0.1 (Linux: the whole of 127.0.0.0/8 is
loopback, so each flood has its own source address). From 127.0.0.3 it opens ``--flood``
idle TCP connections, from 127.0.0.4 as many WebSocket upgrades with one seat token,
from 127.0.0.5 as many spectator upgrades; it prints how many each got, how long each
flood took, and, with all three held open, the median and worst time of 50 requests of
an honest client at 127.0.0.2 (``/healthz`` and a table's info). Loopback only.
Start the server with ``FIVEUP_MAX_SPECTATORS_PER_TABLE`` above the flood, so the
per-address cap is what stops the spectators, and ``FIVEUP_RATE_LIMIT_ENABLED=false``
(the bench creates tables).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from typing import Any

import httpx

BATCH = 100
Conn = tuple[asyncio.StreamReader, asyncio.StreamWriter]


async def open_from(port: int, address: str) -> Conn:
    """A TCP connection to the server from ``address`` (any of 127.0.0.0/8)."""
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))


async def batched(n: int, make: Any) -> list[Any]:
    """``n`` results of ``make()``, :data:`BATCH` at a time."""
    out: list[Any] = []
    for start in range(0, n, BATCH):
        out += await asyncio.gather(*(make() for _ in range(start, min(n, start + BATCH))))
    return out


async def still_open(conn: Conn) -> bool:
    try:
        return await asyncio.wait_for(conn[0].read(1), 1.0) != b""
    except TimeoutError:
        return True
    except ConnectionError:
        return False


async def _upgrade(port: int, address: str, path: str) -> tuple[int, Conn]:
    conn = await open_from(port, address)
    conn[1].write(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = await asyncio.wait_for(conn[0].readuntil(b"\r\n\r\n"), 60)
    return int(head.split(b" ", 2)[1]), conn


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, default=8000)
    ap.add_argument("--flood", type=int, default=3000)
    args = ap.parse_args()
    port, n = args.port, args.flood
    base = f"http://127.0.0.1:{port}"

    def client(address: str) -> httpx.AsyncClient:
        transport = httpx.AsyncHTTPTransport(local_address=address)
        return httpx.AsyncClient(base_url=base, transport=transport, timeout=30)

    async with client("127.0.0.2") as http:
        body = {"name": "honest", "players": 2, "host_name": "A"}
        code = (await http.post("/api/tables", json=body)).json()["code"]
    async with client("127.0.0.4") as http:
        own = (await http.post("/api/tables", json=body)).json()
    held: list[Conn] = []
    try:
        t0 = time.perf_counter()
        idle = await batched(n, lambda: open_from(port, "127.0.0.3"))
        held += idle
        kept = sum(await asyncio.gather(*(still_open(c) for c in idle)))
        print(f"idle connections: {kept} of {n} kept open ({time.perf_counter() - t0:.1f} s)")
        for label, address, path in (
            ("one seat token", "127.0.0.4", f"/ws/tables/{own['code']}?token={own['token']}"),
            ("spectators", "127.0.0.5", f"/ws/tables/{code}"),
        ):
            t0 = time.perf_counter()
            got = await batched(n, lambda a=address, p=path: _upgrade(port, a, p))
            held += [c for _, c in got]
            codes = [s for s, _ in got]
            print(
                f"sockets, {label}: {codes.count(101)} accepted, {codes.count(429)} refused 429"
                f" of {n} ({time.perf_counter() - t0:.1f} s)"
            )
        async with client("127.0.0.2") as http:
            for path in ("/healthz", f"/api/tables/{code}"):
                times, statuses = [], set()
                for _ in range(50):
                    t0 = time.perf_counter()
                    statuses.add((await http.get(path)).status_code)
                    times.append((time.perf_counter() - t0) * 1000)
                print(
                    f"other address, GET {path.replace(code, '{code}')}: statuses {statuses},"
                    f" median {statistics.median(times):.1f} ms, worst {max(times):.1f} ms"
                )
    finally:
        for _, writer in held:
            writer.close()


if __name__ == "__main__":
    asyncio.run(main())
