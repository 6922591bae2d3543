"""Deploys that lose nobody (app/api/draining.py, docs/deployment.md "Restarts and
probes"): SIGTERM makes a real uvicorn process on PostgreSQL fail readiness, refuse new
work with 503, finish the move it is writing, close its sockets with 1012 and exit; the
other process serves the reconnect and plays the table's timed turns. Rolling restarts
of two processes under many tables lose, and duplicate, no acknowledged move."""

from __future__ import annotations

import argparse
import asyncio
import random
import signal
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
import websockets
from conftest import create_pg_database, drop_pg_database

from app.core.urls import libpq_dsn

from .helpers import greedy_choice
from .support import REPO, ServerProcess, WsClient, read_events, rig_deal, seat_table

# the bench's driver, from the checkout (after the installed package: ``app`` stays the
# build under test)
sys.path.append(str(REPO))
from bench.restarts import Restarts, ok, options

#: a few presence reports a second, so processes hear each other quickly
FAST_PRESENCE = {"FIVEUP_PRESENCE_TTL_SECONDS": "3"}


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A database of the test's own (in place of the session's): a process started on
    a database adopts every pending turn and deal in it (app/tables/timed_actions.py),
    so the session's other tables would keep its drain busy and its exit late."""
    url = create_pg_database("fiveup_drain")
    try:
        yield url
    finally:
        drop_pg_database(url)


async def _until(check: Callable[[], Any], timeout: float = 30) -> Any:
    """Poll ``check`` until it returns something truthy."""
    async with asyncio.timeout(timeout):
        while not (result := await check()):
            await asyncio.sleep(0.05)
        return result


@asynccontextmanager
async def _table_row_locked(pg_url: str, code: str) -> AsyncIterator[psycopg.AsyncConnection]:
    """Hold the table's row lock: a move to it waits in the database until released."""
    conn = await psycopg.AsyncConnection.connect(libpq_dsn(pg_url))
    try:
        await conn.execute("SELECT 1 FROM game_tables WHERE code = %s FOR UPDATE", (code,))
        yield conn
    finally:
        await conn.close()


async def _a_write_waits_on_the_lock(pg_url: str) -> bool:
    async with await psycopg.AsyncConnection.connect(libpq_dsn(pg_url)) as conn:
        row = await (
            await conn.execute(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = current_database() AND wait_event_type = 'Lock'"
            )
        ).fetchone()
    return bool(row and row[0])


async def _seat_mover_alone(server: ServerProcess, code: str, tokens: list[str]) -> WsClient:
    """Both seats connect, the one not to move leaves: the seat to move, connected."""
    clients = [
        await WsClient(f"{server.ws}/ws/tables/{code}?token={t}", f"seat{i}").connect()
        for i, t in enumerate(tokens)
    ]
    view = clients[0].view
    assert view is not None
    mover = clients[view["turn"]]
    for c in clients:
        if c is not mover:
            await c.close()
    return mover


def _move(client: WsClient, move_id: str, rng: random.Random) -> dict[str, Any]:
    assert client.view is not None
    return {
        "type": "move",
        "move": greedy_choice(client.view["legal"], rng),
        "move_id": move_id,
        "seq": client.last_seq,
    }


