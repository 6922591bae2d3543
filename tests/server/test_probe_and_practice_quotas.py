"""Quotas on the ways around them: probing table codes over WebSockets, practice tables
and computer-player changes (docs/protocol.md, docs/configuration.md).

Real servers on PostgreSQL started as ``fiveup serve`` starts them, with small quotas;
client addresses come from ``X-Forwarded-For`` (the local proxy is trusted), a fresh
random one per test."""

from __future__ import annotations

import asyncio
import re
import secrets
from collections.abc import Iterator

import httpx
import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from app.core.settings import Settings
from app.main import make_store
from app.tables.errors import TableError
from app.tables.practice_cap import PracticeCreator, creator_key
from app.tables.service import TableService

from .hardening_support import HardenedServer

PRIVATE = {"name": "T", "players": 2, "public": False, "host_name": "Ann"}
PRACTICE = {"players": 2, "level": "easy", "name": "Ann"}
QUOTAS = {
    "FIVEUP_RATE_LIMIT_ENABLED": "true",
    "FIVEUP_FORWARDED_ALLOW_IPS": "127.0.0.1",
    "FIVEUP_RATE_LIMIT_CREATE": "5/minute",
    "FIVEUP_RATE_LIMIT_PUBLIC_TABLES": "5/hour",
    "FIVEUP_RATE_LIMIT_LOOKUP_MISS": "3/minute",
    "FIVEUP_RATE_LIMIT_HTTP": "40/minute",
    "FIVEUP_RATE_LIMIT_BOT_CHANGES": "3/minute",
    "FIVEUP_MAX_LIVE_PRACTICE_TABLES": "2",
    "FIVEUP_BOT_DELAY_MS": "0",
}


def _address() -> str:
    return f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.{secrets.randbelow(250) + 1}"


