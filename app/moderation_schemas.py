"""The HTTP bodies of moderation (docs/protocol.md "Moderation"): players' reports, a
host's removals, and the operator's page's API (``/admin/api``). None of them has a
field for a seat token, a hand, the stock or a seed: an operator sees chat and names."""

from __future__ import annotations

import ipaddress
from datetime import datetime
from typing import Annotated, Literal, get_args

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
)

from app.schemas import JsonInt
from app.tables.moderation import REASONS, REPORT_TEXT_MAX

Reason = Literal["abuse", "spam", "cheating", "name", "other"]
assert get_args(Reason) == REASONS


def _address(value: str) -> str:
    """An IPv4 or IPv6 address, written as ``ipaddress`` writes it."""
    try:
        return str(ipaddress.ip_address(value.strip()))
    except ValueError:
        raise ValueError("not an IP address") from None


def _text_time(value: object) -> object:
    """A time is an ISO 8601 string with its zone (not a number of seconds)."""
    if not isinstance(value, str):
        raise ValueError("a time is an ISO 8601 string with its zone")
    return value


Until = Annotated[AwareDatetime, BeforeValidator(_text_time)]

#: an IP address: the schema says so (formats ``ipv4`` / ``ipv6``), the model checks it
Address = Annotated[
    str,
    Field(
        max_length=64,
        json_schema_extra={"anyOf": [{"format": "ipv4"}, {"format": "ipv6"}]},
    ),
    AfterValidator(_address),
]


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Report(_Request):
    reason: Reason
    text: str = Field(
        default="",
        max_length=REPORT_TEXT_MAX,
        description=f"free text, at most {REPORT_TEXT_MAX} characters (cleaned up as chat)",
    )


class MessageReport(_Report):
    """A report of the chat message ``seq`` of the table."""

    kind: Literal["message"]
    seq: JsonInt = Field(ge=1, le=2**31 - 1)


class PlayerReport(_Report):
    """A report of the person in ``seat``."""

    kind: Literal["player"]
    seat: JsonInt = Field(ge=0, le=3)


ReportIn = Annotated[MessageReport | PlayerReport, Field(discriminator="kind")]


class ReportFiled(BaseModel):
    report: int


class RemoveSeat(_Request):
    """The host removes the person in ``seat``; ``block`` keeps them out of this table."""

    seat: JsonInt = Field(ge=0, le=3)
    block: StrictBool = True


class RemoveAuthor(_Request):
    """The host removes the author of chat message ``seq``; ``block`` keeps them out."""

    seq: JsonInt = Field(ge=1, le=2**31 - 1)
    block: StrictBool = True


RemoveIn = RemoveSeat | RemoveAuthor


class Removed(BaseModel):
    closed: int = Field(description="sockets closed on the server process that answered")
    blocked: bool


class SignIn(_Request):
    token: str = Field(min_length=1, max_length=256)


class SignedIn(BaseModel):
    ok: bool


class MuteReport(_Request):
    """Mute the author of ``report`` everywhere (``until`` none: until lifted)."""

    report: JsonInt = Field(ge=1, le=2**31 - 1)
    until: Until | None = None


class MuteAddress(_Request):
    """Mute an ``address`` everywhere (``until`` none: until lifted)."""

    address: Address
    until: Until | None = None


MuteIn = MuteReport | MuteAddress


class BanReport(_Request):
    """Ban the author of ``report`` (their address must be known) until ``until``."""

    report: JsonInt = Field(ge=1, le=2**31 - 1)
    until: Until


class BanAddress(_Request):
    """Ban an ``address`` until ``until``."""

    address: Address
    until: Until


BanIn = BanReport | BanAddress


class Done(BaseModel):
    """An operator's action on a row (a report, a mute, a ban): its id."""

    ok: bool
    id: int


class Acted(BaseModel):
    """An operator's action with no row of its own (closing a table, draining)."""

    ok: bool


class AdminSeat(BaseModel):
    seat: int
    name: str
    bot: str | None
    connected: bool


class AdminTable(BaseModel):
    code: str
    name: str
    status: str
    public: bool
    players: int
    seats: list[AdminSeat]
    spectators: int


class AdminChatLine(BaseModel):
    seq: int
    seat: int | None
    name: str
    channel: str
    text: str | None
    quick: str | None
    reported: bool


class AdminReport(BaseModel):
    id: int
    code: str
    kind: str
    seq: int | None
    seat: int | None
    name: str
    reason: str
    text: str
    created_at: datetime
    author_known: Literal["address", "seat", "none"] = Field(
        description="what a mute of the author is keyed on (a ban needs the address)"
    )
    context: list[AdminChatLine]


class AdminBan(BaseModel):
    id: int
    label: str
    until: datetime


class AdminMute(BaseModel):
    id: int
    label: str
    until: datetime | None
    by: Literal["address", "seat"]


class AdminAudit(BaseModel):
    id: int
    at: datetime
    action: str
    target: str
    detail: str


class AdminOverview(BaseModel):
    tables: list[AdminTable]
    reports: list[AdminReport]
    bans: list[AdminBan]
    mutes: list[AdminMute]
    audit: list[AdminAudit]
    drain: bool = Field(description="whether this server can drain this process (the button)")