async def test_sigterm_finishes_the_move_in_flight_closes_1012_and_another_process_goes_on(
    pg_url: str,
) -> None:
    a = ServerProcess(
        pg_url, FIVEUP_DRAIN_SECONDS="60", FIVEUP_DISCONNECT_GRACE_SECONDS="600", **FAST_PRESENCE
    ).start()
    # on B an absent seat's move is due after a second: B plays it (A never would)
    b = ServerProcess(pg_url, FIVEUP_DISCONNECT_GRACE_SECONDS="1", **FAST_PRESENCE).start()
    rng = random.Random(5)
    try:
        async with httpx.AsyncClient(base_url=a.http, timeout=20) as http:
            code, tokens = await seat_table(http, 2)
        mover = await _seat_mover_alone(a, code, tokens)
        assert mover.view is not None
        seat = mover.view["you"]
        in_flight = _move(mover, "in-flight", rng)
        async with _table_row_locked(pg_url, code) as lock:
            await mover.send(in_flight)
            await _until(lambda: _a_write_waits_on_the_lock(pg_url))
            assert a.proc is not None
            a.proc.send_signal(signal.SIGTERM)
            async with httpx.AsyncClient(base_url=a.http, timeout=20) as http:

                async def not_ready() -> httpx.Response | None:
                    r = await http.get("/readyz")
                    return r if r.status_code == 503 else None

                ready = await _until(not_ready)
                assert ready.json()["detail"]["code"] == "draining"
                assert (await http.get("/livez")).status_code == 200
                refused = await http.get(f"/api/tables/{code}")
                assert refused.status_code == 503
                assert refused.json()["detail"]["code"] == "draining"
                assert refused.headers["retry-after"] == "1"
            with pytest.raises(websockets.InvalidStatus) as new_socket:
                await websockets.connect(f"{a.ws}/ws/tables/{code}?token={tokens[seat]}")
            assert new_socket.value.response.status_code == 503
            assert (httpx.get(f"{b.http}/readyz")).status_code == 200
            assert mover.closed is None  # its move is being written: the drain waits
            await lock.rollback()  # the write goes through
            await mover.wait_for(lambda c: c.closed is not None)
        acks = [f for f in mover.frames if f["type"] == "ack"]
        assert [f["move_id"] for f in acks] == ["in-flight"]  # answered, then closed
        assert mover.closed == (1012, "service restart")
        # bounded: FIVEUP_DRAIN_SECONDS and uvicorn's (waited for off the event loop, which
        # keeps serving this test's sockets)
        assert await asyncio.to_thread(a.proc.wait, 60) is not None
        events = read_events(pg_url, code)
        assert [e["move_id"] for e in events.values()].count("in-flight") == 1
        assert events[acks[0]["seq"]]["move_id"] == "in-flight"

        # the seat reconnects to B; B plays the absent seat's turn (a timed one)
        again = await WsClient(f"{b.ws}/ws/tables/{code}?token={tokens[seat]}", "B").connect()
        assert again.last_seq >= acks[0]["seq"]
        for n in range(20):  # a draw keeps the turn: play on until it passes
            if again.view is None or again.view.get("turn") != seat:
                break
            if again.view["phase"] != "playing":
                break
            reply = await again.request(_move(again, f"more-{n}", rng), ("ack", "error"))
            assert reply["type"] == "ack", reply

        def other_moved() -> bool:
            return any(
                e["kind"] == "move" and e["payload"]["seat"] != seat
                for s, e in read_events(pg_url, code).items()
                if s > acks[0]["seq"]
            )

        async def other_moved_async() -> bool:
            return other_moved()

        await _until(other_moved_async)
        await again.close()
    finally:
        a.kill()
        b.kill()


async def test_a_write_stuck_past_the_drain_bound_still_lets_the_process_exit(
    pg_url: str,
) -> None:
    a = ServerProcess(pg_url, FIVEUP_DRAIN_SECONDS="1", **FAST_PRESENCE).start()
    b = ServerProcess(pg_url, **FAST_PRESENCE).start()
    rng = random.Random(8)
    try:
        async with httpx.AsyncClient(base_url=a.http, timeout=20) as http:
            code, tokens = await seat_table(http, 2)
        mover = await _seat_mover_alone(a, code, tokens)
        assert mover.view is not None
        seat = mover.view["you"]
        in_flight = _move(mover, "stuck", rng)
        async with _table_row_locked(pg_url, code):
            await mover.send(in_flight)
            await _until(lambda: _a_write_waits_on_the_lock(pg_url))
            assert a.proc is not None
            a.proc.send_signal(signal.SIGTERM)
            await mover.wait_for(lambda c: c.closed is not None, timeout=60)
            assert mover.closed is not None and mover.closed[0] == 1012
            assert await asyncio.to_thread(a.proc.wait, 60) is not None  # lock still held
        # not acknowledged: sent again, with its id, to B — applied once
        assert not [f for f in mover.frames if f["type"] == "ack"]
        again = await WsClient(f"{b.ws}/ws/tables/{code}?token={tokens[seat]}", "B").connect()
        reply = await again.request(in_flight, ("ack", "error"))
        assert reply["type"] == "ack", reply
        events = read_events(pg_url, code)
        assert [e["move_id"] for e in events.values()].count("stuck") == 1
        await again.close()
    finally:
        a.kill()
        b.kill()


