"""Reading ratings (docs/ratings.md): a leaderboard of one pool, and the ratings of some
profiles. They are written only in the match-end transaction
(app/db/result_writer.py); this store reads, off the move path, on its own engine."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.bindings import binding_holds
from app.db.core_store import CoreStore, table_of
from app.db.models import PlayerRow, ProfileRow, ProfileSeatRow
from app.db.result_models import RatingRow
from app.db.session import make_engine

RAT, PRO = table_of(RatingRow), table_of(ProfileRow)
SEAT, P = table_of(ProfileSeatRow), table_of(PlayerRow)


@dataclass(frozen=True, slots=True)
class RatedOwner:
    """One rating with its owner: a profile (handle, display name) or a computer
    player's level."""

    handle: str | None
    display_name: str | None
    bot_level: str | None
    mu: float
    sigma: float
    matches: int


def make_rating_store(database_url: str) -> CoreRatingStore:
    """The rating store for ``DATABASE_URL`` (its own small pool)."""
    return CoreRatingStore(make_engine(database_url, pool_size=2, max_overflow=4))


class CoreRatingStore(CoreStore):
    """Ratings read over SQLAlchemy Core (PostgreSQL or SQLite)."""

    async def leaderboard(
        self, pool: str, limit: int, among: Collection[int] | None = None
    ) -> list[RatedOwner]:
        """A pool's ratings, the highest conservative estimate (μ − 3σ) first; with
        ``among``, only those profiles' (and no computer player's)."""

        async def run(conn: AsyncConnection) -> list[RatedOwner]:
            query = (
                select(
                    PRO.c.handle,
                    PRO.c.display_name,
                    RAT.c.bot_level,
                    RAT.c.mu,
                    RAT.c.sigma,
                    RAT.c.matches,
                )
                .select_from(RAT.outerjoin(PRO, PRO.c.id == RAT.c.profile_id))
                .where(RAT.c.pool == pool, RAT.c.matches > 0)
                .order_by((RAT.c.mu - 3 * RAT.c.sigma).desc(), RAT.c.id)
                .limit(limit)
            )
            if among is not None:
                query = query.where(RAT.c.profile_id.in_(list(among)))
            return [RatedOwner(*row) for row in (await conn.execute(query)).all()]

        return await self._run(run)

    async def seat_profiles(self, table_id: int) -> dict[int, RatedOwner]:
        """The profiles bound to the table's seats whose tokens still hold them, by seat,
        with their ``all``-pool rating (``matches`` 0 and no μ/σ meaning: not rated)."""

        async def run(conn: AsyncConnection) -> dict[int, RatedOwner]:
            rating = RAT.alias("r")
            rows = await conn.execute(
                select(
                    SEAT.c.seat,
                    PRO.c.handle,
                    PRO.c.display_name,
                    rating.c.mu,
                    rating.c.sigma,
                    rating.c.matches,
                )
                .select_from(
                    SEAT.join(
                        P,
                        binding_holds(),
                    )
                    .join(PRO, PRO.c.id == SEAT.c.profile_id)
                    .outerjoin(rating, (rating.c.profile_id == PRO.c.id) & (rating.c.pool == "all"))
                )
                .where(SEAT.c.table_id == table_id, P.c.bot.is_(None))
            )
            return {
                int(r[0]): RatedOwner(r[1], r[2], None, r[3] or 0.0, r[4] or 0.0, int(r[5] or 0))
                for r in rows.all()
            }

        return await self._run(run)

    async def bot_ratings(self, pool: str) -> dict[str, RatedOwner]:
        """The computer players' ratings in a pool, by level."""

        async def run(conn: AsyncConnection) -> dict[str, RatedOwner]:
            rows = await conn.execute(
                select(RAT.c.bot_level, RAT.c.mu, RAT.c.sigma, RAT.c.matches).where(
                    RAT.c.pool == pool, RAT.c.bot_level.is_not(None)
                )
            )
            return {
                str(r[0]): RatedOwner(None, None, str(r[0]), r[1], r[2], r[3]) for r in rows.all()
            }

        return await self._run(run)
