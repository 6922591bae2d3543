"""Computer players over real WebSockets on PostgreSQL with real uvicorn processes: a
person and three bots play a whole match to 61 (R24) and a rematch, every frame checked
by the hidden-information oracle; a SIGKILLed server resumes a bot's turn after a
restart; two processes resuming the same bot turn play it once (docs/bots.md)."""

from __future__ import annotations

import asyncio
import random
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .helpers import greedy_choice
from .oracle import check_frames
from .support import ServerProcess, WsClient, read_events, replay_states

NO_DELAY = {"FIVEUP_BOT_DELAY_MS": "0", "FIVEUP_BOT_HARD_BUDGET_MS": "20"}


@pytest.fixture
def bot_server(pg_url: str) -> Iterator[ServerProcess]:
    server = ServerProcess(pg_url, **NO_DELAY).start()
    yield server
    server.kill()


async def _practice(server: ServerProcess, players: int, level: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=server.http, timeout=20) as http:
        r = await http.post(
            "/api/practice", json={"players": players, "level": level, "name": "Solo"}
        )
    assert r.status_code == 201, r.text
    joined: dict[str, Any] = r.json()
    return joined


async def _my_turn_or_over(me: WsClient) -> str:
    """Wait until the person (seat 0) is to move, or the match is over."""

    def ready(c: WsClient) -> bool:
        v = c.view
        return v is not None and (v["phase"] == "match_over" or bool(v["legal"]))

    await me.wait_for(ready, timeout=60)
    assert me.view is not None
    return str(me.view["phase"])


async def _play_mine(me: WsClient, rng: random.Random) -> None:
    assert me.view is not None
    reply = await me.request(
        {
            "type": "move",
            "move": greedy_choice(me.view["legal"], rng),
            "move_id": uuid.uuid4().hex,
            "seq": me.last_seq,
        },
        ("ack", "error"),
    )
    assert reply["type"] == "ack", reply


async def _play_to_the_end(me: WsClient, rng: random.Random) -> int:
    """The person plays every turn of theirs until the match is over; returns moves."""
    moves = 0
    while await _my_turn_or_over(me) != "match_over":
        await _play_mine(me, rng)
        moves += 1
    return moves


def _check_bot_moves(events: dict[int, dict[str, Any]], bot_seats: set[int]) -> int:
    """Every move by a bot seat is one move id ``bot-<seq before it>`` (automatic passes
    aside), and no person's move carries a bot id; returns the bot moves."""
    count = 0
    for seq, e in events.items():
        p = e["payload"]
        if p.get("type") != "move" or p.get("auto"):
            continue
        if p["seat"] in bot_seats:
            assert e["move_id"] == f"bot-{seq - 1}", (seq, e)
            count += 1
        else:
            assert not str(e["move_id"]).startswith("bot-")
    return count


async def test_a_person_and_three_bots_play_a_match_to_61_and_a_rematch(
    bot_server: ServerProcess,
) -> None:
    joined = await _practice(bot_server, 4, "hard")
    code, token = joined["code"], joined["token"]
    assert [s["bot"] for s in joined["table"]["seats"]] == [None, "hard", "hard", "hard"]
    url = f"{bot_server.ws}/ws/tables/{code}"
    me = await WsClient(f"{url}?token={token}", "seat0").connect()
    spectator = await WsClient(url, "spectator").connect()
    rng = random.Random(11)
    mine = await _play_to_the_end(me, rng)
    assert me.view is not None and me.table is not None
    assert max(me.view["scores"]) >= 61 and me.view["winner"] is not None  # R24
    await me.wait_for(lambda c: sorted(c.table["rematch_votes"]) == [1, 2, 3])  # type: ignore[index]
    await me.send({"type": "rematch"})
    await me.wait_for(lambda c: c.table["match"] == 2 and c.view["phase"] == "playing")  # type: ignore[index]
    await _my_turn_or_over(me)  # the bots play on in match 2 until the person's turn
    await spectator.wait_for(lambda c: c.last_seq >= me.last_seq)
    events = read_events(bot_server.database_url, code)
    states = replay_states(events)
    checked = check_frames(me.frames, 0, states, "seat0")
    checked += check_frames(spectator.frames, None, states, "spectator")
    bot_moves = _check_bot_moves(events, {1, 2, 3})
    assert mine > 0 and bot_moves > 3 * mine // 2 and checked > 2 * len(events) // 2
    kinds = [e["kind"] for e in events.values()]
    assert kinds[:5] == ["created", "bot_added", "bot_added", "bot_added", "started"]
    assert kinds.count("rematch_started") == 1
    for c in (me, spectator):
        await c.close()


async def _bot_to_move(me: WsClient, rng: random.Random) -> None:
    """Make it a bot's turn: if the person (seat 0) is to move, play one move."""
    await me.wait_for(lambda c: c.view is not None)
    assert me.view is not None
    if me.view["legal"]:
        await _play_mine(me, rng)
    await me.wait_for(lambda c: c.view is not None and c.view["turn"] not in (0, None))


