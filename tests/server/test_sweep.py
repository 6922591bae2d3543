"""Abandoned tables are closed and swept (app/tables/sweep.py): a table
nothing changed at and no person has had a socket at for the (here tiny) timeout is
closed through the write path, leaves the lobby and stays readable; a person's open
socket keeps it; its computer players stop; two processes close it once.

The live tests run real uvicorn processes on a database of their own (their sweep would
close every idle table of a shared one)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
from conftest import create_pg_database, drop_pg_database

from app.tables.errors import TableError
from app.tables.service import TableService
from app.tables.sweep import Sweep

from .helpers import seated
from .support import ServerProcess, WsClient, read_events

#: one second of absence closes a table; sweeps every 0.2 s; bots pause 2 s per move
SWEEP_ENV = {
    "FIVEUP_ABANDONED_TABLE_SECONDS": "1",
    "FIVEUP_SWEEP_INTERVAL_SECONDS": "0.2",
    "FIVEUP_BOT_DELAY_MS": "2000",
}


# -- the sweep and the store's query, on each store ----------------------------------------
async def test_an_idle_table_without_persons_is_closed_once_on_each_store(
    service: TableService,
) -> None:
    code, tid, _tokens = await seated(service, 2, start=False)
    now = [0.0]
    sweep = Sweep(
        service.store,
        service.close_abandoned,
        service.delivery.connected_seats,
        timeout=0.05,
        interval=0.01,
        clock=lambda: now[0],
    )
    await asyncio.sleep(0.2)  # idle for longer than the timeout, by the database's clock
    # (other tests' idle tables may share this database: only this table is asserted on)
    assert tid not in await sweep.once()  # first seen without a person: absence counted now
    version = (await service.writer.load(tid)).table.version
    now[0] = 1.0
    assert tid in await sweep.once()
    info = await service.info(code)
    assert info.status == "closed"
    assert code not in {e.code for e in await service.lobby()}
    last = (await service.store.match_events(tid, 0))[-1]
    assert last.payload == {"type": "closed", "reason": "abandoned"}
    # another process's sweep that saw the same idle table changes nothing
    assert await service.close_abandoned(tid, version) is False
    assert tid not in await sweep.once()
    with pytest.raises(TableError) as err:
        await service.join(code, "Late", 1)
    assert err.value.code == "table_closed"


async def test_a_table_that_changed_is_not_closed_on_the_version_it_was_seen_at(
    service: TableService,
) -> None:
    code, tid, tokens = await seated(service, 2, start=False)
    version = (await service.writer.load(tid)).table.version
    await service.change_seat(code, tokens[1], 1)  # no change: same seat
    await service.leave(code, tokens[1])  # a change: the version moves on
    assert await service.close_abandoned(tid, version) is False
    assert (await service.info(code)).status == "waiting"


# -- live servers --------------------------------------------------------------------------
@pytest.fixture(scope="module")
def sweep_db() -> Iterator[str]:
    url = create_pg_database("fiveup_sweep")
    try:
        yield url
    finally:
        drop_pg_database(url)


@pytest.fixture(scope="module")
def sweeper(sweep_db: str) -> Iterator[ServerProcess]:
    server = ServerProcess(sweep_db, **SWEEP_ENV).start()
    yield server
    server.stop()


@pytest.fixture
async def http(sweeper: ServerProcess) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=sweeper.http, timeout=20) as client:
        yield client


async def _create(http: httpx.AsyncClient, players: int = 2) -> dict[str, Any]:
    r = await http.post(
        "/api/tables", json={"name": "Sweep", "players": players, "public": True, "host_name": "H"}
    )
    assert r.status_code == 201, r.text
    created: dict[str, Any] = r.json()
    return created


async def _status_becomes(http: httpx.AsyncClient, code: str, status: str) -> None:
    """Poll the table until it has ``status`` (a generous deadline, not a measurement)."""
    async with asyncio.timeout(60):
        while (await http.get(f"/api/tables/{code}")).json()["status"] != status:
            await asyncio.sleep(0.1)


async def test_a_waiting_table_whose_host_left_is_closed_and_leaves_the_lobby(
    sweeper: ServerProcess, http: httpx.AsyncClient
) -> None:
    created = await _create(http)
    code, token = created["code"], created["token"]
    host = await WsClient(f"{sweeper.ws}/ws/tables/{code}?token={token}", "host").connect()
    watcher = await WsClient(f"{sweeper.ws}/ws/tables/{code}", "spectator").connect()
    lobby = (await http.get("/api/tables")).json()["tables"]
    assert code in {e["code"] for e in lobby}
    await host.close()  # the person is gone; a spectator is not a person
    await watcher.wait_for(
        lambda c: any(f["type"] == "event" and f["event"]["type"] == "closed" for f in c.frames),
        timeout=60,
    )
    closed = next(
        f for f in watcher.frames if f["type"] == "event" and f["event"]["type"] == "closed"
    )
    assert closed["event"] == {"type": "closed", "reason": "abandoned"}
    assert watcher.table is not None and watcher.table["status"] == "closed"
    await watcher.close()
    # gone from the lobby, still readable, closed to joining
    lobby = (await http.get("/api/tables")).json()["tables"]
    assert code not in {e["code"] for e in lobby}
    r = await http.get(f"/api/tables/{code}")
    assert r.status_code == 200 and r.json()["status"] == "closed"
    assert (await http.get(f"/api/tables/{code}/history")).status_code == 200
    r = await http.post(f"/api/tables/{code}/join", json={"name": "Late", "seat": 1})
    assert r.status_code == 409 and r.json()["detail"]["code"] == "table_closed"


async def test_a_playing_table_with_a_person_connected_is_not_closed(
    sweeper: ServerProcess, http: httpx.AsyncClient
) -> None:
    created = await _create(http)
    code, tokens = created["code"], [created["token"]]
    r = await http.post(f"/api/tables/{code}/join", json={"name": "P1", "seat": 1})
    tokens.append(r.json()["token"])
    auth = {"Authorization": f"Bearer {tokens[0]}"}
    assert (await http.post(f"/api/tables/{code}/start", headers=auth)).status_code == 200
    staying = await WsClient(f"{sweeper.ws}/ws/tables/{code}?token={tokens[1]}", "p1").connect()
    # a table created later, nobody at it: once it is closed, the sweep has looked at the
    # playing table, idle for longer, at least as long
    witness = (await _create(http))["code"]
    await _status_becomes(http, witness, "closed")
    assert (await http.get(f"/api/tables/{code}")).json()["status"] == "playing"
    await staying.close()  # the last person goes: now it is closed too
    await _status_becomes(http, code, "closed")
    r = await http.get(f"/api/tables/{code}/record.json")
    assert r.status_code in (200, 404)  # readable: a record of its finished rounds, if any


async def test_a_table_of_bots_whose_person_left_is_closed_and_its_bots_stop(
    sweeper: ServerProcess, http: httpx.AsyncClient, sweep_db: str
) -> None:
    r = await http.post("/api/practice", json={"players": 4, "level": "easy", "name": "Solo"})
    assert r.status_code == 201, r.text
    code, token = r.json()["code"], r.json()["token"]
    me = await WsClient(f"{sweeper.ws}/ws/tables/{code}?token={token}", "me").connect()
    await me.close()
    await _status_becomes(http, code, "closed")
    events = read_events(sweep_db, code)
    last = max(events)
    assert events[last]["payload"] == {"type": "closed", "reason": "abandoned"}
    # a bot whose turn was pending (2 s pause) finds the table closed and plays nothing
    await asyncio.sleep(3)
    assert max(read_events(sweep_db, code)) == last
    r = await http.post(f"/api/tables/{code}/rematch", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 409 and r.json()["detail"]["code"] == "table_closed"


async def test_two_processes_sweeping_one_table_close_it_once(
    sweeper: ServerProcess, http: httpx.AsyncClient, sweep_db: str
) -> None:
    other = ServerProcess(sweep_db, **SWEEP_ENV).start()
    try:
        codes = [(await _create(http))["code"] for _ in range(4)]
        for code in codes:
            await _status_becomes(http, code, "closed")
        witness = (await _create(http))["code"]  # both processes swept again meanwhile
        await _status_becomes(http, witness, "closed")
        for code in [*codes, witness]:
            kinds = [e["kind"] for e in read_events(sweep_db, code).values()]
            assert kinds.count("closed") == 1, (code, kinds)
    finally:
        other.stop()
    assert "Traceback" not in other.log_text()


async def test_a_person_connected_to_another_process_keeps_the_table_open(
    sweeper: ServerProcess, http: httpx.AsyncClient, sweep_db: str
) -> None:
    # the other process does not sweep: only this one's view of presence decides
    other = ServerProcess(sweep_db, FIVEUP_ABANDONED_TABLE_SECONDS="0").start()
    try:
        created = await _create(http)
        code, token = created["code"], created["token"]
        there = await WsClient(f"{other.ws}/ws/tables/{code}?token={token}", "host").connect()
        witness = (await _create(http))["code"]
        await _status_becomes(http, witness, "closed")
        assert (await http.get(f"/api/tables/{code}")).json()["status"] == "waiting"
        await there.close()
        await _status_becomes(http, code, "closed")
    finally:
        other.stop()
