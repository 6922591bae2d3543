"""The HTTP bodies of moderation (docs/protocol.md "Moderation"): players' reports, a
host's removals, and the operator's page's API (``/admin/api``). None of them has a
field for a seat token, a hand, the stock or a seed: an operator sees chat and names."""

from __future__ import annotations

import ipaddress
from datetime import datetime
from typing import Annotated, Literal, get_args

from pydantic import AfterValidator, AwareDatetime, BaseModel, ConfigDict, Field, StrictBool

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


Address = Annotated[str, Field(max_length=64), AfterValidator(_address)]


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ReportIn(_Request):
    """A report of a chat message (``kind`` ``message`` with its ``seq``) or of the
    person in a seat (``player`` with ``seat``)."""

    kind: Literal["message", "player"]
    seq: JsonInt | None = Field(default=None, ge=1, le=2**31 - 1)
    seat: JsonInt | None = Field(default=None, ge=0, le=3)
    reason: Reason
    text: str = Field(
        default="",
        max_length=2 * REPORT_TEXT_MAX,
        description=f"free text, at most {REPORT_TEXT_MAX} characters after clean-up",
    )


class ReportFiled(BaseModel):
    report: int


class RemoveIn(_Request):
    """The host removes the author of chat message ``seq`` or the person in ``seat``
    (exactly one); ``block`` keeps them out of this table."""

    seat: JsonInt | None = Field(default=None, ge=0, le=3)
    seq: JsonInt | None = Field(default=None, ge=1, le=2**31 - 1)
    block: StrictBool = True


class Removed(BaseModel):
    closed: int = Field(description="sockets closed on the server process that answered")
    blocked: bool


class SignIn(_Request):
    token: str = Field(min_length=1, max_length=256)


class SignedIn(BaseModel):
    ok: bool


class MuteIn(_Request):
    """Mute the author of ``report``, or an ``address``, everywhere (exactly one);
    ``until`` none: until lifted."""

    report: JsonInt | None = Field(default=None, ge=1)
    address: Address | None = None
    until: AwareDatetime | None = None


class BanIn(_Request):
    """Ban the author of ``report`` (their address must be known), or an ``address``,
    until ``until`` (exactly one of the two)."""

    report: JsonInt | None = Field(default=None, ge=1)
    address: Address | None = None
    until: AwareDatetime


class Done(BaseModel):
    ok: bool
    id: int | None = None


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
