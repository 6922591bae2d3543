"""The WebSocket protocol against a real uvicorn server on a real port (docs/protocol.md)."""

from __future__ import annotations

import uuid

import httpx
import pytest

from .support import ServerProcess, WsClient, read_events, replay_states, seat_table


def _url(live: ServerProcess, code: str, token: str | None = None) -> str:
    return f"{live.ws}/ws/tables/{code}" + (f"?token={token}" if token else "")


async def test_unknown_table_closes_with_4404(live: ServerProcess) -> None:
    c = await WsClient(_url(live, "NOSUCH")).connect()
    await c.wait_for(lambda c: c.closed is not None)
    assert c.closed is not None and c.closed[0] == 4404 and c.closed[1]


async def test_bad_token_closes_with_4401(live: ServerProcess, http: httpx.AsyncClient) -> None:
    code, _ = await seat_table(http, 2)
    c = await WsClient(_url(live, code, "forged")).connect()
    await c.wait_for(lambda c: c.closed is not None)
    assert c.closed is not None and c.closed[0] == 4401


async def test_seat_sees_its_hand_and_legal_moves_only_on_its_turn(
    live: ServerProcess, http: httpx.AsyncClient
) -> None:
    code, tokens = await seat_table(http, 3)
    clients = [await WsClient(_url(live, code, t)).connect() for t in tokens]
    snaps = [c.frames[0] for c in clients]
    assert all(s["type"] == "snapshot" for s in snaps)
    turn = snaps[0]["view"]["turn"]
    for seat, s in enumerate(snaps):
        assert s["you"] == seat and len(s["view"]["hand"]) == 5  # R6
        assert bool(s["view"]["legal"]) == (seat == turn)
        assert s["view"]["hand_sizes"] == [5, 5, 5] and s["view"]["stock"] == 13
    for c in clients:
        await c.close()


async def test_spectator_sees_no_hand_and_cannot_act(
    live: ServerProcess, http: httpx.AsyncClient
) -> None:
    code, _ = await seat_table(http, 2)
    spec = await WsClient(_url(live, code)).connect()
    snap = spec.frames[0]
    assert snap["you"] is None and snap["view"]["hand"] is None and snap["view"]["legal"] == []
    for kind in ("move", "next_round", "rematch"):
        err = await spec.request({"type": kind, "move": "draw", "move_id": "s"}, ("error",))
        assert err["code"] == "spectator"
    assert (await http.get(f"/api/tables/{code}")).json()["seq"] == snap["seq"]
    await spec.close()


async def test_presence_shows_who_is_connected(
    live: ServerProcess, http: httpx.AsyncClient
) -> None:
    def last(c: WsClient) -> dict:  # type: ignore[type-arg]
        frame = c.frames[-1]
        return {k: frame.get(k) for k in ("type", "connected", "spectators")}

    code, tokens = await seat_table(http, 2)
    a = await WsClient(_url(live, code, tokens[0])).connect()
    await a.wait_for(
        lambda c: any(f["type"] == "presence" and f["connected"] == [0] for f in c.frames)
    )
    b = await WsClient(_url(live, code, tokens[1])).connect()
    await a.wait_for(
        lambda c: last(c) == {"type": "presence", "connected": [0, 1], "spectators": 0}
    )
    info = (await http.get(f"/api/tables/{code}")).json()
    assert [s["connected"] for s in info["seats"]] == [True, True]
    await b.close()
    await a.wait_for(lambda c: last(c) == {"type": "presence", "connected": [0], "spectators": 0})
    await a.close()


async def _mover(live: ServerProcess, code: str, tokens: list[str]) -> tuple[WsClient, dict]:  # type: ignore[type-arg]
    spec = await WsClient(_url(live, code)).connect()
    turn = spec.view["turn"]  # type: ignore[index]
    await spec.close()
    mover = await WsClient(_url(live, code, tokens[turn])).connect()
    return mover, mover.view["legal"][0]  # type: ignore[index]


