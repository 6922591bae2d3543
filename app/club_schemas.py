"""The HTTP bodies of clubs (docs/protocol.md "Clubs"). Another profile appears only as
its handle, display name and rating; no answer carries a profile id, a token's hash or
an invite nonce."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictBool

from app.core.security import TABLE_NAME_MAX
from app.rating_schemas import LeaderboardEntry
from app.schemas import _integral

#: a club name's characters at most as an input (the cleaned name: FIVEUP_CLUB_NAME_MAX)
CLUB_NAME_INPUT_MAX = 256


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ClubIn(_Body):
    name: str = Field(
        min_length=1,
        max_length=CLUB_NAME_INPUT_MAX,
        description="the club's name, cleaned up as seat names are; at most"
        " FIVEUP_CLUB_NAME_MAX (40) characters after (else 409 bad_club_name)",
    )


class JoinIn(_Body):
    link: str = Field(
        min_length=1, max_length=256, description="an invite link (/c/<token>) or its token"
    )


class ClubTableIn(_Body):
    players: Annotated[Literal[2, 3, 4], BeforeValidator(_integral)]
    name: str | None = Field(
        default=None,
        min_length=1,
        max_length=TABLE_NAME_MAX,
        description="the table's name (default: the club's name)",
    )
    rated: StrictBool = False
    clock: Literal["none", "relaxed", "fast"] = "none"


class ClubSummary(BaseModel):
    id: int
    name: str
    owner: str = Field(description="the owner's handle")
    members: int
    owned: bool = Field(description="you own this club")


class ClubList(BaseModel):
    clubs: list[ClubSummary]


class ClubMember(BaseModel):
    handle: str
    display_name: str
    rating: int | None = Field(description="the shown rating in pool `all`; null: unrated")


class Standing(BaseModel):
    handle: str
    display_name: str
    played: int = Field(description="matches at the club's tables")
    won: int


class ClubTable(BaseModel):
    code: str
    name: str
    status: Literal["waiting", "playing"]
    players: int
    seated: int


class ClubMatch(BaseModel):
    code: str
    match: int = Field(description="the match number at its table (replay ?match=N)")
    finished_at: datetime
    winners: list[str] = Field(description="the winning seats' names")


class Club(BaseModel):
    id: int
    name: str
    owner: str = Field(description="the owner's handle")
    owned: bool = Field(description="you own this club")
    members: list[ClubMember]
    standings: list[Standing] = Field(description="by wins, then win rate")
    leaderboard: list[LeaderboardEntry] = Field(description="the members' pool `all` ranks")
    tables: list[ClubTable] = Field(description="live tables made for the club")
    matches: list[ClubMatch] = Field(description="finished matches at them, newest first")


class ClubInvite(BaseModel):
    link: str = Field(description="the invite link, /c/<token>")
    qr_svg: str = Field(description="the absolute link as a QR code (an SVG document)")


class ClubJoined(BaseModel):
    id: int
    name: str


class Done(BaseModel):
    ok: Literal[True] = True
