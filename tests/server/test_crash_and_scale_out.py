"""Nothing lost, no double writes: SIGKILL mid-match with a real uvicorn process, and two
server processes on one PostgreSQL database (LISTEN/NOTIFY fan-out, conflicting moves)."""

from __future__ import annotations

import asyncio
import random
import uuid
from collections.abc import Iterator

import httpx
import pytest

from .helpers import greedy_choice
from .support import ServerProcess, WsClient, read_events, seat_table


@pytest.fixture
def fresh_server(pg_url: str) -> Iterator[ServerProcess]:
    server = ServerProcess(pg_url).start()
    yield server
    server.kill()


async def _connect_all(server: ServerProcess, code: str, tokens: list[str]) -> list[WsClient]:
    return [
        await WsClient(f"{server.ws}/ws/tables/{code}?token={t}", f"seat{i}").connect()
        for i, t in enumerate(tokens)
    ]


async def _turn(clients: list[WsClient]) -> WsClient:
    target = max(c.last_seq for c in clients)
    for c in clients:
        await c.wait_for(lambda c, t=target: c.last_seq >= t)
    view = clients[0].view
    assert view is not None and view["phase"] == "playing"
    return clients[view["turn"]]


async def test_sigkill_mid_match_loses_no_acknowledged_move(fresh_server: ServerProcess) -> None:
    server = fresh_server
    rng = random.Random(3)
    async with httpx.AsyncClient(base_url=server.http, timeout=20) as http:
        code, tokens = await seat_table(http, 3)
    clients = await _connect_all(server, code, tokens)
    acked: dict[str, int] = {}
    for _ in range(12):
        mover = await _turn(clients)
        move_id = uuid.uuid4().hex
        reply = await mover.request(
            {
                "type": "move",
                "move": greedy_choice(mover.view["legal"], rng),  # type: ignore[index]
                "move_id": move_id,
                "seq": mover.last_seq,
            },
            ("ack", "error"),
        )
        assert reply["type"] == "ack"
        acked[move_id] = reply["seq"]
    # one more move in flight while the process is killed: it may or may not commit
    mover = await _turn(clients)
    in_flight = {
        "type": "move",
        "move": greedy_choice(mover.view["legal"], rng),  # type: ignore[index]
        "move_id": "in-flight",
        "seq": mover.last_seq,
    }
    await mover.send(in_flight)
    server.kill()
    for c in clients:
        await c.wait_for(lambda c: c.closed is not None)
    seen = max(c.last_seq for c in clients)

    server.start()  # same port, same database
    events = read_events(server.database_url, code)
    for move_id, seq in acked.items():
        assert events[seq]["move_id"] == move_id  # every acknowledged move is there
    assert list(events) == list(range(1, len(events) + 1))
    # the clients reconnect with the same tokens and resync from what they saw
    again = await _connect_all(server, code, tokens)
    for c in again:
        reply = await c.request({"type": "resync", "last_seq": seen}, ("snapshot",))
        assert reply["seq"] == max(events)
    # the in-flight move, retried with its id, is applied exactly once
    retry_seat = next(i for i, c in enumerate(clients) if c is mover)
    retried = await again[retry_seat].request(in_flight, ("ack", "error"))
    if "in-flight" in {e["move_id"] for e in events.values()}:
        assert retried["type"] == "ack" and retried["duplicate"] is True
    else:
        assert retried["type"] == "ack" and retried["duplicate"] is False
    # and play goes on
    for _ in range(3):
        mover = await _turn(again)
        reply = await mover.request(
            {
                "type": "move",
                "move": greedy_choice(mover.view["legal"], rng),  # type: ignore[index]
                "move_id": uuid.uuid4().hex,
                "seq": mover.last_seq,
            },
            ("ack", "error"),
        )
        assert reply["type"] == "ack", reply
    final = read_events(server.database_url, code)
    assert [e["move_id"] for e in final.values()].count("in-flight") == 1
    for c in again:
        await c.close()