async def test_move_is_acknowledged_and_broadcast_in_seq_order(
    live: ServerProcess, http: httpx.AsyncClient
) -> None:
    code, tokens = await seat_table(http, 2)
    mover, legal = await _mover(live, code, tokens)
    spec = await WsClient(_url(live, code)).connect()
    seq = mover.last_seq
    ack = await mover.request(
        {"type": "move", "move": legal["move"], "move_id": "m-1", "seq": seq}, ("ack", "error")
    )
    assert ack == {"type": "ack", "move_id": "m-1", "seq": seq + 1, "duplicate": False}
    await spec.wait_for(lambda c: c.last_seq == seq + 1)
    ev = spec.frames[-1]
    assert ev["type"] == "event" and ev["event"]["move"] == legal["move"]
    assert spec.view["layout"]["tiles"][0]["tile"] == legal["tile"]  # type: ignore[index]
    assert "view_patch" in ev and "view" not in ev  # a patch, not the whole view
    for c in (mover, spec):
        await c.close()


async def test_retried_move_id_is_answered_with_the_original_result(
    live: ServerProcess, http: httpx.AsyncClient
) -> None:
    code, tokens = await seat_table(http, 2)
    mover, legal = await _mover(live, code, tokens)
    frame = {"type": "move", "move": legal["move"], "move_id": "once", "seq": mover.last_seq}
    first = await mover.request(frame, ("ack", "error"))
    second = await mover.request(frame, ("ack", "error"))
    assert first["type"] == second["type"] == "ack"
    assert second["seq"] == first["seq"] and second["duplicate"] is True
    events = read_events(live.database_url, code)
    assert [e["move_id"] for e in events.values()].count("once") == 1
    await mover.close()


async def test_stale_move_is_refused_and_the_client_resynced(
    live: ServerProcess, http: httpx.AsyncClient
) -> None:
    code, tokens = await seat_table(http, 2)
    mover, legal = await _mover(live, code, tokens)
    start = len(mover.frames)
    err = await mover.request(
        {"type": "move", "move": legal["move"], "move_id": "old", "seq": mover.last_seq - 1},
        ("error",),
    )
    assert err["code"] == "stale" and err["move_id"] == "old"
    await mover.wait_for(lambda c: any(f["type"] == "snapshot" for f in c.frames[start:]))
    assert (await http.get(f"/api/tables/{code}")).json()["seq"] == mover.last_seq
    await mover.close()


async def test_out_of_turn_and_illegal_moves_get_stable_codes(
    live: ServerProcess, http: httpx.AsyncClient
) -> None:
    code, tokens = await seat_table(http, 2)
    mover, _ = await _mover(live, code, tokens)
    other_seat = 1 - mover.frames[0]["you"]
    other = await WsClient(_url(live, code, tokens[other_seat])).connect()
    err = await other.request({"type": "move", "move": "draw", "move_id": "x"}, ("error",))
    assert err["code"] == "not_your_turn"
    err = await mover.request({"type": "move", "move": "pass", "move_id": "y"}, ("error",))
    assert err["code"] == "illegal_move" and err["message"].startswith("R")
    assert (await http.get(f"/api/tables/{code}")).json()["seq"] == mover.last_seq
    for c in (mover, other):
        await c.close()


async def test_second_device_with_the_same_token_resumes_the_seat(
    live: ServerProcess, http: httpx.AsyncClient
) -> None:
    code, tokens = await seat_table(http, 2)
    mover, legal = await _mover(live, code, tokens)
    seat = mover.frames[0]["you"]
    await mover.request(
        {"type": "move", "move": legal["move"], "move_id": uuid.uuid4().hex, "seq": mover.last_seq},
        ("ack",),
    )
    await mover.close()
    again = await WsClient(_url(live, code, tokens[seat])).connect()
    assert again.frames[0]["you"] == seat and again.last_seq == mover.last_seq
    assert again.view["hand"] == mover.view["hand"]  # type: ignore[index]
    reply = await again.request({"type": "resync", "last_seq": 1}, ("snapshot",))
    assert [e["seq"] for e in reply["events"]] == list(range(2, reply["seq"] + 1))
    assert (await again.request({"type": "ping"}, ("pong",))) == {"type": "pong"}
    await again.close()


