"""What a socket send's deadline costs when the send finishes at once (as almost every
send does): an ``asyncio.timeout`` scope per send, against the loop's one send watch
(``app/api/send_watch.py``), against no deadline at all — under uvloop, as served.

    python -m bench.send_deadline [--sends 200000]
"""

from __future__ import annotations

import argparse
import asyncio
import time

import uvloop

from app.api.send_watch import send_watch


async def _sent_at_once() -> None:
    return None


async def with_timeout_scope(n: int) -> None:
    for _ in range(n):
        async with asyncio.timeout(10):
            await _sent_at_once()


async def with_send_watch(n: int) -> None:
    watch = send_watch()  # (once per burst of frames, as the socket's writer does)
    for _ in range(n):
        await watch.run(_sent_at_once(), 10)


async def without_deadline(n: int) -> None:
    for _ in range(n):
        await _sent_at_once()


async def main(n: int) -> None:
    for _ in range(2):
        for way in (with_timeout_scope, with_send_watch, without_deadline):
            cpu = time.process_time()
            await way(n)
            print(f"{way.__name__:20} {1e6 * (time.process_time() - cpu) / n:.2f} µs per send")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sends", type=int, default=200_000)
    uvloop.run(main(ap.parse_args().sends))
