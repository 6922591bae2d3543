"""Tables nobody is at are not played (app/tables/autopilot.py, ``AutopilotRules.stopped``):
once every person seated at a table has had no socket on any process for the grace, its
computer players and the autopilot stop; a person's socket opening plays the pending turn
again. The lobby lists only tables with a person there (so "Watch a live table" offers
only those), on every process; the sweep closes a table its people left for
``FIVEUP_ABANDONED_TABLE_SECONDS`` even while its computer players still move.

And a computer player's move time tells nothing of its hand (app/tables/bot_turns.py):
its move comes a target drawn from ``FIVEUP_BOT_DELAY_MS`` after its turn, the thinking
included, so a turn with one legal move is no quicker than one with many."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
from conftest import create_pg_database, drop_pg_database

from app.core.settings import Settings
from app.db.rows import EventRecord
from app.engine.views import legal_entries
from app.main import make_store
from app.tables.autopilot import AutopilotRules
from app.tables.bot_turns import BotSettings, pause_after
from app.tables.service import TableService

from .helpers import SetPresence, current_match, greedy_choice
from .support import ServerProcess, WsClient, read_events

GRACE = 0.3


# -- service level, on each store ----------------------------------------------------------
@pytest.fixture
def gone() -> dict[int, float]:
    """Seat -> since when its person has had no socket (absent: a socket is open)."""
    return {}


@pytest.fixture
async def svc(db_url: str, gone: dict[int, float]) -> AsyncIterator[TableService]:
    service = TableService(
        make_store(Settings(database_url=db_url)),
        next_round_seconds=0,
        bot_settings=BotSettings(delay_ms=(0, 0)),
        delivery=SetPresence(
            lambda _tid: [s for s in (0,) if s not in gone], lambda _tid, seat: gone.get(seat)
        ),
        autopilot_rules=AutopilotRules(level="easy", handover_moves=2, grace_seconds=GRACE),
    )
    yield service
    await service.close()


async def _events(service: TableService, table_id: int) -> list[EventRecord]:
    cu = await service.store.catchup(table_id, 0, 10_000)
    assert cu is not None
    return cu.events


def _computer_moves(events: list[EventRecord]) -> int:
    return sum(1 for e in events if (e.move_id or "").startswith(("bot-", "auto-")))


async def test_bots_stop_at_a_table_whose_person_left_and_play_when_she_is_back(
    svc: TableService, gone: dict[int, float]
) -> None:
    gone[0] = time.time() - 10 * GRACE  # Ann's page closed long ago (longer than the grace)
    joined = await svc.practice(2, "easy", "Ann")
    tid = await svc.table_id(joined.code)
    await asyncio.sleep(10 * GRACE)  # the bot's turn, or the autopilot's, would be played
    stopped = await _events(svc, tid)
    assert _computer_moves(stopped) == 0, "a computer player moved at a table nobody is at"
    assert (await svc.info(joined.code)).status == "playing"
    del gone[0]  # her socket opens
    svc.presence_changed(tid)
    rng = random.Random(2)
    async with asyncio.timeout(60):  # she plays her turns; the bot plays its own again
        while _computer_moves(await _events(svc, tid)) == 0:
            m, table = await current_match(svc, joined.code)
            if m.turn == 0 and not m.round_over:
                move = greedy_choice(legal_entries(m, 0), rng)
                await svc.act(tid, joined.token, move, seq=table.seq)
            await asyncio.sleep(0.02)


async def test_the_autopilot_plays_for_one_absent_person_while_another_is_there(
    db_url: str,
) -> None:
    absent: dict[tuple[int, int], float] = {}
    service = TableService(
        make_store(Settings(database_url=db_url)),
        next_round_seconds=0,
        bot_settings=BotSettings(delay_ms=(0, 0)),
        autopilot_rules=AutopilotRules(level="easy", handover_moves=2, grace_seconds=GRACE),
        delivery=SetPresence(absent=lambda tid, seat: absent.get((tid, seat))),
    )
    try:
        created = await service.create("Two", 2, False, "Ann", "none")
        bob = await service.join(created.code, "Bob", 1)
        await service.start(created.code, created.token)
        tid = await service.table_id(created.code)
        absent[(tid, 0)] = time.time()  # Ann left; Bob is still there
        service.presence_changed(tid)
        rng = random.Random(3)
        async with asyncio.timeout(60):
            while _computer_moves(await _events(service, tid)) == 0:
                m, table = await current_match(service, created.code)
                if m.turn == 1 and not m.round_over:
                    move = greedy_choice(legal_entries(m, 1), rng)
                    await service.act(tid, bob.token, move, seq=table.seq)
                await asyncio.sleep(0.02)
        # Bob leaves too: after the grace nobody plays for either of them
        absent[(tid, 1)] = time.time()
        service.presence_changed(tid)
        await asyncio.sleep(2 * GRACE)
        settled = len(await _events(service, tid))
        await asyncio.sleep(5 * GRACE)
        assert len(await _events(service, tid)) == settled
    finally:
        await service.close()


# -- a bot's time from its turn to its move ------------------------------------------------
def test_the_pause_makes_up_the_target_whatever_the_thinking_took() -> None:
    rng = random.Random(11)
    for _ in range(1000):
        target = rng.uniform(0.6, 1.2)
        thinking = rng.choice([0.0, rng.uniform(0, 0.001), rng.uniform(0, 1.5)])
        pause = pause_after(target, thinking)
        assert pause >= 0
        assert thinking + pause == pytest.approx(max(target, thinking), abs=1e-8)


async def test_a_bot_with_one_legal_move_waits_as_long_as_one_with_many(
    db_url: str,
) -> None:
    """Over many turns of ``medium`` bots: each turn's scheduled time from the turn to the
    move (thinking + pause) is its target, drawn from the range before the position is
    looked at — the same for the turns with a single legal move and the others."""
    lo, hi = 100, 200
    service = TableService(
        make_store(Settings(database_url=db_url)),
        next_round_seconds=0,
        bot_settings=BotSettings(delay_ms=(lo, hi), pool=1),
    )
    try:
        joined = await service.practice(4, "medium", "Ann")
        tid = await service.table_id(joined.code)
        times = service.bot_turns.turn_times
        rng = random.Random(4)

        def enough() -> bool:
            ones = sum(1 for t in times if t.choices == 1)
            return len(times) >= 60 and 5 <= ones <= len(times) - 5

        async with asyncio.timeout(120):
            while not enough():
                m, table = await current_match(service, joined.code)
                if m.turn == 0 and not m.round_over:
                    move = greedy_choice(legal_entries(m, 0), rng)
                    await service.act(tid, joined.token, move, seq=table.seq)
                elif m.round_over and (await service.info(joined.code)).status != "playing":
                    await service.rematch(joined.code, joined.token)
                await asyncio.sleep(0.01)
        for t in times:
            assert lo / 1000 <= t.target <= hi / 1000
            assert t.pause == pause_after(t.target, t.thinking)
            assert t.thinking + t.pause == pytest.approx(max(t.target, t.thinking), abs=1e-8)
        # (a turn whose thinking alone outlasted its target: the pool starting, a loaded
        # machine — that says nothing of the position either)
        within = [t for t in times if t.thinking < t.target]
        assert {t.choices == 1 for t in within} == {True, False}
        assert all(t.thinking + t.pause == pytest.approx(t.target, abs=1e-8) for t in within)
    finally:
        await service.close()


# -- live servers: two processes on one PostgreSQL database ---------------------------------
LIVE_ENV = {
    "FIVEUP_DISCONNECT_GRACE_SECONDS": "1.5",
    "FIVEUP_PRESENCE_TTL_SECONDS": "1.5",  # a report every 0.5 s
    "FIVEUP_BOT_DELAY_MS": "30",
    "FIVEUP_ABANDONED_TABLE_SECONDS": "0",
}


@pytest.fixture(scope="module")
def empty_db() -> Iterator[str]:
    url = create_pg_database("fiveup_empty")
    try:
        yield url
    finally:
        drop_pg_database(url)


async def _lobby(server: ServerProcess) -> set[str]:
    async with httpx.AsyncClient(base_url=server.http, timeout=20) as http:
        r = await http.get("/api/tables")
    assert r.status_code == 200
    return {e["code"] for e in r.json()["tables"]}


async def _listed(servers: list[ServerProcess], code: str, listed: bool) -> None:
    """Poll every process's lobby until the table is (or is not) in it."""
    async with asyncio.timeout(30):
        while [code in await _lobby(s) for s in servers] != [listed] * len(servers):
            await asyncio.sleep(0.1)