async def test_seating_changes_arrive_as_seq_events(
    live: ServerProcess, http: httpx.AsyncClient
) -> None:
    r = await http.post(
        "/api/tables", json={"name": "Seats", "players": 4, "public": False, "host_name": "Host"}
    )
    code, host = r.json()["code"], r.json()["token"]
    watcher = await WsClient(_url(live, code, host)).connect()
    assert watcher.view is None and watcher.table["status"] == "waiting"  # type: ignore[index]
    bob = (await http.post(f"/api/tables/{code}/join", json={"name": "Bob", "seat": 1})).json()
    auth = {"Authorization": f"Bearer {bob['token']}"}
    assert (
        await http.post(f"/api/tables/{code}/seat", json={"seat": 3}, headers=auth)
    ).status_code == 200
    bob_ws = await WsClient(_url(live, code, bob["token"])).connect()
    assert bob_ws.frames[0]["you"] == 3
    host_auth = {"Authorization": f"Bearer {host}"}
    assert (
        await http.post(f"/api/tables/{code}/kick", json={"seat": 3}, headers=host_auth)
    ).status_code == 200
    await watcher.wait_for(lambda c: c.table["seats"][3]["name"] is None)  # type: ignore[index]
    kinds = [f["event"]["type"] for f in watcher.frames if f["type"] == "event"]
    assert kinds == ["seated", "moved_seat", "kicked"]
    await bob_ws.wait_for(
        lambda c: (
            c.frames[-1].get("event", {}).get("type") == "kicked" or c.last_seq >= watcher.last_seq
        )
    )
    err = await bob_ws.request({"type": "move", "move": "draw", "move_id": "k"}, ("error",))
    assert err["code"] == "spectator"  # the kicked socket only watches now
    for c in (watcher, bob_ws):
        await c.close()


async def test_next_round_waits_until_every_seat_is_ready(pg_url: str) -> None:
    """With a countdown, a settled round waits (phase round_over) for every `next_round`."""
    import random

    from .helpers import greedy_choice
    from .oracle import check_frames

    server = ServerProcess(pg_url, FIVEUP_NEXT_ROUND_SECONDS="3600").start()
    try:
        async with httpx.AsyncClient(base_url=server.http, timeout=20) as client:
            code, tokens = await seat_table(client, 2)
        seats = [
            await WsClient(_url(server, code, t), f"seat{i}").connect()
            for i, t in enumerate(tokens)
        ]
        rng = random.Random(2)
        while True:
            target = max(c.last_seq for c in seats)
            for c in seats:
                await c.wait_for(lambda c, t=target: c.last_seq >= t)
            view = seats[0].view
            if view["phase"] != "playing":  # type: ignore[index]
                break
            mover = seats[view["turn"]]  # type: ignore[index]
            reply = await mover.request(
                {
                    "type": "move",
                    "move": greedy_choice(mover.view["legal"], rng),  # type: ignore[index]
                    "move_id": uuid.uuid4().hex,
                    "seq": mover.last_seq,
                },
                ("ack", "error"),
            )
            assert reply["type"] == "ack"
        if view["phase"] == "match_over":  # type: ignore[index]
            pytest.skip("the first round ended the match")
        assert view["settlement"] is not None and view["round"] == 1  # type: ignore[index]
        # the countdown's deadline, in the settling event's table and in a fresh snapshot
        deadline = seats[0].table["next_round_at"]  # type: ignore[index]
        snap = await seats[1].request(
            {"type": "resync", "last_seq": seats[1].last_seq}, ("snapshot",)
        )
        assert snap["table"]["next_round_at"] == deadline
        assert deadline > snap["server_time"] and snap["server_time"].endswith("Z")
        err = await seats[0].request(
            {"type": "move", "move": "draw", "move_id": "early"}, ("error",)
        )
        assert err["code"] in ("round_over", "not_your_turn")
        await seats[0].send({"type": "next_round"})
        await seats[1].wait_for(lambda c: c.table["ready"] == [0])  # type: ignore[index]
        assert seats[1].view["phase"] == "round_over"  # type: ignore[index]
        await seats[1].send({"type": "next_round"})
        for c in seats:
            await c.wait_for(lambda c: c.view["round"] == 2)  # type: ignore[index]
            assert c.view["phase"] == "playing" and len(c.view["hand"]) == 5  # type: ignore[index]
            assert c.table["next_round_at"] is None  # type: ignore[index]
        kinds = [f["event"]["type"] for f in seats[0].frames[-3:] if f["type"] == "event"]
        assert kinds[-2:] == ["ready", "round_started"]
        states = replay_states(read_events(pg_url, code))
        for i, c in enumerate(seats):
            check_frames(c.frames, i, states, c.label)
            await c.close()
    finally:
        server.kill()
