"""The HTTP bodies of ratings (docs/ratings.md, docs/protocol.md "Ratings"): what a
rating shows — the number, its uncertainty, whether it is still provisional — and the
leaderboards."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

Pool = Literal["all", "2", "3", "4"]


class RatingInfo(BaseModel):
    """One rating in one pool."""

    rating: int = Field(description="the number shown: 1500 + 40 × (μ − 3σ), rounded")
    mu: float = Field(description="openskill's skill estimate μ")
    sigma: float = Field(description="openskill's uncertainty σ")
    matches: int = Field(description="rated matches in this pool")
    provisional: bool = Field(
        description="σ is still above FIVEUP_RATING_PROVISIONAL_SIGMA (a new player)"
    )


class LeaderboardEntry(BaseModel):
    rank: int = Field(description="1 first")
    kind: Literal["player", "computer"]
    handle: str | None = Field(description="a player's handle; null for a computer player")
    display_name: str | None = Field(description="a player's display name; null for a computer")
    level: Literal["easy", "medium", "hard"] | None = Field(
        description="a computer player's level; null for a player"
    )
    rating: RatingInfo


class Leaderboard(BaseModel):
    pool: Pool = Field(description="`all` rated matches, or only those of 2, 3 or 4 players")
    entries: list[LeaderboardEntry]


class ComputerRatings(BaseModel):
    """Each computer player level's rating in the pool of all rated matches (its
    calibrated rating, with 0 matches, until it plays one)."""

    levels: dict[Literal["easy", "medium", "hard"], RatingInfo]


class SeatProfile(BaseModel):
    """A seat held by a signed-in player: what their profile shows others."""

    seat: int
    handle: str
    display_name: str
    rating: RatingInfo | None = Field(description="the `all` pool's; null until rated")


class TableProfiles(BaseModel):
    seats: list[SeatProfile] = Field(
        description="the seats bound to a profile (a guest's and a computer's are not listed)"
    )
