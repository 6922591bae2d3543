"""The HTTP bodies of invitations (docs/protocol.md "Invitations"). Profiles appear
only as handle and display name; no answer carries an id of a profile, a token or a
session."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.friend_schemas import Person


def _seat() -> Any:
    return Field(default=None, ge=0, le=15, description="a seat to offer, or null")


class InviteFriends(BaseModel):
    """Friends by handle (and, if given, every other member of a club of yours)."""

    model_config = ConfigDict(extra="forbid")

    handles: list[str] = Field(
        min_length=1,
        max_length=500,
        description="friends' handles (at most FIVEUP_INVITATIONS_PER_REQUEST_MAX)",
    )
    club: int | None = Field(
        default=None, ge=1, le=2**31 - 1, description="a club of yours, or null"
    )
    seat: int | None = _seat()


class InviteClub(BaseModel):
    """Every other member of a club of yours (one who blocks you is skipped)."""

    model_config = ConfigDict(extra="forbid")

    club: int = Field(ge=1, le=2**31 - 1, description="a club of yours")
    handles: list[str] = Field(default_factory=list, max_length=0, description="none")
    seat: int | None = _seat()


#: whom to invite: friends by handle, a club of yours, or both (at least one of them)
InviteIn = InviteFriends | InviteClub


class InvitedTable(BaseModel):
    code: str
    name: str
    players: int
    status: Literal["waiting", "playing", "finished", "closed"]


class InvitationOut(BaseModel):
    """An invitation as its invitee sees it (also the ``invitation`` frame's fields)."""

    id: int
    from_: Person = Field(alias="from")
    table: InvitedTable
    seat: int | None
    url: str = Field(description="the table's page, /t/<code>")
    at: str = Field(description="when it was sent (ISO 8601 UTC)")

    model_config = ConfigDict(populate_by_name=True, serialize_by_alias=True)


class Invited(BaseModel):
    invited: int = Field(description="invitations sent")


class InvitationsList(BaseModel):
    invitations: list[InvitationOut]


class _Frame(BaseModel):
    """A frame of the profile socket: exactly these fields (docs/protocol.md)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, serialize_by_alias=True)


class FrameTable(InvitedTable):
    model_config = ConfigDict(extra="forbid")


class FramePerson(Person):
    model_config = ConfigDict(extra="forbid")


class FriendOnline(_Frame):
    handle: str
    display_name: str
    online: bool
    table: FrameTable | None = Field(
        description="the public table, waiting or playing, where an online friend holds a"
        " seat bound to its profile; null otherwise"
    )


class FriendsOnlineFrame(_Frame):
    """``/ws/profile``: the friends and their state, on connect and on every change."""

    type: Literal["friends_online"]
    friends: list[FriendOnline]


class InvitationFrame(_Frame):
    """``/ws/profile``: an invitation just stored for this profile."""

    type: Literal["invitation"]
    id: int
    from_: FramePerson = Field(alias="from")
    table: FrameTable
    seat: int | None
    url: str
    at: str


#: every frame the profile socket sends, by its ``type``
PROFILE_FRAMES: dict[str, type[BaseModel]] = {
    "friends_online": FriendsOnlineFrame,
    "invitation": InvitationFrame,
}
