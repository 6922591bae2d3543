"""Moderation on a real server and PostgreSQL: players report chat messages and players
(bounded per address), a host removes and blocks someone, and the operator's page — not
there without an operator token, refused without it, Origin-checked with its cookie —
shows the live tables and the reports with their chat in context (never a token or a
hand), mutes, bans, closes tables, and writes every action to its audit log."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from .hardening_support import HardenedServer
from .moderation_support import (
    OPERATOR,
    AddressedClient,
    as_address,
    chat_seqs,
    moderation_server,
    new_address,
)
from .support import ServerProcess

BEARER = {"Authorization": f"Bearer {OPERATOR}"}

#: every route of the operator's: (method, path, body)
ADMIN_ACTIONS: list[tuple[str, str, dict[str, Any] | None]] = [
    ("GET", "/admin/api/overview", None),
    ("POST", "/admin/api/reports/1/resolve", None),
    ("POST", "/admin/api/mutes", {"address": "203.0.113.1"}),
    ("DELETE", "/admin/api/mutes/1", None),
    ("POST", "/admin/api/bans", {"address": "203.0.113.1", "until": "2099-01-01T00:00:00Z"}),
    ("DELETE", "/admin/api/bans/1", None),
    ("POST", "/admin/api/tables/ABCDEF/close", None),
    ("POST", "/admin/api/drain", None),
]


@pytest.fixture(scope="module")
def server(pg_url: str) -> Iterator[HardenedServer]:
    s = moderation_server(pg_url).start()
    yield s
    s.stop()


@pytest.fixture
async def http(server: HardenedServer) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=server.http, timeout=20) as client:
        yield client


async def _table(
    http: httpx.AsyncClient, host: str, guest: str | None, *, start: bool = False
) -> tuple[str, list[str]]:
    r = await http.post(
        "/api/tables",
        json={"name": "Mod", "players": 2, "public": False, "host_name": "Ann"},
        headers=as_address(host),
    )
    assert r.status_code == 201, r.text
    code, tokens = r.json()["code"], [r.json()["token"]]
    if guest is not None:
        r = await http.post(
            f"/api/tables/{code}/join", json={"name": "Bob", "seat": 1}, headers=as_address(guest)
        )
        assert r.status_code == 200, r.text
        tokens.append(r.json()["token"])
    if start:
        r = await http.post(f"/api/tables/{code}/start", headers=_bearer(tokens[0], host))
        assert r.status_code == 200, r.text
    return code, tokens


def _bearer(token: str, address: str) -> dict[str, str]:
    return as_address(address, Authorization=f"Bearer {token}")


async def _socket(server: HardenedServer, code: str, address: str, token: str | None = None):  # type: ignore[no-untyped-def]
    url = f"{server.ws}/ws/tables/{code}" + (f"?token={token}" if token else "")
    return await AddressedClient(url, address, address).connect()


async def _chat(client: AddressedClient, text: str) -> int:
    """Send a chat message (a text new on the table); its seq, once it came back."""
    await client.send({"type": "chat", "text": text})
    await client.wait_for(lambda c: any(e.get("text") == text for _, e in chat_seqs(c)))
    return next(seq for seq, e in chat_seqs(client) if e.get("text") == text)


def _error(r: httpx.Response, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"detail"} and body["detail"]["code"] == code, body


# -- the operator's page: there or not, and who may use it --------------------------------


async def test_without_an_operator_token_there_is_no_operators_page(live: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=live.http) as http:
        for method, path, body in [
            ("GET", "/admin", None),
            ("POST", "/admin/session", {"token": "x"}),
            *ADMIN_ACTIONS,
        ]:
            r = await http.request(method, path, json=body, headers=BEARER)
            _error(r, 404, "not_found")


async def test_every_operator_action_is_refused_without_the_token(
    http: httpx.AsyncClient,
) -> None:
    me = new_address()
    for method, path, body in ADMIN_ACTIONS:
        r = await http.request(method, path, json=body, headers=as_address(me))
        _error(r, 401, "unauthorized")
        wrong = as_address(me, Authorization="Bearer not-the-token")
        _error(await http.request(method, path, json=body, headers=wrong), 403, "forbidden")
        basic = as_address(me, Authorization="Basic abc")
        _error(await http.request(method, path, json=body, headers=basic), 401, "unauthorized")
        http.cookies.set("fiveup_operator", "0" * 64, path="/admin")
        r = await http.request(method, path, json=body, headers=as_address(me))
        _error(r, 403, "forbidden")
        http.cookies.clear()


async def test_the_sign_in_sets_a_strict_http_only_cookie_and_state_changes_need_the_origin(
    server: HardenedServer, http: httpx.AsyncClient
) -> None:
    me = new_address()
    origin = {"Origin": server.http}
    page = await http.get("/admin", headers=as_address(me))
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert "script-src 'self'" in page.headers["content-security-policy"]
    r = await http.post("/admin/session", json={"token": "wrong"}, headers=as_address(me, **origin))
    _error(r, 403, "forbidden")
    r = await http.post("/admin/session", json={"token": OPERATOR}, headers=as_address(me))
    _error(r, 403, "bad_origin")  # no Origin: not the page's own sign-in
    evil = {"Origin": "https://evil.example"}
    r = await http.post("/admin/session", json={"token": OPERATOR}, headers=as_address(me, **evil))
    _error(r, 403, "bad_origin")
    r = await http.post(
        "/admin/session", json={"token": OPERATOR}, headers=as_address(me, **origin)
    )
    assert r.status_code == 200, r.text
    cookie = r.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and "path=/admin" in cookie
    assert OPERATOR.lower() not in cookie  # a digest, not the token
    assert (await http.get("/admin/api/overview", headers=as_address(me))).status_code == 200
    close = "/admin/api/tables/ABCDEF/close"
    _error(await http.post(close, headers=as_address(me)), 403, "bad_origin")
    _error(await http.post(close, headers=as_address(me, **evil)), 403, "bad_origin")
    _error(await http.post(close, headers=as_address(me, **origin)), 404, "not_found")
    r = await http.delete("/admin/session", headers=as_address(me, **origin))
    assert r.status_code == 200
    http.cookies.clear()
    _error(await http.get("/admin/api/overview", headers=as_address(me)), 401, "unauthorized")


async def test_bad_operator_input_is_a_4xx_in_the_one_error_shape(http: httpx.AsyncClient) -> None:
    auth = {**BEARER, **as_address(new_address())}
    past = (datetime.now(UTC) - timedelta(hours=1)).isoformat()
    for method, path, body, status, code in [
        (
            "POST",
            "/admin/api/bans",
            {"address": "not an ip", "until": "2099-01-01T00:00Z"},
            422,
            "invalid_request",
        ),
        ("POST", "/admin/api/bans", {"address": "203.0.113.7"}, 422, "invalid_request"),
        (
            "POST",
            "/admin/api/bans",
            {"address": "203.0.113.7", "until": "2099-01-01T00:00"},
            422,
            "invalid_request",
        ),
        ("POST", "/admin/api/bans", {"address": "203.0.113.7", "until": past}, 409, "bad_until"),
        ("POST", "/admin/api/bans", {"until": "2099-01-01T00:00:00Z"}, 422, "invalid_request"),
        (
            "POST",
            "/admin/api/mutes",
            {"report": 1, "address": "203.0.113.7"},
            422,
            "invalid_request",
        ),
        ("POST", "/admin/api/mutes", {"report": 999999}, 404, "not_found"),
        ("POST", "/admin/api/mutes", {"address": "203.0.113.7", "x": 1}, 422, "invalid_request"),
        ("DELETE", "/admin/api/bans/999999", None, 404, "not_found"),
        ("POST", "/admin/api/reports/999999/resolve", None, 404, "not_found"),
        ("POST", "/admin/api/reports/x/resolve", None, 422, "invalid_request"),
        ("POST", "/admin/session", {"token": ""}, 422, "invalid_request"),
    ]:
        r = await http.request(method, path, json=body, headers=auth)
        _error(r, status, code)


# -- reports -----------------------------------------------------------------------------


async def test_a_reported_message_is_shown_among_its_chat_and_nothing_hidden_is_in_the_answer(
    server: HardenedServer, http: httpx.AsyncClient
) -> None:
    ann, bob, watcher = new_address(), new_address(), new_address()
    code, tokens = await _table(http, ann, bob, start=True)
    host = await _socket(server, code, ann, tokens[0])
    guest = await _socket(server, code, bob, tokens[1])
    spectator = await _socket(server, code, watcher)
    seqs = [
        await _chat(host, "hello"),
        await _chat(guest, "you are awful"),
        await _chat(host, "hey"),
    ]
    await spectator.wait_for(lambda c: len(chat_seqs(c)) == 3)
    r = await http.post(
        f"/api/tables/{code}/reports",
        json={"kind": "message", "seq": seqs[1], "reason": "abuse", "text": " rude\u200b "},
        headers=_bearer(tokens[0], ann),
    )
    assert r.status_code == 201, r.text
    report_id = r.json()["report"]
    r = await http.post(
        f"/api/tables/{code}/reports",
        json={"kind": "player", "seat": 1, "reason": "cheating"},
        headers=as_address(watcher),  # a spectator reports too
    )
    assert r.status_code == 201, r.text
    overview = await http.get("/admin/api/overview", headers=BEARER)
    assert overview.status_code == 200
    text = overview.text
    for secret in tokens:
        assert secret not in text
    assert not {"hand", "stock", "token", "token_hash", "address_hash", "seed"} & _keys(
        overview.json()
    )
    body = overview.json()
    mine = next(r for r in body["reports"] if r["id"] == report_id)
    assert (mine["name"], mine["reason"], mine["text"], mine["author_known"]) == (
        "Bob",
        "abuse",
        "rude",
        "address",
    )
    assert [(c["name"], c["text"], c["reported"]) for c in mine["context"]] == [
        ("Ann", "hello", False),
        ("Bob", "you are awful", True),
        ("Ann", "hey", False),
    ]
    table = next(t for t in body["tables"] if t["code"] == code)
    assert [(s["name"], s["connected"]) for s in table["seats"]] == [("Ann", True), ("Bob", True)]
    assert table["spectators"] == 1 and body["drain"] is True
    for c in (host, guest, spectator):
        await c.close()


def _keys(obj: Any) -> set[str]:
    if isinstance(obj, dict):
        return set(obj) | {k for v in obj.values() for k in _keys(v)}
    if isinstance(obj, list):
        return {k for v in obj for k in _keys(v)}
    return set()


async def test_reports_per_address_are_bounded_with_retry_after(http: httpx.AsyncClient) -> None:
    me = new_address()
    code, _ = await _table(http, me, new_address())
    body = {"kind": "player", "seat": 1, "reason": "name"}
    for _ in range(3):
        r = await http.post(f"/api/tables/{code}/reports", json=body, headers=as_address(me))
        assert r.status_code == 201, r.text
    r = await http.post(f"/api/tables/{code}/reports", json=body, headers=as_address(me))
    _error(r, 429, "rate_limited")
    assert int(r.headers["retry-after"]) > 0


async def test_bad_reports_are_4xx_in_the_one_error_shape(http: httpx.AsyncClient) -> None:
    me = new_address()
    code, tokens = await _table(http, me, None)
    url = f"/api/tables/{code}/reports"
    bad: list[tuple[dict[str, Any], dict[str, str], int, str]] = [
        ({"kind": "message", "reason": "abuse"}, {}, 422, "invalid_request"),
        ({"kind": "player", "reason": "abuse"}, {}, 422, "invalid_request"),
        ({"kind": "player", "seat": 1, "seq": 2, "reason": "abuse"}, {}, 422, "invalid_request"),
        ({"kind": "player", "seat": 1, "reason": "mean"}, {}, 422, "invalid_request"),
        (
            {"kind": "player", "seat": 1, "reason": "other", "text": "x" * 501},
            {},
            422,
            "invalid_request",
        ),
        ({"kind": "player", "seat": 1, "reason": "abuse"}, {}, 409, "bad_seat"),
        ({"kind": "message", "seq": 999, "reason": "spam"}, {}, 404, "no_message"),
        (
            {"kind": "player", "seat": 0, "reason": "abuse"},
            {"Authorization": "Bearer x"},
            401,
            "unauthorized",
        ),
    ]
    for body, headers, status, code_ in bad:
        r = await http.post(url, json=body, headers=as_address(new_address(), **headers))
        _error(r, status, code_)  # (each from its own address: every report counts)
    r = await http.post(  # 500 characters as sent, fewer once cleaned: fine
        url,
        json={"kind": "player", "seat": 0, "reason": "other", "text": "a\u200b" * 250},
        headers=as_address(new_address()),
    )
    assert r.status_code == 201, r.text
    del tokens
    r = await http.post(
        "/api/tables/ZZZZZZ/reports",
        json={"kind": "player", "seat": 0, "reason": "abuse"},
        headers=as_address(me),
    )
    _error(r, 404, "not_found")


# -- the host ----------------------------------------------------------------------------


async def test_the_host_removes_and_blocks_a_spectator_who_cannot_watch_or_join_again(
    server: HardenedServer, http: httpx.AsyncClient
) -> None:
    ann, troll = new_address(), new_address()
    code, tokens = await _table(http, ann, None)
    host = await _socket(server, code, ann, tokens[0])
    spectator = await _socket(server, code, troll)
    seq = await _chat(spectator, "spam spam")
    r = await http.post(f"/api/tables/{code}/remove", json={"seq": seq}, headers=as_address(troll))
    _error(r, 401, "unauthorized")
    r = await http.post(
        f"/api/tables/{code}/remove", json={"seq": seq}, headers=_bearer(tokens[0], ann)
    )
    assert r.status_code == 200 and r.json() == {"closed": 1, "blocked": True}, r.text
    await spectator.wait_for(lambda c: c.closed is not None)
    assert spectator.closed is not None and spectator.closed[0] == 4412
    again = await _socket(server, code, troll)
    await again.wait_for(lambda c: c.closed is not None)
    assert again.closed is not None and again.closed[0] == 4412
    r = await http.post(
        f"/api/tables/{code}/join", json={"name": "Nice", "seat": 1}, headers=as_address(troll)
    )
    _error(r, 403, "blocked")
    assert host.closed is None  # the host watches on
    other = await _socket(server, code, new_address())  # anyone else still watches
    assert other.closed is None and other.last_seq >= 0
    for c in (host, other):
        await c.close()


async def test_the_host_removes_and_blocks_a_seated_player_before_the_start(
    server: HardenedServer, http: httpx.AsyncClient
) -> None:
    ann, bob = new_address(), new_address()
    code, tokens = await _table(http, ann, bob)
    guest = await _socket(server, code, bob, tokens[1])
    body = {"seat": 1}
    r = await http.post(f"/api/tables/{code}/remove", json=body, headers=_bearer(tokens[1], bob))
    _error(r, 403, "not_host")
    r = await http.post(
        f"/api/tables/{code}/remove", json={"seat": 0}, headers=_bearer(tokens[0], ann)
    )
    _error(r, 409, "bad_seat")
    r = await http.post(
        f"/api/tables/{code}/remove", json={"seat": 1, "seq": 1}, headers=_bearer(tokens[0], ann)
    )
    _error(r, 422, "invalid_request")
    r = await http.post(f"/api/tables/{code}/remove", json={}, headers=_bearer(tokens[0], ann))
    _error(r, 422, "invalid_request")
    r = await http.post(f"/api/tables/{code}/remove", json=body, headers=_bearer(tokens[0], ann))
    assert r.status_code == 200 and r.json()["blocked"] is True, r.text
    await guest.wait_for(lambda c: c.closed is not None)
    assert guest.closed is not None and guest.closed[0] == 4412
    info = (await http.get(f"/api/tables/{code}", headers=as_address(ann))).json()
    assert info["seats"][1]["name"] is None  # kicked
    r = await http.post(
        f"/api/tables/{code}/join", json={"name": "Robert", "seat": 1}, headers=as_address(bob)
    )
    _error(r, 403, "blocked")
    r = await http.post(  # another address, a name that looks like the blocked one
        f"/api/tables/{code}/join",
        json={"name": "B\u043eb", "seat": 1},
        headers=as_address(new_address()),
    )
    _error(r, 403, "blocked")
    r = await http.post(
        f"/api/tables/{code}/join",
        json={"name": "Cy", "seat": 1},
        headers=as_address(new_address()),
    )
    assert r.status_code == 200, r.text


async def test_a_seated_player_cannot_be_removed_once_the_match_started(
    http: httpx.AsyncClient,
) -> None:
    ann = new_address()
    code, tokens = await _table(http, ann, new_address(), start=True)
    r = await http.post(
        f"/api/tables/{code}/remove", json={"seat": 1}, headers=_bearer(tokens[0], ann)
    )
    _error(r, 409, "already_started")


# -- the operator's actions --------------------------------------------------------------


async def test_the_operator_mutes_a_reported_author_in_every_table(
    server: HardenedServer, http: httpx.AsyncClient
) -> None:
    ann, bob = new_address(), new_address()
    code, tokens = await _table(http, ann, bob, start=True)
    guest = await _socket(server, code, bob, tokens[1])
    seq = await _chat(guest, "awful")
    r = await http.post(
        f"/api/tables/{code}/reports",
        json={"kind": "message", "seq": seq, "reason": "abuse"},
        headers=as_address(ann),
    )
    report_id = r.json()["report"]
    r = await http.post("/admin/api/mutes", json={"report": report_id}, headers=BEARER)
    assert r.status_code == 200, r.text
    mute_id = r.json()["id"]
    reply = await guest.request({"type": "chat", "text": "again"}, ("error",))
    assert reply["code"] == "muted"
    elsewhere, _ = await _table(http, bob, None)  # the same address at another table
    spectator = await _socket(server, elsewhere, bob)
    assert (await spectator.request({"type": "chat", "text": "hi"}, ("error",)))["code"] == "muted"
    body = (await http.get("/admin/api/overview", headers=BEARER)).json()
    mute = next(m for m in body["mutes"] if m["id"] == mute_id)
    assert mute["by"] == "address" and mute["until"] is None
    assert body["audit"][0]["action"] == "mute"
    assert (await http.delete(f"/admin/api/mutes/{mute_id}", headers=BEARER)).status_code == 200
    await _chat(guest, "sorry")  # lifted
    r = await http.post(f"/admin/api/reports/{report_id}/resolve", headers=BEARER)
    assert r.status_code == 200
    body = (await http.get("/admin/api/overview", headers=BEARER)).json()
    assert report_id not in [r["id"] for r in body["reports"]]
    assert [a["action"] for a in body["audit"][:3]] == ["resolve", "unmute", "mute"]
    for c in (guest, spectator):
        await c.close()


async def test_the_operator_bans_an_address_until_an_end_and_closes_a_table(
    server: HardenedServer, http: httpx.AsyncClient
) -> None:
    ann, mallory = new_address(), new_address()
    code, tokens = await _table(http, ann, None)
    host = await _socket(server, code, ann, tokens[0])
    watcher = await _socket(server, code, mallory)
    until = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    r = await http.post(
        "/admin/api/bans", json={"address": mallory, "until": until}, headers=BEARER
    )
    assert r.status_code == 200, r.text
    ban_id = r.json()["id"]
    _error(await http.get("/api/tables", headers=as_address(mallory)), 403, "banned")
    assert (await http.get("/api/tables", headers=as_address(ann))).status_code == 200
    banned = await _socket(server, code, mallory)
    await banned.wait_for(lambda c: c.closed is not None)
    assert banned.closed is not None and banned.closed[0] == 4451
    assert (await http.delete(f"/admin/api/bans/{ban_id}", headers=BEARER)).status_code == 200
    assert (await http.get("/api/tables", headers=as_address(mallory))).status_code == 200

    r = await http.post(f"/admin/api/tables/{code}/close", headers=BEARER)
    assert r.status_code == 200, r.text
    for c in (host, watcher):
        await c.wait_for(lambda c: c.table is not None and c.table["status"] == "closed")
    closed = [f for f in host.frames if f["type"] == "event" and f["event"]["type"] == "closed"]
    assert closed[-1]["event"]["reason"] == "operator"
    _error(await http.post(f"/admin/api/tables/{code}/close", headers=BEARER), 409, "table_closed")
    body = (await http.get("/admin/api/overview", headers=BEARER)).json()
    assert code not in [t["code"] for t in body["tables"]]
    actions = [(a["action"], a["target"]) for a in body["audit"][:3]]
    assert actions[0] == ("close", f"table {code}") and [a for a, _ in actions[1:]] == [
        "unban",
        "ban",
    ]
    assert mallory not in json.dumps(body["bans"])  # the ban is gone; its label named it
    for c in (host, watcher):
        await c.close()


async def test_the_operator_routes_are_in_openapi(http: httpx.AsyncClient) -> None:
    spec = (await http.get("/openapi.json")).json()
    for path in (
        "/admin",
        "/admin/session",
        "/admin/api/overview",
        "/admin/api/mutes",
        "/admin/api/mutes/{mute_id}",
        "/admin/api/bans",
        "/admin/api/bans/{ban_id}",
        "/admin/api/reports/{report_id}/resolve",
        "/admin/api/tables/{code}/close",
        "/api/tables/{code}/reports",
        "/api/tables/{code}/remove",
        "/admin/api/drain",
    ):
        assert path in spec["paths"], path


async def test_the_operator_drains_the_process_that_answers_as_a_sigterm_would(
    pg_url: str,
) -> None:
    """``POST /admin/api/drain``: the action is in the audit log, the answer comes back,
    then the process refuses new work (503 draining), closes its sockets with 1012 (a
    player reconnects elsewhere) and exits."""
    server = moderation_server(pg_url).start()
    try:
        async with httpx.AsyncClient(base_url=server.http, timeout=20) as http:
            ann = new_address()
            code, tokens = await _table(http, ann, new_address(), start=True)
            player = await _socket(server, code, ann, tokens[0])
            r = await http.post("/admin/api/drain", headers=BEARER)
            assert r.status_code == 200 and r.json() == {"ok": True}, r.text
            await player.wait_for(lambda c: c.closed is not None)
            assert player.closed is not None and player.closed[0] == 1012
        assert server.proc is not None
        await asyncio.to_thread(server.proc.wait, 30)  # it exits, as on SIGTERM
        other = moderation_server(pg_url).start()  # another process, the same database
        try:
            async with httpx.AsyncClient(base_url=other.http, timeout=20) as http:
                body = (await http.get("/admin/api/overview", headers=BEARER)).json()
                assert body["audit"][0]["action"] == "drain"
                assert code in [t["code"] for t in body["tables"]]  # the table goes on
        finally:
            other.stop()
    finally:
        server.kill()


# -- two server processes ----------------------------------------------------------------


async def test_with_two_processes_a_mute_falls_back_to_the_seat_and_blocks_reach_the_other(
    pg_url: str,
) -> None:
    """A report taken by the process that did not receive the message knows its author by
    seat only: the mute holds on that seat token, on the other process too; a block made
    on one process keeps the blocked address from watching on the other."""
    a, b = moderation_server(pg_url).start(), moderation_server(pg_url).start()
    try:
        async with (
            httpx.AsyncClient(base_url=a.http) as on_a,
            httpx.AsyncClient(base_url=b.http) as on_b,
        ):
            ann, bob, troll = new_address(), new_address(), new_address()
            code, tokens = await _table(on_a, ann, bob, start=True)
            host = await _socket(a, code, ann, tokens[0])
            guest = await _socket(a, code, bob, tokens[1])
            seq = await _chat(guest, "rude words")
            r = await on_b.post(
                f"/api/tables/{code}/reports",
                json={"kind": "message", "seq": seq, "reason": "abuse"},
                headers=_bearer(tokens[0], ann),
            )
            report_id = r.json()["report"]
            body = (await on_b.get("/admin/api/overview", headers=BEARER)).json()
            report = next(r for r in body["reports"] if r["id"] == report_id)
            assert report["author_known"] == "seat"
            r = await on_b.post(
                "/admin/api/bans",
                json={"report": report_id, "until": "2099-01-01T00:00:00Z"},
                headers=BEARER,
            )
            _error(r, 409, "author_unknown")  # a ban needs the address
            r = await on_b.post("/admin/api/mutes", json={"report": report_id}, headers=BEARER)
            assert r.status_code == 200, r.text
            for _ in range(100):  # process a reads it within its refresh (0.5 s here)
                reply = await guest.request({"type": "chat", "text": "test"}, ("error", "event"))
                if reply["type"] == "error":
                    break
                await asyncio.sleep(0.1)
            assert reply["type"] == "error" and reply["code"] == "muted"
            assert (await host.request({"type": "chat", "text": "ok?"}, ("event",)))["event"][
                "text"
            ] == "ok?"  # only that seat

            spectator = await _socket(a, code, troll)
            spam = await _chat(spectator, "spam from a")
            r = await on_b.post(
                f"/api/tables/{code}/remove", json={"seq": spam}, headers=_bearer(tokens[0], ann)
            )
            _error(r, 409, "author_unknown")  # b never saw that spectator's socket
            r = await on_a.post(
                f"/api/tables/{code}/remove", json={"seq": spam}, headers=_bearer(tokens[0], ann)
            )
            assert r.json() == {"closed": 1, "blocked": True}
            for _ in range(100):
                other = await _socket(b, code, troll)
                await other.wait_for(lambda c: c.closed is not None or c.last_seq >= 0)
                if other.closed is not None:
                    break
                await other.close()
                await asyncio.sleep(0.1)
            assert other.closed is not None and other.closed[0] == 4412
            for c in (host, guest):
                await c.close()
    finally:
        a.stop()
        b.stop()
