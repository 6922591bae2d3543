"""The plain rows of profiles (app/db/profile_store.py). A :class:`Profile` is what its
own player may see; other players only ever see its handle and display name."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(slots=True)
class Profile:
    id: int
    handle: str
    display_name: str
    #: base64url of the WebAuthn user id its passkeys carry
    user_handle: str
    created_at: datetime


@dataclass(slots=True)
class NewPasskey:
    """A passkey as a registration verified it (base64url credential id and key)."""

    credential_id: str
    public_key: str
    sign_count: int


@dataclass(slots=True)
class Passkey:
    id: int
    profile_id: int
    credential_id: str
    public_key: str
    sign_count: int
    created_at: datetime
    last_used_at: datetime | None


@dataclass(slots=True)
class Ceremony:
    """A WebAuthn ceremony's stored half: its challenge (base64url) and, for a
    registration, the profile asked for."""

    kind: str  # "register" | "sign_in"
    challenge: str
    handle: str | None = None
    display_name: str | None = None
    user_handle: str | None = None


@dataclass(slots=True)
class BoundSeat:
    """A live table where the profile holds a seat (the table's public facts only)."""

    code: str
    name: str
    status: str
    players: int
    seat: int
    token_hash: str
