"""Rejoin from any device, leave and resign over real HTTP and real WebSockets on
PostgreSQL (docs/protocol.md, "Devices, leave, resign, replace"): a claimed
device link closes every socket of the old credential with 4410 — on the other server
process too — and the old token is refused; a leaver's sockets close with 4411 and a
computer player plays the seat while the partnership plays on to the end; every frame of
every recipient is checked by the hidden-information oracle with rejoins and leaves in
the mix."""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .helpers import greedy_choice
from .oracle import check_frames
from .support import ServerProcess, WsClient, read_events, replay_states, seat_table

NO_DELAY = {"FIVEUP_BOT_DELAY_MS": "0", "FIVEUP_BOT_HARD_BUDGET_MS": "20"}


@pytest.fixture
def server(pg_url: str) -> Iterator[ServerProcess]:
    s = ServerProcess(pg_url, **NO_DELAY).start()
    yield s
    s.kill()


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _link(http: httpx.AsyncClient, code: str, token: str, seat: int) -> str:
    r = await http.post(f"/api/tables/{code}/seats/{seat}/link", headers=_bearer(token))
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    assert body["seat"] == seat and body["link"].startswith(f"/t/{code}#seat=")
    return str(body["link"].split("#seat=", 1)[1])


async def _claim(http: httpx.AsyncClient, code: str, link: str) -> dict[str, Any]:
    r = await http.post(f"/api/tables/{code}/claim", json={"link": link})
    assert r.status_code == 200, r.text
    joined: dict[str, Any] = r.json()
    return joined


async def _move(client: WsClient, rng: random.Random) -> None:
    assert client.view is not None
    reply = await client.request(
        {
            "type": "move",
            "move": greedy_choice(client.view["legal"], rng),
            "move_id": uuid.uuid4().hex,
            "seq": client.last_seq,
        },
        ("ack", "error"),
    )
    assert reply["type"] == "ack", reply


async def _settle(clients: list[WsClient]) -> None:
    target = max(c.last_seq for c in clients)
    for c in clients:
        await c.wait_for(lambda c, t=target: c.last_seq >= t)


async def test_a_claimed_link_moves_the_seat_and_closes_the_old_sockets_with_4410(
    server: ServerProcess,
) -> None:
    rng = random.Random(4)
    async with httpx.AsyncClient(base_url=server.http, timeout=20) as http:
        code, tokens = await seat_table(http, 2)
        url = f"{server.ws}/ws/tables/{code}"
        seats = [
            await WsClient(f"{url}?token={t}", f"seat{i}").connect() for i, t in enumerate(tokens)
        ]
        second_tab = await WsClient(f"{url}?token={tokens[1]}", "seat1-tab").connect()
        link = await _link(http, code, tokens[1], 1)
        joined = await _claim(http, code, link)
        assert joined["seat"] == 1 and joined["token"] != tokens[1]
        for old in (seats[1], second_tab):
            await old.wait_for(lambda c: c.closed is not None)
            assert old.closed == (4410, "this seat moved to another device")
        # the old token is refused over HTTP and on a new socket; a used link too
        r = await http.post(f"/api/tables/{code}/resign", headers=_bearer(tokens[1]))
        assert r.status_code == 401 and r.json()["detail"]["code"] == "unauthorized"
        refused = await WsClient(f"{url}?token={tokens[1]}", "seat1-old").connect()
        assert refused.closed is not None and refused.closed[0] == 4401
        r = await http.post(f"/api/tables/{code}/claim", json={"link": link})
        assert r.status_code == 404 and r.json()["detail"]["code"] == "link_used"
        # the new device plays on from where the seat was
        new = await WsClient(f"{url}?token={joined['token']}", "seat1-new").connect()
        assert new.frames[0]["you"] == 1
        live = [seats[0], new]
        for _ in range(6):
            await _settle(live)
            assert new.view is not None and new.view["phase"] == "playing"
            await _move(live[new.view["turn"]], rng)
        await _settle(live)
        kinds = [f["event"]["type"] for f in seats[0].frames if f["type"] == "event"]
        assert kinds.count("link_issued") == 1 and kinds.count("seat_moved") == 1
        events = read_events(server.database_url, code)
        states = replay_states(events)
        for client, seat in ((seats[0], 0), (seats[1], 1), (second_tab, 1), (new, 1)):
            check_frames(client.frames, seat, states, client.label)
        for c in live:
            await c.close()


