"""Clubs on a real server, on PostgreSQL and on SQLite, with profiles signed up by a
software passkey: create, my clubs, the invite link (QR, rotation), join (once under ten
real concurrent joins), leave, the owner's removals and deletion, the page for members
only, a table made for the club live and then its finished match in the standings and
the club's leaderboard, the bounds and the quota (409, 429 with Retry-After), bad input
answered 4xx, and no private field in any answer."""

from __future__ import annotations

import asyncio
import itertools
import secrets
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
        FIVEUP_RATE_LIMIT_CLUB_JOINS="12/minute",
        FIVEUP_CLUBS_PER_PROFILE_MAX="3",
        FIVEUP_CLUB_MEMBERS_MAX="3",
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
    #: every JSON answer this player got, for the no-private-fields check
    seen: list[str]

    async def call(self, method: str, path: str, **kw: Any) -> httpx.Response:
        r = await self.http.request(method, path, **kw)
        self.seen.append(r.text)
        return r


def _client(server: ServerProcess) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        base_url=server.http,
        timeout=30,
        headers={"Origin": server.http, "X-Forwarded-For": new_address()},
    )


async def _player(server: ServerProcess, name: str = "Ann") -> Player:
    http = _client(server)
    handle = f"c{next(_handles)}{secrets.token_hex(3)}"
    r = await http.post(
        "/api/profile/signup/options", json={"handle": handle, "display_name": name}
    )
    assert r.status_code == 200, r.text
    key = SoftPasskey(server.http)
    body = {"ceremony": r.json()["ceremony"], "credential": key.create(r.json()["options"])}
    r = await http.post("/api/profile/signup/verify", json=body)
    assert r.status_code == 200, r.text
    return Player(http, handle, [])


@pytest.fixture
async def two(server: HardenedServer) -> AsyncIterator[tuple[Player, Player]]:
    a, b = await _player(server, "Ann"), await _player(server, "Bob")
    yield a, b
    await a.http.aclose()
    await b.http.aclose()


async def _club(p: Player, name: str = "Thursday Club") -> int:
    r = await p.call("POST", "/api/clubs", json={"name": name})
    assert r.status_code == 201, r.text
    return int(r.json()["id"])


async def _link(p: Player, club: int) -> str:
    r = await p.call("GET", f"/api/clubs/{club}/invite")
    assert r.status_code == 200, r.text
    return str(r.json()["link"])


async def _page(p: Player, club: int) -> dict[str, Any]:
    r = await p.call("GET", f"/api/clubs/{club}")
    assert r.status_code == 200, r.text
    page: dict[str, Any] = r.json()
    return page


def _code(r: httpx.Response) -> str:
    return str(r.json()["detail"]["code"])


async def test_a_club_invite_link_with_its_qr_joins_a_member_and_both_see_the_club(
    two: tuple[Player, Player], server: HardenedServer
) -> None:
    a, b = two
    club = await _club(a, "  Thursday\u200b Club ")
    link = await _link(a, club)
    assert link.startswith("/c/") and len(link) == 3 + 43
    r = await a.call("GET", f"/api/clubs/{club}/invite")
    assert r.json()["link"] == link and r.json()["qr_svg"].lstrip().startswith("<")
    r = await b.call("POST", "/api/clubs/join", json={"link": server.http + link})
    assert r.status_code == 200 and r.json() == {"id": club, "name": "Thursday Club"}, r.text
    again = await b.call("POST", "/api/clubs/join", json={"link": link.rsplit("/", 1)[1]})
    assert again.status_code == 200 and again.json() == r.json()
    assert (await _link(b, club)) == link  # every member sees the same link
    for p, owned in ((a, True), (b, False)):
        mine = (await p.call("GET", "/api/clubs")).json()["clubs"]
        assert mine == [
            {"id": club, "name": "Thursday Club", "owner": a.handle, "members": 2, "owned": owned}
        ]
        page = await _page(p, club)
        assert page["owner"] == a.handle and page["owned"] is owned
        assert sorted(m["display_name"] for m in page["members"]) == ["Ann", "Bob"]
        assert {m["handle"] for m in page["members"]} == {a.handle, b.handle}
        assert all(m["rating"] is None for m in page["members"])
        assert page["tables"] == [] and page["matches"] == [] and page["leaderboard"] == []
        assert [s["played"] for s in page["standings"]] == [0, 0]


