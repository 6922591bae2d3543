"""Who is at a table, as the lobby and the table page show it: spectator
sockets are counted on every process (each process reports its seats and spectators on
the presence channel, app/realtime/presence.py) and shown in ``TableInfo.spectators``,
``LobbyEntry.spectators`` and ``presence`` frames; the lobby lists the tables looking
for players first, then the rest; a finished table leaves it."""

from __future__ import annotations

import random
from typing import Any

import httpx

from .support import ServerProcess, WsClient, seat_table
from .test_hidden_information import play_match_over_websockets


def _presence(c: WsClient) -> dict[str, Any] | None:
    frames = [f for f in c.frames if f["type"] == "presence"]
    return frames[-1] if frames else None


async def test_spectators_are_counted_across_processes(pg_url: str) -> None:
    a = ServerProcess(pg_url, FIVEUP_PRESENCE_TTL_SECONDS="1.5").start()
    b = ServerProcess(pg_url, FIVEUP_PRESENCE_TTL_SECONDS="1.5").start()
    try:
        async with httpx.AsyncClient(base_url=a.http, timeout=20) as http:
            code, tokens = await seat_table(http, 2)
            seat0 = await WsClient(f"{a.ws}/ws/tables/{code}?token={tokens[0]}", "A0").connect()
            watchers = [
                await WsClient(f"{a.ws}/ws/tables/{code}", "Aw").connect(),
                await WsClient(f"{b.ws}/ws/tables/{code}", "Bw1").connect(),
                await WsClient(f"{b.ws}/ws/tables/{code}", "Bw2").connect(),
            ]
            await seat0.wait_for(lambda c: (_presence(c) or {}).get("spectators") == 3, 15)
            info = (await http.get(f"/api/tables/{code}")).json()
            assert info["spectators"] == 3
            lobby = (await http.get("/api/tables")).json()["tables"]
            assert next(e for e in lobby if e["code"] == code)["spectators"] == 3
            await watchers[1].close()
            await seat0.wait_for(lambda c: (_presence(c) or {}).get("spectators") == 2, 15)
            b.kill()  # no goodbye: its spectators are forgotten when its reports stop
            await seat0.wait_for(lambda c: (_presence(c) or {}).get("spectators") == 1, 15)
            assert (await http.get(f"/api/tables/{code}")).json()["spectators"] == 1
            for c in (seat0, watchers[0]):
                await c.close()
    finally:
        a.kill()
        b.kill()


async def test_the_lobby_lists_tables_looking_for_players_first_and_not_finished_ones(
    live: ServerProcess, http: httpx.AsyncClient
) -> None:
    finished, _ = await play_match_over_websockets(live, http, 2, random.Random(5))
    old = await http.post(
        "/api/tables", json={"name": "old", "players": 3, "public": True, "host_name": "P"}
    )
    looking_old = old.json()["code"]
    assert (
        await http.post(f"/api/tables/{looking_old}/join", json={"name": "Zed", "seat": 1})
    ).status_code == 200  # 2 of 3 seats taken: still looking
    playing, playing_tokens = await seat_table(http, 2)
    full_waiting, waiting_tokens = await seat_table(http, 2, start=False)
    new = await http.post(
        "/api/tables", json={"name": "new", "players": 4, "public": True, "host_name": "Q"}
    )
    looking_new = new.json()["code"]
    hosts = [  # a person at each (the lobby lists only tables with one)
        await WsClient(f"{live.ws}/ws/tables/{c}?token={t}", c).connect()
        for c, t in (
            (looking_old, old.json()["token"]),
            (playing, playing_tokens[0]),
            (full_waiting, waiting_tokens[0]),
            (looking_new, new.json()["token"]),
        )
    ]
    lobby = (await http.get("/api/tables")).json()["tables"]
    for host in hosts:
        await host.close()
    codes = [e["code"] for e in lobby]
    assert finished not in codes
    looking = [e["status"] == "waiting" and e["seats_taken"] < e["players"] for e in lobby]
    first_other = looking.index(False)
    assert not any(looking[first_other:]), "a table looking for players after the others"
    assert codes.index(looking_new) < codes.index(looking_old) < first_other  # newest first
    assert first_other <= codes.index(playing) and first_other <= codes.index(full_waiting)
