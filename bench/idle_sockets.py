"""Server memory per idle WebSocket: open N spectator sockets on one table of a running
server, wait, and report the growth of the server's RSS per socket.

    python -m bench.idle_sockets --url http://127.0.0.1:8000 --server-pid PID --sockets 1000

Loopback only. Each socket gets its snapshot and then stays idle (no reads after that
are needed: nothing is sent to an idle table).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
from pathlib import Path

import httpx
import websockets


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--url", default="http://127.0.0.1:8000")
    ap.add_argument("--server-pid", type=int, required=True)
    ap.add_argument("--sockets", type=int, default=1000)
    ap.add_argument("--deflate", action="store_true", help="offer permessage-deflate")
    args = ap.parse_args()
    async with httpx.AsyncClient(base_url=args.url, timeout=30) as http:
        r = await http.post(
            "/api/tables", json={"name": "idle", "players": 2, "public": False, "host_name": "A"}
        )
        code = r.json()["code"]
    ws_url = args.url.replace("http", "ws", 1) + f"/ws/tables/{code}"
    compression = "deflate" if args.deflate else None
    warm = [await websockets.connect(ws_url, compression=compression) for _ in range(20)]
    for w in warm:
        await w.recv()
    await asyncio.sleep(1)
    before = rss_kib(args.server_pid)
    socks = []
    for _ in range(args.sockets):
        ws = await websockets.connect(ws_url, compression=compression, max_size=2**22)
        json.loads(await ws.recv())  # the snapshot
        socks.append(ws)
    await asyncio.sleep(3)
    after = rss_kib(args.server_pid)
    per = (after - before) / args.sockets
    print(
        json.dumps(
            {
                "sockets": args.sockets,
                "deflate": args.deflate,
                "rss_before_kib": before,
                "rss_after_kib": after,
                "kib_per_idle_socket": round(per, 1),
            }
        )
    )
    for ws in socks + warm:
        with contextlib.suppress(Exception):
            await ws.close()


if __name__ == "__main__":
    asyncio.run(main())
