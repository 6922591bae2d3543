"""The plain rows of moderation (app/db/moderation_store.py): reports, the operator's
audit log, bans, mutes, the tables an operator looks at and their chat lines. Nothing
here holds a hand, the stock or a seat token: the hashes stay inside the server (the
operator's answers never carry them, app/api/routes_admin.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any


@dataclass(slots=True)
class NewReport:
    """A report as filed (app/tables/moderation.py checked it)."""

    table_id: int
    kind: str  # "message" | "player"
    seq: int | None
    seat: int | None
    name: str
    reason: str
    text: str
    token_hash: str | None
    address_hash: str | None
    reporter_hash: str


@dataclass(slots=True)
class Report:
    """A stored report, with its table's code."""

    id: int
    code: str
    table_id: int
    kind: str
    seq: int | None
    seat: int | None
    name: str
    reason: str
    text: str
    token_hash: str | None
    address_hash: str | None
    resolved: bool
    created_at: datetime


@dataclass(slots=True)
class AuditEntry:
    id: int
    action: str
    target: str
    detail: str
    created_at: datetime


@dataclass(slots=True)
class Ban:
    id: int
    address_hash: str
    label: str
    until: datetime


@dataclass(slots=True)
class Mute:
    id: int
    address_hash: str | None
    token_hash: str | None
    label: str
    until: datetime | None


@dataclass(slots=True)
class Block:
    """Someone a table's host blocked there: their address's hash, their seat token's
    hash, their name (a join under a name that looks like it is refused)."""

    table_id: int
    address_hash: str | None
    token_hash: str | None
    name: str


@dataclass(slots=True)
class SeatName:
    seat: int
    name: str
    bot: str | None


@dataclass(slots=True)
class LiveTable:
    """A table waiting or in play as the operator sees it: no state, no hands."""

    id: int
    code: str
    name: str
    status: str
    public: bool
    players: int
    seats: list[SeatName] = field(default_factory=list)


@dataclass(slots=True)
class ChatLine:
    """One stored chat event: its seq and payload (``seat``, ``channel``, ``text`` or
    ``quick``: what every socket of the table was sent)."""

    seq: int
    payload: dict[str, Any]
