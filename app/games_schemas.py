"""The HTTP bodies of my games and the player page (docs/protocol.md "My games and the
player page", docs/games.md). Only public facts: handles, display names, seat names and
figures of finished matches; never a session, a token or a passkey, nor another
player's settings (a player's own ``visibility`` is in its own my-games answer only)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class LiveTableOut(BaseModel):
    """A live table where the signed-in player holds a bound seat."""

    code: str
    name: str
    status: str
    players: int
    seat: int
    your_move: bool = Field(description="the round in play waits for this seat's move")


class PersonOut(BaseModel):
    """Someone at a finished match: the seat's name and, for a profile, its handle (null
    for a guest, a computer player or a deleted profile)."""

    name: str
    handle: str | None


class FinishedOut(BaseModel):
    """One finished match of the signed-in player."""

    code: str = Field(description="the table's code")
    match: int = Field(description="the match's number at its table")
    players: int
    rated: bool
    finished_at: datetime
    result: Literal["won", "lost"]
    seat: int
    side: int = Field(description="the player's side (R2); `scores` is indexed by side")
    scores: list[int] = Field(description="each side's final score")
    partners: list[PersonOut] = Field(description="the partner's seat (4 players), else []")
    opponents: list[PersonOut]
    replay: str = Field(description="`/t/{code}/replay?match=N`")


class MyGamesOut(BaseModel):
    live: list[LiveTableOut] = Field(
        description="live tables, those waiting for your move first (first page only)"
    )
    finished: list[FinishedOut] = Field(description="finished matches, newest first")
    next_before: str | None = Field(
        description="the `before` cursor of the next page; null on the last page"
    )
    visibility: Literal["everyone", "friends", "me"] = Field(
        description="who sees your player page"
    )


class RatingOut(BaseModel):
    pool: str = Field(description="`all`, or a player count: `2`, `3`, `4`")
    rating: int = Field(description="the number shown: 1500 + 40 × (μ − 3σ), rounded")
    mu: float
    sigma: float
    matches: int
    provisional: bool = Field(description="sigma above FIVEUP_RATING_PROVISIONAL_SIGMA")


class StatsOut(BaseModel):
    """Figures over finished matches (docs/games.md "The figures")."""

    players: int | None = Field(description="the player count; null: all counts together")
    played: int
    won: int
    rounds: int
    rounds_dominoed: int
    points_made: int
    points_per_round: float = Field(description="points_made / rounds (0 without rounds)")
    deductions: int
    best_round: int


class PairingOut(BaseModel):
    handle: str
    display_name: str
    played: int
    won: int = Field(description="matches the page's player won of those")


class PlayerOut(BaseModel):
    handle: str
    display_name: str
    ratings: list[RatingOut]
    stats: list[StatsOut] = Field(description="per player count, then the total (players null)")
    opponents: list[PairingOut] = Field(description="head-to-head, the most played first")
    partners: list[PairingOut] = Field(description="4 players: with each partner")


class VisibilityIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    visibility: Literal["everyone", "friends", "me"]


class VisibilityOut(BaseModel):
    visibility: Literal["everyone", "friends", "me"]
