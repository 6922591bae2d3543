"""Committed, then answered: with the database 25 ms away (a proxy that holds every chunk
PostgreSQL sends), ``describe`` frames and resyncs sent while a move is being written
answer with the state at the seq they name — never with the move the writer has decided
but not yet committed — and every frame delivered is the committed state at its seq."""

from __future__ import annotations

import asyncio
import random
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from conftest import create_pg_database, drop_pg_database

from app.engine import Match, view_for

from .helpers import greedy_choice
from .oracle import check_frames
from .slow_db import SlowProxy
from .support import ServerProcess, WsClient, read_events, replay_states, seat_table

#: how long the proxy holds each chunk from PostgreSQL
DB_DELAY = 0.025
#: moves played per test (a round or two: enough to meet every kind of placement)
MOVES = 30


@pytest.fixture
def slow_db() -> Iterator[tuple[str, SlowProxy]]:
    """A fresh database (its direct URL) and a proxy that makes it slow."""
    url = create_pg_database()
    proxy = SlowProxy(url, DB_DELAY).start()
    try:
        yield url, proxy
    finally:
        proxy.stop()
        drop_pg_database(url)


def true_descriptions(
    states: dict[int, dict[str, Any] | None], seq: int
) -> tuple[str | None, str | None]:
    """The engine's layout descriptions of the committed state at ``seq``."""
    state = states[seq]
    if state is None:
        return None, None
    view = view_for(Match.from_dict(state), None)
    return view["description"], view["description_uk"]


async def play_while_asking(
    seats: list[WsClient], askers: list[WsClient], rng: random.Random, resync: bool = False
) -> int:
    """Play up to :data:`MOVES` moves; while each is being written every asker sends
    ``describe`` until the move's ack arrives (and ``resync`` once, if asked). Returns the
    number of ``describe`` frames each asker sent (all answered by then)."""
    asked = 0
    everyone = [*seats, *askers]
    for _ in range(MOVES):
        target = max(c.last_seq for c in everyone)
        for c in everyone:
            await c.wait_for(lambda c, t=target: c.last_seq >= t)
        view = askers[0].view
        assert view is not None
        if view["phase"] == "match_over":
            break
        mover = seats[view["turn"]]
        assert mover.view is not None and mover.view["legal"]
        move = greedy_choice(mover.view["legal"], rng)
        start = len(mover.frames)
        await mover.send(
            {"type": "move", "move": move, "move_id": uuid.uuid4().hex, "seq": mover.last_seq}
        )
        for ask in range(4):  # while the write waits on the database
            if any(f["type"] in ("ack", "error") for f in mover.frames[start:]):
                break
            asked += 1
            for a in askers:
                await a.send({"type": "describe"})
                if resync and ask == 0:
                    await a.send({"type": "resync", "last_seq": a.last_seq})
            await asyncio.sleep(DB_DELAY / 3)
        await mover.wait_for(
            lambda c, s=start: any(f["type"] in ("ack", "error") for f in c.frames[s:])
        )
        reply = next(f for f in mover.frames[start:] if f["type"] in ("ack", "error"))
        assert reply["type"] == "ack", reply
    for a in askers:  # every describe answered
        await a.wait_for(lambda c: sum(f["type"] == "description" for f in c.frames) >= asked)
    return asked


def wrong_descriptions(
    client: WsClient, states: dict[int, dict[str, Any] | None]
) -> list[tuple[int, str | None, str | None]]:
    """The description frames a client got that do not describe the layout at their
    seq: ``(seq, got, true)``."""
    wrong = []
    for f in client.frames:
        if f["type"] != "description":
            continue
        want = true_descriptions(states, f["seq"])
        if (f["description"], f["description_uk"]) != want:
            wrong.append((f["seq"], f["description"], want[0]))
    return wrong


async def test_describe_while_a_move_is_written_describes_the_committed_layout(
    slow_db: tuple[str, SlowProxy],
) -> None:
    url, proxy = slow_db
    server = ServerProcess(proxy.url).start()
    try:
        async with httpx.AsyncClient(base_url=server.http, timeout=30) as http:
            code, tokens = await seat_table(http, 2)
            ws = f"{server.ws}/ws/tables/{code}"
            seats = [
                await WsClient(f"{ws}?token={t}", f"seat{i}").connect()
                for i, t in enumerate(tokens)
            ]
            asker = await WsClient(ws, "spectator").connect()
            asked = await play_while_asking(seats, [asker], random.Random(12))
            for c in [*seats, asker]:
                await c.close()
        states = replay_states(read_events(url, code))
        answers = [f for f in asker.frames if f["type"] == "description"]
        assert len(answers) == asked
        wrong = wrong_descriptions(asker, states)
        assert not wrong, (
            f"{len(wrong)} of {asked} describe answers ahead of their seq: {wrong[:2]}"
        )
    finally:
        server.stop()


async def test_every_frame_of_two_processes_is_the_committed_state_at_its_seq(
    slow_db: tuple[str, SlowProxy],
) -> None:
    """Two processes on the slow database, a seat on each (so each process writes every
    other move and hears the rest by NOTIFY), a spectator on each asking ``describe``
    and ``resync`` while moves are written: every view, patch, snapshot and description
    any of them receives is the committed state at the frame's seq (the oracle)."""
    url, proxy = slow_db
    a = ServerProcess(proxy.url).start()
    b = ServerProcess(proxy.url).start()
    try:
        async with httpx.AsyncClient(base_url=a.http, timeout=30) as http:
            code, tokens = await seat_table(http, 2)
            seats = [
                await WsClient(f"{s.ws}/ws/tables/{code}?token={t}", f"seat{i}").connect()
                for i, (s, t) in enumerate(zip((a, b), tokens, strict=True))
            ]
            askers = [
                await WsClient(f"{s.ws}/ws/tables/{code}", f"spectator-{n}").connect()
                for s, n in ((a, "a"), (b, "b"))
            ]
            await play_while_asking(seats, askers, random.Random(5), resync=True)
            for c in [*seats, *askers]:
                await c.close()
        states = replay_states(read_events(url, code))
        for recipient, c in [(0, seats[0]), (1, seats[1]), (None, askers[0]), (None, askers[1])]:
            assert check_frames(c.frames, recipient, states, c.label) > MOVES
        for c in askers:
            assert sum(f["type"] == "snapshot" for f in c.frames) > MOVES
            wrong = wrong_descriptions(c, states)
            assert not wrong, f"{c.label}: {len(wrong)} describe answers ahead: {wrong[:2]}"
    finally:
        a.stop()
        b.stop()