def _as(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


@pytest.fixture(scope="module")
def server(pg_url: str) -> Iterator[HardenedServer]:
    s = HardenedServer(pg_url, **QUOTAS).start()
    yield s
    s.stop()


async def _socket(server: HardenedServer, code: str, address: str) -> tuple[list[str], int, str]:
    """The frames a socket to ``code`` from ``address`` got in 3 s, and its close code and
    reason (0 when it was still open)."""
    frames: list[str] = []
    async with websockets.connect(
        f"{server.ws}/ws/tables/{code}", additional_headers=_as(address)
    ) as ws:
        try:
            async with asyncio.timeout(3):
                while True:
                    frames.append(str(await ws.recv()))
        except ConnectionClosed as closed:
            assert closed.rcvd is not None
            return frames, closed.rcvd.code, closed.rcvd.reason
        except TimeoutError:
            return frames, 0, ""


async def test_sockets_to_unknown_codes_are_refused_with_4430_past_the_lookup_miss_quota(
    server: HardenedServer,
) -> None:
    me, other = _address(), _address()
    async with httpx.AsyncClient(base_url=server.http) as http:
        r = await http.post("/api/tables", json=PRIVATE, headers=_as(other))
        code = r.json()["code"]
    # an existing table is no miss
    frames, _, _ = await _socket(server, code, me)
    assert frames and '"snapshot"' in frames[0]
    for guess in ("AAAAAA", "BBBBBB", "CCCCCC"):
        assert (await _socket(server, guess, me))[1:] == (4404, "unknown table")
    frames, close, reason = await _socket(server, "DDDDDD", me)
    assert (frames, close) == ([], 4430)
    assert re.fullmatch(r"too many look-ups; retry in \d+ s", reason), reason


async def test_an_address_over_the_quota_gets_no_snapshot_of_an_existing_private_table(
    server: HardenedServer,
) -> None:
    me, other = _address(), _address()
    async with httpx.AsyncClient(base_url=server.http) as http:
        code = (await http.post("/api/tables", json=PRIVATE, headers=_as(other))).json()["code"]
        for guess in ("EEEEEE", "FFFFFF", "GGGGGG"):
            assert (await _socket(server, guess, me))[1] == 4404
        frames, close, _ = await _socket(server, code, me)
        assert (frames, close) == ([], 4430)
        # the socket misses are the HTTP look-ups' misses: one quota per address
        r = await http.get(f"/api/tables/{code}", headers=_as(me))
        assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
    # another address still watches the table
    frames, _, _ = await _socket(server, code, other)
    assert frames and '"snapshot"' in frames[0]


def test_practice_tables_count_against_the_create_quota(server: HardenedServer) -> None:
    me = _as(_address())
    with httpx.Client(base_url=server.http) as http:
        for _ in range(4):
            assert http.post("/api/tables", json=PRIVATE, headers=me).status_code == 201
        assert http.post("/api/practice", json=PRACTICE, headers=me).status_code == 201
        r = http.post("/api/practice", json=PRACTICE, headers=me)  # 1 of 2 live: the quota
        assert r.status_code == 429, r.text
        assert r.json()["detail"]["code"] == "rate_limited"
        assert int(r.headers["Retry-After"]) >= 1


def test_practice_and_bot_routes_count_against_the_http_quota(server: HardenedServer) -> None:
    me = _as(_address())
    with httpx.Client(base_url=server.http) as http:
        assert all(http.get("/api/tables", headers=me).status_code == 200 for _ in range(40))
        for r in (
            http.post("/api/practice", json=PRACTICE, headers=me),
            http.post("/api/tables/ZZZZZZ/bots", json={"seat": 1, "level": "easy"}, headers=me),
            http.delete("/api/tables/ZZZZZZ/bots/1", headers=me),
        ):
            assert r.status_code == 429, r.text
            assert r.json()["detail"]["code"] == "rate_limited"


def test_bot_changes_are_refused_after_the_bot_change_quota(server: HardenedServer) -> None:
    me = _as(_address())
    with httpx.Client(base_url=server.http) as http:
        joined = http.post("/api/tables", json={**PRIVATE, "players": 3}, headers=me).json()
        code, auth = joined["code"], {**me, "Authorization": f"Bearer {joined['token']}"}
        levels = ("easy", "medium", "hard")
        for level in levels:
            r = http.post(
                f"/api/tables/{code}/bots", json={"seat": 1, "level": level}, headers=auth
            )
            assert r.status_code == 200, r.text
        for r in (
            http.post(f"/api/tables/{code}/bots", json={"seat": 2, "level": "easy"}, headers=auth),
            http.delete(f"/api/tables/{code}/bots/1", headers=auth),
        ):
            assert r.status_code == 429, r.text
        seats = http.get(f"/api/tables/{code}", headers=me).json()["seats"]
        assert [s.get("bot") for s in seats] == [None, "hard", None]


def test_live_practice_tables_per_address_are_capped_until_one_ends(
    server: HardenedServer,
) -> None:
    me = _as(_address())
    with httpx.Client(base_url=server.http) as http:
        tables = [http.post("/api/practice", json=PRACTICE, headers=me) for _ in range(2)]
        assert [r.status_code for r in tables] == [201, 201]
        r = http.post("/api/practice", json=PRACTICE, headers=me)
        assert r.status_code == 409, r.text
        assert r.json()["detail"]["code"] == "too_many_practice_tables"
        # another address has its own
        assert http.post("/api/practice", json=PRACTICE, headers=_as(_address())).status_code == 201
        # leaving one closes it (no person left): it no longer counts
        first = tables[0].json()
        bye = {**me, "Authorization": f"Bearer {first['token']}"}
        assert http.post(f"/api/tables/{first['code']}/leave", headers=bye).status_code == 200
        assert http.get(f"/api/tables/{first['code']}").json()["status"] == "closed"
        assert http.post("/api/practice", json=PRACTICE, headers=me).status_code == 201


def test_the_practice_cap_holds_across_two_server_processes(pg_url: str) -> None:
    a = HardenedServer(pg_url, **QUOTAS).start()
    b = HardenedServer(pg_url, **QUOTAS).start()
    me = _as(_address())
    try:
        with httpx.Client() as http:
            statuses = [
                http.post(f"{s.http}/api/practice", json=PRACTICE, headers=me).status_code
                for s in (a, b, a, b)
            ]
        assert statuses == [201, 201, 409, 409]
    finally:
        a.stop()
        b.stop()


async def test_the_store_counts_only_a_creators_tables_waiting_or_in_play(db_url: str) -> None:
    service = TableService(make_store(Settings(database_url=db_url)), next_round_seconds=0)
    try:
        me = PracticeCreator(creator_key(f"me-{secrets.token_hex(4)}"), max_live=2)
        you = PracticeCreator(creator_key(f"you-{secrets.token_hex(4)}"), max_live=2)
        first = await service.practice(2, "easy", "Ann", creator=me)
        await service.practice(2, "easy", "Ann", creator=me)
        await service.practice(2, "easy", "Bo", creator=you)
        await service.create("T", 2, False, "Ann")  # not a practice table: not counted
        assert await service.store.live_tables_created_by(me.key) == 2
        with pytest.raises(TableError) as refused:
            await service.practice(2, "easy", "Ann", creator=me)
        assert (refused.value.code, refused.value.status) == ("too_many_practice_tables", 409)
        await service.leave(first.code, first.token)
        assert await service.store.live_tables_created_by(me.key) == 1
        await service.practice(2, "easy", "Ann", creator=me)
    finally:
        await service.close()
