"""The HTTP bodies of profiles (docs/protocol.md "Profiles"). A profile's own answers
carry its handle, display name and counts; no answer carries a session id (it is only in
the ``HttpOnly`` cookie), a passkey's key or counter, or another player's anything but
handle and display name."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SignUpIn(_Body):
    handle: str = Field(
        max_length=64,
        description="unique, case-insensitive, look-alikes refused; letters, digits, _ - ."
        " (FIVEUP_PROFILE_HANDLE_MIN..MAX characters, else 409 bad_handle)",
    )
    display_name: str = Field(
        max_length=64,
        description="shown to other players (at most FIVEUP_PROFILE_DISPLAY_NAME_MAX"
        " characters, else 409 bad_display_name)",
    )


class Ceremony(BaseModel):
    ceremony: str = Field(description="this ceremony's id: send it back with the verify")
    options: dict[str, Any] = Field(
        description="WebAuthn options in their JSON form (base64url for bytes), for"
        " navigator.credentials.create / get"
    )


class VerifyIn(_Body):
    ceremony: str = Field(min_length=1, max_length=128)
    credential: dict[str, Any] = Field(
        description="the PublicKeyCredential in its JSON form (toJSON(): base64url bytes)"
    )


class Me(BaseModel):
    """The signed-in profile as its own player sees it."""

    handle: str
    display_name: str
    passkeys: int = Field(description="passkeys registered")
    sessions: int = Field(description="signed-in browsers")


class Ok(BaseModel):
    ok: bool


class Ended(BaseModel):
    ended: int = Field(description="sessions ended, this one included")


class SignInLink(BaseModel):
    link: str = Field(
        description="`/profile#signin=<secret>`: works once, until `expires_at`; the secret"
        " travels in the URL fragment only"
    )
    expires_at: datetime
    qr_svg: str = Field(description="the link (absolute) as a QR code, an SVG document")


class ClaimLinkIn(_Body):
    link: str = Field(min_length=1, max_length=128, description="the secret after `#signin=`")


class MyTable(BaseModel):
    """A live table where the signed-in player holds a seat (public facts only)."""

    code: str
    name: str
    status: str
    players: int
    seat: int


class MyTables(BaseModel):
    tables: list[MyTable]


class OpenSeat(_Body):
    seat: int = Field(ge=0, le=3)
