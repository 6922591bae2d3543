"""Invitations and friends' online state on a real server, on PostgreSQL and on SQLite,
with profiles signed up by a software passkey and made friends through the friends API:
an invitation reaches every profile socket of its invitee at once (and across two
server processes on one PostgreSQL), only friends are invited, a blocker refuses, the
quota answers 429, bad input gets 4xx, friends_online flips as sockets open and close,
and no frame or answer carries a token, a session or a profile id; every profile
socket frame is checked against its model (app/invitation_schemas.py PROFILE_FRAMES,
the fields docs/protocol.md lists)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from pydantic import ValidationError
from websockets.asyncio.client import ClientConnection

from app.invitation_schemas import PROFILE_FRAMES

from .hardening_support import HardenedServer
from .moderation_support import new_address
from .support import ServerProcess
from .test_friends import Player, _befriend, _client, _player
from .test_openapi_fuzz import _fuzz

Frame = dict[str, Any]


@pytest.fixture(scope="module", params=["postgres", "sqlite"])
def server(request: pytest.FixtureRequest) -> Iterator[HardenedServer]:
    url = request.getfixturevalue("pg_url" if request.param == "postgres" else "sqlite_url")
    s = HardenedServer(
        url,
        FIVEUP_RATE_LIMIT_ENABLED="true",
        FIVEUP_FORWARDED_ALLOW_IPS="127.0.0.1",
        FIVEUP_RATE_LIMIT_INVITATIONS="4/minute",
        FIVEUP_INVITATIONS_PER_REQUEST_MAX="3",
        FIVEUP_MAX_SOCKETS_PER_ADDRESS="3",
    ).start()
    yield s
    s.stop()


class ProfileSocket:
    """One ``/ws/profile`` socket with its frames read in the background."""

    def __init__(self, conn: ClientConnection) -> None:
        self.conn = conn
        self.raw: list[str] = []
        self.frames: list[Frame] = []
        #: frames that are not as docs/protocol.md says (their models: PROFILE_FRAMES)
        self.undocumented: list[str] = []
        self._task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):  # (a killed server's)
            async for text in self.conn:
                assert isinstance(text, str)
                self.raw.append(text)
                frame = json.loads(text)
                try:  # every frame, checked against its documented model
                    PROFILE_FRAMES[frame["type"]].model_validate(frame)
                except (KeyError, TypeError, ValidationError) as exc:
                    self.undocumented.append(f"{text[:300]}: {exc}")
                self.frames.append(frame)

    async def wait_for(
        self, kind: str, pred: Any = lambda f: True, seconds: float = 5.0, since: int = 0
    ) -> Frame:
        """The first frame of ``kind`` matching ``pred`` from the ``since``-th on."""
        async with asyncio.timeout(seconds):
            while True:
                assert self.undocumented == []
                for f in self.frames[since:]:
                    if f["type"] == kind and pred(f):
                        return f
                await asyncio.sleep(0.02)

    async def close(self) -> None:
        await self.conn.close()
        self._task.cancel()
        assert self.undocumented == []


async def _socket(
    p: Player, server: ServerProcess | None = None, address: str = "127.0.0.1"
) -> ProfileSocket:
    s = server or p.server
    conn = await websockets.connect(
        f"{s.ws}/ws/profile",
        additional_headers={
            "Cookie": f"fiveup_session={p.http.cookies['fiveup_session']}",
            "Origin": s.http,
            "X-Forwarded-For": address,
        },
    )
    return ProfileSocket(conn)


async def _table(p: Player) -> tuple[str, str]:
    """A table ``p`` creates signed in (its seat bound to the profile): (code, token)."""
    r = await p.http.post(
        "/api/tables", json={"name": "Ann's", "players": 4, "public": True, "host_name": "Ann"}
    )
    assert r.status_code == 201, r.text
    return r.json()["code"], r.json()["token"]


async def _invite(
    p: Player, code: str, token: str, *handles: str, address: str = "", **extra: Any
) -> httpx.Response:
    """An invitation request, from a new client address unless one is given."""
    return await p.http.post(
        f"/api/tables/{code}/invitations",
        json={"handles": list(handles), **extra},
        headers={"Authorization": f"Bearer {token}", "X-Forwarded-For": address or new_address()},
    )


@pytest.fixture
async def friends(server: HardenedServer) -> AsyncIterator[tuple[Player, Player]]:
    a, b = await _player(server, "Ann"), await _player(server, "Bob")
    await _befriend(a, b)
    yield a, b
    await a.http.aclose()
    await b.http.aclose()


def _no_secrets(text: str, *players: Player, tokens: tuple[str, ...] = ()) -> None:
    for p in players:
        assert p.http.cookies["fiveup_session"] not in text
    for token in tokens:
        assert token not in text
    for word in ("token", "session", "user_handle", "profile_id", "from_id", "to_id"):
        assert word not in text


async def test_an_invitation_reaches_every_device_of_the_invitee_at_once(
    friends: tuple[Player, Player],
) -> None:
    a, b = friends
    phone, laptop = await _socket(b), await _socket(b)
    for s in (phone, laptop):
        first = await s.wait_for("friends_online")
        assert first["friends"] == [
            {"handle": a.handle, "display_name": "Ann", "online": False, "table": None}
        ]
    code, token = await _table(a)
    r = await _invite(a, code, token, b.handle)
    assert r.status_code == 200 and r.json() == {"invited": 1}, r.text
    frames = [await s.wait_for("invitation") for s in (phone, laptop)]
    assert frames[0] == frames[1]
    frame = frames[0]
    assert frame["from"] == {"handle": a.handle, "display_name": "Ann"}
    assert frame["table"] == {"code": code, "name": "Ann's", "players": 4, "status": "waiting"}
    assert frame["seat"] is None and frame["url"] == f"/t/{code}" and frame["at"].endswith("Z")
    for s in (phone, laptop):
        _no_secrets("".join(s.raw), a, b, tokens=(token,))
    listed = (await b.http.get("/api/profile/invitations")).json()["invitations"]
    assert [{k: v for k, v in i.items()} for i in listed] == [
        {k: v for k, v in frame.items() if k != "type"}
    ]
    _no_secrets(json.dumps(listed), a, b, tokens=(token,))
    assert (await a.http.get("/api/profile/invitations")).json() == {"invitations": []}
    r = await b.http.delete(f"/api/profile/invitations/{frame['id']}")
    assert r.status_code == 200, r.text
    assert (await b.http.get("/api/profile/invitations")).json() == {"invitations": []}
    r = await b.http.delete(f"/api/profile/invitations/{frame['id']}")
    assert r.status_code == 404 and r.json()["detail"]["code"] == "no_invitation"
    for s in (phone, laptop):
        await s.close()


async def test_an_invitation_to_one_seat_names_it_and_the_newest_is_listed_first(
    friends: tuple[Player, Player],
) -> None:
    a, b = friends
    code, token = await _table(a)
    assert (await _invite(a, code, token, b.handle)).status_code == 200
    assert (await _invite(a, code, token, b.handle, seat=2)).status_code == 200
    listed = (await b.http.get("/api/profile/invitations")).json()["invitations"]
    assert [i["seat"] for i in listed] == [2, None]
    assert listed[0]["id"] > listed[1]["id"]


async def test_only_the_inviters_friends_can_be_invited(
    friends: tuple[Player, Player], server: HardenedServer
) -> None:
    a, b = friends
    stranger = await _player(server, "Cid")
    code, token = await _table(a)
    r = await _invite(a, code, token, b.handle, stranger.handle)
    assert r.status_code == 403 and r.json()["detail"]["code"] == "not_friends", r.text
    for p in (b, stranger):  # nothing stored for anyone of the refused request
        assert (await p.http.get("/api/profile/invitations")).json() == {"invitations": []}
    await stranger.http.aclose()


async def test_a_player_who_blocks_the_inviter_refuses_the_invitation(
    friends: tuple[Player, Player],
) -> None:
    a, b = friends
    sock = await _socket(b)
    await sock.wait_for("friends_online")
    r = await b.http.post("/api/friends/blocks", json={"handle": a.handle})
    assert r.status_code == 200, r.text
    code, token = await _table(a)
    r = await _invite(a, code, token, b.handle)
    assert r.status_code == 403 and r.json()["detail"]["code"] == "blocked", r.text
    await asyncio.sleep(0.5)
    assert [f for f in sock.frames if f["type"] == "invitation"] == []
    assert (await b.http.get("/api/profile/invitations")).json() == {"invitations": []}
    await sock.close()


async def test_invitations_per_minute_per_address_answer_429_with_retry_after(
    server: HardenedServer,
) -> None:
    a, b = await _player(server, "Ann"), await _player(server, "Bob")
    await _befriend(a, b)
    code, token = await _table(a)
    address = new_address()
    for _ in range(4):
        assert (await _invite(a, code, token, b.handle, address=address)).status_code == 200
    assert (await _invite(a, code, token, b.handle)).status_code == 200  # another address
    r = await _invite(a, code, token, b.handle, address=address)
    assert r.status_code == 429, r.text
    assert r.json()["detail"]["code"] == "rate_limited" and int(r.headers["Retry-After"]) >= 1
    await a.http.aclose()
    await b.http.aclose()


async def test_bad_invitation_requests_get_their_4xx(
    friends: tuple[Player, Player], server: HardenedServer
) -> None:
    a, b = friends
    code, token = await _table(a)
    guest = _client(server)
    r = await guest.post(f"/api/tables/{code}/join", json={"name": "Guest", "seat": 1})
    guest_token = r.json()["token"]
    cases: list[tuple[httpx.Response, int, str]] = [
        (await _invite(a, code, guest_token, b.handle), 403, "not_seated"),
        (await _invite(a, code, "nope", b.handle), 401, "unauthorized"),
        (
            await a.http.post(f"/api/tables/{code}/invitations", json={"handles": [b.handle]}),
            401,
            "unauthorized",
        ),
        (
            await guest.post(
                f"/api/tables/{code}/invitations",
                json={"handles": [b.handle]},
                headers={"Authorization": f"Bearer {guest_token}"},
            ),
            401,
            "unauthorized",
        ),
        (await _invite(a, code, token, "x", "y", "z", "w"), 409, "too_many_handles"),
        (await _invite(a, code, token), 422, "invalid_request"),
        (await _invite(a, code, token, "nobody-here"), 404, "no_player"),
        (await _invite(a, code, token, a.handle), 409, "self"),
        (await _invite(a, code, token, b.handle, seat=9), 409, "bad_seat"),
        (await _invite(a, "ZZZZZZ", token, b.handle), 404, "not_found"),
        (
            await a.http.post(
                f"/api/tables/{code}/invitations",
                json={"handles": [b.handle]},
                headers={"Authorization": f"Bearer {token}", "Origin": "https://evil.example"},
            ),
            403,
            "bad_origin",
        ),
        (await b.http.delete("/api/profile/invitations/0"), 422, "invalid_request"),
        (await guest.get("/api/profile/invitations"), 401, "unauthorized"),
    ]
    for r, status, code_ in cases:
        assert (r.status_code, r.json()["detail"]["code"]) == (status, code_), r.text
    await guest.aclose()


async def _closed_with(url: str, headers: dict[str, str]) -> tuple[int, str]:
    conn = await websockets.connect(url, additional_headers=headers)
    with pytest.raises(websockets.ConnectionClosed) as info:
        await asyncio.wait_for(conn.recv(), 5)
    assert info.value.rcvd is not None
    return info.value.rcvd.code, info.value.rcvd.reason


async def test_the_profile_socket_wants_a_session_and_the_sites_origin(
    friends: tuple[Player, Player], server: HardenedServer
) -> None:
    a, _ = friends
    url = f"{server.ws}/ws/profile"
    assert (await _closed_with(url, {}))[0] == 4401
    assert (await _closed_with(url, {"Cookie": "fiveup_session=forged"}))[0] == 4401
    cookie = {"Cookie": f"fiveup_session={a.http.cookies['fiveup_session']}"}
    assert (await _closed_with(url, {**cookie, "Origin": "https://evil.example"}))[0] == 4403


async def test_profile_sockets_are_capped_per_client_address(
    friends: tuple[Player, Player],
) -> None:
    a, _ = friends
    address = new_address()
    open_ = [await _socket(a, address=address) for _ in range(3)]  # the cap (3 here)
    with pytest.raises(websockets.InvalidStatus) as info:
        await _socket(a, address=address)
    assert info.value.response.status_code == 429
    other = await _socket(a, address=new_address())  # another address is not counted
    await other.wait_for("friends_online")
    for s in (*open_, other):
        await s.close()


async def test_friends_online_flips_when_the_friends_socket_opens_and_closes(
    friends: tuple[Player, Player],
) -> None:
    a, b = friends
    watcher = await _socket(b)
    await watcher.wait_for("friends_online", lambda f: not f["friends"][0]["online"])
    mine = await _socket(a)
    seen = await mine.wait_for("friends_online")
    assert seen["friends"][0]["online"] is True  # b's socket is open
    await watcher.wait_for("friends_online", lambda f: f["friends"][0]["online"])
    await mine.close()
    n = len(watcher.frames)
    await watcher.wait_for("friends_online", lambda f: not f["friends"][0]["online"], since=n)
    _no_secrets("".join(watcher.raw), a, b)
    await watcher.close()


def _first(frame: Frame) -> Frame:
    friends: list[Frame] = frame["friends"]
    return friends[0]


async def test_an_online_friends_public_table_is_named_a_private_one_never(
    friends: tuple[Player, Player],
) -> None:
    """A friend's list names the public table, waiting or playing, where an online
    friend holds a seat bound to the profile; a private table never; offline, none."""
    a, b = friends
    code, token = await _table(a)  # public, but Ann is offline: not named
    watcher = await _socket(b)
    seen = await watcher.wait_for("friends_online")
    assert _first(seen) == {
        "handle": a.handle,
        "display_name": "Ann",
        "online": False,
        "table": None,
    }
    mine = await _socket(a)
    seen = await watcher.wait_for("friends_online", lambda f: _first(f)["online"])
    assert _first(seen)["table"] == {
        "code": code,
        "name": "Ann's",
        "players": 4,
        "status": "waiting",
    }
    n = len(watcher.frames)
    r = await a.http.post(f"/api/tables/{code}/leave", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    seen = await watcher.wait_for("friends_online", since=n)
    assert _first(seen)["online"] and _first(seen)["table"] is None  # she left it
    n = len(watcher.frames)
    r = await a.http.post(
        "/api/tables", json={"name": "Secret", "players": 2, "public": False, "host_name": "Ann"}
    )
    assert r.status_code == 201, r.text
    seen = await watcher.wait_for("friends_online", since=n)  # told, but not named
    assert _first(seen)["online"] and _first(seen)["table"] is None
    assert "Secret" not in "".join(watcher.raw) and r.json()["code"] not in "".join(watcher.raw)
    n = len(watcher.frames)
    code, token = await _table(a)
    seen = await watcher.wait_for("friends_online", lambda f: _first(f)["table"], since=n)
    assert _first(seen)["table"]["code"] == code
    await mine.close()
    seen = await watcher.wait_for("friends_online", lambda f: not _first(f)["online"], since=n)
    assert _first(seen)["table"] is None  # offline: no table
    _no_secrets("".join(watcher.raw), a, b, tokens=(token,))
    await watcher.close()


async def test_an_invitation_and_online_state_cross_server_processes_on_one_postgres(
    pg_url: str,
) -> None:
    one, two = ServerProcess(pg_url).start(), ServerProcess(pg_url).start()
    try:
        a, b = await _player(one, "Ann"), await _player(one, "Bob")
        await _befriend(a, b)
        b_sock = await _socket(b, one)  # the invitee on process one
        await b_sock.wait_for("friends_online")
        a_sock = await _socket(a, two)  # the inviter's socket on process two
        await b_sock.wait_for("friends_online", lambda f: f["friends"][0]["online"])
        a_two = httpx.AsyncClient(
            base_url=two.http, timeout=30, cookies=a.http.cookies, headers={"Origin": two.http}
        )
        r = await a_two.post(
            "/api/tables", json={"name": "Far", "players": 2, "public": False, "host_name": "Ann"}
        )
        code, token = r.json()["code"], r.json()["token"]
        r = await a_two.post(
            f"/api/tables/{code}/invitations",
            json={"handles": [b.handle]},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert r.status_code == 200, r.text
        frame = await b_sock.wait_for("invitation")
        assert frame["table"]["code"] == code and frame["from"]["handle"] == a.handle
        r = await a_two.post(  # a public table taken on process two: named on process one
            "/api/tables", json={"name": "Open", "players": 2, "public": True, "host_name": "Ann"}
        )
        seen = await b_sock.wait_for("friends_online", lambda f: _first(f)["table"])
        assert _first(seen)["table"]["code"] == r.json()["code"]
        n = len(b_sock.frames)
        await a_sock.close()
        await b_sock.wait_for("friends_online", lambda f: not f["friends"][0]["online"], since=n)
        await b_sock.close()
        for c in (a.http, b.http, a_two):
            await c.aclose()
    finally:
        one.stop()
        two.stop()


async def test_a_killed_process_friends_go_offline_after_the_presence_ttl(pg_url: str) -> None:
    """A process killed without a word (SIGKILL: no ``off`` note) stops its heartbeats:
    the other process forgets its profiles after ``FIVEUP_PRESENCE_TTL_SECONDS``."""
    ttl = {"FIVEUP_PRESENCE_TTL_SECONDS": "1.5"}
    one, two = ServerProcess(pg_url, **ttl).start(), ServerProcess(pg_url, **ttl).start()
    try:
        a, b = await _player(one, "Ann"), await _player(one, "Bob")
        await _befriend(a, b)
        watcher = await _socket(b, one)
        await watcher.wait_for("friends_online")
        await _socket(a, two)
        await watcher.wait_for("friends_online", lambda f: f["friends"][0]["online"])
        await asyncio.sleep(2.0)  # heartbeats keep Ann online past one ttl
        n = len(watcher.frames)
        assert all(f["friends"][0]["online"] for f in watcher.frames[n - 1 :])
        two.kill()
        await watcher.wait_for(
            "friends_online", lambda f: not f["friends"][0]["online"], since=n, seconds=6.0
        )
        await watcher.close()
        for c in (a.http, b.http):
            await c.aclose()
    finally:
        one.stop()
        two.stop()


async def test_the_invitation_routes_hold_under_fuzzing_signed_in_from_the_sites_origin(
    pg_url: str, tmp_path: Path
) -> None:
    """Schemathesis on the invitation routes with a real session cookie, this site's
    Origin and a real seat token: any body, code or id gets a documented answer, never a
    5xx."""
    server = ServerProcess(pg_url).start()
    try:
        a, b = await _player(server), await _player(server)
        await _befriend(a, b)
        code, token = await _table(a)
        session = a.http.cookies["fiveup_session"]
        headers = (
            *("-H", f"Origin: {server.http}", "-H", f"Cookie: fiveup_session={session}"),
            *("-H", f"Authorization: Bearer {token}"),
        )
        regex = ("--include-path-regex", "invitations")
        await asyncio.to_thread(_fuzz, server, tmp_path, *headers, *regex)
        assert (await a.http.get("/api/profile/invitations")).status_code == 200
        assert code
        await a.http.aclose()
        await b.http.aclose()
    finally:
        server.stop()
