"""The documented contracts are what the server sends: every frame of whole matches
validates against its model in app/schemas.py; the fields docs/protocol.md shows for
TableInfo and View are exactly the fields sent over HTTP and over the WebSocket; the
frame that ends a match says so in both its view and its table; a reused move id with
another move is an error; and bodies that once broke the error handler get a clear 422.
"""

from __future__ import annotations

import json
import random
import re
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.engine import Match, view_for
from app.frame_schemas import SERVER_FRAMES, EventFrame
from app.schemas import TableInfo

from .helpers import greedy_choice
from .support import ServerProcess, WsClient, apply_patch, seat_table
from .test_hidden_information import play_match_over_websockets

PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def documented_object(name: str) -> dict[str, Any]:
    """The JSON example that follows the line ```` `Name`: ```` in docs/protocol.md."""
    text = PROTOCOL.read_text()
    match = re.search(rf"^`{name}`[^\n]*:\s*\n```json\n(.*?)\n```", text, re.S | re.M)
    assert match, f"docs/protocol.md has no JSON example for {name}"
    body = re.sub(r"//[^\n]*", "", match.group(1))  # comments in the examples
    body = body.replace("...", "")
    body = re.sub(r",\s*([\]}])", r"\1", body)
    return dict(json.loads(body))


def check_frame(frame: dict[str, Any]) -> None:
    model = SERVER_FRAMES.get(frame["type"])
    assert model is not None, f"undocumented frame type {frame['type']!r}"
    model.model_validate(frame)


async def test_every_frame_of_whole_matches_matches_its_model(
    live: ServerProcess, http: httpx.AsyncClient
) -> None:
    for players in (2, 4):
        _, clients = await play_match_over_websockets(
            live, http, players, random.Random(players), rematch=players == 2, chat_every=5
        )
        for client, _ in clients:
            table: dict[str, Any] | None = None
            for frame in client.frames:
                check_frame(frame)
                if frame["type"] == "snapshot":
                    table = frame["table"]
                elif frame["type"] == "event" and "table_patch" in frame:
                    assert table is not None
                    table = apply_patch(table, frame["table_patch"])
                    TableInfo.model_validate(table)  # a patched table is still a TableInfo


async def test_documented_table_info_and_view_fields_are_the_ones_sent(
    live: ServerProcess, http: httpx.AsyncClient
) -> None:
    table_fields = set(documented_object("TableInfo"))
    view_fields = set(documented_object("View"))
    assert table_fields == set(TableInfo.model_fields)
    assert view_fields == set(view_for(Match.new(2, random.Random(1)), 0))
    code, tokens = await seat_table(http, 2, start=False)
    r = await http.post(
        f"/api/tables/{code}/start", headers={"Authorization": f"Bearer {tokens[0]}"}
    )
    assert set(r.json()) == table_fields  # start response
    assert set((await http.get(f"/api/tables/{code}")).json()) == table_fields
    created = await http.post(
        "/api/tables", json={"name": "x", "players": 2, "public": False, "host_name": "A"}
    )
    assert set(created.json()["table"]) == table_fields  # create response
    seat = await WsClient(f"{live.ws}/ws/tables/{code}?token={tokens[0]}").connect()
    spectator = await WsClient(f"{live.ws}/ws/tables/{code}").connect()
    for c in (seat, spectator):
        snapshot = c.frames[0]
        assert set(snapshot["table"]) == table_fields
        assert set(snapshot["view"]) == view_fields
        await c.close()


async def test_the_frame_that_ends_a_match_says_finished(
    live: ServerProcess, http: httpx.AsyncClient
) -> None:
    _, clients = await play_match_over_websockets(live, http, 3, random.Random(7))
    for client, _ in clients:
        view: dict[str, Any] | None = None
        table: dict[str, Any] | None = None
        for frame in client.frames:
            if frame["type"] == "snapshot":
                view, table = frame["view"], frame["table"]
            elif frame["type"] == "event":
                if "view" in frame:
                    view = frame["view"]
                elif "view_patch" in frame:
                    assert view is not None
                    view = apply_patch(view, frame["view_patch"])
                if "table_patch" in frame:
                    assert table is not None
                    table = apply_patch(table, frame["table_patch"])
                if view is not None and view["phase"] == "match_over":
                    assert table is not None and table["status"] == "finished", client.label
                    assert table["phase"] == "match_over"
        assert view is not None and view["phase"] == "match_over", client.label