async def test_ten_concurrent_joins_of_one_profile_make_exactly_one_membership(
    two: tuple[Player, Player], db: Db
) -> None:
    a, b = two
    club = await _club(a)
    link = await _link(a, club)
    answers = await asyncio.gather(
        *(b.call("POST", "/api/clubs/join", json={"link": link}) for _ in range(10))
    )
    assert [r.status_code for r in answers] == [200] * 10, [r.text for r in answers]
    rows = db.count(
        "SELECT count(*) FROM club_members m JOIN profiles p ON p.id = m.profile_id"
        " WHERE m.club_id = :c AND p.handle = :h",
        c=club,
        h=b.handle,
    )
    assert rows == 1
    assert (await _page(a, club))["members"].__len__() == 2


async def test_rotating_the_invite_link_revokes_the_old_one_and_only_the_owner_may(
    two: tuple[Player, Player], server: HardenedServer
) -> None:
    a, b = two
    club = await _club(a)
    old = await _link(a, club)
    await b.call("POST", "/api/clubs/join", json={"link": old})
    r = await b.call("POST", f"/api/clubs/{club}/invite")
    assert r.status_code == 403 and _code(r) == "not_owner"
    r = await a.call("POST", f"/api/clubs/{club}/invite")
    assert r.status_code == 200 and r.json()["link"] != old
    assert await _link(b, club) == r.json()["link"]
    c = await _player(server, "Cy")
    try:
        r = await c.call("POST", "/api/clubs/join", json={"link": old})
        assert r.status_code == 404 and _code(r) == "no_club"
    finally:
        await c.http.aclose()


async def test_members_leave_the_owner_removes_and_deletes_and_cannot_leave(
    server: HardenedServer, db: Db
) -> None:
    a, b, c = [await _player(server, n) for n in ("Ann", "Bob", "Cy")]
    try:
        club = await _club(a)
        link = await _link(a, club)
        for p in (b, c):
            assert (await p.call("POST", "/api/clubs/join", json={"link": link})).status_code == 200
        r = await a.call("POST", f"/api/clubs/{club}/leave")
        assert r.status_code == 409 and _code(r) == "owner_leaves"
        r = await b.call("DELETE", f"/api/clubs/{club}/members/{c.handle}")
        assert r.status_code == 403 and _code(r) == "not_owner"
        r = await b.call("POST", f"/api/clubs/{club}/leave")
        assert r.status_code == 200 and r.json() == {"ok": True}
        r = await b.call("GET", f"/api/clubs/{club}")
        assert r.status_code == 404 and _code(r) == "no_club"
        r = await b.call("POST", f"/api/clubs/{club}/leave")
        assert r.status_code == 404 and _code(r) == "no_club"
        r = await a.call("DELETE", f"/api/clubs/{club}/members/{a.handle}")
        assert r.status_code == 409 and _code(r) == "owner_leaves"
        r = await a.call("DELETE", f"/api/clubs/{club}/members/{b.handle}")
        assert r.status_code == 404 and _code(r) == "no_member"
        r = await a.call("DELETE", f"/api/clubs/{club}/members/{c.handle.upper()}")
        assert r.status_code == 200, r.text  # a handle by its look-alike key
        assert [m["handle"] for m in (await _page(a, club))["members"]] == [a.handle]
        assert (await c.call("GET", "/api/clubs")).json() == {"clubs": []}
        r = await b.call("DELETE", f"/api/clubs/{club}")
        assert r.status_code == 404 and _code(r) == "no_club"
        assert (await a.call("DELETE", f"/api/clubs/{club}")).status_code == 200
        assert (await a.call("GET", f"/api/clubs/{club}")).status_code == 404
        assert db.count("SELECT count(*) FROM club_members WHERE club_id = :c", c=club) == 0
    finally:
        for p in (a, b, c):
            await p.http.aclose()


