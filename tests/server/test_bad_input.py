"""Bad input never yields a 500, a crash or a hang, and never changes state: HTTP answers
4xx, the WebSocket answers an error frame or closes with a code and a reason."""

from __future__ import annotations

import json

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .support import ServerProcess, WsClient, seat_table


async def _seq(http: httpx.AsyncClient, code: str) -> int:
    return int((await http.get(f"/api/tables/{code}")).json()["seq"])


@pytest.mark.parametrize(
    "frame",
    [
        "{not json",
        "[]",
        "42",
        '"move"',
        "null",
        '{"no_type": 1}',
        '{"type": 5}',
        '{"type": "teleport"}',
        '{"type": "move"}',
        '{"type": "move", "move": 12}',
        '{"type": "move", "move": "draw", "seq": "3"}',
        '{"type": "move", "move": ["draw"]}',
        '{"type": "move", "move": "draw", "move_id": {"a": 1}}',
        '{"type": "resync", "last_seq": "x"}',
        "[" * 5000 + "]" * 5000,
        '{"type": "move", "move": "\\u0000"}',
        '{"type": "resync", "last_seq": NaN}',  # not JSON (RFC 8259): bad_message
        '{"type": "resync", "last_seq": 1e999}',
        '{"type": "resync", "last_seq": 123456789012345678901234567890}',
        '{"type": "chat", "text": "\\ud800"}',  # a lone surrogate
    ],
)
async def test_bad_frames_get_an_error_and_change_nothing(
    live: ServerProcess, http: httpx.AsyncClient, frame: str
) -> None:
    code, tokens = await seat_table(http, 2)
    before = await _seq(http, code)
    c = await WsClient(f"{live.ws}/ws/tables/{code}?token={tokens[0]}").connect()
    err = await c.request(frame, ("error",))
    assert err["code"] in ("bad_message", "bad_notation", "illegal_move", "not_your_turn"), err
    assert await c.request({"type": "ping"}, ("pong",)) == {"type": "pong"}  # still alive
    assert await _seq(http, code) == before
    await c.close()


async def test_repeated_bad_frames_close_with_4400(
    live: ServerProcess, http: httpx.AsyncClient
) -> None:
    code, _ = await seat_table(http, 2)
    c = await WsClient(f"{live.ws}/ws/tables/{code}").connect()
    for _ in range(10):
        await c.send("garbage")
    await c.wait_for(lambda c: c.closed is not None)
    assert c.closed is not None and c.closed[0] == 4400 and c.closed[1]
    assert sum(f["type"] == "error" for f in c.frames) >= 1


async def test_binary_frame_closes_with_4400(live: ServerProcess, http: httpx.AsyncClient) -> None:
    code, _ = await seat_table(http, 2)
    c = await WsClient(f"{live.ws}/ws/tables/{code}").connect()
    await c.send(b"\x00\x01binary")
    await c.wait_for(lambda c: c.closed is not None)
    assert c.closed is not None and c.closed[0] == 4400


async def test_oversized_frame_closes_with_1009(
    live: ServerProcess, http: httpx.AsyncClient
) -> None:
    code, tokens = await seat_table(http, 2)
    before = await _seq(http, code)
    c = await WsClient(f"{live.ws}/ws/tables/{code}?token={tokens[0]}").connect()
    await c.send(json.dumps({"type": "move", "move": "draw", "pad": "x" * 20000}))
    await c.wait_for(lambda c: c.closed is not None)
    assert c.closed is not None and c.closed[0] == 1009
    assert await _seq(http, code) == before
    assert (await http.get("/healthz")).status_code == 200


