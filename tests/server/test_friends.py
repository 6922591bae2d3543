"""Friends on a real server, on PostgreSQL and on SQLite, with profiles signed up by a
software passkey: the friend link (QR, rotation), requests by link or handle, accept,
decline, crossing requests, remove, blocks (no request, no seat at the blocker's table),
exactly one friendship under real concurrent accepts, the bounds and the quota (429 with
Retry-After), bad input answered 4xx, and no private field in any answer."""

from __future__ import annotations

import asyncio
import itertools
import secrets
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from sqlalchemy import create_engine, text

from app.core.urls import sync_url

from .hardening_support import HardenedServer
from .moderation_support import new_address
from .passkey_support import SoftPasskey
from .support import ServerProcess
from .test_openapi_fuzz import _fuzz

_handles = itertools.count(1)


@dataclass
class Db:
    url: str

    def count(self, sql: str, **params: object) -> int:
        engine = create_engine(sync_url(self.url))
        try:
            with engine.connect() as conn:
                return int(conn.execute(text(sql), params).scalar() or 0)
        finally:
            engine.dispose()


@pytest.fixture(scope="module", params=["postgres", "sqlite"])
def world(request: pytest.FixtureRequest) -> Iterator[tuple[HardenedServer, Db]]:
    url = request.getfixturevalue("pg_url" if request.param == "postgres" else "sqlite_url")
    s = HardenedServer(
        url,
        FIVEUP_RATE_LIMIT_ENABLED="true",
        FIVEUP_FORWARDED_ALLOW_IPS="127.0.0.1",
        FIVEUP_RATE_LIMIT_FRIEND_REQUESTS="6/minute",
        FIVEUP_FRIENDS_MAX="3",
        FIVEUP_FRIENDS_PENDING_MAX="3",
        FIVEUP_FRIENDS_BLOCKS_MAX="2",
    ).start()
    yield s, Db(url)
    s.stop()


@pytest.fixture
def server(world: tuple[HardenedServer, Db]) -> HardenedServer:
    return world[0]


@pytest.fixture
def db(world: tuple[HardenedServer, Db]) -> Db:
    return world[1]


@dataclass
class Player:
    http: httpx.AsyncClient
    handle: str
    server: ServerProcess


def _client(server: ServerProcess) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        base_url=server.http,
        timeout=30,
        headers={"Origin": server.http, "X-Forwarded-For": new_address()},
    )


async def _player(server: ServerProcess, name: str = "Ann Lee") -> Player:
    http = _client(server)
    handle = f"f{next(_handles)}{secrets.token_hex(3)}"
    r = await http.post(
        "/api/profile/signup/options", json={"handle": handle, "display_name": name}
    )
    assert r.status_code == 200, r.text
    key = SoftPasskey(server.http)
    body = {"ceremony": r.json()["ceremony"], "credential": key.create(r.json()["options"])}
    r = await http.post("/api/profile/signup/verify", json=body)
    assert r.status_code == 200, r.text
    return Player(http, handle, server)


@pytest.fixture
async def two(server: HardenedServer) -> AsyncIterator[tuple[Player, Player]]:
    a, b = await _player(server, "Ann"), await _player(server, "Bob")
    yield a, b
    await a.http.aclose()
    await b.http.aclose()


async def _list(p: Player) -> dict[str, list[dict[str, str]]]:
    r = await p.http.get("/api/friends")
    assert r.status_code == 200, r.text
    return r.json()


def _handles_in(rows: list[dict[str, str]]) -> list[str]:
    return [row["handle"] for row in rows]


async def _befriend(a: Player, b: Player) -> None:
    r = await a.http.post("/api/friends/requests", json={"handle": b.handle})
    assert r.status_code == 200 and r.json()["state"] == "requested", r.text
    r = await b.http.post(f"/api/friends/requests/{a.handle}/accept")
    assert r.status_code == 200 and r.json()["state"] == "friends", r.text