async def test_a_club_page_is_for_members_only_signed_in_and_changes_need_the_origin(
    two: tuple[Player, Player], server: HardenedServer
) -> None:
    a, b = two
    club = await _club(a)
    stranger = await b.call("GET", f"/api/clubs/{club}")
    unknown = await b.call("GET", "/api/clubs/999999")
    assert stranger.status_code == unknown.status_code == 404
    assert stranger.json() == unknown.json()  # the same answer: it does not say it exists
    for path in (f"/api/clubs/{club}/invite",):
        r = await b.call("GET", path)
        assert r.status_code == 404 and _code(r) == "no_club"
    r = await b.call("POST", f"/api/clubs/{club}/tables", json={"players": 2})
    assert r.status_code == 404 and _code(r) == "no_club"
    async with _client(server) as guest:
        for method, path in (("GET", "/api/clubs"), ("GET", f"/api/clubs/{club}")):
            r = await guest.request(method, path)
            assert r.status_code == 401 and _code(r) == "unauthorized", path
        r = await guest.post("/api/clubs", json={"name": "X"})
        assert r.status_code == 401
    r = await a.http.post("/api/clubs", json={"name": "X"}, headers={"Origin": "https://evil"})
    assert r.status_code == 403 and _code(r) == "bad_origin"
    r = await a.http.delete(f"/api/clubs/{club}", headers={"Origin": "https://evil"})
    assert r.status_code == 403 and _code(r) == "bad_origin"


async def test_a_club_table_is_live_then_its_finished_match_fills_standings_and_leaderboard(
    two: tuple[Player, Player],
) -> None:
    a, b = two
    club = await _club(a, "Dominoes")
    await b.call("POST", "/api/clubs/join", json={"link": await _link(a, club)})
    r = await b.call("POST", f"/api/clubs/{club}/tables", json={"players": 2, "rated": True})
    assert r.status_code == 201, r.text
    host = r.json()
    code = host["code"]
    assert host["seat"] == 0 and host["table"]["name"] == "Dominoes"
    page = await _page(a, club)
    assert page["tables"] == [
        {"code": code, "name": "Dominoes", "status": "waiting", "players": 2, "seated": 1}
    ]
    r = await a.call("POST", f"/api/tables/{code}/join", json={"name": "Ann", "seat": 1})
    assert r.status_code == 200, r.text
    guest = r.json()
    r = await b.call(
        "POST", f"/api/tables/{code}/start", headers={"Authorization": f"Bearer {host['token']}"}
    )
    assert r.status_code == 200, r.text
    assert (await _page(a, club))["tables"][0]["status"] == "playing"
    assert (await _page(a, club))["tables"][0]["seated"] == 2
    r = await b.call(
        "POST", f"/api/tables/{code}/resign", headers={"Authorization": f"Bearer {host['token']}"}
    )
    assert r.status_code == 200, r.text
    assert guest["seat"] == 1
    page = await _page(b, club)
    assert page["tables"] == []
    assert [(m["code"], m["match"], m["winners"]) for m in page["matches"]] == [(code, 1, ["Ann"])]
    assert [(s["handle"], s["played"], s["won"]) for s in page["standings"]] == [
        (a.handle, 1, 1),
        (b.handle, 1, 0),
    ]
    assert [e["handle"] for e in page["leaderboard"]] == [a.handle, b.handle]
    ratings = {m["handle"]: m["rating"] for m in page["members"]}
    board = {e["handle"]: e["rating"]["rating"] for e in page["leaderboard"]}
    assert ratings == board and all(isinstance(v, int) for v in ratings.values())


async def test_the_bounds_refuse_a_fourth_club_and_a_full_club_and_joins_are_rate_limited(
    server: HardenedServer,
) -> None:
    ps = [await _player(server, f"P{i}") for i in range(4)]
    try:
        owner = ps[0]
        clubs = [await _club(owner, f"Club {i}") for i in range(3)]
        r = await owner.call("POST", "/api/clubs", json={"name": "One too many"})
        assert r.status_code == 409 and _code(r) == "too_many_clubs"
        other = await _club(ps[1], "Elsewhere")
        r = await owner.call("POST", "/api/clubs/join", json={"link": await _link(ps[1], other)})
        assert r.status_code == 409 and _code(r) == "too_many_clubs"
        link = await _link(owner, clubs[0])
        for p in ps[1:3]:
            assert (await p.call("POST", "/api/clubs/join", json={"link": link})).status_code == 200
        r = await ps[3].call("POST", "/api/clubs/join", json={"link": link})
        assert r.status_code == 409 and _code(r) == "club_full"
        answers = [
            await ps[1].call("POST", "/api/clubs/join", json={"link": link}) for _ in range(12)
        ]
        assert answers[-1].status_code == 429 and answers[-1].headers["Retry-After"]
        assert {r.status_code for r in answers[:-1]} <= {200, 429}
    finally:
        for p in ps:
            await p.http.aclose()