async def test_the_old_socket_on_another_process_is_closed_too(pg_url: str) -> None:
    a = ServerProcess(pg_url).start()
    b = ServerProcess(pg_url).start()
    try:
        async with httpx.AsyncClient(base_url=a.http, timeout=20) as http:
            code, tokens = await seat_table(http, 3)
            on_b = await WsClient(f"{b.ws}/ws/tables/{code}?token={tokens[2]}", "B2").connect()
            on_a = await WsClient(f"{a.ws}/ws/tables/{code}?token={tokens[2]}", "A2").connect()
            watcher_b = await WsClient(f"{b.ws}/ws/tables/{code}", "Bw").connect()
            # the seat asks again (it lost the first link); the older one dies
            older = await _link(http, code, tokens[2], 2)
            link = await _link(http, code, tokens[2], 2)
            r = await http.post(f"/api/tables/{code}/claim", json={"link": older})
            assert r.status_code == 404 and r.json()["detail"]["code"] == "link_used"
            joined = await _claim(http, code, link)
        for old in (on_a, on_b):
            await old.wait_for(lambda c: c.closed is not None)
            assert old.closed is not None and old.closed[0] == 4410
        await watcher_b.wait_for(
            lambda c: any(
                f["type"] == "event" and f["event"]["type"] == "seat_moved" for f in c.frames
            )
        )
        assert watcher_b.closed is None
        new = await WsClient(f"{b.ws}/ws/tables/{code}?token={joined['token']}", "B2-new").connect()
        assert new.closed is None and new.frames[0]["you"] == 2
        for c in (new, watcher_b):
            await c.close()
    finally:
        a.kill()
        b.kill()


async def test_leave_in_partnerships_a_bot_takes_the_seat_and_the_partner_plays_to_the_end(
    server: ServerProcess,
) -> None:
    """Four players, partnerships (R2): seat 1 leaves mid-match (its socket closes with
    4411, a computer player of FIVEUP_AUTOPILOT_LEVEL plays seat 1), seat 2 moves to
    another device half-way; the others play to R24. The oracle checks every frame."""
    rng = random.Random(21)
    async with httpx.AsyncClient(base_url=server.http, timeout=20) as http:
        code, tokens = await seat_table(http, 4)
        url = f"{server.ws}/ws/tables/{code}"
        seats = [
            await WsClient(f"{url}?token={t}", f"seat{i}").connect() for i, t in enumerate(tokens)
        ]
        spectator = await WsClient(url, "spectator").connect()
        everyone: list[tuple[WsClient, int | None]] = [(c, i) for i, c in enumerate(seats)]
        everyone.append((spectator, None))
        people: dict[int, WsClient] = {0: seats[0], 1: seats[1], 2: seats[2], 3: seats[3]}
        moves = 0
        while True:
            await _settle([*people.values(), spectator])
            view = spectator.view
            assert view is not None
            if view["phase"] == "match_over":
                break
            if moves == 3:
                r = await http.post(f"/api/tables/{code}/leave", headers=_bearer(tokens[1]))
                assert r.status_code == 200, r.text
                info = r.json()
                assert info["status"] == "playing" and info["seats"][1]["bot"] == "medium"
                await seats[1].wait_for(lambda c: c.closed is not None)
                assert seats[1].closed == (
                    4411,
                    "you left this seat; a computer player plays it now",
                )
                del people[1]
                r = await http.post(f"/api/tables/{code}/resign", headers=_bearer(tokens[0]))
                assert r.status_code == 409
                assert r.json()["detail"]["code"] == "resign_partnership"
            if moves == 12:  # seat 2 carries on on another device
                joined = await _claim(http, code, await _link(http, code, tokens[2], 2))
                await seats[2].wait_for(lambda c: c.closed is not None)
                fresh = await WsClient(f"{url}?token={joined['token']}", "seat2-new").connect()
                people[2] = fresh
                everyone.append((fresh, 2))
            moves += 1
            await _settle([*people.values(), spectator])
            view = spectator.view
            if view["phase"] != "playing" or view["turn"] not in people:
                await spectator.wait_for(
                    lambda c: (
                        c.view is not None
                        and (c.view["phase"] == "match_over" or c.view["turn"] in people)
                    )
                )
                continue
            await _move(people[view["turn"]], rng)
        assert spectator.view is not None and max(spectator.view["scores"]) >= 61  # R24
        events = read_events(server.database_url, code)
        kinds = [e["kind"] for e in events.values()]
        assert kinds.count("seat_left") == 1 and kinds.count("seat_moved") == 1
        bot_moves = [
            e
            for e in events.values()
            if e["kind"] == "move" and e["payload"]["seat"] == 1 and not e["payload"].get("auto")
        ]
        assert bot_moves and all(str(e["move_id"]).startswith("bot-") for e in bot_moves[-3:])
        states = replay_states(events)
        checked = sum(check_frames(c.frames, seat, states, c.label) for c, seat in everyone)
        assert checked > len(events)
        for c, _ in everyone:
            await c.close()


