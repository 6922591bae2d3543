"""The answers about tables: a table's public information, a seat's credential, the
lobby, a match's history, and the error shape every refusal has.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from app.types import Json


class SeatInfo(BaseModel):
    seat: int
    name: str | None
    side: int = Field(description="R2: the side (partnership at four players)")
    connected: bool
    bot: Literal["easy", "medium", "hard"] | None = Field(
        description="a computer player's level (docs/bots.md), null for a person or a free seat"
    )
    autopilot: bool = Field(
        default=False,
        description="a person's seat played by the autopilot until its player comes back"
        " (docs/protocol.md, Clock and autopilot)",
    )
    presence: Literal["connected", "away", "disconnected"] | None = Field(
        description="a person's seat: connected (a socket on a visible page, any process), "
        "away (sockets only on hidden pages) or disconnected (no socket); null for a "
        "computer player's or a free seat (docs/protocol.md, Presence)"
    )
    since: str | None = Field(
        description="when that presence state began, as the server knows it (ISO 8601 UTC, "
        "ms, Z); null with presence null"
    )


class ClockInfo(BaseModel):
    """A table's turn clock: its preset and that preset's numbers (the settings)."""

    preset: Literal["none", "relaxed", "fast"]
    move_seconds: float | None = Field(description="seconds per move; null without a clock")
    bank_seconds: float | None = Field(
        description="seconds of bank per seat and round; null for a preset without a bank"
    )
    grace_seconds: float = Field(
        default=60.0,
        description="seconds a person's seat may have no socket before the autopilot plays"
        " its turn (a table without a clock) and before the host may move it to another"
        " device (FIVEUP_DISCONNECT_GRACE_SECONDS)",
    )


class TableInfo(BaseModel):
    """Public table information (docs/protocol.md, TableInfo)."""

    code: str
    name: str
    players: int
    public: bool
    status: Literal["waiting", "playing", "finished", "closed"]
    host: int | None
    seq: int
    match: int
    seats: list[SeatInfo]
    sides: list[list[int]]
    scores: list[int]
    round: int | None
    phase: Literal["playing", "round_over", "match_over"] | None
    target: int
    rematch_votes: list[int]
    ready: list[int]
    next_round_at: str | None = Field(
        description="when the countdown deals the next round (ISO 8601 UTC, ms, Z) or null"
    )
    commitment: str | None = Field(
        default=None,
        description="the current round's deal commitment (64 hex digits, docs/fairness.md),"
        " published before its first move; null before the first deal",
    )
    spectator_chat: bool = Field(description="whether spectators may chat (the host's switch)")
    spectators: int = Field(description="spectator sockets watching (every process's reports)")
    clock: ClockInfo = Field(description="the table's turn clock (docs/protocol.md)")
    turn_deadline: str | None = Field(
        default=None,
        description="when the seat to move runs out of time (ISO 8601 UTC, ms, Z): its move"
        " time plus its bank; null without a clock, between rounds, before or after a match",
    )
    banks: list[float] | None = Field(
        default=None, description="seconds of bank left per seat this round; null without a bank"
    )
    resigned: int | None = Field(
        default=None,
        description="the seat whose resignation ended the current match, else null",
    )


class Joined(BaseModel):
    code: str
    token: str = Field(description="secret seat token; send as `Authorization: Bearer`")
    seat: int
    table: TableInfo


class DeviceLink(BaseModel):
    link: str = Field(
        description="`/t/CODE#seat=<credential>`: single use; the credential travels in the"
        " URL fragment only (claim it with POST /api/tables/{code}/claim)"
    )
    seat: int


class LinkedSeat(BaseModel):
    """The seat an unused device link would move (POST /api/tables/{code}/claim/seat)."""

    seat: int
    by: Literal["seat", "host"] = Field(
        description="who made the link: the seat's own player, or the host"
    )


class LobbyEntry(BaseModel):
    code: str
    name: str
    players: int
    status: Literal["waiting", "playing", "finished"]
    seats_taken: int
    bots: int = Field(description="how many of the taken seats computer players hold")
    scores: list[int]
    round: int | None
    match: int
    finished_matches: int = Field(
        description="how many of the table's matches were played to their end (1..N can"
        " be replayed: /t/{code}/replay?match=N)"
    )
    spectators: int = Field(description="spectator sockets watching (every process's reports)")


class Lobby(BaseModel):
    tables: list[LobbyEntry]


class History(BaseModel):
    code: str
    seq: int
    match: int
    you: int | None
    rounds: list[Json] = Field(description="history_for(match, you): docs/protocol.md, History")


class Health(BaseModel):
    status: Literal["ok", "unavailable"]


class ErrorBody(BaseModel):
    code: str = Field(description="a stable error code (docs/protocol.md, Error codes)")
    message: str
    rule: str | None = Field(default=None, description="the rule broken, e.g. R18")


class ErrorResponse(BaseModel):
    detail: ErrorBody
