"""Presence that tells the truth: each person's seat is connected (a socket on
a visible page), away (sockets only on hidden pages: the client sends
``{"type":"presence","state":"away"|"here"}``) or disconnected (no socket), with since
when — across server processes (app/realtime/presence.py) — in ``presence`` frames and
in ``TableInfo.seats[]``; the hub tells the service when a seat's presence changes and
since when it has been absent (``absent_since``, the autopilot's grace)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import httpx

from app.core.settings import Settings
from app.main import make_store
from app.realtime.connection import Connection
from app.realtime.hub import Hub
from app.realtime.presence import RemotePresence
from app.tables.service import TableService

from .support import ServerProcess, WsClient, seat_table


def _url(server: ServerProcess, code: str, token: str | None = None) -> str:
    return f"{server.ws}/ws/tables/{code}" + (f"?token={token}" if token else "")


def _seats(c: WsClient) -> dict[int, dict[str, Any]] | None:
    """The seats of the last presence frame a client got, by seat."""
    frames = [f for f in c.frames if f["type"] == "presence"]
    return {s["seat"]: s for s in frames[-1]["seats"]} if frames else None


def _state(c: WsClient, seat: int) -> str | None:
    seats = _seats(c)
    return seats[seat]["state"] if seats and seat in seats else None


def _parses(since: str | None) -> bool:
    return since is not None and since.endswith("Z") and bool(datetime.fromisoformat(since))


async def _two_seats_and_a_watcher(
    live: ServerProcess, http: httpx.AsyncClient
) -> tuple[str, list[str], WsClient, WsClient, WsClient]:
    """A started 2-seat table with both seats and a spectator connected, each of them
    seeing both seats connected."""
    code, tokens = await seat_table(http, 2)
    ann = await WsClient(_url(live, code, tokens[0]), "ann").connect()
    bob = await WsClient(_url(live, code, tokens[1]), "bob").connect()
    watcher = await WsClient(_url(live, code), "watcher").connect()
    for c in (ann, bob, watcher):
        await c.wait_for(lambda c: _state(c, 0) == _state(c, 1) == "connected")
    return code, tokens, ann, bob, watcher


async def test_a_hidden_page_shows_its_seat_away_to_the_others_then_connected_again(
    live: ServerProcess, http: httpx.AsyncClient
) -> None:
    code, _, ann, bob, watcher = await _two_seats_and_a_watcher(live, http)
    await bob.send({"type": "presence", "state": "away"})
    for c in (ann, watcher):
        await c.wait_for(lambda c: _state(c, 1) == "away")
        frame = [f for f in c.frames if f["type"] == "presence"][-1]
        assert frame["connected"] == [0, 1]  # an away seat still has a socket
        assert _parses(frame["seats"][1]["since"])
    info = (await http.get(f"/api/tables/{code}")).json()
    assert [(s["presence"], s["connected"]) for s in info["seats"]] == [
        ("connected", True),
        ("away", True),
    ]
    assert _parses(info["seats"][1]["since"])
    await bob.send({"type": "presence", "state": "here"})
    for c in (ann, watcher):
        await c.wait_for(lambda c: _state(c, 1) == "connected")
    for c in (ann, bob, watcher):
        await c.close()


async def test_a_seat_whose_socket_closes_shows_disconnected_with_a_since(
    live: ServerProcess, http: httpx.AsyncClient
) -> None:
    code, tokens = await seat_table(http, 2)
    ann = await WsClient(_url(live, code, tokens[0]), "ann").connect()
    bob = await WsClient(_url(live, code, tokens[1]), "bob").connect()
    await ann.wait_for(lambda c: _state(c, 1) == "connected")
    connected_since = _seats(ann)[1]["since"]  # type: ignore[index]
    await bob.close()
    await ann.wait_for(lambda c: _state(c, 1) == "disconnected")
    frame = [f for f in ann.frames if f["type"] == "presence"][-1]
    assert frame["connected"] == [0]
    since = frame["seats"][1]["since"]
    assert _parses(since) and since >= connected_since
    seat = (await http.get(f"/api/tables/{code}")).json()["seats"][1]
    assert (seat["presence"], seat["since"], seat["connected"]) == ("disconnected", since, False)
    # the snapshot of a socket opening now says the same
    late = await WsClient(_url(live, code), "late").connect()
    assert late.table is not None and late.table["seats"][1]["presence"] == "disconnected"
    for c in (ann, late):
        await c.close()


async def test_presence_lists_people_only_not_computer_players_or_free_seats(
    live: ServerProcess, http: httpx.AsyncClient
) -> None:
    r = await http.post(
        "/api/tables", json={"name": "b", "players": 3, "public": False, "host_name": "Ann"}
    )
    code, token = r.json()["code"], r.json()["token"]
    r = await http.post(
        f"/api/tables/{code}/bots",
        json={"seat": 1, "level": "easy"},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert r.status_code == 200, r.text
    ann = await WsClient(_url(live, code, token), "ann").connect()
    await ann.wait_for(lambda c: _state(c, 0) == "connected")
    assert list(_seats(ann) or {}) == [0]
    seats = (await http.get(f"/api/tables/{code}")).json()["seats"]
    assert [(s["presence"], s["since"] is None) for s in seats] == [
        ("connected", False),
        (None, True),  # a computer player
        (None, True),  # a free seat
    ]
    await ann.close()


async def test_a_bad_presence_state_is_a_bad_message_and_a_spectators_is_ignored(
    live: ServerProcess, http: httpx.AsyncClient
) -> None:
    code, tokens = await seat_table(http, 2)
    ann = await WsClient(_url(live, code, tokens[0]), "ann").connect()
    for bad in ({"type": "presence", "state": "gone"}, {"type": "presence"}):
        reply = await ann.request(bad, ("error",))
        assert reply["code"] == "bad_message"
    watcher = await WsClient(_url(live, code), "watcher").connect()
    start = len(watcher.frames)
    await watcher.send({"type": "presence", "state": "away"})
    pong = await watcher.request({"type": "ping"}, ("pong", "error"))
    assert pong == {"type": "pong"}  # no answer, no error
    assert not any(f["type"] == "error" for f in watcher.frames[start:])
    assert _state(ann, 0) == "connected"
    for c in (ann, watcher):
        await c.close()


async def test_presence_states_are_true_across_processes(pg_url: str) -> None:
    """Seat 0 and a watcher on process A, seat 1 on process B: each side sees the other's
    away, here and disconnected; B killed outright leaves seat 1 disconnected once the
    presence time-to-live (here 1.5 s) has passed."""
    a = ServerProcess(pg_url, FIVEUP_PRESENCE_TTL_SECONDS="1.5").start()
    b = ServerProcess(pg_url, FIVEUP_PRESENCE_TTL_SECONDS="1.5").start()
    try:
        async with httpx.AsyncClient(base_url=a.http, timeout=20) as http:
            code, tokens = await seat_table(http, 2)
            watcher = await WsClient(_url(a, code), "Aw").connect()
            ann = await WsClient(_url(a, code, tokens[0]), "A0").connect()
            bob = await WsClient(_url(b, code, tokens[1]), "B1").connect()
            for c in (watcher, ann, bob):
                await c.wait_for(lambda c: _state(c, 0) == _state(c, 1) == "connected", 15)
            await ann.send({"type": "presence", "state": "away"})
            await bob.wait_for(lambda c: _state(c, 0) == "away", 15)
            await bob.send({"type": "presence", "state": "away"})
            await watcher.wait_for(lambda c: _state(c, 1) == "away", 15)
            assert (await http.get(f"/api/tables/{code}")).json()["seats"][1]["presence"] == "away"
            await bob.send({"type": "presence", "state": "here"})
            await watcher.wait_for(lambda c: _state(c, 1) == "connected", 15)
            await bob.close()
            await watcher.wait_for(lambda c: _state(c, 1) == "disconnected", 15)
            await ann.wait_for(lambda c: _state(c, 1) == "disconnected", 15)
            bob = await WsClient(_url(b, code, tokens[1]), "B1b").connect()
            await watcher.wait_for(lambda c: _state(c, 1) == "connected", 15)
            await bob.wait_for(lambda c: _state(c, 0) == "away", 15)  # told on connect
            b.kill()  # no goodbye: A forgets B's seats when its reports stop
            await watcher.wait_for(lambda c: _state(c, 1) == "disconnected", 15)
            assert _parses(_seats(watcher)[1]["since"])  # type: ignore[index]
            seat = (await http.get(f"/api/tables/{code}")).json()["seats"][1]
            assert (seat["presence"], seat["connected"]) == ("disconnected", False)
            for c in (watcher, ann):
                await c.close()
    finally:
        a.kill()
        b.kill()


async def test_absent_since_is_none_while_a_seat_has_a_socket_anywhere(pg_url: str) -> None:
    """The hub's side of the autopilot's grace: ``absent_since`` is None while the seat
    has a socket (visible or hidden) here or on another process, else since when it has
    had none; the presence hook is called on every change, sockets here or not."""
    store = make_store(Settings(database_url=pg_url))
    service = TableService(store, next_round_seconds=0)
    hub = Hub(store, next_round_seconds=0, remote=RemotePresence("me", ttl=30.0))
    changes: list[int] = []
    hub.presence_changes.subscribe(changes.append)
    try:
        joined = await service.create("hub", 2, False, "Ann")
        ident = await service.identify(joined.code, joined.token)
        tid = ident.table_id
        assert hub.absent_since(tid, 0) == hub.presence_log.started  # never seen here
        conn = Connection(tid, ident.code, 0, ident.player_id, joined.token)
        await hub.attach(conn)
        assert hub.absent_since(tid, 0) is None and changes == [tid]
        hub.set_away(conn, True)
        assert hub.absent_since(tid, 0) is None and changes == [tid, tid]
        away_since = hub.seat_presence(tid, 2)[0]
        assert away_since[0] == "away"
        await hub.detach(conn)
        gone = hub.absent_since(tid, 0)
        assert gone is not None and gone >= away_since[1] and changes == [tid] * 3
        # another process reports the seat (no socket of this table here), then loses it
        hub.heard(f"other|{tid}|0")
        assert hub.absent_since(tid, 0) is None and len(changes) == 4
        hub.heard(f"other|{tid}|0|0|0")  # its page is hidden there: still not absent
        assert hub.absent_since(tid, 0) is None and hub.seat_presence(tid, 2)[0][0] == "away"
        hub.heard(f"other|{tid}|")
        later = hub.absent_since(tid, 0)
        assert later is not None and later >= gone and len(changes) == 6
        hub.heard(f"other|{tid}|")  # nothing changed: no call
        assert len(changes) == 6
    finally:
        await service.close()


async def test_a_moves_table_patch_brings_the_seats_presence_up_to_date(
    live: ServerProcess, http: httpx.AsyncClient
) -> None:
    """The table info a client builds from event frames (snapshot, then ``table_patch``)
    shows each seat's presence as it stands: a move after a seat went away, came back and
    left carries the seats that changed (the hub reuses the seats it sent only while
    nothing they show has changed)."""
    code, tokens, ann, bob, watcher = await _two_seats_and_a_watcher(live, http)
    players = {0: ann, 1: bob}

    async def a_move_and_the_seats_agree_with_http() -> None:
        assert ann.view is not None
        mover = players[ann.view["turn"]]
        assert mover.view is not None
        legal = [m["move"] for m in mover.view["legal"]]
        seq = mover.last_seq
        await mover.request(
            {"type": "move", "move": legal[0], "move_id": f"m{seq}", "seq": seq}, ("ack",)
        )
        await watcher.wait_for(lambda c: c.last_seq > seq)
        truth = (await http.get(f"/api/tables/{code}")).json()["seats"]
        assert watcher.table is not None and watcher.table["seats"] == truth

    await a_move_and_the_seats_agree_with_http()  # nothing changed: the seats as sent
    await bob.send({"type": "presence", "state": "away"})
    await watcher.wait_for(lambda c: _state(c, 1) == "away")
    await a_move_and_the_seats_agree_with_http()
    await bob.send({"type": "presence", "state": "here"})
    await watcher.wait_for(lambda c: _state(c, 1) == "connected")
    await a_move_and_the_seats_agree_with_http()
    await bob.close()
    await watcher.wait_for(lambda c: _state(c, 1) == "disconnected")
    players[1] = bob = await WsClient(_url(live, code, tokens[1]), "bob again").connect()
    await watcher.wait_for(lambda c: _state(c, 1) == "connected")
    await a_move_and_the_seats_agree_with_http()
    for c in (ann, bob, watcher):
        await c.close()
