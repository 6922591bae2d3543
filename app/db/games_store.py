"""The games store's one implementation for both databases (SQLAlchemy Core on
PostgreSQL and SQLite, :class:`~app.db.core_store.CoreStore`): my games' finished
matches, read from migration 0012's tables, and the player page's figures, read from
the running totals of migration 0017.

The reads follow their indexes: a profile's matches come from ``ix_match_players_profile``
(``profile_id, match_id``) newest first, so a page is an index range, never a sort of
every match; a match's seats from ``uq_match_players_match_seat``; a profile's figures
and pairings are a range of their tables' primary keys (a few rows, whatever the number
of matches). Database errors leave as :class:`~app.db.store.Unavailable`.
"""

from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.core_store import CoreStore
from app.db.core_store import table_of as _t
from app.db.figures_models import PlayerFiguresRow, PlayerPairRow
from app.db.games_contract import GamesStore
from app.db.games_rows import (
    CountStats,
    FinishedMatch,
    MatchSeat,
    Pairing,
    PublicProfile,
    Rating,
)
from app.db.models import ProfileRow
from app.db.result_models import FriendshipRow, MatchPlayerRow, MatchResultRow, RatingRow
from app.db.session import make_engine

PRO, RES, MP, RAT, FRI = (
    _t(m) for m in (ProfileRow, MatchResultRow, MatchPlayerRow, RatingRow, FriendshipRow)
)
FIG, PAIR = _t(PlayerFiguresRow), _t(PlayerPairRow)


def make_games_store(database_url: str) -> CoreGamesStore:
    """The games store for ``DATABASE_URL`` (its own small pool)."""
    return CoreGamesStore(make_engine(database_url, pool_size=2, max_overflow=4))


class CoreGamesStore(CoreStore):
    """:class:`GamesStore` over SQLAlchemy Core (PostgreSQL or SQLite)."""

    async def finished_matches(
        self, profile_id: int, before: int | None, limit: int
    ) -> list[FinishedMatch]:
        mine = select(RES).join(MP, MP.c.match_id == RES.c.id).where(MP.c.profile_id == profile_id)
        if before is not None:
            mine = mine.where(MP.c.match_id < before)
        mine = mine.order_by(MP.c.match_id.desc()).limit(limit)

        async def run(conn: AsyncConnection) -> list[FinishedMatch]:
            results = list(await conn.execute(mine))
            if not results:
                return []
            seats: dict[int, list[MatchSeat]] = {int(r.id): [] for r in results}
            query = (
                select(
                    MP.c.match_id,
                    MP.c.seat,
                    MP.c.side,
                    MP.c.profile_id,
                    MP.c.name,
                    MP.c.won,
                    MP.c.score,
                    PRO.c.handle,
                )
                .select_from(MP)
                .outerjoin(PRO, PRO.c.id == MP.c.profile_id)
                .where(MP.c.match_id.in_(list(seats)))
                .order_by(MP.c.match_id, MP.c.seat)
            )
            for s in await conn.execute(query):
                seats[int(s.match_id)].append(
                    MatchSeat(
                        s.seat,
                        s.side,
                        s.profile_id,
                        s.handle if s.profile_id is not None else None,
                        s.name,
                        bool(s.won),
                        int(s.score),
                    )
                )
            return [
                FinishedMatch(
                    int(r.id),
                    r.table_code,
                    int(r.match_number),
                    int(r.players),
                    bool(r.rated),
                    r.finished_at,
                    r.winner_side,
                    seats[int(r.id)],
                )
                for r in results
            ]

        return await self._run(run)

    async def public_profile(self, handle_key: str) -> PublicProfile | None:
        query = select(PRO.c.id, PRO.c.handle, PRO.c.display_name, PRO.c.visibility).where(
            PRO.c.handle_key == handle_key
        )

        async def run(conn: AsyncConnection) -> PublicProfile | None:
            r = (await conn.execute(query)).first()
            return (
                None if r is None else PublicProfile(r.id, r.handle, r.display_name, r.visibility)
            )

        return await self._run(run)

    async def are_friends(self, profile_id: int, friend_id: int) -> bool:
        query = select(FRI.c.id).where(FRI.c.profile_id == profile_id, FRI.c.friend_id == friend_id)

        async def run(conn: AsyncConnection) -> bool:
            return (await conn.execute(query)).first() is not None

        return await self._run(run)

    async def ratings(self, profile_id: int) -> list[Rating]:
        return await self._run(lambda conn: _ratings(conn, profile_id))

    async def count_stats(self, profile_id: int) -> list[CountStats]:
        return await self._run(lambda conn: _count_stats(conn, profile_id))

    async def pairings(self, profile_id: int, *, partners: bool, limit: int) -> list[Pairing]:
        return await self._run(lambda conn: _pairings(conn, profile_id, partners, limit))

    async def page_figures(
        self, profile_id: int, people: int
    ) -> tuple[list[Rating], list[CountStats], list[Pairing], list[Pairing]]:
        """A player page's ratings, figures, opponents and partners (at most ``people``
        each), read in one transaction on one connection."""

        async def run(
            conn: AsyncConnection,
        ) -> tuple[list[Rating], list[CountStats], list[Pairing], list[Pairing]]:
            return (
                await _ratings(conn, profile_id),
                await _count_stats(conn, profile_id),
                await _pairings(conn, profile_id, False, people),
                await _pairings(conn, profile_id, True, people),
            )

        return await self._run(run)

    async def set_visibility(self, profile_id: int, visibility: str) -> None:
        async def run(conn: AsyncConnection) -> None:
            await conn.execute(
                update(PRO).where(PRO.c.id == profile_id).values(visibility=visibility)
            )

        await self._run(run)

    async def visibility(self, profile_id: int) -> str:
        query = select(PRO.c.visibility).where(PRO.c.id == profile_id)

        async def run(conn: AsyncConnection) -> str:
            return str((await conn.execute(query)).scalar() or "everyone")

        return await self._run(run)


async def _ratings(conn: AsyncConnection, profile_id: int) -> list[Rating]:
    query = (
        select(RAT.c.pool, RAT.c.mu, RAT.c.sigma, RAT.c.matches)
        .where(RAT.c.profile_id == profile_id)
        .order_by(RAT.c.pool)
    )
    return [
        Rating(r.pool, float(r.mu), float(r.sigma), int(r.matches))
        for r in await conn.execute(query)
    ]


async def _count_stats(conn: AsyncConnection, profile_id: int) -> list[CountStats]:
    query = select(FIG).where(FIG.c.profile_id == profile_id).order_by(FIG.c.players)
    return [
        CountStats(
            int(r.players),
            int(r.played),
            int(r.won),
            int(r.rounds),
            int(r.rounds_dominoed),
            int(r.points_made),
            int(r.deductions),
            int(r.best_round),
        )
        for r in await conn.execute(query)
    ]


async def _pairings(
    conn: AsyncConnection, profile_id: int, partners: bool, limit: int
) -> list[Pairing]:
    query = (
        select(PRO.c.handle, PRO.c.display_name, PAIR.c.played, PAIR.c.won, PRO.c.id)
        .select_from(PAIR)
        .join(PRO, PRO.c.id == PAIR.c.other_id)
        .where(PAIR.c.profile_id == profile_id, PAIR.c.partners == partners)
        .order_by(PAIR.c.played.desc(), PRO.c.handle)
        .limit(limit)
    )
    return [
        Pairing(r.handle, r.display_name, int(r.played), int(r.won), int(r.id))
        for r in await conn.execute(query)
    ]


__all__ = ["CoreGamesStore", "GamesStore", "make_games_store"]