async def test_bad_input_is_answered_4xx_with_the_one_error_shape(
    two: tuple[Player, Player],
) -> None:
    a, _ = two
    club = await _club(a)
    fresh = {"X-Forwarded-For": new_address()}
    cases: list[tuple[str, str, Any, str | None]] = [
        ("POST", "/api/clubs", {"name": ""}, "invalid_name"),
        ("POST", "/api/clubs", {"name": "x" * 41}, "bad_club_name"),
        ("POST", "/api/clubs", {"name": "\u200b\u3164"}, "bad_club_name"),
        ("POST", "/api/clubs", {"name": "ok", "owner": 1}, "invalid_request"),
        ("POST", "/api/clubs", {"name": 5}, None),
        ("POST", "/api/clubs/join", {"link": ""}, "invalid_request"),
        ("POST", "/api/clubs/join", {"link": "x" * 257}, "invalid_request"),
        ("POST", "/api/clubs/join", {"link": "/c/" + "y" * 100}, "no_club"),
        ("POST", "/api/clubs/join", {"link": "/c/nothing"}, "no_club"),
        ("POST", f"/api/clubs/{club}/tables", {"players": 5}, "invalid_request"),
        ("POST", f"/api/clubs/{club}/tables", {"players": 2, "rated": "yes"}, "invalid_request"),
        ("GET", "/api/clubs/abc", None, None),
        ("GET", "/api/clubs/0", None, "invalid_request"),
        ("GET", f"/api/clubs/{2**40}", None, "invalid_request"),
        ("DELETE", f"/api/clubs/{club}/members/" + "z" * 65, None, "invalid_request"),
        ("DELETE", f"/api/clubs/{club}/members/%00", None, None),
    ]
    for method, path, body, code in cases:
        r = await a.call(method, path, json=body, headers=fresh)
        assert 400 <= r.status_code < 500 and r.status_code != 429, (path, body, r.text)
        assert set(r.json()["detail"]) >= {"code", "message"}, (path, body)
        if code is not None:
            assert _code(r) == code, (path, body, r.text)
    for raw in (b"{nope", b'{"link": "/c/\\udc80"}', b'{"name": "\\ud800x"}'):
        r = await a.call(
            "POST",
            "/api/clubs/join" if b"link" in raw else "/api/clubs",
            content=raw,
            headers={"Content-Type": "application/json", **fresh},
        )
        assert 400 <= r.status_code < 500, (raw, r.text)


async def test_no_answer_carries_an_id_token_hash_nonce_or_session_of_anyone(
    two: tuple[Player, Player], db: Db
) -> None:
    a, b = two
    club = await _club(a)
    link = await _link(a, club)
    await b.call("POST", "/api/clubs/join", json={"link": link})
    await b.call("GET", f"/api/clubs/{club}")
    await b.call("GET", "/api/clubs")
    await b.call("GET", f"/api/clubs/{club}/invite")
    engine = create_engine(sync_url(db.url))
    try:
        with engine.connect() as conn:
            secrets_ = [
                *conn.execute(
                    text("SELECT invite_nonce, invite_hash FROM clubs WHERE id = :c"), {"c": club}
                ).one(),
                *conn.execute(
                    text("SELECT user_handle FROM profiles WHERE handle IN (:a, :b)"),
                    {"a": a.handle, "b": b.handle},
                ).scalars(),
            ]
    finally:
        engine.dispose()
    secrets_ += [a.http.cookies["fiveup_session"], b.http.cookies["fiveup_session"]]
    for answer in a.seen + b.seen:
        for secret in secrets_:
            assert secret not in answer
        for key in ("profile_id", "owner_id", "user_handle", "invite_hash", "nonce", "session"):
            assert f'"{key}"' not in answer


async def test_deleting_a_profile_deletes_its_memberships_and_the_clubs_it_owns(
    two: tuple[Player, Player], db: Db
) -> None:
    a, b = two
    mine = await _club(a)
    theirs = await _club(b, "Theirs")
    await a.call("POST", "/api/clubs/join", json={"link": await _link(b, theirs)})
    await b.call("POST", "/api/clubs/join", json={"link": await _link(a, mine)})
    profile_id = db.count("SELECT id FROM profiles WHERE handle = :h", h=a.handle)
    assert (await a.http.delete("/api/profile")).status_code == 200
    assert db.count("SELECT count(*) FROM clubs WHERE id = :c", c=mine) == 0
    assert db.count("SELECT count(*) FROM club_members WHERE profile_id = :i", i=profile_id) == 0
    assert [m["handle"] for m in (await _page(b, theirs))["members"]] == [b.handle]


