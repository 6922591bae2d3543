"""The turn clock over real sockets on PostgreSQL with real uvicorn processes
(docs/protocol.md, "Clock and autopilot"): a clock runs out and the autopilot plays,
flagged, every frame checked by the hidden-information oracle; the seat goes on
autopilot and its player's move takes it back; two processes with the same clock play
each expiry once; a SIGKILLed server's clock fires after the restart; a database outage
at the deadline delays the autopilot move until the database is back, once.

Clocks are a second or so (settings); the tests poll with generous deadlines and never
assert how long anything took."""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import httpx
import psycopg
import pytest
from conftest import create_pg_database, drop_pg_database

from app.core.clock_presets import Presets
from app.core.settings import Settings
from app.core.urls import libpq_dsn
from app.main import make_store
from app.tables.autopilot import AutopilotRules
from app.tables.bot_turns import BotSettings
from app.tables.service import TableService

from .helpers import current_match, greedy_choice
from .oracle import check_frames
from .support import ServerProcess, WsClient, read_events, replay_states
from .test_contracts import check_frame
from .test_outages import cut_off, own_db

__all__ = ["own_db"]  # the fixture: a database of this test's own, to cut off


@pytest.fixture
def clock_db() -> Iterator[str]:
    """A database of this test's own: a server resumes at start-up every table in play it
    finds (bots, clocks, autopilot seats), and other tests' tables left in play in the
    session's database would keep it busy while this test waits for its clock."""
    url = create_pg_database("fiveup_clock")
    try:
        yield url
    finally:
        drop_pg_database(url)


CLOCK = {
    "FIVEUP_CLOCK_RELAXED_MOVE_SECONDS": "1",
    "FIVEUP_BOT_DELAY_MS": "0",
    "FIVEUP_AUTOPILOT_LEVEL": "easy",
}


async def _plays_his_turns(player: WsClient, rng: random.Random) -> None:
    """A present person who moves on each of his turns (until cancelled)."""
    seen = -1
    while True:
        await player.wait_for(
            lambda c, after=seen: (  # type: ignore[misc]
                c.view is not None and bool(c.view["legal"]) and c.last_seq > after
            ),
            timeout=600,
        )
        assert player.view is not None
        seen = player.last_seq
        await player.send(
            {
                "type": "move",
                "move": greedy_choice(player.view["legal"], rng),
                "move_id": uuid.uuid4().hex,
                "seq": seen,
            }
        )


async def _clock_table(
    server: ServerProcess, clock: str = "relaxed", *, bob: list[str] | None = None
) -> tuple[str, str]:
    """Ann (seat 0, host) and an easy bot (seat 1) at a clock table, started; with
    ``bob`` (a list to receive his token), Bob, a person, in seat 1 instead."""
    async with httpx.AsyncClient(base_url=server.http, timeout=20) as http:
        r = await http.post(
            "/api/tables",
            json={
                "name": "Clock",
                "players": 2,
                "public": False,
                "host_name": "Ann",
                "clock": clock,
            },
        )
        assert r.status_code == 201, r.text
        code, token = r.json()["code"], r.json()["token"]
        assert r.json()["table"]["clock"]["preset"] == clock
        auth = {"Authorization": f"Bearer {token}"}
        if bob is None:
            r = await http.post(
                f"/api/tables/{code}/bots", json={"seat": 1, "level": "easy"}, headers=auth
            )
        else:
            r = await http.post(f"/api/tables/{code}/join", json={"name": "Bob", "seat": 1})
            bob.append(r.json()["token"])
        assert r.status_code == 200, r.text
        r = await http.post(f"/api/tables/{code}/start", headers=auth)
        assert r.status_code == 200, r.text
    return code, token