@pytest.mark.parametrize(
    "body",
    [
        "{broken",
        "[]",
        '{"name": "t", "players": 5, "public": true, "host_name": "a"}',
        '{"name": "t", "players": "2", "public": true, "host_name": "a"}',
        '{"name": "t", "players": 2, "public": "yes", "host_name": "a"}',
        '{"name": "t", "players": 2, "public": true}',
        '{"name": "t", "players": 2, "public": true, "host_name": "' + "x" * 25 + '"}',
        '{"name": "", "players": 2, "public": true, "host_name": "a"}',
        '{"name": "t", "players": 2, "public": true, "host_name": "a", "admin": true}',
    ],
)
async def test_bad_create_bodies_are_4xx(http: httpx.AsyncClient, body: str) -> None:
    r = await http.post("/api/tables", content=body, headers={"Content-Type": "application/json"})
    assert 400 <= r.status_code < 500, r.text


@pytest.mark.parametrize(
    ("host_name", "stored"), [("a\\u0000b", "ab"), ("   ", "Player 1"), ("\\u200b", "Player 1")]
)
async def test_names_with_invisible_parts_are_stored_cleaned(
    http: httpx.AsyncClient, host_name: str, stored: str
) -> None:
    body = f'{{"name": "t", "players": 2, "public": true, "host_name": "{host_name}"}}'
    r = await http.post("/api/tables", content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 201, r.text
    assert r.json()["table"]["seats"][0]["name"] == stored


async def test_bad_codes_tokens_and_seats_are_4xx(http: httpx.AsyncClient) -> None:
    code, _ = await seat_table(http, 2, start=False)
    before = await _seq(http, code)
    bad_auth = [
        {"Authorization": "Bearer nope"},
        {"Authorization": "Basic abc"},
        {"Authorization": "Bearer " + "x" * 5000},
        {},
    ]
    for headers in bad_auth:
        for path in ("start", "leave", "rematch"):
            r = await http.post(f"/api/tables/{code}/{path}", headers=headers)
            assert r.status_code == 401, (path, headers, r.text)
            assert r.json()["detail"]["code"] == "unauthorized"
    for bad_code in ("NOSUCH", "x" * 17, "%00", "../../etc"):
        r = await http.get(f"/api/tables/{bad_code}")
        assert 400 <= r.status_code < 500
    for seat in (-1, 4, "1", None, 1.5, True):
        r = await http.post(f"/api/tables/{code}/join", json={"name": "Z", "seat": seat})
        assert 400 <= r.status_code < 500, (seat, r.text)
    r = await http.post(f"/api/tables/{code}/join", json={"name": "Z", "seat": 1})
    assert r.status_code == 409 and r.json()["detail"]["code"] == "seat_taken"
    assert await _seq(http, code) == before


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    body=st.recursive(
        st.none()
        | st.booleans()
        | st.integers()
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(max_size=30),
        lambda inner: (
            st.lists(inner, max_size=4)
            | st.dictionaries(
                st.sampled_from(["name", "players", "public", "host_name", "seat", "x"]),
                inner,
                max_size=5,
            )
        ),
        max_leaves=12,
    )
)
def test_any_json_body_is_answered_without_a_5xx(live: ServerProcess, body: object) -> None:
    with httpx.Client(base_url=live.http, timeout=20) as client:
        for path in ("/api/tables", "/api/tables/ABCDEF/join"):
            r = client.post(path, json=body)
            assert r.status_code < 500, (path, body, r.text)


async def test_huge_request_bodies_are_refused_with_413(http: httpx.AsyncClient) -> None:
    big = '{"name": "' + "x" * 100_000 + '", "players": 2, "public": true, "host_name": "a"}'
    r = await http.post("/api/tables", content=big, headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and r.json()["detail"]["code"] == "too_large"

    async def chunks():  # type: ignore[no-untyped-def]
        for _ in range(100):
            yield b"x" * 1024

    r = await http.post(
        "/api/tables", content=chunks(), headers={"Content-Type": "application/json"}
    )
    assert r.status_code in (400, 413)  # streamed: cut off while FastAPI reads it
    assert (await http.get("/healthz")).status_code == 200