async def test_two_processes_fan_out_and_refuse_double_writes(pg_url: str) -> None:
    a = ServerProcess(pg_url).start()
    b = ServerProcess(pg_url).start()
    try:
        rng = random.Random(9)
        async with httpx.AsyncClient(base_url=a.http, timeout=20) as http:
            code, tokens = await seat_table(http, 2)
        # seat 0 and a spectator on A; seat 1 and a spectator on B; a second "tab" of
        # each seat on the other process
        main = [
            await WsClient(f"{a.ws}/ws/tables/{code}?token={tokens[0]}", "A0").connect(),
            await WsClient(f"{b.ws}/ws/tables/{code}?token={tokens[1]}", "B1").connect(),
        ]
        tabs = [
            await WsClient(f"{b.ws}/ws/tables/{code}?token={tokens[0]}", "B0").connect(),
            await WsClient(f"{a.ws}/ws/tables/{code}?token={tokens[1]}", "A1").connect(),
        ]
        watchers = [
            await WsClient(f"{a.ws}/ws/tables/{code}", "Aw").connect(),
            await WsClient(f"{b.ws}/ws/tables/{code}", "Bw").connect(),
        ]
        everyone = main + tabs + watchers
        conflicts = 0
        for _ in range(15):
            mover = await _turn(everyone)
            seat = main.index(mover) if mover in main else tabs.index(mover)
            first, second = main[seat], tabs[seat]
            legal = first.view["legal"]  # type: ignore[index]
            m1 = greedy_choice(legal, rng)
            m2 = next((e["move"] for e in legal if e["move"] != m1), m1)
            f1 = {"type": "move", "move": m1, "move_id": uuid.uuid4().hex, "seq": first.last_seq}
            f2 = {"type": "move", "move": m2, "move_id": uuid.uuid4().hex, "seq": second.last_seq}
            r1, r2 = await asyncio.gather(
                first.request(f1, ("ack", "error")), second.request(f2, ("ack", "error"))
            )
            kinds = sorted([r1["type"], r2["type"]])
            assert kinds == ["ack", "error"], (r1, r2)  # exactly one applied
            loser, err = (second, r2) if r1["type"] == "ack" else (first, r1)
            assert err["code"] in ("stale", "conflict")
            conflicts += 1
            at = loser.frames.index(err)
            await loser.wait_for(
                lambda c, at=at: any(  # told, then resynced
                    f["type"] == "snapshot" for f in c.frames[at:]
                )
            )
        events = read_events(pg_url, code)
        target = max(events)
        for c in everyone:  # both processes delivered every event, gapless, to everyone
            await c.wait_for(lambda c: c.last_seq >= target)
            seqs = [f["seq"] for f in c.frames if f["type"] == "event"]
            assert seqs == sorted(set(seqs))
        moves = [e for e in events.values() if e["kind"] == "move"]
        assert len({(e["payload"]["round"], e["payload"]["index"]) for e in moves}) == len(moves)
        assert conflicts == 15
        for c in everyone:
            await c.close()
    finally:
        a.kill()
        b.kill()


async def test_after_commit_notify_lost_is_caught_up(pg_url: str) -> None:
    """FIVEUP_NOTIFY=after_commit: a process that dies between its commit and its NOTIFY
    (simulated: its notifier never sends) still gets the event to other processes'
    sockets — their periodic check against the database catches up."""
    from app.core.urls import libpq_dsn
    from app.db.pg_store import PgStore
    from app.tables.service import TableService

    server = ServerProcess(pg_url, FIVEUP_NOTIFY="after_commit").start()
    # NOTIFY after commit, and the process "dies" before sending it: nothing is sent
    silent = TableService(
        PgStore(libpq_dsn(pg_url), notify_in_transaction=False), next_round_seconds=0
    )
    try:
        async with httpx.AsyncClient(base_url=server.http, timeout=20) as http:
            code, tokens = await seat_table(http, 2)
        clients = await _connect_all(server, code, tokens)
        mover = await _turn(clients)
        seat = clients.index(mover)
        before = mover.last_seq
        ident = await silent.identify(code, None)
        result = await silent.act(
            ident.table_id,
            tokens[seat],
            greedy_choice(mover.view["legal"], random.Random(1)),  # type: ignore[index]
            None,
            before,
        )
        for c in clients:
            await c.wait_for(lambda c: c.last_seq >= result.seq, timeout=15)
    finally:
        await silent.close()
        server.kill()


async def test_presence_is_true_across_processes(pg_url: str) -> None:
    """Seat 0 on process A, seat 1 on process B: everyone sees both connected; a socket
    closing on B, and B being killed outright, are seen on A (the latter within the
    presence time-to-live, here 1.5 s)."""
    a = ServerProcess(pg_url, FIVEUP_PRESENCE_TTL_SECONDS="1.5").start()
    b = ServerProcess(pg_url, FIVEUP_PRESENCE_TTL_SECONDS="1.5").start()
    try:
        async with httpx.AsyncClient(base_url=a.http, timeout=20) as http:
            code, tokens = await seat_table(http, 2)
            watcher = await WsClient(f"{a.ws}/ws/tables/{code}", "Aw").connect()
            seat0 = await WsClient(f"{a.ws}/ws/tables/{code}?token={tokens[0]}", "A0").connect()
            seat1 = await WsClient(f"{b.ws}/ws/tables/{code}?token={tokens[1]}", "B1").connect()

            def connected(c: WsClient) -> list[int] | None:
                frames = [f for f in c.frames if f["type"] == "presence"]
                return frames[-1]["connected"] if frames else None

            for c in (watcher, seat0, seat1):
                await c.wait_for(lambda c: connected(c) == [0, 1], timeout=15)
            info = (await http.get(f"/api/tables/{code}")).json()
            assert [s["connected"] for s in info["seats"]] == [True, True]  # HTTP on A too
            await seat1.close()
            await watcher.wait_for(lambda c: connected(c) == [0], timeout=15)
            seat1 = await WsClient(f"{b.ws}/ws/tables/{code}?token={tokens[1]}", "B1b").connect()
            await watcher.wait_for(lambda c: connected(c) == [0, 1], timeout=15)
            b.kill()  # no goodbye: A forgets B's seats when its reports stop
            await watcher.wait_for(lambda c: connected(c) == [0], timeout=15)
            await seat0.wait_for(lambda c: connected(c) == [0], timeout=15)
            for c in (watcher, seat0):
                await c.close()
    finally:
        a.kill()
        b.kill()
