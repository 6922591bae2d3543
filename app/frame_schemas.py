"""The WebSocket frames the server sends, one pydantic model each (docs/protocol.md).

Frames are built on the hot path as plain dicts by the one projection
(:mod:`app.realtime.frames`); these models describe them, and the tests validate every
frame they receive against them (tests/server/test_contracts.py).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from app.schemas import TableInfo
from app.types import Json


class Patch(BaseModel):
    """Changes to an object the client holds: ``set`` replaces the value at a dotted path,
    ``append`` extends the list at a dotted path (applied after ``set``)."""

    set: Json = Field(default_factory=dict)
    append: dict[str, list[Any]] = Field(default_factory=dict)


class SnapshotFrame(BaseModel):
    type: Literal["snapshot"]
    seq: int
    server_time: str
    you: int | None
    table: TableInfo
    view: Json | None
    events: list[Json]
    chat: list[Json] | None = Field(
        description="the last 50 chat messages as {seq, event}, oldest first; null: keep yours"
    )


class EventFrame(BaseModel):
    type: Literal["event"]
    seq: int
    event: Json
    view: Json | None = None
    view_patch: Patch | None = None
    table_patch: Patch | None = None


class AckFrame(BaseModel):
    type: Literal["ack"]
    move_id: str | None
    seq: int
    duplicate: bool


class ErrorFrame(BaseModel):
    type: Literal["error"]
    code: str
    message: str
    move_id: str | None
    rule: str | None = None


class SeatPresence(BaseModel):
    seat: int
    state: Literal["connected", "away", "disconnected"]
    since: str | None = Field(description="when this state began (ISO 8601 UTC, ms, Z)")


class PresenceFrame(BaseModel):
    type: Literal["presence"]
    connected: list[int] = Field(description="seats with a socket, visible or hidden")
    spectators: int
    seats: list[SeatPresence] = Field(
        description="every person's seat (not computer players', not free seats)"
    )


class DescriptionFrame(BaseModel):
    type: Literal["description"]
    seq: int
    description: str | None
    description_uk: str | None


class PongFrame(BaseModel):
    type: Literal["pong"]


SERVER_FRAMES: dict[str, type[BaseModel]] = {
    "snapshot": SnapshotFrame,
    "event": EventFrame,
    "ack": AckFrame,
    "error": ErrorFrame,
    "presence": PresenceFrame,
    "description": DescriptionFrame,
    "pong": PongFrame,
}