async def test_a_friend_link_with_its_qr_sends_a_request_the_other_accepts(
    two: tuple[Player, Player], server: HardenedServer
) -> None:
    a, b = two
    r = await a.http.get("/api/profile/friend-link")
    assert r.status_code == 200, r.text
    link = r.json()["link"]
    assert link.startswith("/f/") and r.json()["qr_svg"].startswith("<svg")
    assert (await a.http.get("/api/profile/friend-link")).json()["link"] == link  # stable
    r = await b.http.post("/api/friends/requests", json={"link": server.http + link})
    assert r.status_code == 200, r.text
    assert r.json() == {"state": "requested", "friend": {"handle": a.handle, "display_name": "Ann"}}
    assert _handles_in((await _list(a))["incoming"]) == [b.handle]
    assert _handles_in((await _list(b))["outgoing"]) == [a.handle]
    r = await a.http.post(f"/api/friends/requests/{b.handle}/accept")
    assert r.json() == {"state": "friends", "friend": {"handle": b.handle, "display_name": "Bob"}}
    for me, other in ((a, b), (b, a)):
        seen = await _list(me)
        assert seen["friends"] == [
            {"handle": other.handle, "display_name": "Ann" if other is a else "Bob"}
        ]
        assert seen["incoming"] == seen["outgoing"] == seen["blocked"] == []


async def test_rotating_the_friend_link_revokes_the_old_one(
    two: tuple[Player, Player],
) -> None:
    a, b = two
    old = (await a.http.get("/api/profile/friend-link")).json()["link"]
    r = await a.http.post("/api/profile/friend-link")
    assert r.status_code == 200 and r.json()["link"] != old
    assert (await a.http.get("/api/profile/friend-link")).json()["link"] == r.json()["link"]
    r = await b.http.post("/api/friends/requests", json={"link": old})
    assert r.status_code == 404 and r.json()["detail"]["code"] == "no_player"


async def test_a_request_crossing_one_the_other_way_makes_a_friendship_at_once(
    two: tuple[Player, Player], db: Db
) -> None:
    a, b = two
    await a.http.post("/api/friends/requests", json={"handle": b.handle})
    r = await b.http.post("/api/friends/requests", json={"handle": a.handle.upper()})
    assert r.status_code == 200 and r.json()["state"] == "friends", r.text
    assert _handles_in((await _list(a))["friends"]) == [b.handle]
    assert (
        db.count(
            "SELECT count(*) FROM friend_requests f JOIN profiles p ON p.id IN (f.from_id, f.to_id)"
            " WHERE p.handle = :h",
            h=a.handle,
        )
        == 0
    )


async def test_declining_and_removing_leave_no_friendship_and_tell_nothing_private(
    two: tuple[Player, Player], server: HardenedServer
) -> None:
    a, b = two
    await a.http.post("/api/friends/requests", json={"handle": b.handle})
    r = await b.http.post(f"/api/friends/requests/{a.handle}/decline")
    assert r.status_code == 200 and r.json() == {"ok": True}
    assert (await _list(a))["outgoing"] == [] and (await _list(b))["incoming"] == []
    r = await b.http.post(f"/api/friends/requests/{a.handle}/accept")
    assert r.status_code == 404 and r.json()["detail"]["code"] == "no_request"
    await _befriend(a, b)
    answers = [
        (await a.http.get("/api/friends")).text,
        (await b.http.get("/api/profile/friend-link")).text,
    ]
    session = a.http.cookies["fiveup_session"]
    for answer in answers:
        for private in (session, '"id"', "token_hash", "nonce", "user_handle", "passkey"):
            assert private not in answer
    r = await b.http.delete(f"/api/friends/friendships/{a.handle}")
    assert r.status_code == 200
    assert (await _list(a))["friends"] == [] and (await _list(b))["friends"] == []
    r = await b.http.delete(f"/api/friends/friendships/{a.handle}")
    assert r.status_code == 404 and r.json()["detail"]["code"] == "not_friends"


