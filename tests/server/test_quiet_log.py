"""What a client sends cannot make the log say more than it should:
at ``FIVEUP_LOG_LEVEL=DEBUG`` no frame — so no tile of a hidden hand — is written, and a
text frame that is not UTF-8 closes its socket with 1007 without an ERROR or traceback.
A real server, served as ``fiveup serve`` serves it, and its captured log."""

from __future__ import annotations

import asyncio
import contextlib
import uuid

import httpx
import websockets

from .hardening_support import HardenedServer
from .support import WsClient, seat_table


def test_at_debug_no_frame_and_no_tile_of_a_hidden_hand_reaches_the_log(pg_url: str) -> None:
    server = HardenedServer(pg_url, FIVEUP_LOG_LEVEL="DEBUG").start()
    move_ids: list[str] = []
    hidden: list[str] = []
    try:

        async def play() -> None:
            async with httpx.AsyncClient(base_url=server.http) as http:
                code, tokens = await seat_table(http, 2)
            url = f"{server.ws}/ws/tables/{code}"
            seats = [await WsClient(f"{url}?token={t}").connect() for t in tokens]
            assert seats[0].view is not None
            waiting = seats[1 - seats[0].view["turn"]]  # its hand is hidden from all
            assert waiting.view is not None
            hidden.extend(waiting.view["hand"])
            for tile in hidden:  # refused attempts (not its turn) naming each tile
                move_ids.append(uuid.uuid4().hex)
                reply = await waiting.request(
                    {"type": "move", "move_id": move_ids[-1], "move": tile}, ("error",)
                )
                assert reply["move_id"] == move_ids[-1]
            for seat in seats:
                await seat.close()

        asyncio.run(play())
    finally:
        server.stop()
    log = server.log_text()
    assert "/ws/tables/" in log and "connection open" in log, "log not captured"
    assert len(hidden) >= 5
    assert not [t for t in hidden if t in log], "tiles of a hidden hand in the log"
    assert not [m for m in move_ids if m[:12] in log], "frames in the log"
    assert "TEXT" not in log and "sec-websocket-key" not in log.lower()


def test_a_text_frame_that_is_not_utf8_closes_1007_without_an_error_in_the_log(
    pg_url: str,
) -> None:
    server = HardenedServer(pg_url, FIVEUP_LOG_LEVEL="INFO").start()
    codes: list[int | None] = []
    try:

        async def send_bad_text() -> None:
            async with httpx.AsyncClient(base_url=server.http) as http:
                code, _ = await seat_table(http, 2)
            for _ in range(20):  # the bad frame alone
                async with websockets.connect(f"{server.ws}/ws/tables/{code}") as ws:
                    await ws.recv()  # the snapshot
                    await ws.send(b"\xff\xfe{}", text=True)
                    try:
                        while True:
                            await asyncio.wait_for(ws.recv(), 10)
                    except websockets.ConnectionClosed as closed:
                        codes.append(closed.rcvd.code if closed.rcvd else None)

            for _ in range(20):  # the bad frame and the client's close in one write
                reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
                writer.write(
                    f"GET /ws/tables/{code} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                    "Sec-WebSocket-Version: 13\r\n"
                    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n".encode()
                )
                await reader.readuntil(b"\r\n\r\n")
                mask = b"\x00\x00\x00\x00"  # a client's frames are masked (with zeros)
                writer.write(b"\x81\x82" + mask + b"\xff\xfe" + b"\x88\x82" + mask + b"\x03\xe8")
                with contextlib.suppress(OSError):
                    await asyncio.wait_for(reader.read(), 10)  # until the server hangs up
                writer.close()

        asyncio.run(send_bad_text())
    finally:
        server.stop()
    assert codes == [1007] * 20
    log = server.log_text()
    assert "/ws/tables/" in log, "log not captured"
    assert "Traceback" not in log and "ERROR" not in log and "UTF-8" not in log
