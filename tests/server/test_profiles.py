"""Profiles on a real server, on PostgreSQL and on SQLite, with a software passkey that
signs real WebAuthn answers: sign up, sign in on another client, handles unique by their
look-alikes, every ceremony check (origin, challenge once, counter), the Origin check on
cookie routes, one-time links with their QR code, sign out here and everywhere, deletion,
and the quotas (429 with Retry-After)."""

from __future__ import annotations

import itertools
import secrets
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest

from .hardening_support import HardenedServer
from .moderation_support import new_address
from .passkey_support import SoftPasskey, b64url

_handles = itertools.count(1)


@pytest.fixture(scope="module", params=["postgres", "sqlite"])
def server(request: pytest.FixtureRequest) -> Iterator[HardenedServer]:
    url = request.getfixturevalue("pg_url" if request.param == "postgres" else "sqlite_url")
    s = HardenedServer(
        url,
        FIVEUP_RATE_LIMIT_ENABLED="true",
        FIVEUP_FORWARDED_ALLOW_IPS="127.0.0.1",
        FIVEUP_RATE_LIMIT_PROFILE_SIGNUPS="4/minute",
        FIVEUP_RATE_LIMIT_SIGN_IN_LINKS="4/minute",
        FIVEUP_PROFILE_HANDLE_MAX="16",
    ).start()
    yield s
    s.stop()


def _client(server: HardenedServer) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        base_url=server.http,
        timeout=20,
        headers={"Origin": server.http, "X-Forwarded-For": new_address()},
    )


@pytest.fixture
async def http(server: HardenedServer) -> AsyncIterator[httpx.AsyncClient]:
    async with _client(server) as client:
        yield client


def _handle() -> str:
    return f"p{next(_handles)}{secrets.token_hex(3)}"


async def _sign_up(
    http: httpx.AsyncClient, server: HardenedServer, handle: str | None = None
) -> tuple[SoftPasskey, httpx.Response]:
    r = await http.post(
        "/api/profile/signup/options",
        json={"handle": handle or _handle(), "display_name": "Ann Lee"},
    )
    assert r.status_code == 200, r.text
    key = SoftPasskey(server.http)
    body = {"ceremony": r.json()["ceremony"], "credential": key.create(r.json()["options"])}
    return key, await http.post("/api/profile/signup/verify", json=body)


async def _sign_in(http: httpx.AsyncClient, key: SoftPasskey, **kw: Any) -> httpx.Response:
    r = await http.post("/api/profile/signin/options")
    assert r.status_code == 200, r.text
    credential = key.get(r.json()["options"], **kw)
    return await http.post(
        "/api/profile/signin/verify",
        json={"ceremony": r.json()["ceremony"], "credential": credential},
    )


async def test_a_passkey_signs_up_and_signs_in_on_another_client_with_a_session_cookie(
    http: httpx.AsyncClient, server: HardenedServer
) -> None:
    handle = _handle()
    key, r = await _sign_up(http, server, handle)
    assert r.status_code == 200, r.text
    assert r.json() == {"handle": handle, "display_name": "Ann Lee", "passkeys": 1, "sessions": 1}
    cookie = r.headers["set-cookie"]
    assert cookie.startswith("fiveup_session=") and "HttpOnly" in cookie
    assert "SameSite=lax" in cookie and "Secure" not in cookie and "Path=/" in cookie
    session = http.cookies["fiveup_session"]
    assert session not in r.text
    assert (await http.get("/api/profile")).json()["handle"] == handle
    async with _client(server) as other:
        assert (await other.get("/api/profile")).status_code == 401
        r = await _sign_in(other, key)
        assert r.status_code == 200, r.text
        assert r.json()["handle"] == handle and r.json()["sessions"] == 2
        assert other.cookies["fiveup_session"] != session


