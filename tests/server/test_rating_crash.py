"""A server process killed (SIGKILL) at the moment a rated match ends, on PostgreSQL: the
match's end — its move, its result, both players' ratings — is one transaction, so after
the restart either all of it is there or none of it; the retried last move then ends the
match once, and a second retry changes nothing. The kill lands at several moments, from
before the request reaches the server to after its answer (docs/ratings.md)."""

from __future__ import annotations

import asyncio
import contextlib

import httpx
import pytest

from .hardening_support import HardenedServer
from .rating_support import query, rating
from .test_profiles import _client, _sign_up


@pytest.fixture
def server(pg_url: str) -> HardenedServer:
    s = HardenedServer(pg_url, FIVEUP_FORWARDED_ALLOW_IPS="127.0.0.1").start()
    yield s  # type: ignore[misc]
    s.stop()


async def _profile_id(http: httpx.AsyncClient, db_url: str) -> int:
    handle = (await http.get("/api/profile")).json()["handle"]
    [(pid,)] = query(db_url, "SELECT id FROM profiles WHERE handle = ?", handle)
    return int(pid)


async def test_a_kill_at_the_match_end_leaves_all_of_it_or_none_and_the_retry_rates_once(
    server: HardenedServer, pg_url: str
) -> None:
    async with _client(server) as ann, _client(server) as bea:
        assert (await _sign_up(ann, server))[1].status_code == 200
        assert (await _sign_up(bea, server))[1].status_code == 200
        ids = [await _profile_id(ann, pg_url), await _profile_id(bea, pg_url)]
        seen = {"all": 0, "none": 0}
        for n, delay in enumerate((0.0, 0.001, 0.002, 0.004, 0.008, 0.03)):
            r = await ann.post(
                "/api/tables", json={"name": "K", "players": 2, "host_name": "Ann", "rated": True}
            )
            code, token = r.json()["code"], r.json()["token"]
            await bea.post(f"/api/tables/{code}/join", json={"name": "Bea", "seat": 1})
            auth = {"Authorization": f"Bearer {token}"}
            assert (await ann.post(f"/api/tables/{code}/start", headers=auth)).status_code == 200

            resign = asyncio.ensure_future(ann.post(f"/api/tables/{code}/resign", headers=auth))
            await asyncio.sleep(delay)
            server.kill()
            with contextlib.suppress(httpx.HTTPError):
                await resign
            server.start()

            status = (await ann.get(f"/api/tables/{code}")).json()["status"]
            results = query(pg_url, "SELECT id FROM match_results WHERE table_code = ?", code)
            moved = [rating(pg_url, "all", profile=p) for p in ids]
            if status == "finished":  # the whole end committed before the kill
                seen["all"] += 1
                assert len(results) == 1 and all(m[2] == n + 1 for m in moved)
            else:  # none of it
                seen["none"] += 1
                assert status == "playing" and results == []
                assert all((m[2] if m else 0) == n for m in moved)
                r = await ann.post(f"/api/tables/{code}/resign", headers=auth)
                assert r.status_code == 200, r.text
            r = await ann.post(f"/api/tables/{code}/resign", headers=auth)  # again: refused
            assert r.json()["detail"]["code"] == "match_not_in_play"
            assert (
                len(query(pg_url, "SELECT id FROM match_results WHERE table_code = ?", code)) == 1
            )
            assert [rating(pg_url, "all", profile=p)[2] for p in ids] == [n + 1, n + 1]
        assert sum(seen.values()) == 6
