"""Pydantic request/response schemas of the HTTP API (see docs/protocol.md)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CreateTable(_Strict):
    name: str = Field(max_length=200, description="table name, 1-40 chars after strip")
    players: Literal[2, 3, 4]
    public: StrictBool = True
    host_name: str = Field(max_length=200, description="display name, 1-24 chars after strip")


class JoinTable(_Strict):
    name: str = Field(max_length=200, description="display name, 1-24 chars after strip")
    seat: StrictInt = Field(ge=0, le=3)


class SeatRequest(_Strict):
    seat: StrictInt = Field(ge=0, le=3)


class SeatInfo(BaseModel):
    seat: int
    name: str | None
    side: int
    connected: bool


class TableInfo(BaseModel):
    code: str
    name: str
    players: int
    public: bool
    status: str
    host: int | None
    seq: int
    match: int
    seats: list[SeatInfo]
    sides: list[list[int]]
    scores: list[int]
    round: int | None
    phase: str | None
    target: int
    rematch_votes: list[int]
    ready: list[int]


class Joined(BaseModel):
    code: str
    token: str = Field(description="secret seat token; send as `Authorization: Bearer`")
    seat: int
    table: TableInfo


class LobbyEntry(BaseModel):
    code: str
    name: str
    players: int
    status: str
    seats_taken: int
    scores: list[int]
    round: int | None
    match: int


class Lobby(BaseModel):
    tables: list[LobbyEntry]


class History(BaseModel):
    code: str
    seq: int
    match: int
    you: int | None
    rounds: list[dict[str, Any]]


class ErrorBody(BaseModel):
    code: str
    message: str


class ErrorResponse(BaseModel):
    detail: ErrorBody