async def _play_until_a_computer_moved(client: WsClient, code: str, db: str, after: int) -> None:
    """The person plays her turns until a computer player's move lands after ``after``."""
    rng = random.Random(6)
    async with asyncio.timeout(60):
        while not any(
            seq > after and (e["move_id"] or "").startswith("bot-")
            for seq, e in read_events(db, code).items()
        ):
            view = client.view
            if view is not None and view.get("phase") == "playing" and view["turn"] == 0:
                move = greedy_choice(view["legal"], rng)
                await client.request(
                    {
                        "type": "move",
                        "move": move,
                        "move_id": f"m{client.last_seq}",
                        "seq": client.last_seq,
                    },
                    ("ack", "error"),
                )
            await asyncio.sleep(0.05)


async def test_a_table_its_people_left_stops_leaves_every_lobby_and_resumes_when_one_is_back(
    empty_db: str,
) -> None:
    a = ServerProcess(empty_db, **LIVE_ENV).start()
    b = ServerProcess(empty_db, **LIVE_ENV).start()
    try:
        async with httpx.AsyncClient(base_url=a.http, timeout=20) as http:
            r = await http.post(
                "/api/tables", json={"name": "Left", "players": 2, "public": True, "host_name": "H"}
            )
            code, token = r.json()["code"], r.json()["token"]
            auth = {"Authorization": f"Bearer {token}"}
            r = await http.post(
                f"/api/tables/{code}/bots", json={"seat": 1, "level": "easy"}, headers=auth
            )
            assert r.status_code == 200, r.text
            assert (await http.post(f"/api/tables/{code}/start", headers=auth)).status_code == 200
        assert code not in await _lobby(a)  # nobody's page is open yet
        there = await WsClient(f"{b.ws}/ws/tables/{code}?token={token}", "host").connect()
        await _listed([a, b], code, True)  # the host is on b: a lists it too
        await _play_until_a_computer_moved(there, code, empty_db, 0)
        await there.close()
        await _listed([a, b], code, False)
        await asyncio.sleep(3)  # the grace (1.5 s) and then some
        stopped = max(read_events(empty_db, code))
        await asyncio.sleep(3)  # a bot's pause is 30 ms: it would have moved many times
        assert max(read_events(empty_db, code)) == stopped, "played at a table nobody is at"
        back = await WsClient(f"{a.ws}/ws/tables/{code}?token={token}", "host").connect()
        await _listed([a, b], code, True)
        await _play_until_a_computer_moved(back, code, empty_db, stopped)
        await back.close()
    finally:
        a.stop()
        b.stop()
    assert "Traceback" not in a.log_text() + b.log_text()