async def test_sigkill_while_a_bot_is_to_move_then_restart_continues_the_match(
    pg_url: str,
) -> None:
    server = ServerProcess(pg_url, FIVEUP_BOT_DELAY_MS="60000")  # the bot waits a minute
    server.start()
    try:
        joined = await _practice(server, 2, "medium")
        code, token = joined["code"], joined["token"]
        url = f"{server.ws}/ws/tables/{code}?token={token}"
        rng = random.Random(5)
        me = await WsClient(url, "seat0").connect()
        await _bot_to_move(me, rng)
        before = me.last_seq
        server.kill()  # the bot's turn is pending only in the database now
        await me.wait_for(lambda c: c.closed is not None)
        assert max(read_events(pg_url, code)) == before

        server.env.update(NO_DELAY)
        server.start()  # same port, same database: the turn is resumed at start-up
        again = await WsClient(url, "seat0-again").connect()
        await _play_to_the_end(again, rng)
        events = read_events(pg_url, code)
        assert events[before + 1]["move_id"] == f"bot-{before}"  # the resumed turn
        states = replay_states(events)
        check_frames(again.frames, 0, states, "seat0-again")
        assert _check_bot_moves(events, {1}) > 1
        await again.close()
    finally:
        server.kill()


async def test_two_processes_resuming_the_same_bot_turn_play_it_once(pg_url: str) -> None:
    first = ServerProcess(pg_url, FIVEUP_BOT_DELAY_MS="60000").start()
    try:
        joined = await _practice(first, 2, "easy")
        code, token = joined["code"], joined["token"]
        rng = random.Random(8)
        me = await WsClient(f"{first.ws}/ws/tables/{code}?token={token}", "seat0").connect()
        await _bot_to_move(me, rng)
        before = me.last_seq
    finally:
        first.kill()
    # two processes start on the database together; each resumes the pending turn
    a = ServerProcess(pg_url, **NO_DELAY)
    b = ServerProcess(pg_url, **NO_DELAY)
    try:
        await asyncio.gather(asyncio.to_thread(a.start), asyncio.to_thread(b.start))
        mine = await WsClient(f"{a.ws}/ws/tables/{code}?token={token}", "seat0-a").connect()
        watcher = await WsClient(f"{b.ws}/ws/tables/{code}", "spectator-b").connect()
        await _play_to_the_end(mine, rng)
        await watcher.wait_for(lambda c: c.last_seq >= mine.last_seq)
        events = read_events(pg_url, code)
        assert events[before + 1]["move_id"] == f"bot-{before}"
        assert _check_bot_moves(events, {1}) > 1  # one move per bot turn, each id once
        states = replay_states(events)  # the engine accepts the whole record (R8: turns)
        check_frames(mine.frames, 0, states, "seat0-a")
        check_frames(watcher.frames, None, states, "spectator-b")
        for c in (mine, watcher):
            await c.close()
    finally:
        a.kill()
        b.kill()


async def test_bot_routes_answer_as_documented(
    live: ServerProcess, http: httpx.AsyncClient
) -> None:
    """docs/protocol.md: POST/DELETE /api/tables/{code}/bots and POST /api/practice,
    their results and error codes, over real HTTP."""
    r = await http.post(
        "/api/tables", json={"name": "B", "players": 3, "public": True, "host_name": "Host"}
    )
    code, host_token = r.json()["code"], r.json()["token"]
    host = {"Authorization": f"Bearer {host_token}"}
    guest_r = await http.post(f"/api/tables/{code}/join", json={"name": "G", "seat": 1})
    guest = {"Authorization": f"Bearer {guest_r.json()['token']}"}
    bots = f"/api/tables/{code}/bots"

    async def refused(resp: httpx.Response, status: int, err: str) -> None:
        assert (resp.status_code, resp.json()["detail"]["code"]) == (status, err), resp.text

    await refused(
        await http.post(bots, json={"seat": 2, "level": "x"}, headers=host), 400, "unknown_level"
    )
    await refused(
        await http.post(bots, json={"seat": 2, "level": "easy"}, headers=guest), 403, "not_host"
    )
    await refused(
        await http.post(bots, json={"seat": 1, "level": "easy"}, headers=host), 409, "seat_taken"
    )
    await refused(await http.post(bots, json={"seat": 2, "level": "easy"}), 401, "unauthorized")
    await refused(await http.delete(f"{bots}/1", headers=host), 400, "bad_seat")
    r = await http.post(bots, json={"seat": 2, "level": "hard"}, headers=host)
    assert r.status_code == 200 and r.json()["seats"][2]["bot"] == "hard"
    here = await WsClient(f"{live.ws}/ws/tables/{code}?token={host_token}", "host").connect()
    lobby = {e["code"]: e for e in (await http.get("/api/tables")).json()["tables"]}
    await here.close()
    assert lobby[code]["bots"] == 1 and lobby[code]["seats_taken"] == 3
    r = await http.delete(f"{bots}/2", headers=host)
    assert r.status_code == 200 and r.json()["seats"][2] == {
        "seat": 2,
        "name": None,
        "side": 2,
        "connected": False,
        "bot": None,
        "autopilot": False,
        "presence": None,
        "since": None,
    }
    await http.post(bots, json={"seat": 2, "level": "easy"}, headers=host)
    assert (await http.post(f"/api/tables/{code}/start", headers=host)).status_code == 200
    await refused(await http.delete(f"{bots}/2", headers=host), 409, "already_started")
    r = await http.post("/api/practice", json={"players": 3, "level": "hardest", "name": "S"})
    await refused(r, 400, "unknown_level")
    r = await http.post("/api/practice", json={"players": 5, "level": "easy", "name": "S"})
    await refused(r, 422, "invalid_request")
