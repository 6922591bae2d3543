"""Table chat over real sockets on a real server and PostgreSQL: seats post to
the table channel and spectators to a marked spectators' channel, which the host turns
off; every message is a seq'd, stored event; a reconnecting client gets the recent chat
in its snapshot; text is cleaned and limited; a socket's chat is rate limited; chat does
not make a move stale; the service behaves the same on SQLite."""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.tables.errors import TableError
from app.tables.service import TableService

from .support import ServerProcess, WsClient, read_events, seat_table
from .test_hidden_information import play_match_over_websockets


def chat_events(client: WsClient) -> list[dict[str, Any]]:
    return [
        f["event"] for f in client.frames if f["type"] == "event" and f["event"]["type"] == "chat"
    ]


async def _clients(live: ServerProcess, code: str, tokens: list[str]) -> list[WsClient]:
    url = f"{live.ws}/ws/tables/{code}"
    seats = [await WsClient(f"{url}?token={t}", f"seat{i}").connect() for i, t in enumerate(tokens)]
    return [*seats, await WsClient(url, "spectator").connect()]


async def test_seats_and_a_spectator_chat_on_their_channels_and_the_host_turns_spectators_off(
    live: ServerProcess, http: httpx.AsyncClient
) -> None:
    code, tokens = await seat_table(http, 2)
    host, guest, spectator = await _clients(live, code, tokens)
    assert host.table is not None and host.table["spectator_chat"] is True
    await host.send({"type": "chat", "text": "hello <b>all</b>"})
    await guest.send({"type": "chat", "quick": "good_move"})
    await spectator.send({"type": "chat", "quick": "emote_clap"})
    for c in (host, guest, spectator):
        await c.wait_for(lambda c: len(chat_events(c)) == 3)
    got = chat_events(spectator)
    assert {(e["seat"], e["channel"], e.get("text"), e.get("quick")) for e in got} == {
        (0, "table", "hello <b>all</b>", None),  # plain text, stored as sent
        (1, "table", None, "good_move"),
        (None, "spectators", None, "emote_clap"),
    }
    assert chat_events(host) == got == chat_events(guest)
    stored = [e for e in read_events(live.database_url, code).values() if e["kind"] == "chat"]
    assert [e["payload"] for e in stored] == got  # persisted, in seq order

    reply = await spectator.request({"type": "spectator_chat", "on": False}, ("error",))
    assert reply["code"] == "spectator"
    reply = await guest.request({"type": "spectator_chat", "on": False}, ("error",))
    assert reply["code"] == "not_host"
    await host.send({"type": "spectator_chat", "on": False})
    await spectator.wait_for(lambda c: c.table is not None and not c.table["spectator_chat"])
    reply = await spectator.request({"type": "chat", "text": "can I?"}, ("error",))
    assert reply["code"] == "chat_off"
    await guest.send({"type": "chat", "text": "seats still can"})
    await spectator.wait_for(lambda c: len(chat_events(c)) == 4)
    await host.send({"type": "spectator_chat", "on": True})
    await spectator.wait_for(lambda c: c.table is not None and c.table["spectator_chat"])
    await spectator.send({"type": "chat", "text": "thanks"})
    await host.wait_for(lambda c: len(chat_events(c)) == 5)
    for c in (host, guest, spectator):
        await c.close()


async def test_a_reconnecting_client_gets_the_recent_chat_in_its_snapshot(
    live: ServerProcess, http: httpx.AsyncClient
) -> None:
    code, tokens = await seat_table(http, 2)
    host, guest, spectator = await _clients(live, code, tokens)
    for i in range(55):  # more than a snapshot carries
        await (host if i % 2 else guest).send({"type": "chat", "text": f"message {i}"})
    await spectator.wait_for(lambda c: len(chat_events(c)) == 55)
    await guest.close()
    again = await WsClient(f"{live.ws}/ws/tables/{code}?token={tokens[1]}", "again").connect()
    snapshot = again.frames[0]
    assert snapshot["type"] == "snapshot"
    texts = [item["event"]["text"] for item in snapshot["chat"]]
    assert texts == [f"message {i}" for i in range(5, 55)]
    assert [item["seq"] for item in snapshot["chat"]] == sorted(
        item["seq"] for item in snapshot["chat"]
    )
    assert all(item["seq"] <= snapshot["seq"] for item in snapshot["chat"])
    for c in (host, spectator, again):
        await c.close()


