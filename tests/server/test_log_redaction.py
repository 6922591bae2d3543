"""Seat tokens never reach the log (issue 10, finding 8; issue 31, point 8), whatever
the parameter's spelling and whatever comes before it in the query (``#``, ``'``): a
real server with uvicorn's access log on, at INFO and at DEBUG, gets every spelling over
HTTP and over WebSocket, and its captured log is grepped for the secrets. The log keeps
the path and no query at all."""

from __future__ import annotations

import asyncio
import contextlib
import secrets

import httpx
import pytest
import websockets

from app.core.logging import drop_path_query, drop_query_strings

from .hardening_support import HardenedServer

SPELLINGS = [
    "token",
    "tok%65n",
    "TOKEN",
    "%74oken",
    "ToKeN",
    "%54%4F%4B%45%4E",
    "tok%2565n",
    "token%20",
    "+token",
]


LEVELS = pytest.mark.parametrize("level", ["INFO", "DEBUG"])


async def raw_request(port: int, target: str, websocket: bool = False) -> bytes:
    """Send one request line with ``target`` exactly as given (a ``#`` or ``'`` in it
    too, which no URL-parsing client sends), read the answer's first bytes, hang up."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    upgrade = (
        "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        if websocket
        else "Connection: close\r\n"
    )
    writer.write(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\n{upgrade}\r\n".encode())
    answer = await asyncio.wait_for(reader.read(12), 10)
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()
    return answer


@LEVELS
def test_every_spelling_of_the_token_parameter_is_kept_out_of_the_log(
    pg_url: str, level: str
) -> None:
    server = HardenedServer(pg_url, FIVEUP_LOG_LEVEL=level).start()
    secrets_sent: list[str] = []
    try:
        with httpx.Client(base_url=server.http) as http:
            code = http.post(
                "/api/tables", json={"name": "T", "players": 2, "host_name": "Ann"}
            ).json()["code"]
            for spelling in SPELLINGS:
                secret = f"S3CRET{secrets.token_hex(6)}"
                secrets_sent.append(secret)
                # alone, after another parameter, and repeated
                http.get(f"/api/tables/{code}?{spelling}={secret}")
                http.get(f"/api/tables/{code}?x=1&{spelling}={secret}&y=2")
                http.get(f"/api/tables/{code}?{spelling}={secret}&{spelling}={secret}")

        async def sockets() -> None:
            for spelling in SPELLINGS:
                secret = f"S3CRET{secrets.token_hex(6)}"
                secrets_sent.append(secret)
                with contextlib.suppress(websockets.WebSocketException, OSError):
                    async with websockets.connect(
                        f"{server.ws}/ws/tables/{code}?{spelling}={secret}"
                    ) as ws:
                        await asyncio.wait_for(ws.recv(), 10)

        asyncio.run(sockets())

        async def behind_a_fragment_or_a_quote() -> None:
            for before in ("a=1#&", "a='1&", "a=1'#;", "#"):
                for websocket in (False, True):
                    secret = f"S3CRET{secrets.token_hex(6)}"
                    secrets_sent.append(secret)
                    path = f"/{'ws' if websocket else 'api'}/tables/{code}"
                    answer = await raw_request(
                        server.port, f"{path}?{before}token={secret}", websocket
                    )
                    assert answer.startswith(b"HTTP/1.1 "), answer

        asyncio.run(behind_a_fragment_or_a_quote())
    finally:
        server.stop()
    log = server.log_text()
    http_lines = log.count(f'"GET /api/tables/{code} HTTP/1.1" 200')
    assert http_lines >= 3 * len(SPELLINGS), "access log not captured"
    assert f'"WebSocket /ws/tables/{code}"' in log, "socket lines not captured"
    leaked = [s for s in secrets_sent if s in log]
    assert not leaked, f"{len(leaked)} secrets in the log"
    assert f"/tables/{code}?" not in log and f"/tables/{code}#" not in log


def test_a_path_loses_its_whole_query_and_other_text_is_left_alone() -> None:
    line = '127.0.0.1:5 - "GET /t?tokens=1&my_token=2#&token=T HTTP/1.1" 200'
    assert drop_query_strings(line) == '127.0.0.1:5 - "GET /t HTTP/1.1" 200'
    assert drop_path_query("/ws/tables/ABC?a='1&token=T") == "/ws/tables/ABC"
    text = "table ABC: committed seq 2..3 (moved), seat #1"
    assert drop_query_strings(text) == drop_path_query(text) == text


@LEVELS
def test_device_links_and_the_tokens_they_give_never_reach_the_log(pg_url: str, level: str) -> None:
    """Issue 9: a device link travels in a URL fragment and a POST body only; with the
    access log and the app's log at INFO or DEBUG, neither the link nor the token its
    claim gives (nor the revoked one) is ever written."""
    server = HardenedServer(pg_url, FIVEUP_LOG_LEVEL=level).start()
    secrets_seen: list[str] = []
    try:
        with httpx.Client(base_url=server.http) as http:
            created = http.post(
                "/api/tables", json={"name": "T", "players": 2, "host_name": "Ann"}
            ).json()
            code, host = created["code"], created["token"]
            joined = http.post(f"/api/tables/{code}/join", json={"name": "Bob", "seat": 1}).json()
            bob = joined["token"]
            http.post(f"/api/tables/{code}/start", headers={"Authorization": f"Bearer {host}"})
            secrets_seen += [host, bob]
            for caller in (bob, bob):  # the seat's own link, then its re-issue
                r = http.post(
                    f"/api/tables/{code}/seats/1/link",
                    headers={"Authorization": f"Bearer {caller}"},
                )
                assert r.status_code == 200, r.text
                secrets_seen.append(r.json()["link"].split("#seat=", 1)[1])
            claimed = http.post(f"/api/tables/{code}/claim", json={"link": secrets_seen[-1]})
            assert claimed.status_code == 200
            secrets_seen.append(claimed.json()["token"])
            again = http.post(f"/api/tables/{code}/claim", json={"link": secrets_seen[-2]})
            assert again.status_code == 404
            r = http.post(
                f"/api/tables/{code}/resign",
                headers={"Authorization": f"Bearer {secrets_seen[-1]}"},
            )
            assert r.status_code == 200
    finally:
        server.stop()
    log = server.log_text()
    assert f"/api/tables/{code}/claim" in log, "access log not captured"
    leaked = [s for s in secrets_seen if s in log]
    assert not leaked, f"{len(leaked)} credentials in the log"