async def test_a_handle_is_unique_case_insensitively_and_by_its_look_alikes(
    http: httpx.AsyncClient, server: HardenedServer
) -> None:
    handle = "Bob" + secrets.token_hex(2).replace("0", "a").replace("1", "b")
    _, r = await _sign_up(http, server, handle)
    assert r.status_code == 200, r.text
    for alike in (handle.lower(), "ВОВ" + handle[3:], "B0b" + handle[3:]):
        r = await http.post(
            "/api/profile/signup/options",
            json={"handle": alike, "display_name": "X"},
            headers={"X-Forwarded-For": new_address()},
        )
        assert r.status_code == 409 and r.json()["detail"]["code"] == "handle_taken", alike
    for bad in ("ab", "a b c", "x" * 17, "\u3164\u3164\u3164"):
        r = await http.post(
            "/api/profile/signup/options",
            json={"handle": bad, "display_name": "X"},
            headers={"X-Forwarded-For": new_address()},
        )
        assert r.status_code == 409 and r.json()["detail"]["code"] == "bad_handle", bad
    r = await http.post(
        "/api/profile/signup/options", json={"handle": _handle(), "display_name": "y" * 33}
    )
    assert r.status_code == 409 and r.json()["detail"]["code"] == "bad_display_name"


async def test_the_ceremony_checks_origin_challenge_once_and_the_signature_counter(
    http: httpx.AsyncClient, server: HardenedServer
) -> None:
    r = await http.post(
        "/api/profile/signup/options", json={"handle": _handle(), "display_name": "A"}
    )
    options, ceremony = r.json()["options"], r.json()["ceremony"]
    assert (
        options["rp"]["id"] == "127.0.0.1"
        and options["authenticatorSelection"]["residentKey"] == "required"
    )
    key = SoftPasskey(server.http)
    phished = key.create(options, origin="https://fiveup.example.evil")
    r = await http.post(
        "/api/profile/signup/verify", json={"ceremony": ceremony, "credential": phished}
    )
    assert r.status_code == 401 and r.json()["detail"]["code"] == "passkey_refused"
    r = await http.post(
        "/api/profile/signup/verify", json={"ceremony": ceremony, "credential": key.create(options)}
    )
    assert r.status_code == 404 and r.json()["detail"]["code"] == "ceremony_expired"  # used once
    key, r = await _sign_up(http, server)
    assert r.status_code == 200
    assert (await _sign_in(http, key)).status_code == 200
    r = await _sign_in(http, key, counter=1)  # a counter that went back: a cloned key
    assert r.status_code == 401 and r.json()["detail"]["code"] == "passkey_refused"
    stranger = SoftPasskey(server.http, rp_id="127.0.0.1")
    r = await _sign_in(http, stranger)
    assert r.status_code == 401 and r.json()["detail"]["code"] == "passkey_refused"


async def test_cookie_routes_refuse_another_sites_origin(
    http: httpx.AsyncClient, server: HardenedServer
) -> None:
    _, r = await _sign_up(http, server)
    assert r.status_code == 200
    for origin in ("https://evil.example", None):
        headers = {"Origin": origin} if origin else {}
        if origin is None:
            http.headers.pop("Origin")
        for method, path in (
            ("POST", "/api/profile/signout-everywhere"),
            ("DELETE", "/api/profile"),
            ("POST", "/api/profile/links"),
        ):
            r = await http.request(method, path, headers=headers)
            assert r.status_code == 403 and r.json()["detail"]["code"] == "bad_origin", (
                method,
                path,
            )
    assert (await http.get("/api/profile")).status_code == 200  # a read needs no Origin


async def test_a_one_time_link_signs_another_client_in_once_with_its_qr_code(
    http: httpx.AsyncClient, server: HardenedServer
) -> None:
    _, r = await _sign_up(http, server)
    handle = r.json()["handle"]
    r = await http.post("/api/profile/links")
    assert r.status_code == 200, r.text
    link = r.json()["link"]
    assert link.startswith("/profile#signin=") and r.json()["qr_svg"].startswith("<svg xmlns=")
    secret = link.split("#signin=", 1)[1]
    async with _client(server) as other:
        r = await other.post("/api/profile/links/claim", json={"link": secret})
        assert r.status_code == 200 and r.json()["handle"] == handle
        assert (await other.get("/api/profile")).json()["handle"] == handle
    async with _client(server) as third:
        r = await third.post("/api/profile/links/claim", json={"link": secret})
        assert r.status_code == 404 and r.json()["detail"]["code"] == "link_used"
    assert (await http.post("/api/profile/links/claim", json={"link": "x" * 43})).status_code == 404


