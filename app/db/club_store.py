"""The club store's one implementation for both databases (contract:
:class:`~app.db.club_contract.ClubStore`).

Off the move path, so SQLAlchemy Core on PostgreSQL and SQLite alike. Exactly once: a
create or a join first locks the profile's row, then the club's (PostgreSQL ``SELECT …
FOR UPDATE``, always in that order; SQLite: a no-op ``UPDATE``, which takes the
database's one write lock), then counts and writes in the same transaction, so ten joins
at once are applied one after the other: the first makes the membership, the others find
it. The unique pair key holds even so. Database errors leave as
:class:`~app.db.store.Unavailable`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import and_, case, delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.club_contract import (
    Caps,
    ClubPage,
    ClubStore,
    ClubSummary,
    Finished,
    Joined,
    LiveTable,
    Member,
    Refused,
)
from app.db.club_models import ClubMemberRow, ClubRow, ClubTableRow
from app.db.core_store import CoreStore
from app.db.core_store import table_of as _t
from app.db.models import PlayerRow, ProfileRow, TableRow
from app.db.result_models import MatchPlayerRow, MatchResultRow, RatingRow
from app.db.rows import TableStatus
from app.db.session import make_engine

CLUB, MEM, CT = _t(ClubRow), _t(ClubMemberRow), _t(ClubTableRow)
PRO, T, P = _t(ProfileRow), _t(TableRow), _t(PlayerRow)
MR, MP, RAT = _t(MatchResultRow), _t(MatchPlayerRow), _t(RatingRow)


def make_club_store(database_url: str) -> CoreClubStore:
    """The club store for ``DATABASE_URL`` (its own small pool)."""
    return CoreClubStore(make_engine(database_url, pool_size=2, max_overflow=4))


async def _count(conn: AsyncConnection, table: Any, where: Any) -> int:
    query = select(func.count()).select_from(table).where(where)
    return int((await conn.execute(query)).scalar() or 0)


async def _lock(conn: AsyncConnection, table: Any, row_id: int, column: str) -> bool:
    """Lock one row for the rest of the transaction (False: there is none)."""
    if conn.dialect.name == "postgresql":
        query = select(table.c.id).where(table.c.id == row_id).with_for_update()
        return (await conn.execute(query)).first() is not None
    res = await conn.execute(
        update(table).where(table.c.id == row_id).values({column: table.c[column]})
    )
    return bool(res.rowcount)


class CoreClubStore(CoreStore):
    """:class:`ClubStore` over SQLAlchemy Core (PostgreSQL or SQLite)."""

    async def _owned(self, conn: AsyncConnection, club_id: int, owner: int) -> None:
        row = (await conn.execute(select(CLUB.c.owner_id).where(CLUB.c.id == club_id))).first()
        member = await _count(conn, MEM, and_(MEM.c.club_id == club_id, MEM.c.profile_id == owner))
        if row is None or not member:
            raise Refused("no_club")
        if int(row.owner_id) != owner:
            raise Refused("not_owner")

    async def create(
        self, owner: int, name: str, nonce: str, token_hash: str, caps: Caps, now: datetime
    ) -> int:
        async def run(conn: AsyncConnection) -> int:
            if not await _lock(conn, PRO, owner, "handle"):
                raise Refused("no_player")
            if await _count(conn, MEM, MEM.c.profile_id == owner) >= caps.clubs_per_profile:
                raise Refused("too_many_clubs")
            res = await conn.execute(
                insert(CLUB)
                .values(
                    name=name,
                    owner_id=owner,
                    invite_nonce=nonce,
                    invite_hash=token_hash,
                    created_at=now,
                )
                .returning(CLUB.c.id)
            )
            club_id = int(res.scalar_one())
            await conn.execute(insert(MEM).values(club_id=club_id, profile_id=owner, joined_at=now))
            return club_id

        return await self._run(run)

    async def mine(self, profile_id: int, limit: int) -> list[ClubSummary]:
        owner = PRO.alias("owner")
        counts = select(MEM.c.club_id, func.count().label("n")).group_by(MEM.c.club_id).subquery()
        query = (
            select(CLUB.c.id, CLUB.c.name, CLUB.c.owner_id, owner.c.handle, counts.c.n)
            .select_from(
                MEM.join(CLUB, CLUB.c.id == MEM.c.club_id)
                .join(owner, owner.c.id == CLUB.c.owner_id)
                .join(counts, counts.c.club_id == CLUB.c.id)
            )
            .where(MEM.c.profile_id == profile_id)
            .order_by(CLUB.c.name, CLUB.c.id)
            .limit(limit)
        )

        async def run(conn: AsyncConnection) -> list[ClubSummary]:
            return [
                ClubSummary(int(r.id), r.name, r.handle, int(r.n), int(r.owner_id) == profile_id)
                for r in await conn.execute(query)
            ]

        return await self._run(run)

    async def is_member(self, club_id: int, profile_id: int) -> bool:
        async def run(conn: AsyncConnection) -> bool:
            where = and_(MEM.c.club_id == club_id, MEM.c.profile_id == profile_id)
            return bool(await _count(conn, MEM, where))

        return await self._run(run)

    async def member_ids(self, club_id: int) -> list[int]:
        async def run(conn: AsyncConnection) -> list[int]:
            rows = await conn.execute(select(MEM.c.profile_id).where(MEM.c.club_id == club_id))
            return [int(r.profile_id) for r in rows]

        return await self._run(run)

    async def page(self, club_id: int, viewer: int, rows: int) -> ClubPage | None:
        owner = PRO.alias("owner")
        head = (
            select(
                CLUB.c.name,
                CLUB.c.owner_id,
                CLUB.c.invite_nonce,
                owner.c.handle,
                owner.c.user_handle,
            )
            .select_from(
                CLUB.join(owner, owner.c.id == CLUB.c.owner_id).join(
                    MEM, (MEM.c.club_id == CLUB.c.id) & (MEM.c.profile_id == viewer)
                )
            )
            .where(CLUB.c.id == club_id)
        )
        club_matches = (
            select(MR.c.id)
            .select_from(MR.join(CT, CT.c.table_id == MR.c.table_id))
            .where(CT.c.club_id == club_id)
        )
        standings = (
            select(
                MP.c.profile_id,
                func.count().label("played"),
                func.sum(case((MP.c.won, 1), else_=0)).label("won"),
            )
            .where(MP.c.match_id.in_(club_matches))
            .group_by(MP.c.profile_id)
            .subquery()
        )
        members = (
            select(
                PRO.c.id,
                PRO.c.handle,
                PRO.c.display_name,
                RAT.c.mu,
                RAT.c.sigma,
                standings.c.played,
                standings.c.won,
            )
            .select_from(
                MEM.join(PRO, PRO.c.id == MEM.c.profile_id)
                .outerjoin(RAT, (RAT.c.profile_id == PRO.c.id) & (RAT.c.pool == "all"))
                .outerjoin(standings, standings.c.profile_id == PRO.c.id)
            )
            .where(MEM.c.club_id == club_id)
            .order_by(PRO.c.handle_key)
        )
        seated = select(P.c.table_id, func.count().label("n")).group_by(P.c.table_id).subquery()
        live = (
            select(T.c.code, T.c.name, T.c.status, T.c.players, seated.c.n)
            .select_from(
                CT.join(T, T.c.id == CT.c.table_id).outerjoin(seated, seated.c.table_id == T.c.id)
            )
            .where(
                CT.c.club_id == club_id,
                T.c.status.in_([TableStatus.WAITING, TableStatus.PLAYING]),
            )
            .order_by(CT.c.id.desc())
            .limit(rows)
        )
        finished = (
            select(MR.c.id, MR.c.table_code, MR.c.match_number, MR.c.finished_at)
            .select_from(MR.join(CT, CT.c.table_id == MR.c.table_id))
            .where(CT.c.club_id == club_id)
            .order_by(MR.c.finished_at.desc(), MR.c.id.desc())
            .limit(rows)
        )

        async def run(conn: AsyncConnection) -> ClubPage | None:
            h = (await conn.execute(head)).first()
            if h is None:
                return None
            page = ClubPage(
                club_id, h.name, int(h.owner_id), h.handle, h.user_handle, h.invite_nonce
            )
            page.members = [
                Member(
                    int(r.id),
                    r.handle,
                    r.display_name,
                    r.mu,
                    r.sigma,
                    int(r.played or 0),
                    int(r.won or 0),
                )
                for r in await conn.execute(members)
            ]
            page.live = [
                LiveTable(r.code, r.name, r.status, int(r.players), int(r.n or 0))
                for r in await conn.execute(live)
            ]
            matches = list(await conn.execute(finished))
            winners: dict[int, list[str]] = {int(m.id): [] for m in matches}
            if winners:
                won = (
                    select(MP.c.match_id, MP.c.name)
                    .where(MP.c.match_id.in_(list(winners)), MP.c.won)
                    .order_by(MP.c.match_id, MP.c.seat)
                )
                for r in await conn.execute(won):
                    winners[int(r.match_id)].append(r.name)
            page.finished = [
                Finished(m.table_code, int(m.match_number), m.finished_at, winners[int(m.id)])
                for m in matches
            ]
            return page

        return await self._run(run)

    async def rotate(self, club_id: int, owner: int, nonce: str, token_hash: str) -> None:
        async def run(conn: AsyncConnection) -> None:
            await self._owned(conn, club_id, owner)
            await conn.execute(
                update(CLUB)
                .where(CLUB.c.id == club_id)
                .values(invite_nonce=nonce, invite_hash=token_hash)
            )

        await self._run(run)

    async def join(self, token_hash: str, profile_id: int, caps: Caps, now: datetime) -> Joined:
        find = select(CLUB.c.id, CLUB.c.name).where(CLUB.c.invite_hash == token_hash)

        async def run(conn: AsyncConnection) -> Joined:
            club = (await conn.execute(find)).first()
            if club is None:
                raise Refused("no_club")
            club_id = int(club.id)
            if not await _lock(conn, PRO, profile_id, "handle"):
                raise Refused("no_player")
            if not await _lock(conn, CLUB, club_id, "name"):
                raise Refused("no_club")
            mine = and_(MEM.c.club_id == club_id, MEM.c.profile_id == profile_id)
            if await _count(conn, MEM, mine):
                return Joined(club_id, club.name)
            if await _count(conn, MEM, MEM.c.profile_id == profile_id) >= caps.clubs_per_profile:
                raise Refused("too_many_clubs")
            if await _count(conn, MEM, MEM.c.club_id == club_id) >= caps.members_max:
                raise Refused("club_full")
            await conn.execute(
                insert(MEM).values(club_id=club_id, profile_id=profile_id, joined_at=now)
            )
            return Joined(club_id, club.name)

        return await self._run(run)

    async def leave(self, club_id: int, profile_id: int) -> None:
        async def run(conn: AsyncConnection) -> None:
            row = (await conn.execute(select(CLUB.c.owner_id).where(CLUB.c.id == club_id))).first()
            if row is not None and int(row.owner_id) == profile_id:
                raise Refused("owner_leaves")
            res = await conn.execute(
                delete(MEM).where(MEM.c.club_id == club_id, MEM.c.profile_id == profile_id)
            )
            if not res.rowcount:
                raise Refused("no_club")

        await self._run(run)

    async def remove(self, club_id: int, owner: int, handle_key: str) -> None:
        async def run(conn: AsyncConnection) -> None:
            await self._owned(conn, club_id, owner)
            who = (
                await conn.execute(select(PRO.c.id).where(PRO.c.handle_key == handle_key))
            ).first()
            if who is not None and int(who.id) == owner:
                raise Refused("owner_leaves")
            res = (
                None
                if who is None
                else await conn.execute(
                    delete(MEM).where(MEM.c.club_id == club_id, MEM.c.profile_id == int(who.id))
                )
            )
            if res is None or not res.rowcount:
                raise Refused("no_member")

        await self._run(run)

    async def delete(self, club_id: int, owner: int) -> None:
        async def run(conn: AsyncConnection) -> None:
            await self._owned(conn, club_id, owner)
            await conn.execute(delete(CLUB).where(CLUB.c.id == club_id))

        await self._run(run)

    async def add_table(self, club_id: int, table_id: int, now: datetime) -> None:
        async def run(conn: AsyncConnection) -> None:
            await conn.execute(
                insert(CT).values(club_id=club_id, table_id=table_id, created_at=now)
            )

        await self._run(run)


__all__ = ["ClubStore", "CoreClubStore", "make_club_store"]
