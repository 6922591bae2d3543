"""No secret ever reaches the log, and every line of it is structured.

Seat tokens never reach it, whatever the query parameter's spelling and whatever comes
before it in the query (``#``, ``'``): a real server with uvicorn's access log on, at
INFO and at DEBUG, in JSON and in console format, gets every spelling over HTTP and over
WebSocket, and its captured log is grepped for the secrets; it keeps the path and no
query at all. Device links and the tokens they give never reach it either. And whole
matches of 2, 3 and 4 players played over real sockets with every logger at DEBUG leave
in the JSON log no seat token, no device link, no tile of any hand as dealt or of the
stock, no deal seed in any form — while every line parses as JSON, every request line
carries a request id and every commit line its table and seq (app/core/logging.py)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import secrets
import uuid
from typing import Any

import httpx
import pytest
import websockets

from app.core.logging import drop_path_query, drop_query_strings

from .hardening_support import HardenedServer
from .helpers import greedy_choice
from .oracle import running_seeds
from .support import WsClient, read_events, seat_table

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


LEVELS = pytest.mark.parametrize(
    ("level", "fmt"), [("INFO", "json"), ("DEBUG", "json"), ("DEBUG", "console")]
)


def json_lines(log: str) -> list[dict[str, Any]]:
    """Every line of a JSON log, parsed (a line that is not a JSON object fails)."""
    lines = []
    for n, text in enumerate(log.splitlines()):
        try:
            line = json.loads(text)
        except ValueError:
            pytest.fail(f"log line {n} is not JSON: {text[:200]!r}")
        assert isinstance(line, dict), text[:200]
        assert {"timestamp", "level", "logger", "event"} <= set(line), text[:200]
        lines.append(line)
    return lines


def messages(log: str, fmt: str) -> str:
    """The log's messages, one a line (a JSON log's ``event`` fields; a console log as
    it is)."""
    return "\n".join(line["event"] for line in json_lines(log)) if fmt == "json" else log


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
    pg_url: str, level: str, fmt: str
) -> None:
    server = HardenedServer(pg_url, FIVEUP_LOG_LEVEL=level, FIVEUP_LOG_FORMAT=fmt).start()
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
    said = messages(log, fmt)
    http_lines = said.count(f'"GET /api/tables/{code} HTTP/1.1" 200')
    assert http_lines >= 3 * len(SPELLINGS), "access log not captured"
    assert f'"WebSocket /ws/tables/{code}"' in said, "socket lines not captured"
    leaked = [s for s in secrets_sent if s in log]
    assert not leaked, f"{len(leaked)} secrets in the log"
    assert f"/tables/{code}?" not in log and f"/tables/{code}#" not in log
    if fmt == "json":  # the request lines' own fields: the path without its query
        paths = {line.get("path") for line in json_lines(log)}
        assert f"/api/tables/{code}" in paths and f"/ws/tables/{code}" in paths


def test_a_path_loses_its_whole_query_and_other_text_is_left_alone() -> None:
    line = '127.0.0.1:5 - "GET /t?tokens=1&my_token=2#&token=T HTTP/1.1" 200'
    assert drop_query_strings(line) == '127.0.0.1:5 - "GET /t HTTP/1.1" 200'
    assert drop_path_query("/ws/tables/ABC?a='1&token=T") == "/ws/tables/ABC"
    text = "table ABC: committed seq 2..3 (moved), seat #1"
    assert drop_query_strings(text) == drop_path_query(text) == text


async def claim_own_link(http: httpx.AsyncClient, code: str, seat: int, token: str) -> list[str]:
    """The seat's own device link, claimed: ``[link, its secret, the new token]`` (the
    old token is revoked by the claim)."""
    r = await http.post(
        f"/api/tables/{code}/seats/{seat}/link", headers={"Authorization": f"Bearer {token}"}
    )
    assert r.status_code == 200, r.text
    link = r.json()["link"]
    secret = link.split("#seat=", 1)[1]
    claimed = await http.post(f"/api/tables/{code}/claim", json={"link": secret})
    assert claimed.status_code == 200, claimed.text
    return [link, secret, claimed.json()["token"]]


@LEVELS
def test_device_links_and_the_tokens_they_give_never_reach_the_log(
    pg_url: str, level: str, fmt: str
) -> None:
    """A device link travels in a URL fragment and a POST body only; with the access
    log and the app's log at INFO or DEBUG, neither the link nor the token its claim
    gives (nor the revoked one) is ever written."""
    server = HardenedServer(pg_url, FIVEUP_LOG_LEVEL=level, FIVEUP_LOG_FORMAT=fmt).start()
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
    assert f"/api/tables/{code}/claim" in messages(log, fmt), "access log not captured"
    leaked = [s for s in secrets_seen if s in log]
    assert not leaked, f"{len(leaked)} credentials in the log"


async def play_a_match(
    server: HardenedServer, http: httpx.AsyncClient, players: int, rng: random.Random
) -> tuple[str, list[str]]:
    """A whole match over sockets: every seat claims its own device link first, then
    plays greedy legal moves on its new token; a spectator watches, a seat chats and
    one resyncs. Returns the table's code and every credential that was given out."""
    code, tokens = await seat_table(http, players)
    credentials = list(tokens)
    for seat in range(players):
        got = await claim_own_link(http, code, seat, tokens[seat])
        credentials += got
        tokens[seat] = got[-1]
    url = f"{server.ws}/ws/tables/{code}"
    seats = [await WsClient(f"{url}?token={t}", f"seat{i}").connect() for i, t in enumerate(tokens)]
    spectator = await WsClient(url, "spectator").connect()
    moves = 0
    while True:
        target = max(c.last_seq for c in [*seats, spectator])
        for c in [*seats, spectator]:
            await c.wait_for(lambda c, t=target: c.last_seq >= t)
        view = spectator.view
        assert view is not None
        if view["phase"] == "match_over":
            break
        mover = seats[view["turn"]]
        assert mover.view is not None and mover.view["legal"]
        reply = await mover.request(
            {
                "type": "move",
                "move": greedy_choice(mover.view["legal"], rng),
                "move_id": uuid.uuid4().hex,
                "seq": mover.last_seq,
            },
            ("ack", "error"),
        )
        assert reply["type"] == "ack", reply
        moves += 1
        if moves == 3:
            await mover.send({"type": "chat", "text": "nice one"})
            await mover.request({"type": "resync", "last_seq": 1}, ("snapshot",))
    for c in [*seats, spectator]:
        await c.close()
    return code, credentials


