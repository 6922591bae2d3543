"""Quotas and forwarded headers on real servers.

Each server is started as ``fiveup serve`` starts it (``uvicorn_options``) with small
quotas. Client addresses come from ``X-Forwarded-For`` where a test trusts the local
proxy, with a fresh random address per test, so counts never leak between tests or runs
(Redis keeps its windows across runs)."""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import httpx
import pytest

from app.core.quotas import Quotas
from app.core.settings import Settings

from .hardening_support import HardenedServer

REDIS = "redis://127.0.0.1:6379"
CREATE = {"name": "T", "players": 2, "public": False, "host_name": "Ann"}


def _address() -> str:
    return f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.{secrets.randbelow(250) + 1}"


@pytest.fixture(scope="module")
def quota_server(pg_url: str) -> Iterator[HardenedServer]:
    server = HardenedServer(
        pg_url,
        FIVEUP_RATE_LIMIT_ENABLED="true",
        FIVEUP_FORWARDED_ALLOW_IPS="127.0.0.1",
        FIVEUP_RATE_LIMIT_CREATE="3/minute",
        FIVEUP_RATE_LIMIT_PUBLIC_TABLES="1/hour",
        FIVEUP_RATE_LIMIT_JOIN="2/minute",
        FIVEUP_RATE_LIMIT_LOOKUP_MISS="3/minute",
        FIVEUP_RATE_LIMIT_HTTP="40/minute",
    ).start()
    yield server
    server.stop()


def _as(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


def _assert_rate_limited(r: httpx.Response) -> None:
    assert r.status_code == 429, r.text
    assert r.json()["detail"]["code"] == "rate_limited"
    assert int(r.headers["Retry-After"]) >= 1


def test_table_creation_is_refused_with_429_after_the_quota(quota_server: HardenedServer) -> None:
    me = _as(_address())
    with httpx.Client(base_url=quota_server.http) as http:
        for _ in range(3):
            assert http.post("/api/tables", json=CREATE, headers=me).status_code == 201
        _assert_rate_limited(http.post("/api/tables", json=CREATE, headers=me))
        # another address is not affected
        assert http.post("/api/tables", json=CREATE, headers=_as(_address())).status_code == 201


def test_public_tables_have_their_own_smaller_quota(quota_server: HardenedServer) -> None:
    me = _as(_address())
    public = {**CREATE, "public": True}
    with httpx.Client(base_url=quota_server.http) as http:
        assert http.post("/api/tables", json=public, headers=me).status_code == 201
        _assert_rate_limited(http.post("/api/tables", json=public, headers=me))
        assert http.post("/api/tables", json=CREATE, headers=me).status_code == 201


def test_code_guessing_is_refused_after_the_misses_quota(quota_server: HardenedServer) -> None:
    me, other = _as(_address()), _as(_address())
    with httpx.Client(base_url=quota_server.http) as http:
        code = http.post("/api/tables", json=CREATE, headers=other).json()["code"]
        # hits do not count
        for _ in range(5):
            assert http.get(f"/api/tables/{code}", headers=me).status_code == 200
        for guess in ("AAAAAA", "BBBBBB", "CCCCCC"):
            assert http.get(f"/api/tables/{guess}", headers=me).status_code == 404
        _assert_rate_limited(http.get("/api/tables/DDDDDD", headers=me))
        # once over the quota even a right code is refused, on every look-up route
        _assert_rate_limited(http.get(f"/api/tables/{code}", headers=me))
        _assert_rate_limited(
            http.post(f"/api/tables/{code}/join", json={"name": "Bo", "seat": 1}, headers=me)
        )


def test_joins_are_refused_after_the_join_quota(quota_server: HardenedServer) -> None:
    me = _as(_address())
    with httpx.Client(base_url=quota_server.http) as http:
        codes = [
            http.post("/api/tables", json=CREATE, headers=_as(_address())).json()["code"]
            for _ in range(3)
        ]
        for code in codes[:2]:
            r = http.post(f"/api/tables/{code}/join", json={"name": "Bo", "seat": 1}, headers=me)
            assert r.status_code == 200, r.text
        _assert_rate_limited(
            http.post(f"/api/tables/{codes[2]}/join", json={"name": "Bo", "seat": 1}, headers=me)
        )


def test_every_api_request_counts_against_the_overall_quota(quota_server: HardenedServer) -> None:
    me = _as(_address())
    with httpx.Client(base_url=quota_server.http) as http:
        statuses = [http.get("/api/tables", headers=me).status_code for _ in range(41)]
        assert statuses[:40] == [200] * 40
        _assert_rate_limited(http.get("/api/tables", headers=me))
        assert http.get("/healthz", headers=me).status_code == 200  # not an API route


def test_forwarded_for_is_ignored_unless_the_proxy_is_trusted(pg_url: str) -> None:
    server = HardenedServer(
        pg_url, FIVEUP_RATE_LIMIT_ENABLED="true", FIVEUP_RATE_LIMIT_CREATE="2/minute"
    ).start()
    try:
        with httpx.Client(base_url=server.http) as http:
            # a fresh X-Forwarded-For per request does not buy a fresh quota
            statuses = [
                http.post("/api/tables", json=CREATE, headers=_as(_address())).status_code
                for _ in range(3)
            ]
        assert statuses == [201, 201, 429]
    finally:
        server.stop()


def test_redis_storage_shares_the_quota_between_two_processes(pg_url: str) -> None:
    env = {
        "FIVEUP_RATE_LIMIT_ENABLED": "true",
        "FIVEUP_RATE_LIMIT_STORAGE": REDIS,
        "FIVEUP_FORWARDED_ALLOW_IPS": "127.0.0.1",
        "FIVEUP_RATE_LIMIT_CREATE": "4/minute",
    }
    a = HardenedServer(pg_url, **env).start()
    b = HardenedServer(pg_url, **env).start()
    me = _as(_address())
    try:
        with httpx.Client() as http:
            statuses = [
                http.post(f"{server.http}/api/tables", json=CREATE, headers=me).status_code
                for server in (a, b, a, b, a, b)
            ]
        assert statuses == [201, 201, 201, 201, 429, 429]
    finally:
        a.stop()
        b.stop()


async def test_socket_quotas_and_spectator_places_count_per_socket_and_table() -> None:
    quotas = Quotas(
        Settings(
            rate_limit_socket_moves="3/minute",
            rate_limit_socket_resync="1/minute",
            max_spectators_per_table=2,
        )
    )
    s1, s2 = quotas.socket_counter(), quotas.socket_counter()
    moves = [s1.hit("moves").allowed for _ in range(4)]
    assert moves == [True, True, True, False]
    assert s2.hit("moves").allowed
    assert s1.hit("resync").allowed
    refused = s1.hit("resync")
    assert not refused.allowed and refused.retry_after >= 1 and refused.limit == "1 per 1 minute"
    assert [await quotas.enter_spectator("T1") for _ in range(3)] == [True, True, False]
    await quotas.leave_spectator("T1")
    assert await quotas.enter_spectator("T1")
    assert await quotas.enter_spectator("T2")


async def test_spectator_places_are_shared_through_redis() -> None:
    settings = Settings(rate_limit_storage=REDIS, max_spectators_per_table=1)
    one, two = Quotas(settings), Quotas(settings)
    table = f"test-{secrets.token_hex(4)}"
    assert await one.enter_spectator(table)
    assert not await two.enter_spectator(table)
    await one.leave_spectator(table)
    assert await two.enter_spectator(table)
    await two.leave_spectator(table)
