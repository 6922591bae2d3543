"""A socket's lifetime leaves nothing for the cyclic garbage collector:
20,000 sockets with one seat token, each opened, given its snapshot and closed by the
client, against a real server served as ``fiveup serve`` serves it. The server process
counts every object its collector frees — as the collections come, and in a full
collection at exit for whatever is left — and the whole churn may leave less than one
object per socket. (A closed socket used to leave about a hundred in reference cycles:
the HTTP protocol and its parser, the connection and its writer, holding the transport,
both protocols and the socket's state until a full collection, which the tuned collector
of app/core/gc_tuning.py rarely runs: the server's memory grew by about 7.5 KB per
socket lifetime.)"""

from __future__ import annotations

import asyncio
import json
import signal
import sys
import time
from pathlib import Path

import httpx
import websockets

from .hardening_support import _SERVE, HardenedServer

SOCKETS = 20_000
PARALLEL = 20

#: the server's command with the collector counted: a callback sums what each
#: collection freed; on SIGUSR1 a full collection adds what is left and the sums are written
_COUNTED = (
    "import gc, json, os, signal\n"
    "freed = {'collections': 0, 'collected': 0}\n"
    "def count(phase, info):\n"
    "    if phase == 'stop':\n"
    "        freed['collections'] += 1\n"
    "        freed['collected'] += info['collected']\n"
    "gc.callbacks.append(count)\n"
    "def report():\n"
    "    gc.collect()\n"
    "    with open(os.environ['GC_COUNT_FILE'], 'w') as f:\n"
    "        json.dump(freed, f)\n"
    "signal.signal(signal.SIGUSR1, lambda *_: report())\n"
) + _SERVE


class CountedServer(HardenedServer):
    def command(self) -> list[str]:
        return [sys.executable, "-c", _COUNTED, str(self.port), "1"]


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def test_20000_socket_lifetimes_leave_nothing_for_the_cyclic_collector(
    pg_url: str, tmp_path: Path
) -> None:
    count_file = tmp_path / "gc.json"
    # PARALLEL sockets of one seat at once: above the per-seat cap, which is not what
    # this test is about (tests/server/test_connection_caps.py is)
    server = CountedServer(
        pg_url,
        GC_COUNT_FILE=str(count_file),
        FIVEUP_MAX_SOCKETS_PER_SEAT_TOKEN=str(PARALLEL * 2),
    ).start()
    assert server.proc is not None
    try:

        async def churn() -> None:
            async with httpx.AsyncClient(base_url=server.http) as http:
                r = await http.post(
                    "/api/tables", json={"name": "T", "players": 2, "host_name": "Ann"}
                )
                code, token = r.json()["code"], r.json()["token"]
            url = f"{server.ws}/ws/tables/{code}?token={token}"
            left = iter(range(SOCKETS))

            async def one_after_another() -> None:
                for _ in left:
                    async with websockets.connect(url, compression=None) as ws:
                        assert json.loads(await asyncio.wait_for(ws.recv(), 30))["you"] == 0

            await asyncio.gather(*(one_after_another() for _ in range(PARALLEL)))

        before = rss_mib(server.proc.pid)
        started = time.monotonic()
        asyncio.run(churn())
        took = time.monotonic() - started
        grown = rss_mib(server.proc.pid) - before
        server.proc.send_signal(signal.SIGUSR1)
        for _ in range(100):  # (a request wakes the loop, so the handler runs)
            httpx.get(f"{server.http}/healthz", timeout=10)
            if count_file.exists() and count_file.read_text().endswith("}"):
                break
            time.sleep(0.1)
    finally:
        server.stop()
    freed = json.loads(count_file.read_text())
    print(f"{SOCKETS} sockets in {took:.0f} s; RSS +{grown:.1f} MiB; {freed}")
    assert freed["collected"] < SOCKETS, (
        f"{freed['collected']} objects freed by the cyclic collector after {SOCKETS} "
        f"socket lifetimes ({freed['collections']} collections; RSS +{grown:.1f} MiB)"
    )