async def test_sign_out_ends_this_session_and_sign_out_everywhere_ends_all(
    http: httpx.AsyncClient, server: HardenedServer
) -> None:
    key, _ = await _sign_up(http, server)
    async with _client(server) as a, _client(server) as b:
        assert (await _sign_in(a, key)).status_code == 200
        assert (await _sign_in(b, key)).status_code == 200
        r = await a.post("/api/profile/signout")
        assert r.json() == {"ok": True} and "fiveup_session=" in r.headers["set-cookie"]
        assert (await a.get("/api/profile")).status_code == 401
        assert (await b.get("/api/profile")).json()["sessions"] == 2
        r = await b.post("/api/profile/signout-everywhere")
        assert r.json() == {"ended": 2}
        assert (await b.get("/api/profile")).status_code == 401
    assert (await http.get("/api/profile")).status_code == 401


async def test_deleting_a_profile_erases_it_and_frees_its_handle(
    http: httpx.AsyncClient, server: HardenedServer
) -> None:
    key, r = await _sign_up(http, server)
    handle = r.json()["handle"]
    async with _client(server) as other:
        assert (await _sign_in(other, key)).status_code == 200
        assert (await http.delete("/api/profile")).json() == {"ok": True}
        assert (await other.get("/api/profile")).status_code == 401
        r = await _sign_in(other, key)
        assert r.status_code == 401 and r.json()["detail"]["code"] == "passkey_refused"
    r = await http.post("/api/profile/signup/options", json={"handle": handle, "display_name": "B"})
    assert r.status_code == 200


async def test_sign_ups_and_sign_in_links_are_capped_per_address(
    http: httpx.AsyncClient, server: HardenedServer
) -> None:
    codes = []
    for _ in range(5):
        r = await http.post(
            "/api/profile/signup/options", json={"handle": _handle(), "display_name": "A"}
        )
        codes.append(r.status_code)
    assert codes == [200] * 4 + [429] and int(r.headers["Retry-After"]) >= 1
    assert r.json()["detail"]["code"] == "rate_limited"
    async with _client(server) as other:
        codes = []
        for _ in range(5):
            r = await other.post("/api/profile/links/claim", json={"link": "nothing"})
            codes.append(r.status_code)
        assert codes == [404] * 4 + [429] and "Retry-After" in r.headers


async def test_a_signed_in_players_seats_are_listed_and_opened_on_another_device(
    http: httpx.AsyncClient, server: HardenedServer
) -> None:
    key, r = await _sign_up(http, server)
    handle = r.json()["handle"]
    r = await http.post(
        "/api/tables",
        json={"name": "Mine", "players": 2, "public": False, "host_name": "Ann"},
    )
    assert r.status_code == 201, r.text
    code, first = r.json()["code"], r.json()["token"]
    async with _client(server) as guest:
        r = await guest.post(f"/api/tables/{code}/join", json={"name": "Bob", "seat": 1})
        assert r.status_code == 200
    async with _client(server) as guest:  # another player sees no profile data at all
        seen = (await guest.get(f"/api/tables/{code}")).text
        lobby = (await guest.get("/api/tables")).text
        for private in (http.cookies["fiveup_session"], b64url(key.credential_id), handle):
            assert private not in seen and private not in lobby
    mine = {"code": code, "name": "Mine", "status": "waiting", "players": 2, "seat": 0}
    assert mine in (await http.get("/api/profile/tables")).json()["tables"]
    link = (await http.post("/api/profile/links")).json()["link"].split("#signin=")[1]
    async with _client(server) as phone:
        assert (
            await phone.post("/api/profile/links/claim", json={"link": link})
        ).status_code == 200
        assert mine in (await phone.get("/api/profile/tables")).json()["tables"]
        r = await phone.post(f"/api/profile/tables/{code}/open", json={"seat": 1})
        assert r.status_code == 404 and r.json()["detail"]["code"] == "not_your_seat"  # Bob's
        r = await phone.post(f"/api/profile/tables/{code}/open", json={"seat": 0})
        assert r.status_code == 200, r.text
        token = r.json()["token"]
        assert token != first and r.json()["seat"] == 0
        bearer = {"Authorization": f"Bearer {token}"}
        r = await phone.post(f"/api/tables/{code}/seat", json={"seat": 0}, headers=bearer)
        assert r.status_code != 401  # the new token holds the seat
        old = {"Authorization": f"Bearer {first}"}
        r = await http.post(f"/api/tables/{code}/start", headers=old)
        assert r.status_code == 401  # the older device's token stopped working
        assert mine in (await http.get("/api/profile/tables")).json()["tables"]  # rebound
        # a guest's device link moves the seat away from the profile: no longer listed
        r = await phone.post(f"/api/tables/{code}/seats/0/link", headers=bearer)
        device = r.json()["link"].split("#seat=")[1]
        async with _client(server) as stranger:
            assert (
                await stranger.post(f"/api/tables/{code}/claim", json={"link": device})
            ).status_code == 200
        assert mine not in (await phone.get("/api/profile/tables")).json()["tables"]
        r = await phone.post(f"/api/profile/tables/{code}/open", json={"seat": 0})
        assert r.status_code == 404