async def test_resign_in_two_players_ends_the_match_over_sockets(server: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=server.http, timeout=20) as http:
        code, tokens = await seat_table(http, 2)
        url = f"{server.ws}/ws/tables/{code}"
        seats = [
            await WsClient(f"{url}?token={t}", f"seat{i}").connect() for i, t in enumerate(tokens)
        ]
        spectator = await WsClient(url, "spectator").connect()
        r = await http.post(f"/api/tables/{code}/resign", headers=_bearer(tokens[0]))
        assert r.status_code == 200, r.text
        assert r.json()["status"] == "finished" and r.json()["resigned"] == 0
        for c in (*seats, spectator):
            await c.wait_for(lambda c: c.table is not None and c.table["status"] == "finished")
            assert c.table is not None and c.table["resigned"] == 0
            assert c.view is not None and c.view["winner"] == 1 and c.view["legal"] == []
            assert c.closed is None  # resigning closes nobody's socket
        event = next(f["event"] for f in spectator.frames if f["type"] == "event")
        assert event == {"type": "resigned", "seat": 0, "winner": 1}
        # between matches the host (seat 0, who resigned) replaces the other player
        r = await http.post(
            f"/api/tables/{code}/seats/1/replace",
            headers=_bearer(tokens[0]),
            json={"by": "bot", "level": "easy"},
        )
        assert r.status_code == 200 and r.json()["seats"][1]["bot"] == "easy"

        # the replaced person's socket watches on as a spectator, from a new snapshot
        def watching(c: WsClient) -> bool:
            return any(f["type"] == "snapshot" and f["you"] is None for f in c.frames)

        await seats[1].wait_for(watching)
        assert seats[1].closed is None
        states = replay_states(read_events(server.database_url, code))
        cut = next(
            i for i, f in enumerate(seats[1].frames) if f["type"] == "snapshot" and f["you"] is None
        )
        check_frames(seats[1].frames[:cut], 1, states, "seat1")
        check_frames(seats[1].frames[cut:], None, states, "seat1 as a spectator")
        for c, seat in ((seats[0], 0), (spectator, None)):
            check_frames(c.frames, seat, states, c.label)
        for c in (*seats, spectator):
            await c.close()