async def test_a_block_ends_the_friendship_and_refuses_a_request_with_blocked(
    two: tuple[Player, Player], server: HardenedServer
) -> None:
    a, b = two
    await _befriend(a, b)
    r = await a.http.post("/api/friends/blocks", json={"handle": b.handle})
    assert r.status_code == 200 and r.json() == {"handle": b.handle, "display_name": "Bob"}
    assert (await _list(a))["friends"] == [] and (await _list(b))["friends"] == []
    assert _handles_in((await _list(a))["blocked"]) == [b.handle]
    assert (await _list(b))["blocked"] == []  # the blocked one is not told
    link = (await a.http.get("/api/profile/friend-link")).json()["link"]
    for body in ({"handle": a.handle}, {"link": link}):
        r = await b.http.post("/api/friends/requests", json=body)
        assert r.status_code == 403 and r.json()["detail"]["code"] == "blocked", r.text
        assert set(r.json()) == {"detail"} and set(r.json()["detail"]) == {"code", "message"}
    r = await a.http.delete(f"/api/friends/blocks/{b.handle}")
    assert r.status_code == 200 and (await _list(a))["blocked"] == []
    r = await b.http.post("/api/friends/requests", json={"handle": a.handle})
    assert r.status_code == 200 and r.json()["state"] == "requested"


async def test_a_blocked_player_signed_in_cannot_take_a_seat_at_the_blockers_table(
    two: tuple[Player, Player], server: HardenedServer
) -> None:
    a, b = two
    r = await a.http.post(
        "/api/tables", json={"name": "A's", "players": 3, "public": False, "host_name": "Ann"}
    )
    assert r.status_code == 201, r.text
    code = r.json()["code"]
    await a.http.post("/api/friends/blocks", json={"handle": b.handle})
    r = await b.http.post(f"/api/tables/{code}/join", json={"name": "Bob", "seat": 1})
    assert r.status_code == 403 and r.json()["detail"]["code"] == "blocked", r.text
    c = await _player(server, "Cy")
    try:
        r = await c.http.post(f"/api/tables/{code}/join", json={"name": "Cy", "seat": 1})
        assert r.status_code == 200, r.text
    finally:
        await c.http.aclose()
    await a.http.delete(f"/api/friends/blocks/{b.handle}")
    r = await b.http.post(f"/api/tables/{code}/join", json={"name": "Bob", "seat": 2})
    assert r.status_code == 200, r.text


async def test_ten_concurrent_accepts_make_exactly_one_friendship(
    two: tuple[Player, Player], db: Db
) -> None:
    a, b = two
    await a.http.post("/api/friends/requests", json={"handle": b.handle})
    answers = await asyncio.gather(
        *(b.http.post(f"/api/friends/requests/{a.handle}/accept") for _ in range(10))
    )
    assert [r.status_code for r in answers] == [200] * 10, [r.text for r in answers]
    assert {r.json()["state"] for r in answers} == {"friends"}
    rows = db.count(
        "SELECT count(*) FROM friendships f JOIN profiles p ON p.id = f.profile_id"
        " WHERE p.handle IN (:a, :b)",
        a=a.handle,
        b=b.handle,
    )
    assert rows == 2


async def test_requests_crossing_concurrently_make_exactly_one_friendship(
    server: HardenedServer, db: Db
) -> None:
    pairs = [(await _player(server), await _player(server)) for _ in range(3)]
    try:
        answers = await asyncio.gather(
            *(
                p.http.post("/api/friends/requests", json={"handle": q.handle})
                for a, b in pairs
                for p, q in ((a, b), (b, a))
            )
        )
        assert all(r.status_code == 200 for r in answers), [r.text for r in answers]
        for a, b in pairs:
            assert _handles_in((await _list(a))["friends"]) == [b.handle]
            assert (await _list(a))["outgoing"] == (await _list(a))["incoming"] == []
            rows = db.count(
                "SELECT count(*) FROM friendships f JOIN profiles p ON p.id = f.profile_id"
                " WHERE p.handle IN (:a, :b)",
                a=a.handle,
                b=b.handle,
            )
            assert rows == 2
    finally:
        for a, b in pairs:
            await a.http.aclose()
            await b.http.aclose()


