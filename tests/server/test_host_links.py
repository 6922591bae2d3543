"""The host's device link for another person's seat, over real HTTP and real sockets on
PostgreSQL (docs/protocol.md, "Devices, leave, resign, replace"): refused with
``409 seat_present`` while that person has a socket on any process or has had none for
less than the presence grace (``FIVEUP_DISCONNECT_GRACE_SECONDS``); allowed once they
have been gone that long, and its claim refused again if they came back in between. The
victim, returning, finds the old token dead (4401, 401) and every socket is told the
host moved the seat (``seat_moved`` ``by: "host"``)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .support import ServerProcess, WsClient, read_events, seat_table

GRACE = 3.0
ENV = {"FIVEUP_DISCONNECT_GRACE_SECONDS": str(GRACE), "FIVEUP_BOT_DELAY_MS": "0"}


@pytest.fixture
def server(pg_url: str) -> Iterator[ServerProcess]:
    s = ServerProcess(pg_url, **ENV).start()
    yield s
    s.kill()


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _ask_link(http: httpx.AsyncClient, code: str, token: str, seat: int) -> httpx.Response:
    return await http.post(f"/api/tables/{code}/seats/{seat}/link", headers=_bearer(token))


async def _wait_presence(http: httpx.AsyncClient, code: str, seat: int, state: str) -> None:
    """Until this process's table info shows ``seat`` in ``state``."""
    for _ in range(200):
        r = await http.get(f"/api/tables/{code}")
        if r.json()["seats"][seat]["presence"] == state:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"seat {seat} never {state}")


def _refused_present(r: httpx.Response) -> None:
    assert r.status_code == 409, r.text
    assert r.json()["detail"]["code"] == "seat_present"
    assert f"gone for {GRACE:g} s" in r.json()["detail"]["message"]


async def _until_ok(ask: Any) -> httpx.Response:
    """Ask until the grace is over: every answer before it is ``seat_present``."""
    for _ in range(200):
        r: httpx.Response = await ask()
        if r.status_code == 200:
            return r
        _refused_present(r)
        await asyncio.sleep(0.1)
    raise AssertionError("the grace never ran out")


async def test_the_host_cannot_take_the_seat_of_a_player_connected_on_another_process(
    pg_url: str,
) -> None:
    a = ServerProcess(pg_url, **ENV).start()
    b = ServerProcess(pg_url, **ENV).start()
    try:
        async with (
            httpx.AsyncClient(base_url=a.http, timeout=20) as http,
            httpx.AsyncClient(base_url=b.http, timeout=20) as http_b,
        ):
            code, tokens = await seat_table(http, 4)
            await asyncio.sleep(GRACE)  # every seat was seated long ago: only sockets count
            victim = await WsClient(f"{b.ws}/ws/tables/{code}?token={tokens[2]}", "B2").connect()
            await _wait_presence(http, code, 2, "connected")  # process A heard B
            _refused_present(await _ask_link(http, code, tokens[0], 2))
            _refused_present(await _ask_link(http_b, code, tokens[0], 2))
            kinds = [e["kind"] for e in read_events(a.database_url, code).values()]
            assert "link_issued" not in kinds  # a refusal changes nothing
            # a seat with no socket for the grace: the host may (seat 3 never connected)
            r = await _ask_link(http, code, tokens[0], 3)
            assert r.status_code == 200, r.text
            # the seat's own player may always ask, connected or not
            r = await _ask_link(http, code, tokens[2], 2)
            assert r.status_code == 200 and r.json()["seat"] == 2
            assert victim.closed is None
            await victim.close()
    finally:
        a.kill()
        b.kill()


async def test_the_host_moves_the_seat_of_a_player_gone_past_the_grace_and_the_victim_is_told(
    server: ServerProcess,
) -> None:
    async with httpx.AsyncClient(base_url=server.http, timeout=20) as http:
        code, tokens = await seat_table(http, 2)
        url = f"{server.ws}/ws/tables/{code}"
        host = await WsClient(f"{url}?token={tokens[0]}", "host").connect()
        victim = await WsClient(f"{url}?token={tokens[1]}", "victim").connect()
        await _wait_presence(http, code, 1, "connected")
        _refused_present(await _ask_link(http, code, tokens[0], 1))
        await victim.close()
        await _wait_presence(http, code, 1, "disconnected")
        r = await _ask_link(http, code, tokens[0], 1)  # gone, but for less than the grace
        _refused_present(r)
        assert "left less than" in r.json()["detail"]["message"]
        r = await _until_ok(lambda: _ask_link(http, code, tokens[0], 1))
        link = r.json()["link"].split("#seat=", 1)[1]
        seen = await http.post(f"/api/tables/{code}/claim/seat", json={"link": link})
        assert seen.status_code == 200 and seen.json() == {"seat": 1, "by": "host"}

        # the player comes back before the link is used: the claim is refused
        back = await WsClient(f"{url}?token={tokens[1]}", "victim-back").connect()
        await _wait_presence(http, code, 1, "connected")
        _refused_present(await http.post(f"/api/tables/{code}/claim", json={"link": link}))
        assert back.closed is None
        await back.close()
        r = await _until_ok(lambda: http.post(f"/api/tables/{code}/claim", json={"link": link}))
        joined = r.json()
        assert joined["seat"] == 1 and joined["token"] not in tokens

        # everyone is told the host moved the seat; the new device has seat 1
        await host.wait_for(
            lambda c: any(
                f["type"] == "event" and f["event"]["type"] == "seat_moved" for f in c.frames
            )
        )
        moved = [
            f["event"]
            for f in host.frames
            if f["type"] == "event" and f["event"]["type"] == "seat_moved"
        ]
        assert moved == [{"type": "seat_moved", "seat": 1, "by": "host"}]
        new = await WsClient(f"{url}?token={joined['token']}", "new").connect()
        assert new.closed is None and new.frames[0]["you"] == 1
        # the victim, returning: the old token is dead, on a socket and over HTTP
        again = await WsClient(f"{url}?token={tokens[1]}", "victim-again").connect()
        assert again.closed is not None and again.closed[0] == 4401
        r = await http.post(f"/api/tables/{code}/resign", headers=_bearer(tokens[1]))
        assert r.status_code == 401
        for c in (host, new):
            await c.close()


async def test_a_seat_moved_with_its_own_link_says_so(server: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=server.http, timeout=20) as http:
        code, tokens = await seat_table(http, 2)
        url = f"{server.ws}/ws/tables/{code}"
        old = await WsClient(f"{url}?token={tokens[1]}", "old").connect()
        watcher = await WsClient(url, "watcher").connect()
        r = await _ask_link(http, code, tokens[1], 1)
        link = r.json()["link"].split("#seat=", 1)[1]
        seen = await http.post(f"/api/tables/{code}/claim/seat", json={"link": link})
        assert seen.json() == {"seat": 1, "by": "seat"}
        assert (await http.post(f"/api/tables/{code}/claim", json={"link": link})).is_success
        await old.wait_for(lambda c: c.closed is not None)
        assert old.closed == (4410, "this seat moved to another device")
        await watcher.wait_for(
            lambda c: any(f.get("event", {}).get("type") == "seat_moved" for f in c.frames)
        )
        moved = [
            f["event"]
            for f in watcher.frames
            if f["type"] == "event" and f["event"]["type"] == "seat_moved"
        ]
        assert moved == [{"type": "seat_moved", "seat": 1, "by": "seat"}]
        unknown = await http.post(f"/api/tables/{code}/claim/seat", json={"link": link})
        assert unknown.status_code == 404 and unknown.json()["detail"]["code"] == "link_used"
        await watcher.close()
