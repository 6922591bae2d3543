"""The HTTP bodies of friends (docs/protocol.md "Friends"). Another profile appears only
as its handle and display name; no answer carries an id, a token's hash or a nonce."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class FriendLink(BaseModel):
    link: str = Field(description="the friend link, /f/<token>")
    qr_svg: str = Field(description="the absolute link as a QR code (an SVG document)")


class LinkRequestIn(_Body):
    """A request by friend link."""

    link: str = Field(
        min_length=1, max_length=256, description="a friend link (/f/<token>) or its token"
    )


class HandleIn(_Body):
    handle: str = Field(min_length=1, max_length=64)


#: a friend request's body: by link or by handle (exactly one)
RequestIn = LinkRequestIn | HandleIn


class Person(BaseModel):
    handle: str
    display_name: str


class FriendState(BaseModel):
    state: Literal["requested", "friends"] = Field(
        description="a request is waiting for them, or you are friends now"
    )
    friend: Person


class FriendsList(BaseModel):
    friends: list[Person]
    incoming: list[Person] = Field(description="requests to you, waiting for your answer")
    outgoing: list[Person] = Field(description="your requests, waiting for theirs")
    blocked: list[Person] = Field(description="the players you block")


class Done(BaseModel):
    ok: Literal[True] = True