def _autopilot_moves(events: dict[int, dict[str, Any]], seat: int = 0) -> list[int]:
    """The seqs of autopilot moves; each is ``auto-<seq before it>`` by ``seat``, and no
    other move is flagged or carries an ``auto-`` id."""
    seqs = []
    for seq, e in sorted(events.items()):
        p = e["payload"]
        if p.get("type") != "move":
            continue
        if p.get("autopilot"):
            assert p["seat"] == seat and e["move_id"] == f"auto-{seq - 1}", (seq, e)
            seqs.append(seq)
        else:
            assert not str(e["move_id"] or "").startswith("auto-"), (seq, e)
    return seqs


async def _events_until(url: str, code: str, done: Any, timeout: float = 60) -> dict[int, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        events = read_events(url, code)
        if done(events):
            return events
        await asyncio.sleep(0.1)
    raise AssertionError("the table never got there")


def _kinds(events: dict[int, dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e["payload"] for _, e in sorted(events.items()) if e["kind"] == kind]


async def test_clock_expiry_autopilot_handover_and_the_players_move_takes_the_seat_back(
    clock_db: str,
) -> None:
    server = ServerProcess(
        clock_db,
        **{**CLOCK, "FIVEUP_BOT_DELAY_MS": "1500", "FIVEUP_AUTOPILOT_HANDOVER_MOVES": "2"},
    ).start()
    try:
        code, token = await _clock_table(server)
        url = f"{server.ws}/ws/tables/{code}"
        ann = await WsClient(f"{url}?token={token}", "seat0").connect()
        watcher = await WsClient(url, "spectator").connect()
        assert ann.table is not None and ann.table["clock"]["move_seconds"] == 1.0
        # Ann does not move: her clock runs out, the autopilot plays for her, twice ...
        await ann.wait_for(
            lambda c: c.table is not None and c.table["seats"][0]["autopilot"], timeout=60
        )
        flagged = [
            f for f in ann.frames if f["type"] == "event" and f["event"].get("autopilot") is True
        ]
        assert flagged and all(f["event"]["seat"] == 0 for f in flagged)
        on = [f["event"] for f in ann.frames if f["type"] == "event"]
        assert {"type": "autopilot", "seat": 0, "on": True} in on
        # ... and now plays like a bot (after the bots' pause): Ann moves on her turn
        rng = random.Random(2)
        for _ in range(20):
            await ann.wait_for(
                lambda c: (
                    c.view is not None
                    and (bool(c.view["legal"]) or c.view["phase"] == "match_over")
                ),
                timeout=60,
            )
            assert ann.view is not None
            if not ann.view["legal"]:
                break
            reply = await ann.request(
                {
                    "type": "move",
                    "move": greedy_choice(ann.view["legal"], rng),
                    "move_id": uuid.uuid4().hex,
                    "seq": ann.last_seq,
                },
                ("ack", "error"),
            )
            if reply["type"] == "ack":
                break
            assert reply["code"] == "stale", reply  # the autopilot was first: next turn
        await ann.wait_for(lambda c: c.table is not None and not c.table["seats"][0]["autopilot"])
        await watcher.wait_for(lambda c: c.last_seq >= ann.last_seq)
        events = read_events(clock_db, code)
        assert len(_autopilot_moves(events)) >= 2
        toggles = _kinds(events, "autopilot")
        assert {"type": "autopilot", "seat": 0, "on": False} in toggles
        states = replay_states(events)
        check_frames(ann.frames, 0, states, "seat0")
        check_frames(watcher.frames, None, states, "spectator")
        for c in (ann, watcher):  # every frame, the autopilot's too, matches its model
            for frame in c.frames:
                check_frame(frame)
        for c in (ann, watcher):
            await c.close()
    finally:
        server.kill()


async def test_two_processes_with_a_clock_expiring_play_each_autopilot_move_once(
    clock_db: str,
) -> None:
    env = {**CLOCK, "FIVEUP_AUTOPILOT_HANDOVER_MOVES": "1000"}
    a = ServerProcess(clock_db, **env).start()
    b = ServerProcess(clock_db, **env)
    try:
        code, token = await _clock_table(a)
        b.start()  # B finds the running clock at start-up; A knows it from its commits
        ann = await WsClient(f"{a.ws}/ws/tables/{code}?token={token}", "seat0-a").connect()
        watcher = await WsClient(f"{b.ws}/ws/tables/{code}", "spectator-b").connect()
        events = await _events_until(clock_db, code, lambda ev: len(_autopilot_moves(ev)) >= 4)
        await watcher.wait_for(lambda c: c.last_seq >= max(events))
        await ann.wait_for(lambda c: c.last_seq >= max(events))
        events = read_events(clock_db, code)
        auto = _autopilot_moves(events)  # one id per state: never two moves for one expiry
        assert len(auto) >= 4
        states = replay_states(events)  # the engine accepts the whole record (R8: turns)
        check_frames(ann.frames, 0, states, "seat0-a")
        check_frames(watcher.frames, None, states, "spectator-b")
        for c in (ann, watcher):
            await c.close()
    finally:
        a.kill()
        b.kill()


def _stored_deadline(url: str, code: str) -> tuple[int, datetime | None, int | None]:
    with psycopg.connect(libpq_dsn(url)) as conn:
        row = conn.execute(
            "SELECT seq, turn_deadline, (state->'round'->>'turn')::int FROM game_tables WHERE code = %s",
            (code,),
        ).fetchone()
    assert row is not None
    return row[0], row[1], row[2]


def _event_time(url: str, code: str, seq: int) -> datetime:
    with psycopg.connect(libpq_dsn(url)) as conn:
        row = conn.execute(
            "SELECT e.created_at FROM table_events e JOIN game_tables t ON t.id = e.table_id"
            " WHERE t.code = %s AND e.seq = %s",
            (code, seq),
        ).fetchone()
    assert row is not None
    return row[0]  # type: ignore[no-any-return]


async def test_sigkill_while_a_clock_runs_then_restart_plays_the_autopilot_move_once(
    clock_db: str,
) -> None:
    env = {**CLOCK, "FIVEUP_CLOCK_RELAXED_MOVE_SECONDS": "3"}
    server = ServerProcess(clock_db, **env).start()
    try:
        code, _token = await _clock_table(server)
        await _events_until(clock_db, code, lambda ev: _stored_deadline(clock_db, code)[2] == 0)
        seq, deadline, _ = _stored_deadline(clock_db, code)
        server.kill()  # Ann's clock runs only in the database now
        assert deadline is not None
        await asyncio.sleep(1.0)
        server.start()  # resumed at start-up: due at the stored deadline (or at once)
        events = await _events_until(clock_db, code, lambda ev: bool(_autopilot_moves(ev)))
        first = _autopilot_moves(events)[0]
        assert first == seq + 1 and events[first]["move_id"] == f"auto-{seq}"
        assert _event_time(clock_db, code, first) >= deadline
        replay_states(read_events(clock_db, code))
    finally:
        server.kill()


async def test_a_database_outage_at_the_deadline_delays_the_autopilot_move_until_it_is_back(
    own_db: str,
) -> None:
    svc = TableService(
        make_store(Settings(database_url=own_db)),
        next_round_seconds=0,
        bot_settings=BotSettings(delay_ms=(0, 0)),
        clocks=Presets(relaxed_move=1.0),
        autopilot_rules=AutopilotRules(level="easy", handover_moves=1000),
    )
    try:
        created = await svc.create("Out", 2, False, "Ann", "relaxed")
        await svc.put_bot(created.code, created.token, 1, "easy")
        await svc.start(created.code, created.token)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            m, table = await current_match(svc, created.code)
            if m.turn == 0:
                break
            await asyncio.sleep(0.05)
        assert m.turn == 0 and table.turn_deadline is not None
        seq = table.seq
        cut_off(own_db)  # the database is gone before Ann's deadline
        await asyncio.sleep(2.5)  # the deadline passes during the outage
        cut_off(own_db, allow_again=True)
        events = await _events_until(own_db, created.code, lambda ev: bool(_autopilot_moves(ev)))
        first = _autopilot_moves(events)[0]
        assert first == seq + 1 and events[first]["move_id"] == f"auto-{seq}"
        assert _event_time(own_db, created.code, first) >= table.turn_deadline
    finally:
        await svc.close()


async def test_the_clock_option_of_create_and_practice_answers_as_documented(
    http: httpx.AsyncClient,
) -> None:
    body = {"name": "C", "players": 2, "public": False, "host_name": "Ann"}
    r = await http.post("/api/tables", json=body)
    assert r.status_code == 201 and r.json()["table"]["clock"]["preset"] == "none"
    assert r.json()["table"]["turn_deadline"] is None and r.json()["table"]["banks"] is None
    for bad in ("sudden", None, 3, ""):
        r = await http.post("/api/tables", json={**body, "clock": bad})
        assert r.status_code == 422 and r.json()["detail"]["code"] == "invalid_request", r.text
    r = await http.post(
        "/api/practice", json={"players": 2, "level": "easy", "name": "Solo", "clock": "fast"}
    )
    assert r.status_code == 201, r.text
    table = r.json()["table"]
    assert table["clock"]["preset"] == "fast" and table["clock"]["bank_seconds"] == 60.0
    assert table["banks"] == [60.0, 60.0] and table["turn_deadline"] is not None


async def test_a_surviving_process_plays_the_overdue_autopilot_turn_of_a_killed_one(
    clock_db: str,
) -> None:
    env = {**CLOCK, "FIVEUP_CLOCK_RELAXED_MOVE_SECONDS": "3"}
    b = ServerProcess(clock_db, **env).start()  # up before the table exists: never resumes it
    a = ServerProcess(clock_db, **env).start()
    try:
        code, _token = await _clock_table(a)
        await _events_until(clock_db, code, lambda ev: _stored_deadline(clock_db, code)[2] == 0)
        seq, deadline, _ = _stored_deadline(clock_db, code)
        a.kill()  # the only process that had Ann's deadline scheduled
        assert deadline is not None
        events = await _events_until(clock_db, code, lambda ev: bool(_autopilot_moves(ev)))
        first = _autopilot_moves(events)[0]
        assert first == seq + 1 and events[first]["move_id"] == f"auto-{seq}"
        assert _event_time(clock_db, code, first) >= deadline
    finally:
        a.kill()
        b.kill()


async def test_a_whole_match_played_by_the_autopilot_shows_no_hidden_tile(clock_db: str) -> None:
    """Ann never moves: the autopilot plays her seat from the clock's first expiry to the
    end of the match (R24); every frame to her and to a spectator passes the oracle."""
    server = ServerProcess(clock_db, **{**CLOCK, "FIVEUP_AUTOPILOT_HANDOVER_MOVES": "2"}).start()
    try:
        code, token = await _clock_table(server)
        url = f"{server.ws}/ws/tables/{code}"
        ann = await WsClient(f"{url}?token={token}", "seat0").connect()
        watcher = await WsClient(url, "spectator").connect()
        await ann.wait_for(
            lambda c: c.view is not None and c.view["phase"] == "match_over", timeout=300
        )
        await watcher.wait_for(lambda c: c.last_seq >= ann.last_seq)
        events = read_events(clock_db, code)
        assert len(_autopilot_moves(events)) > 10
        assert ann.table is not None and ann.table["turn_deadline"] is None
        states = replay_states(events)
        checked = check_frames(ann.frames, 0, states, "seat0")
        checked += check_frames(watcher.frames, None, states, "spectator")
        assert checked > len(events)
        for c in (ann, watcher):
            for frame in c.frames:
                check_frame(frame)
            await c.close()
    finally:
        server.kill()


async def test_disconnect_grace_without_a_clock_then_the_socket_reopening_takes_the_seat_back(
    clock_db: str,
) -> None:
    """A table without a clock: Ann's socket closes on her turn while Bob stays; after
    the grace the autopilot plays for her, after two turns the seat is on autopilot; her
    socket opens again (the hub's presence hook) and the seat is hers at once. (With
    nobody left at the table it would stop instead: tests/server/test_empty_tables.py.)"""
    env = {
        **CLOCK,
        "FIVEUP_DISCONNECT_GRACE_SECONDS": "1",
        "FIVEUP_AUTOPILOT_HANDOVER_MOVES": "2",
        "FIVEUP_BOT_DELAY_MS": "300",
    }
    server = ServerProcess(clock_db, **env).start()
    try:
        bob_token: list[str] = []
        code, token = await _clock_table(server, "none", bob=bob_token)
        url = f"{server.ws}/ws/tables/{code}"
        ann = await WsClient(f"{url}?token={token}", "seat0").connect()
        bob = await WsClient(f"{url}?token={bob_token[0]}", "seat1").connect()
        bob_plays = asyncio.create_task(_plays_his_turns(bob, random.Random(4)))
        watcher = await WsClient(url, "spectator").connect()
        await ann.wait_for(lambda c: c.view is not None and bool(c.view["legal"]))
        assert ann.table is not None and ann.table["turn_deadline"] is None
        await ann.close()  # her tab closes on her turn
        await watcher.wait_for(
            lambda c: c.table is not None and c.table["seats"][0]["autopilot"], timeout=60
        )
        events = read_events(clock_db, code)
        assert len(_autopilot_moves(events)) >= 2
        assert _kinds(events, "autopilot") == [{"type": "autopilot", "seat": 0, "on": True}]
        again = await WsClient(f"{url}?token={token}", "seat0-again").connect()
        await watcher.wait_for(
            lambda c: c.table is not None and not c.table["seats"][0]["autopilot"], timeout=60
        )
        events = read_events(clock_db, code)
        assert _kinds(events, "autopilot")[-1] == {"type": "autopilot", "seat": 0, "on": False}
        await again.wait_for(lambda c: c.last_seq >= max(events))
        states = replay_states(read_events(clock_db, code))
        check_frames(watcher.frames, None, states, "spectator")
        check_frames(again.frames, 0, states, "seat0-again")
        bob_plays.cancel()
        for c in (again, watcher, bob):
            await c.close()
    finally:
        server.kill()


async def test_a_new_practice_seat_is_absent_since_it_was_taken_not_since_the_server_started(
    clock_db: str,
) -> None:
    """A practice table starts at once, before its person's page has connected. Their
    absence counts from the moment they sat down, not from when the server process
    started: on a server up for longer than the grace, the autopilot must not play the
    person's first turn before the page is there (it did, and a whole round could be
    played for them)."""
    env = {**CLOCK, "FIVEUP_DISCONNECT_GRACE_SECONDS": "4"}
    server = ServerProcess(clock_db, **env).start()
    try:
        await asyncio.sleep(4.5)  # the process is now older than the grace
        codes = []
        async with httpx.AsyncClient(base_url=server.http, timeout=20) as http:
            for _ in range(4):  # R7: the starter is drawn by lot; either way the person's
                # turn comes at once (the bot plays without a pause here)
                r = await http.post(
                    "/api/practice", json={"players": 2, "level": "easy", "name": "Solo"}
                )
                assert r.status_code == 201, r.text
                codes.append(r.json()["code"])
        await asyncio.sleep(0.7)  # within the grace since each person sat down
        for code in codes:
            events = read_events(clock_db, code)
            starter = _kinds(events, "started")[0]["starter"]
            moves = [e["payload"] for _, e in sorted(events.items()) if e["kind"] == "move"]
            # the person's turn has come: they open (R8), or the bot has opened
            assert starter == 0 or [m["seat"] for m in moves[:1]] == [1]
            assert _autopilot_moves(events) == []
            assert all(m["seat"] == 1 for m in moves)  # nobody moved for the person
    finally:
        server.kill()