async def test_friends_pending_requests_and_blocks_are_bounded(server: HardenedServer) -> None:
    me = await _player(server)
    others = [await _player(server) for _ in range(5)]
    try:
        for o in others[:3]:  # FIVEUP_FRIENDS_PENDING_MAX=3
            r = await me.http.post("/api/friends/requests", json={"handle": o.handle})
            assert r.status_code == 200, r.text
        r = await me.http.post("/api/friends/requests", json={"handle": others[3].handle})
        assert r.status_code == 409 and r.json()["detail"]["code"] == "too_many_pending"
        for o in others[:3]:
            r = await o.http.post(f"/api/friends/requests/{me.handle}/accept")
            assert r.status_code == 200, r.text
        r = await others[4].http.post("/api/friends/requests", json={"handle": me.handle})
        assert r.status_code == 200  # a request to a full profile waits ...
        r = await me.http.post(f"/api/friends/requests/{others[4].handle}/accept")
        assert r.status_code == 409 and r.json()["detail"]["code"] == "too_many_friends"
        for o in others[:2]:  # FIVEUP_FRIENDS_BLOCKS_MAX=2
            assert (
                await me.http.post("/api/friends/blocks", json={"handle": o.handle})
            ).status_code == 200
        r = await me.http.post("/api/friends/blocks", json={"handle": others[2].handle})
        assert r.status_code == 409 and r.json()["detail"]["code"] == "too_many_blocks"
    finally:
        for p in (me, *others):
            await p.http.aclose()


async def test_friend_requests_are_capped_per_address_with_retry_after(
    server: HardenedServer,
) -> None:
    me = await _player(server)
    try:
        codes = []
        for _ in range(7):  # FIVEUP_RATE_LIMIT_FRIEND_REQUESTS=6/minute
            r = await me.http.post("/api/friends/requests", json={"handle": "nobody-here"})
            codes.append(r.status_code)
        assert codes == [404] * 6 + [429]
        assert r.json()["detail"]["code"] == "rate_limited" and int(r.headers["Retry-After"]) >= 1
    finally:
        await me.http.aclose()


async def test_every_route_wants_a_session_and_changes_want_our_origin(
    two: tuple[Player, Player], server: HardenedServer
) -> None:
    a, _ = two
    routes = [
        ("GET", "/api/friends", None),
        ("GET", "/api/profile/friend-link", None),
        ("POST", "/api/profile/friend-link", None),
        ("POST", "/api/friends/requests", {"handle": "abc"}),
        ("POST", "/api/friends/requests/abc/accept", None),
        ("POST", "/api/friends/requests/abc/decline", None),
        ("DELETE", "/api/friends/friendships/abc", None),
        ("POST", "/api/friends/blocks", {"handle": "abc"}),
        ("DELETE", "/api/friends/blocks/abc", None),
    ]
    async with _client(server) as guest:
        for method, path, body in routes:
            r = await guest.request(method, path, json=body)
            assert r.status_code == 401 and r.json()["detail"]["code"] == "unauthorized", path
    for method, path, body in routes:
        if method == "GET":
            continue
        r = await a.http.request(
            method, path, json=body, headers={"Origin": "https://evil.example"}
        )
        assert r.status_code == 403 and r.json()["detail"]["code"] == "bad_origin", path