async def test_a_bot_turn_pending_on_a_draining_process_is_played_by_another(
    pg_url: str,
) -> None:
    """A's computer player would pause ten minutes, longer than A's drain bound: the
    drain cuts the turn off and A exits; B, which has no socket at the table, plays it
    (the person, gone from A, is within B's grace)."""
    a = ServerProcess(
        pg_url, FIVEUP_DRAIN_SECONDS="1", FIVEUP_BOT_DELAY_MS="600000", **FAST_PRESENCE
    ).start()
    b = ServerProcess(
        pg_url, FIVEUP_BOT_DELAY_MS="0", FIVEUP_DISCONNECT_GRACE_SECONDS="600", **FAST_PRESENCE
    ).start()
    rng = random.Random(11)
    try:
        async with httpx.AsyncClient(base_url=a.http, timeout=20) as http:
            r = await http.post(
                "/api/practice", json={"players": 2, "level": "easy", "name": "Solo"}
            )
        assert r.status_code == 201, r.text
        code, token = r.json()["code"], r.json()["token"]
        me = await WsClient(f"{a.ws}/ws/tables/{code}?token={token}", "A").connect()
        for n in range(40):  # play until it is the computer player's turn
            assert me.view is not None
            if me.view.get("turn") != 0:
                break
            reply = await me.request(_move(me, f"mine-{n}", rng), ("ack", "error"))
            assert reply["type"] == "ack", reply
        assert me.view is not None and me.view["phase"] == "playing"
        assert me.view["turn"] == 1
        before = me.last_seq
        assert a.proc is not None
        a.proc.send_signal(signal.SIGTERM)
        await me.wait_for(lambda c: c.closed is not None, timeout=60)
        assert me.closed is not None and me.closed[0] == 1012
        assert await asyncio.to_thread(a.proc.wait, 60) is not None

        async def bot_moved() -> bool:
            return any(
                e["kind"] == "move" and e["payload"]["seat"] == 1
                for s, e in read_events(pg_url, code).items()
                if s > before
            )

        await _until(bot_moved)
    finally:
        a.kill()
        b.kill()


async def test_the_next_deal_a_draining_process_was_counting_down_is_dealt_by_another(
    pg_url: str,
) -> None:
    """A round ends on A, whose countdown to the next deal is ten minutes; A drains and
    says goodbye. B, whose countdown is a second, never counted down for that table
    (no commit of its own, nobody connected to it): it takes A's pending deals over
    from the database, and deals."""
    a = ServerProcess(pg_url, FIVEUP_NEXT_ROUND_SECONDS="600", **FAST_PRESENCE).start()
    b = ServerProcess(pg_url, FIVEUP_NEXT_ROUND_SECONDS="1", **FAST_PRESENCE).start()
    try:
        async with httpx.AsyncClient(base_url=a.http, timeout=20) as http:
            code, tokens = await seat_table(http, 2)
        tiles = [f"{lo}|{hi}" for lo in range(7) for hi in range(lo, 7)]
        hands = [["6|6"], ["0|0", "0|1"]]  # seat 0 dominoes with its one tile
        stock = [t for t in tiles if t not in hands[0] + hands[1]]
        await rig_deal(pg_url, code, hands, stock, 0)
        me = await WsClient(f"{a.ws}/ws/tables/{code}?token={tokens[0]}", "A").connect()
        reply = await me.request(
            {"type": "move", "move": "6|6", "move_id": "last", "seq": me.last_seq},
            ("ack", "error"),
        )
        assert reply["type"] == "ack", reply
        assert me.view is not None and me.view["phase"] == "round_over"
        ended = me.last_seq
        assert a.proc is not None
        a.proc.send_signal(signal.SIGTERM)
        await me.wait_for(lambda c: c.closed is not None, timeout=60)
        assert me.closed is not None and me.closed[0] == 1012
        assert await asyncio.to_thread(a.proc.wait, 60) is not None

        async def dealt() -> bool:
            return any(
                e["kind"] == "round_started"
                for s, e in read_events(pg_url, code).items()
                if s > ended
            )

        await _until(dealt)
    finally:
        a.kill()
        b.kill()


async def test_rolling_restarts_lose_no_move_and_bring_every_client_back(tmp_path: Path) -> None:
    """The bench's run (bench/restarts.py), small: 20 tables, each process restarted,
    on a database of its own (its checks read every table there), its logs in the
    test's own folder."""
    args: argparse.Namespace = options(
        [
            *("--tables", "20", "--rounds", "1", "--settle", "3", "--think-ms", "300-900"),
            *("--log-dir", str(tmp_path)),
        ]
    )
    url = create_pg_database("fiveup_restarts")
    try:
        result = await Restarts(url, args).run()
    finally:
        drop_pg_database(url)
    assert ok(result), result
    assert result["restarts"] == 2
    assert result["restart_closes_1012"] > 0
    assert result["back_after_1012"] == result["restart_closes_1012"]
    assert result["acked_moves"] > 0