async def test_chat_text_is_cleaned_and_limited(
    live: ServerProcess, http: httpx.AsyncClient
) -> None:
    code, tokens = await seat_table(http, 2)
    host, guest, spectator = await _clients(live, code, tokens)
    await host.send({"type": "chat", "text": "  a\u200bb\u0007\n\n c\u202e "})
    await spectator.wait_for(lambda c: len(chat_events(c)) == 1)
    assert chat_events(spectator)[0]["text"] == "ab c"
    for bad, code_ in (
        ({"text": "x" * 201}, "bad_chat"),
        ({"text": "\u200b\u3164 "}, "bad_chat"),
        ({"text": 5}, "bad_chat"),
        ({"quick": "free_text"}, "bad_message"),
        ({"text": "a", "quick": "gg"}, "bad_message"),
        ({}, "bad_message"),
    ):
        reply = await host.request({"type": "chat", **bad}, ("error",))
        assert reply["code"] == code_, (bad, reply)
    await host.send({"type": "chat", "text": "é" * 200})  # 200 after clean-up: fine
    await spectator.wait_for(lambda c: len(chat_events(c)) == 2)
    for c in (host, guest, spectator):
        await c.close()


async def test_a_chat_message_does_not_make_a_move_stale(
    live: ServerProcess, http: httpx.AsyncClient
) -> None:
    code, tokens = await seat_table(http, 2)
    clients = await _clients(live, code, tokens)
    spectator = clients[2]
    view = spectator.view
    assert view is not None
    mover = clients[view["turn"]]
    assert mover.view is not None
    seen = mover.last_seq
    await spectator.send({"type": "chat", "text": "go on"})
    await mover.wait_for(lambda c: c.last_seq == seen + 1)
    move = mover.view["legal"][0]["move"]
    reply = await mover.request(
        {"type": "move", "move": move, "move_id": uuid.uuid4().hex, "seq": seen}, ("ack", "error")
    )
    assert reply["type"] == "ack" and reply["seq"] == seen + 2
    for c in clients:
        await c.close()


@pytest.fixture
def chat_limited(pg_url: str) -> Iterator[ServerProcess]:
    server = ServerProcess(pg_url, FIVEUP_RATE_LIMIT_ENABLED="true").start()
    yield server
    server.kill()


async def test_chat_is_rate_limited_per_socket(chat_limited: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=chat_limited.http, timeout=20) as http:
        code, tokens = await seat_table(http, 2)
    host, guest, spectator = await _clients(chat_limited, code, tokens)
    await host.send({"type": "chat", "text": "one"})
    reply = await host.request({"type": "chat", "text": "two"}, ("error",))
    assert reply["code"] == "rate_limited"  # 1 a second
    await guest.send({"type": "chat", "text": "another socket is not limited"})
    await spectator.wait_for(lambda c: len(chat_events(c)) == 2)
    assert [e["text"] for e in chat_events(spectator)] == ["one", "another socket is not limited"]
    for c in (host, guest, spectator):
        await c.close()


async def test_the_service_posts_chat_and_switches_spectators_on_both_stores(
    service: TableService,
) -> None:
    joined = await service.create("t", 2, False, "Ann")
    table_id = await service.table_id(joined.code)
    await service.chat(table_id, joined.token, "hi", None)
    await service.chat(table_id, None, None, "gg")
    assert await service.spectator_chat(joined.code, joined.token, False) is False
    with pytest.raises(TableError) as err:
        await service.chat(table_id, None, "hello", None)
    assert err.value.code == "chat_off"
    info = await service.info(joined.code)
    assert info.spectator_chat is False and info.seq == 4  # created, 2 chats, the switch
    chat = await service.store.recent_events(table_id, "chat", 50)
    assert [(e.seat, e.payload["channel"]) for e in chat] == [(0, "table"), (None, "spectators")]


async def test_a_match_with_chat_in_it_still_exports_its_record(
    live: ServerProcess, http: httpx.AsyncClient
) -> None:
    """Chat events sit between the moves of a match; the record (built from the stored
    events, docs/record.md) is the match's alone."""
    code, _ = await play_match_over_websockets(live, http, 2, random.Random(11), chat_every=3)
    stored = read_events(live.database_url, code)
    assert any(e["kind"] == "chat" for e in stored.values())
    text = await http.get(f"/api/tables/{code}/record.txt")
    data = await http.get(f"/api/tables/{code}/record.json")
    assert text.status_code == 200 and data.status_code == 200
    assert "nice one" not in text.text and "well_played" not in text.text
    moves = sum(1 for e in stored.values() if e["kind"] == "move")
    assert sum(len(r["moves"]) for r in data.json()["rounds"]) == moves