async def test_the_sweep_closes_a_table_its_person_left_though_moves_are_still_played(
    empty_db: str,
) -> None:
    # a long grace (the computer players and the turn clock's autopilot go on), a short
    # absence before the sweep closes the table
    server = ServerProcess(
        empty_db,
        **{
            **LIVE_ENV,
            "FIVEUP_DISCONNECT_GRACE_SECONDS": "600",
            "FIVEUP_CLOCK_FAST_MOVE_SECONDS": "0.2",
            "FIVEUP_CLOCK_FAST_BANK_SECONDS": "0",
            "FIVEUP_ABANDONED_TABLE_SECONDS": "2",
            "FIVEUP_SWEEP_INTERVAL_SECONDS": "0.2",
        },
    ).start()
    try:
        async with httpx.AsyncClient(base_url=server.http, timeout=20) as http:
            r = await http.post(
                "/api/practice",
                json={"players": 2, "level": "easy", "name": "Solo", "clock": "fast"},
            )
            assert r.status_code == 201, r.text
            code, token = r.json()["code"], r.json()["token"]
            me = await WsClient(f"{server.ws}/ws/tables/{code}?token={token}", "me").connect()
            await me.close()
            left = max(read_events(empty_db, code))
            async with asyncio.timeout(60):
                while (await http.get(f"/api/tables/{code}")).json()["status"] != "closed":
                    await asyncio.sleep(0.1)
        events = read_events(empty_db, code)
        closed = max(events)
        assert events[closed]["payload"] == {"type": "closed", "reason": "abandoned"}
        moved = [s for s in events if left < s < closed and events[s]["move_id"]]
        assert moved, "no move was played between the person leaving and the close"
    finally:
        server.stop()
