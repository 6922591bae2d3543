"""Rated tables and the leaderboard over HTTP on a real server, on PostgreSQL and on
SQLite: a rated table needs a signed-in creator and signed-in players (403
profile_required), its finished match puts both players on the leaderboard with the
ratings openskill gives, computer players' levels have ratings of their own, and the
answers carry nothing but handles, display names and ratings (docs/ratings.md)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import httpx
import pytest

from app.ratings import CALIBRATED

from .hardening_support import HardenedServer
from .rating_support import MODEL, query
from .test_profiles import _client, _sign_up


@pytest.fixture(scope="module", params=["postgres", "sqlite"])
def server(request: pytest.FixtureRequest) -> Iterator[HardenedServer]:
    url = request.getfixturevalue("pg_url" if request.param == "postgres" else "sqlite_url")
    s = HardenedServer(url, FIVEUP_FORWARDED_ALLOW_IPS="127.0.0.1").start()
    s.db_url = url  # type: ignore[attr-defined]
    yield s
    s.stop()


@pytest.fixture
async def ann(server: HardenedServer) -> AsyncIterator[httpx.AsyncClient]:
    async with _client(server) as client:
        _, r = await _sign_up(client, server)
        assert r.status_code == 200, r.text
        yield client


@pytest.fixture
async def bea(server: HardenedServer) -> AsyncIterator[httpx.AsyncClient]:
    async with _client(server) as client:
        _, r = await _sign_up(client, server)
        assert r.status_code == 200, r.text
        yield client


async def _entry(http: httpx.AsyncClient, handle: str, pool: str = "all") -> dict | None:  # type: ignore[type-arg]
    board = (await http.get("/api/leaderboard", params={"pool": pool, "limit": 1000})).json()
    return next((e for e in board["entries"] if e["handle"] == handle), None)


async def test_a_rated_table_is_for_signed_in_players_and_its_match_reaches_the_leaderboard(
    server: HardenedServer, ann: httpx.AsyncClient, bea: httpx.AsyncClient
) -> None:
    async with _client(server) as guest:
        r = await guest.post(
            "/api/tables", json={"name": "R", "players": 2, "host_name": "G", "rated": True}
        )
        assert (r.status_code, r.json()["detail"]["code"]) == (403, "profile_required")
    r = await ann.post(
        "/api/tables", json={"name": "R", "players": 2, "host_name": "Ann", "rated": True}
    )
    assert r.status_code == 201, r.text
    code, ann_token = r.json()["code"], r.json()["token"]
    assert r.json()["table"]["rated"] is True
    async with _client(server) as guest:
        r = await guest.post(f"/api/tables/{code}/join", json={"name": "G", "seat": 1})
        assert (r.status_code, r.json()["detail"]["code"]) == (403, "profile_required")
    r = await bea.post(f"/api/tables/{code}/join", json={"name": "Bea", "seat": 1})
    assert r.status_code == 200, r.text
    auth = {"Authorization": f"Bearer {ann_token}"}
    assert (await ann.post(f"/api/tables/{code}/start", headers=auth)).status_code == 200
    r = await ann.post(f"/api/tables/{code}/resign", headers=auth)
    assert r.status_code == 200, r.text

    a, b = (await ann.get("/api/profile")).json(), (await bea.get("/api/profile")).json()
    [[loser], [winner]] = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=[2, 1])
    for me, want in ((a, loser), (b, winner)):
        for pool in ("all", "2"):
            entry = await _entry(ann, me["handle"], pool)
            assert entry is not None, (pool, me)
            assert entry["kind"] == "player" and entry["display_name"] == me["display_name"]
            assert entry["rating"]["mu"] == pytest.approx(want.mu, abs=1e-3)
            assert entry["rating"]["sigma"] == pytest.approx(want.sigma, abs=1e-3)
            assert entry["rating"]["matches"] == 1 and entry["rating"]["provisional"] is True
            shown = round(1500 + 40 * (want.mu - 3 * want.sigma))
            assert entry["rating"]["rating"] == shown
        assert await _entry(ann, me["handle"], "3") is None
    # at the table: each signed-in seat's handle, display name and rating, nothing more
    async with _client(server) as guest:
        seats = (await guest.get(f"/api/tables/{code}/profiles")).json()["seats"]
        assert [(p["seat"], p["handle"]) for p in seats] == [(0, a["handle"]), (1, b["handle"])]
        assert all(set(p) == {"seat", "handle", "display_name", "rating"} for p in seats)
        assert seats[1]["rating"]["mu"] == pytest.approx(winner.mu, abs=1e-3)
        r = await guest.get("/api/tables/ZZZZZZ/profiles")
        assert (r.status_code, r.json()["detail"]["code"]) == (404, "not_found")
        plain = (
            await guest.post("/api/tables", json={"name": "P", "players": 2, "host_name": "G"})
        ).json()
        assert (await guest.get(f"/api/tables/{plain['code']}/profiles")).json() == {"seats": []}
    assert (await _entry(ann, b["handle"]))["rank"] < (await _entry(ann, a["handle"]))["rank"]  # type: ignore[index]
    assert len(query(server.db_url, "SELECT id FROM match_results WHERE table_code = ?", code)) == 1  # type: ignore[attr-defined]


async def _rated_resignation_against(http: httpx.AsyncClient, level: str) -> None:
    """A rated two-player match against a computer player, resigned at once."""
    r = await http.post(
        "/api/tables", json={"name": "R", "players": 2, "host_name": "Ann", "rated": True}
    )
    code, token = r.json()["code"], r.json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    r = await http.post(f"/api/tables/{code}/bots", json={"seat": 1, "level": level}, headers=auth)
    assert r.status_code == 200, r.text
    assert (await http.post(f"/api/tables/{code}/start", headers=auth)).status_code == 200
    assert (await http.post(f"/api/tables/{code}/resign", headers=auth)).status_code == 200


async def test_computer_players_have_ratings_by_level(
    server: HardenedServer, ann: httpx.AsyncClient
) -> None:
    await _rated_resignation_against(ann, "easy")
    levels = (await ann.get("/api/ratings/computer")).json()["levels"]
    assert set(levels) == {"easy", "medium", "hard"}
    # a level starts from its calibrated rating (app/ratings/calibration.py) and won here
    assert levels["easy"]["matches"] >= 1 and levels["easy"]["mu"] > CALIBRATED["easy"].mu
    assert levels["hard"]["rating"] > levels["medium"]["rating"] > levels["easy"]["rating"]
    board = (await ann.get("/api/leaderboard")).json()["entries"]
    assert all(
        set(e) == {"rank", "kind", "handle", "display_name", "level", "rating"} for e in board
    )
    assert all(
        set(e["rating"]) == {"rating", "mu", "sigma", "matches", "provisional"} for e in board
    )


async def test_the_leaderboard_is_bounded_and_refuses_a_bad_pool(
    server: HardenedServer, ann: httpx.AsyncClient
) -> None:
    await _rated_resignation_against(ann, "medium")  # two ratings at least: Ann's, medium's
    small = HardenedServer(server.db_url, FIVEUP_LEADERBOARD_MAX="1").start()  # type: ignore[attr-defined]
    try:
        async with httpx.AsyncClient(base_url=small.http, timeout=20) as http:
            r = await http.get("/api/leaderboard", params={"limit": 1000})
            assert r.status_code == 200 and len(r.json()["entries"]) == 1
            for params in ({"pool": "5"}, {"limit": 0}, {"limit": "x"}, {"limit": 1001}):
                r = await http.get("/api/leaderboard", params=params)
                assert (r.status_code, r.json()["detail"]["code"]) == (422, "invalid_request")
    finally:
        small.stop()
