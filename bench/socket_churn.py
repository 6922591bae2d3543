"""Server memory across socket lifetimes: open and close sockets with one seat token,
cycle after cycle, and print the server's RSS after each cycle (it should level off).

    python -m bench.socket_churn --url http://127.0.0.1:8000 --server-pid PID \
        --cycles 30 --per-cycle 1500

Loopback only. Each socket gets its snapshot (and its presence frame) and is closed by
the client (a close handshake); ``--parallel`` sockets at a time. The server's settings
must let one address open that many sockets (``FIVEUP_RATE_LIMIT_ENABLED=false``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from pathlib import Path

import httpx
import websockets


def rss_kib(pid: int) -> int:
    """A process's resident set (``VmRSS`` of ``/proc/PID/status``), KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


async def seat_token(url: str) -> tuple[str, str]:
    """A new two-player table's code and its host's seat token."""
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        r = await http.post(
            "/api/tables", json={"name": "churn", "players": 2, "public": False, "host_name": "A"}
        )
        r.raise_for_status()
        return r.json()["code"], r.json()["token"]


async def churn(ws_url: str, sockets: int, parallel: int = 20) -> None:
    """Open ``sockets`` sockets to ``ws_url``, ``parallel`` at a time; each reads its
    snapshot and is closed."""
    left = iter(range(sockets))

    async def one_after_another() -> None:
        for _ in left:
            async with websockets.connect(ws_url, compression=None) as ws:
                json.loads(await asyncio.wait_for(ws.recv(), 30))

    await asyncio.gather(*(one_after_another() for _ in range(parallel)))


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--url", default="http://127.0.0.1:8000")
    ap.add_argument("--server-pid", type=int, required=True)
    ap.add_argument("--cycles", type=int, default=30)
    ap.add_argument("--per-cycle", type=int, default=1500)
    ap.add_argument("--parallel", type=int, default=20)
    args = ap.parse_args()
    code, token = await seat_token(args.url)
    ws_url = args.url.replace("http", "ws", 1) + f"/ws/tables/{code}?token={token}"
    start = rss_kib(args.server_pid)
    print(json.dumps({"cycle": 0, "rss_mib": round(start / 1024, 1)}))
    for cycle in range(1, args.cycles + 1):
        t0 = time.monotonic()
        await churn(ws_url, args.per_cycle, args.parallel)
        rss = rss_kib(args.server_pid)
        print(
            json.dumps(
                {
                    "cycle": cycle,
                    "sockets": cycle * args.per_cycle,
                    "rss_mib": round(rss / 1024, 1),
                    "kib_per_socket": round((rss - start) / (cycle * args.per_cycle), 2),
                    "seconds": round(time.monotonic() - t0, 1),
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    asyncio.run(main())
