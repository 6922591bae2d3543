"""Leaderboards and the ratings shown beside players and computer players
(docs/ratings.md): read from the rating store, shaped for the API."""

from __future__ import annotations

from collections.abc import Collection
from typing import get_args

from app.bots import LEVELS
from app.db.rating_store import CoreRatingStore, RatedOwner
from app.db.store import Unavailable
from app.rating_schemas import (
    ComputerRatings,
    Leaderboard,
    LeaderboardEntry,
    Pool,
    RatingInfo,
    SeatProfile,
    TableProfiles,
)
from app.ratings import CALIBRATED, Rating, displayed
from app.tables.errors import unavailable

POOLS: tuple[str, ...] = get_args(Pool)


class Leaderboards:
    """Ratings as players see them. ``provisional_sigma``: a rating whose σ is above it
    is marked provisional; ``limit_max``: the longest leaderboard answered."""

    def __init__(self, store: CoreRatingStore, provisional_sigma: float, limit_max: int) -> None:
        self.store = store
        self.provisional_sigma = provisional_sigma
        self.limit_max = limit_max

    def info(self, owner: RatedOwner) -> RatingInfo:
        return RatingInfo(
            rating=displayed(Rating(owner.mu, owner.sigma)),
            mu=round(owner.mu, 4),
            sigma=round(owner.sigma, 4),
            matches=owner.matches,
            provisional=owner.sigma > self.provisional_sigma,
        )

    async def board(
        self, pool: Pool, limit: int, among: Collection[int] | None = None
    ) -> Leaderboard:
        """A pool's leaderboard (at most ``limit`` entries, bounded by ``limit_max``);
        with ``among``, only those profiles (a club's members)."""
        try:
            rows = await self.store.leaderboard(pool, min(limit, self.limit_max), among)
        except Unavailable:
            raise unavailable() from None
        return Leaderboard(
            pool=pool,
            entries=[
                LeaderboardEntry(
                    rank=rank,
                    kind="computer" if row.bot_level is not None else "player",
                    handle=row.handle,
                    display_name=row.display_name,
                    level=row.bot_level if row.bot_level in LEVELS else None,
                    rating=self.info(row),
                )
                for rank, row in enumerate(rows, start=1)
            ],
        )

    async def computer(self) -> ComputerRatings:
        """Each computer player level's rating over all rated matches (its calibrated
        rating, with 0 matches, before its first)."""
        try:
            found = await self.store.bot_ratings("all")
        except Unavailable:
            raise unavailable() from None
        start = {
            level: RatedOwner(None, None, level, rating.mu, rating.sigma, 0)
            for level, rating in CALIBRATED.items()
        }
        return ComputerRatings(
            levels={level: self.info(found.get(level, start[level])) for level in LEVELS}
        )

    async def at_table(self, table_id: int) -> TableProfiles:
        """The profiles at a table's seats, with their ratings."""
        try:
            found = await self.store.seat_profiles(table_id)
        except Unavailable:
            raise unavailable() from None
        return TableProfiles(
            seats=[
                SeatProfile(
                    seat=seat,
                    handle=owner.handle or "",
                    display_name=owner.display_name or "",
                    rating=self.info(owner) if owner.matches else None,
                )
                for seat, owner in sorted(found.items())
            ]
        )