def dealt_secrets(events: dict[int, dict[str, Any]], code: str) -> tuple[set[str], set[str]]:
    """Every tile of every hand as dealt and of every stock (both spellings, the lists as
    JSON too), and every deal seed in every form a line could spell it, from the stored
    events of a table."""
    tiles: set[str] = set()
    for event in events.values():
        deal = event["payload"].get("deal")
        if deal is None:
            continue
        for part in [*deal["hands"], deal["stock"]]:
            tiles.add(json.dumps(part))
            for tile in part:
                a, b = tile.split("|")
                tiles |= {f"{a}|{b}", f"{b}|{a}"}
    seeds = {form for _, _, forms, seed in running_seeds(events, code) for form in {*forms, seed}}
    return tiles, seeds


def test_whole_matches_at_debug_leave_no_secret_in_a_json_log_of_request_ids(
    pg_url: str,
) -> None:
    server = HardenedServer(pg_url, FIVEUP_LOG_LEVEL="DEBUG", FIVEUP_LOG_FORMAT="json").start()
    try:

        async def play() -> list[tuple[str, list[str]]]:
            async with httpx.AsyncClient(base_url=server.http, timeout=20) as http:
                rng = random.Random(7)
                return await asyncio.gather(
                    *(play_a_match(server, http, n, rng) for n in (2, 3, 4))
                )

        played = asyncio.run(play())
    finally:
        server.stop()
    log = server.log_text()
    lines = json_lines(log)  # every line is JSON
    credentials = [c for _, got in played for c in got]
    assert len(credentials) == 4 * (2 + 3 + 4)
    assert not [c for c in credentials if c in log], "a token or device link in the log"
    for code, _ in played:
        events = read_events(server.database_url, code)
        assert any(e["payload"].get("type") == "match_over" for e in events.values()) or any(
            "match_over" in json.dumps(e["payload"]) for e in events.values()
        )
        tiles, seeds = dealt_secrets(events, code)
        assert len(tiles) > 28 and seeds
        assert not [t for t in tiles if t in log], f"table {code}: a tile of a deal in the log"
        assert not [s for s in seeds if s in log], f"table {code}: a deal seed in the log"
    # request lines: HTTP access lines and WebSocket handshakes, each with its id
    requests = [line for line in lines if "method" in line]
    assert {line["method"] for line in requests} >= {"GET", "POST", "WEBSOCKET"}
    assert all(len(line.get("request_id", "")) == 32 for line in requests)
    assert len({line["request_id"] for line in requests}) == len(requests)  # one each
    # commit lines: the table's code and the seq; a move made over a socket, its seat
    for code, _ in played:
        commits = [line for line in lines if line.get("table") == code and "seq" in line]
        assert commits and all(isinstance(line["seq"], int) for line in commits)
        by_socket = [
            line for line in commits if "seat" in line and re.search(r"[(,]move[,)]", line["event"])
        ]
        assert by_socket and all("request_id" in line for line in by_socket)
    assert not [line for line in lines if line["level"] in ("error", "critical")]