async def test_a_bound_seat_stays_bound_when_its_player_changes_seat_before_the_start(
    http: httpx.AsyncClient, server: HardenedServer
) -> None:
    await _sign_up(http, server)
    r = await http.post(
        "/api/tables",
        json={"name": "Moving", "players": 3, "public": False, "host_name": "Ann"},
    )
    code, token = r.json()["code"], r.json()["token"]
    bearer = {"Authorization": f"Bearer {token}"}
    async with _client(server) as guest:
        await guest.post(f"/api/tables/{code}/join", json={"name": "Bob", "seat": 1})
        r = await http.post(f"/api/tables/{code}/seat", json={"seat": 2}, headers=bearer)
        assert r.status_code == 200, r.text
        moved = {"code": code, "name": "Moving", "status": "waiting", "players": 3, "seat": 2}
        assert moved in (await http.get("/api/profile/tables")).json()["tables"]
        # the guest now takes seat 0, the one the binding was made at: it is not theirs
        async with _client(server) as third:
            r = await third.post(f"/api/tables/{code}/join", json={"name": "Cy", "seat": 0})
            assert r.status_code == 200, r.text
        assert moved in (await http.get("/api/profile/tables")).json()["tables"]
    r = await http.post(f"/api/profile/tables/{code}/open", json={"seat": 2})
    assert r.status_code == 200, r.text


async def test_a_deleted_profiles_finished_games_keep_their_records_as_deleted_player(
    http: httpx.AsyncClient, server: HardenedServer
) -> None:
    _, r = await _sign_up(http, server)
    r = await http.post(
        "/api/practice", json={"players": 2, "level": "easy", "name": "Zelda", "clock": "none"}
    )
    assert r.status_code == 201, r.text
    code, token = r.json()["code"], r.json()["token"]
    r = await http.post(f"/api/tables/{code}/resign", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    before = (await http.get(f"/api/tables/{code}/record.txt")).text
    assert "Zelda" in before
    assert (await http.delete("/api/profile")).status_code == 200
    after = (await http.get(f"/api/tables/{code}/record.txt")).text
    assert "Zelda" not in after and "deleted player" in after
    assert after.count("\n") == before.count("\n")  # the game is all there


def test_the_public_url_is_the_rp_id_and_the_only_origin_accepted(pg_url: str) -> None:
    """With ``FIVEUP_PUBLIC_URL`` set, passkeys are bound to its host and a change from
    any other origin — the server's own address included — is refused."""
    s = HardenedServer(pg_url, FIVEUP_PUBLIC_URL="https://fiveup.example").start()
    try:
        body = {"handle": _handle(), "display_name": "A"}
        with httpx.Client(base_url=s.http, timeout=20) as http:
            r = http.post("/api/profile/signup/options", json=body, headers={"Origin": s.http})
            assert r.status_code == 403 and r.json()["detail"]["code"] == "bad_origin"
            r = http.post(
                "/api/profile/signup/options",
                json=body,
                headers={"Origin": "https://fiveup.example"},
            )
            assert r.status_code == 200, r.text
            assert r.json()["options"]["rp"]["id"] == "fiveup.example"
            key = SoftPasskey(s.http)  # a passkey answer made on the server's own address
            credential = key.create(r.json()["options"])
            r = http.post(
                "/api/profile/signup/verify",
                json={"ceremony": r.json()["ceremony"], "credential": credential},
                headers={"Origin": "https://fiveup.example"},
            )
            assert r.status_code == 401 and r.json()["detail"]["code"] == "passkey_refused"
    finally:
        s.stop()
