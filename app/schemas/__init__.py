"""The wire contracts: one pydantic model per HTTP body and per WebSocket frame.

HTTP routes declare and return these models, so ``/openapi.json`` shows exactly what is
sent. WebSocket frames are built on the hot path as plain dicts by the one projection
(:mod:`app.realtime.frames`) and encoded once per recipient class; the models below
describe them (docs/protocol.md) and the tests validate every frame they receive against
them (tests/server/test_contracts.py).
"""

from app.schemas.frames import (
    SERVER_FRAMES,
    AckFrame,
    DescriptionFrame,
    ErrorFrame,
    EventFrame,
    Patch,
    PongFrame,
    PresenceFrame,
    SeatPresence,
    SnapshotFrame,
)
from app.schemas.records import MatchRecord, RecordRound, RecordVerdict
from app.schemas.requests import (
    BOT_LEVELS,
    NAME_RULES,
    AddBot,
    ClaimSeat,
    CreateTable,
    JoinTable,
    JsonInt,
    Practice,
    ReplaceSeat,
    SeatRequest,
)
from app.schemas.tables import (
    ClockInfo,
    DeviceLink,
    ErrorBody,
    ErrorResponse,
    Health,
    History,
    Joined,
    LinkedSeat,
    Lobby,
    LobbyEntry,
    SeatInfo,
    TableInfo,
)

__all__ = [
    "BOT_LEVELS",
    "NAME_RULES",
    "SERVER_FRAMES",
    "AckFrame",
    "AddBot",
    "ClaimSeat",
    "ClockInfo",
    "CreateTable",
    "DescriptionFrame",
    "DeviceLink",
    "ErrorBody",
    "ErrorFrame",
    "ErrorResponse",
    "EventFrame",
    "Health",
    "History",
    "JoinTable",
    "Joined",
    "JsonInt",
    "LinkedSeat",
    "Lobby",
    "LobbyEntry",
    "MatchRecord",
    "Patch",
    "PongFrame",
    "Practice",
    "PresenceFrame",
    "RecordRound",
    "RecordVerdict",
    "ReplaceSeat",
    "SeatInfo",
    "SeatPresence",
    "SeatRequest",
    "SnapshotFrame",
    "TableInfo",
]