async def test_the_clubs_routes_hold_under_fuzzing_signed_in_from_the_sites_origin(
    pg_url: str, tmp_path: Path
) -> None:
    """Schemathesis (as tests/server/test_openapi_fuzz.py) on the clubs routes with a
    real session cookie and this site's Origin: past the session and Origin checks, any
    body, id, handle or link gets a documented answer, never a 5xx."""
    server = ServerProcess(pg_url).start()
    try:
        me = await _player(server)
        await _club(me)
        session = me.http.cookies["fiveup_session"]
        headers = ("-H", f"Origin: {server.http}", "-H", f"Cookie: fiveup_session={session}")
        regex = ("--include-path-regex", "^/api/clubs")
        await asyncio.to_thread(_fuzz, server, tmp_path, *headers, *regex)
        assert (await me.http.get("/api/clubs")).status_code == 200  # still signed in
        await me.http.aclose()
    finally:
        server.stop()


async def test_a_new_club_table_invites_every_other_member_friends_or_not(
    server: HardenedServer, two: tuple[Player, Player]
) -> None:
    a, b = two
    c = await _player(server, "Cy")
    try:
        club = await _club(a, "Invited")
        for p in (b, c):
            await p.call("POST", "/api/clubs/join", json={"link": await _link(a, club)})
        r = await c.call("POST", "/api/friends/blocks", json={"handle": a.handle})
        assert r.status_code == 200, r.text  # Cy blocks Ann: Cy is not invited
        r = await a.call("POST", f"/api/clubs/{club}/tables", json={"players": 3})
        assert r.status_code == 201, r.text
        code = r.json()["code"]
        pending = (await b.call("GET", "/api/profile/invitations")).json()["invitations"]
        assert [(i["table"]["code"], i["from"]["handle"]) for i in pending] == [(code, a.handle)]
        assert (await c.call("GET", "/api/profile/invitations")).json()["invitations"] == []
        assert (await a.call("GET", "/api/profile/invitations")).json()["invitations"] == []
    finally:
        await c.http.aclose()


async def test_a_club_invited_to_a_table_reaches_every_other_member_but_a_blocker(
    server: HardenedServer, two: tuple[Player, Player]
) -> None:
    """``POST /api/tables/{code}/invitations`` with ``club``: every other member of a
    club of the inviter's is invited to the table it sits at (friends or not), one who
    blocks the inviter is skipped; a club the inviter is not in is ``404 no_club``."""
    a, b = two
    c, outsider = await _player(server, "Cy"), await _player(server, "Out")
    try:
        club = await _club(a, "Invitees")
        for p in (b, c):
            await p.call("POST", "/api/clubs/join", json={"link": await _link(a, club)})
        other = await _club(outsider, "Elsewhere")
        r = await c.call("POST", "/api/friends/blocks", json={"handle": a.handle})
        assert r.status_code == 200, r.text
        made = await a.call(
            "POST",
            "/api/tables",
            json={"name": "Open", "players": 4, "public": True, "host_name": "Ann"},
        )
        assert made.status_code == 201, made.text
        code, token = made.json()["code"], made.json()["token"]
        bearer = {"Authorization": f"Bearer {token}"}
        r = await a.call(
            "POST",
            f"/api/tables/{code}/invitations",
            json={"club": club, "seat": 2},
            headers=bearer,
        )
        assert (r.status_code, r.json()) == (200, {"invited": 1}), r.text
        pending = (await b.call("GET", "/api/profile/invitations")).json()["invitations"]
        assert [(i["table"]["code"], i["seat"], i["from"]["handle"]) for i in pending] == [
            (code, 2, a.handle)
        ]
        assert (await c.call("GET", "/api/profile/invitations")).json()["invitations"] == []
        for body in ({"club": other}, {"club": 2**31 - 1}):
            r = await a.call("POST", f"/api/tables/{code}/invitations", json=body, headers=bearer)
            assert (r.status_code, _code(r)) == (404, "no_club"), r.text
        r = await a.call("POST", f"/api/tables/{code}/invitations", json={}, headers=bearer)
        assert (r.status_code, _code(r)) == (422, "invalid_request"), r.text
        assert (await outsider.call("GET", "/api/profile/invitations")).json()["invitations"] == []
    finally:
        for p in (c, outsider):
            await p.http.aclose()
