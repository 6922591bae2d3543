"""The wire contracts: one pydantic model per HTTP body and per WebSocket frame.

HTTP routes declare and return these models, so ``/openapi.json`` shows exactly what is
sent. WebSocket frames are built on the hot path as plain dicts by the one projection
(:mod:`app.realtime.frames`) and encoded once per recipient class; the models below
describe them (docs/protocol.md) and the tests validate every frame they receive against
them (tests/server/test_contracts.py); the frames' models are in
:mod:`app.frame_schemas`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictBool, StrictInt

from app.core.security import NAME_MAX, TABLE_NAME_MAX
from app.types import Json

#: computer players' levels (app/bots LEVELS; the service answers 400 unknown_level to
#: any other, so the schema lists them without pydantic refusing others with a 422)
BOT_LEVELS = ("easy", "medium", "hard")


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


NAME_RULES = (
    "1 to {n} characters. Stored cleaned up: invisible, zero-width and control characters "
    "dropped, spaces plain, at most 2 combining marks on a letter, surrounding spaces "
    "stripped; a name left with no visible letter or digit becomes the default "
    "('Player 2' for seat 1; a table takes its host's name)"
)


def _integral(value: object) -> object:
    """JSON numbers compare by value: ``2.0`` is the integer 2 (as in JSON Schema);
    ``2.5``, strings and booleans are not integers."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


#: an integer as JSON Schema defines one (2 and 2.0 alike), never a string or a boolean
JsonInt = Annotated[StrictInt, BeforeValidator(_integral)]


# -- requests ------------------------------------------------------------------------------
class CreateTable(_Request):
    name: str = Field(
        min_length=1,
        max_length=TABLE_NAME_MAX,
        description=NAME_RULES.format(n=TABLE_NAME_MAX),
    )
    players: Annotated[Literal[2, 3, 4], BeforeValidator(_integral)] = Field(
        description="R2: two, three or four players"
    )
    public: StrictBool = True
    host_name: str = Field(
        min_length=1,
        max_length=NAME_MAX,
        description=NAME_RULES.format(n=NAME_MAX),
    )
    clock: Literal["none", "relaxed", "fast"] = Field(
        default="none",
        description="the turn clock (docs/protocol.md, Clock and autopilot): none (at"
        " leisure), relaxed or fast (seconds per move, plus a bank per round at fast)",
    )
    rated: StrictBool = Field(
        default=False,
        description="a rated table (docs/ratings.md): the creator must be signed in"
        " (else 403 profile_required), and so must everyone who takes a seat",
    )


class JoinTable(_Request):
    name: str = Field(
        min_length=1,
        max_length=NAME_MAX,
        description=NAME_RULES.format(n=NAME_MAX),
    )
    seat: JsonInt = Field(ge=0, le=3, description="a free seat, 0..players-1 (else 400 bad_seat)")


class SeatRequest(_Request):
    seat: JsonInt = Field(ge=0, le=3, description="a seat, 0..players-1 (else 400 bad_seat)")


class AddBot(_Request):
    seat: JsonInt = Field(ge=0, le=3, description="an empty seat, or a computer player's seat")
    level: str = Field(
        description="easy | medium | hard (docs/bots.md); anything else is 400 unknown_level",
        json_schema_extra={"enum": list(BOT_LEVELS)},
    )


class Practice(_Request):
    players: Annotated[Literal[2, 3, 4], BeforeValidator(_integral)] = Field(
        description="R2: two, three or four players (you and computer players)"
    )
    level: str = Field(
        description="the computer players' level: easy | medium | hard (else 400 unknown_level)",
        json_schema_extra={"enum": list(BOT_LEVELS)},
    )
    name: str = Field(
        min_length=1,
        max_length=NAME_MAX,
        description="your display name, 1-24 characters after stripping",
    )
    clock: Literal["none", "relaxed", "fast"] = Field(
        default="none", description="your turn clock, as for a table (docs/protocol.md)"
    )


class ClaimSeat(_Request):
    link: str = Field(
        min_length=1,
        max_length=256,
        description="the credential of a device link (what follows `#seat=` in the link)",
    )


class ReplaceSeat(_Request):
    by: Literal["bot", "invite"] = Field(
        description="`bot`: a computer player of `level` takes the seat; `invite`: the seat"
        " is freed for a new person (the table goes back to `waiting`)"
    )
    level: str | None = Field(
        default=None,
        description="with `bot`: easy | medium | hard; null: FIVEUP_AUTOPILOT_LEVEL",
        json_schema_extra={"enum": [*BOT_LEVELS, None]},
    )


# -- responses -----------------------------------------------------------------------------
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
    rated: bool = Field(
        description="a rated table: only signed-in players and computer players sit"
        " there, and each match moves their ratings (docs/ratings.md)"
    )
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


class RecordRound(BaseModel):
    """One finished round of a match record (docs/record.md, the JSON form), or the round
    in play when the match was resigned: ``resigned`` instead of ``end``."""

    round: int
    commitment: str | None = Field(description="the deal commitment published before move 1")
    seed: str | None = Field(description="the revealed seed (64 hex digits), docs/fairness.md")
    hands: list[list[str]] = Field(description="each seat's five dealt tiles (R6)")
    stock: list[str] = Field(description="the undealt tiles in draw order (R18)")
    starter: int
    starter_by: Literal["lot", "finisher"]
    moves: list[Json] = Field(description="{seat, move, points, scores} or draw/pass lines")
    end: Json | None = Field(
        default=None, description="{result, finisher, hands, pips, deductions, scores} (R22)"
    )
    resigned: int | None = Field(
        default=None, description="the seat that resigned in this round (then no end)"
    )


class MatchRecord(BaseModel):
    """A match record, JSON form ``fiveup-record/1`` (docs/record.md): finished rounds
    only; a round still being played never appears, unless the match was resigned in it
    (``resigned``: the seat; the key is absent from a record that was not resigned)."""

    format: Literal["fiveup-record/1"]
    date: str
    table: str = Field(description="the table code the deals are bound to")
    match: int
    seats: list[str]
    sides: list[list[int]]
    target: int
    winner: int | None
    scores: list[int]
    rounds: list[RecordRound]
    resigned: int | None = Field(default=None, description="the seat that resigned the match")


class Health(BaseModel):
    status: Literal["ok", "unavailable"]


class ErrorBody(BaseModel):
    code: str = Field(description="a stable error code (docs/protocol.md, Error codes)")
    message: str
    rule: str | None = Field(default=None, description="the rule broken, e.g. R18")


class ErrorResponse(BaseModel):
    detail: ErrorBody


class RecordVerdict(BaseModel):
    """The rules engine's verdict on a record (``POST /api/records/check``)."""

    valid: bool
    line: int = Field(description="the line of the first problem in the text form (0: valid)")
    problem: str = Field(description='"valid", or the first problem, citing its rule')
    record: MatchRecord | None = Field(
        description="the record read, JSON form (null when it could not be read)"
    )