async def test_bad_input_gets_a_4xx_in_the_one_error_shape(two: tuple[Player, Player]) -> None:
    a, b = two
    bodies: list[object] = [
        {},
        {"handle": b.handle, "link": "/f/x"},
        {"handle": ""},
        {"handle": "x" * 65},
        {"link": "x" * 300},
        {"handle": 5},
        {"handle": b.handle, "extra": 1},
        [],
        "nope",
        {"handle": "\u3164\u3164\u3164"},
        {"handle": a.handle},
    ]
    for body in bodies:
        r = await a.http.post(
            "/api/friends/blocks" if body == [] else "/api/friends/requests",
            json=body,
            headers={"X-Forwarded-For": new_address()},  # not the quota's 429
        )
        assert 400 <= r.status_code < 500 and r.status_code != 429, (body, r.text)
        assert set(r.json()["detail"]) >= {"code", "message"}, body
    for path in (
        "/api/friends/requests/%00/accept",
        "/api/friends/requests/" + "y" * 65 + "/decline",
    ):
        r = await a.http.post(path)
        assert 400 <= r.status_code < 500, path
    for raw in (b"{nope", b'{"link": "/f/\\udc80"}', b'{"handle": "\\ud800x"}'):
        r = await a.http.post(
            "/api/friends/requests",
            content=raw,
            headers={"Content-Type": "application/json", "X-Forwarded-For": new_address()},
        )
        assert 400 <= r.status_code < 500, (raw, r.text)
    r = await a.http.post(
        "/api/friends/requests",
        json={"handle": a.handle},
        headers={"X-Forwarded-For": new_address()},
    )
    assert r.status_code == 409 and r.json()["detail"]["code"] == "self"


async def test_deleting_a_profile_deletes_its_friendships_requests_blocks_and_link(
    server: HardenedServer, db: Db
) -> None:
    a, b, c = await _player(server), await _player(server), await _player(server)
    try:
        await _befriend(a, b)
        await a.http.post("/api/friends/requests", json={"handle": c.handle})
        await a.http.post("/api/friends/blocks", json={"handle": c.handle})
        await c.http.post("/api/friends/blocks", json={"handle": a.handle})
        await a.http.get("/api/profile/friend-link")
        await b.http.post("/api/friends/requests", json={"handle": c.handle})
        profile_id = db.count("SELECT id FROM profiles WHERE handle = :h", h=a.handle)
        assert (await a.http.delete("/api/profile")).status_code == 200
        for sql in (
            "SELECT count(*) FROM friendships WHERE profile_id = :i OR friend_id = :i",
            "SELECT count(*) FROM friend_requests WHERE from_id = :i OR to_id = :i",
            "SELECT count(*) FROM profile_blocks WHERE blocker_id = :i OR blocked_id = :i",
            "SELECT count(*) FROM friend_links WHERE profile_id = :i",
        ):
            assert db.count(sql, i=profile_id) == 0, sql
        assert (await _list(b))["friends"] == [] and _handles_in((await _list(b))["outgoing"]) == [
            c.handle
        ]
    finally:
        for p in (a, b, c):
            await p.http.aclose()


async def test_the_friends_routes_hold_under_fuzzing_signed_in_from_the_sites_origin(
    pg_url: str, tmp_path: Path
) -> None:
    """Schemathesis (as tests/server/test_openapi_fuzz.py) on the friends routes with a
    real session cookie and this site's Origin: past the session and Origin checks, any
    body, handle or link gets a documented answer, never a 5xx."""
    server = ServerProcess(pg_url).start()
    try:
        me, other = await _player(server), await _player(server)
        await other.http.post("/api/friends/requests", json={"handle": me.handle})
        session = me.http.cookies["fiveup_session"]
        headers = ("-H", f"Origin: {server.http}", "-H", f"Cookie: fiveup_session={session}")
        regex = ("--include-path-regex", "^/api/(friends|profile/friend-link)")
        await asyncio.to_thread(_fuzz, server, tmp_path, *headers, *regex)
        assert (await me.http.get("/api/friends")).status_code == 200  # still signed in
        await me.http.aclose()
        await other.http.aclose()
    finally:
        server.stop()