async def test_a_reused_move_id_with_another_move_is_refused(
    live: ServerProcess, http: httpx.AsyncClient
) -> None:
    code, tokens = await seat_table(http, 2)
    url = f"{live.ws}/ws/tables/{code}"
    seats = [await WsClient(f"{url}?token={t}", f"seat{i}").connect() for i, t in enumerate(tokens)]
    rng = random.Random(3)
    turn = seats[0].view["turn"]  # type: ignore[index]
    mover, other = seats[turn], seats[1 - turn]
    first = {"type": "move", "move": greedy_choice(mover.view["legal"], rng), "move_id": "m-1"}  # type: ignore[index]
    assert (await mover.request(first, ("ack", "error")))["type"] == "ack"
    await other.wait_for(lambda c: c.view is not None and c.view["turn"] == 1 - turn)
    # the other seat numbers its moves the same way: its first move is "m-1" too
    move = greedy_choice(other.view["legal"], rng)  # type: ignore[index]
    reply = await other.request({"type": "move", "move": move, "move_id": "m-1"}, ("ack", "error"))
    assert reply["type"] == "error" and reply["code"] == "move_id_reused", reply
    assert other.view["turn"] == 1 - turn  # type: ignore[index]  # nothing was applied
    # the same move under the same id is still a harmless retry
    again = await mover.request(first, ("ack", "error"))
    assert again["type"] == "ack" and again["duplicate"] is True
    fresh = {"type": "move", "move": move, "move_id": uuid.uuid4().hex}
    assert (await other.request(fresh, ("ack", "error")))["type"] == "ack"
    for c in seats:
        await c.close()


async def test_describe_answers_with_the_layout_descriptions(
    live: ServerProcess, http: httpx.AsyncClient
) -> None:
    code, tokens = await seat_table(http, 2)
    seat = await WsClient(f"{live.ws}/ws/tables/{code}?token={tokens[0]}").connect()
    reply = await seat.request({"type": "describe"}, ("description",))
    check_frame(reply)
    assert reply["seq"] == seat.last_seq
    assert reply["description"] == seat.frames[0]["view"]["description"]
    assert reply["description_uk"] == seat.frames[0]["view"]["description_uk"]
    await seat.close()


def test_event_frames_never_carry_the_descriptions() -> None:
    """Patches leave the descriptions out; a whole view in an event frame has none."""
    assert "description" not in EventFrame.model_fields


@pytest.mark.parametrize(
    "body",
    [
        '{"name": "T", "players": NaN, "public": true, "host_name": "A"}',
        '{"name": "T", "players": 1e999, "public": true, "host_name": "A"}',
        '{"name": "T", "players": -1e999, "public": true, "host_name": "A"}',
        '{"name": "T", "players": 2.5, "public": true, "host_name": "A"}',
        '{"name": "T", "players": "2", "public": true, "host_name": "A"}',
        '{"name": "T", "players": true, "public": true, "host_name": "A"}',
        '{"name": "\\ud800", "players": 2, "public": true, "host_name": "A"}',
        '{"name": "T", "players": 2, "public": true, "host_name": "\\udfff x"}',
        '{"name": "' + "x" * 41 + '", "players": 2, "public": true, "host_name": "A"}',
        '{"name": "T", "players": 2, "public": true, "host_name": "' + "y" * 25 + '"}',
    ],
)
async def test_bodies_that_broke_the_error_handler_get_a_clear_422(
    http: httpx.AsyncClient, body: str
) -> None:
    r = await http.post("/api/tables", content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 422, r.text
    detail = r.json()["detail"]
    assert detail["code"] in ("invalid_request", "invalid_name") and detail["message"]


async def test_an_integral_number_is_an_integer_as_in_json_schema(http: httpx.AsyncClient) -> None:
    r = await http.post(
        "/api/tables", json={"name": "T", "players": 2.0, "public": True, "host_name": "A"}
    )
    assert r.status_code == 201 and r.json()["table"]["players"] == 2


async def test_a_wrong_method_lists_every_allowed_one(http: httpx.AsyncClient) -> None:
    r = await http.request("OPTIONS", "/api/tables")
    assert r.status_code == 405 and r.json()["detail"]["code"] == "method_not_allowed"
    assert {m.strip() for m in r.headers["allow"].split(",")} >= {"GET", "POST"}


async def test_the_lobby_lists_open_or_finished_tables(http: httpx.AsyncClient) -> None:
    assert (await http.get("/api/tables", params={"status": "finished"})).status_code == 200
    r = await http.get("/api/tables", params={"status": "closed"})
    assert r.status_code == 422 and r.json()["detail"]["code"] == "invalid_request"


async def test_openapi_documents_every_error_as_an_error_response(http: httpx.AsyncClient) -> None:
    """What a 422 really looks like is what the schema says (not FastAPI's list shape)."""
    spec = (await http.get("/openapi.json")).json()
    assert "HTTPValidationError" not in json.dumps(spec["paths"])
    for path, operations in spec["paths"].items():
        for method, op in operations.items():
            for status, response in op.get("responses", {}).items():
                if status.startswith(("4", "5")):
                    ref = json.dumps(response)
                    assert "ErrorResponse" in ref or "Health" in ref, (method, path, status)
