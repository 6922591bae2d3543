"""The invitations store, one implementation for both databases (SQLAlchemy Core, off
the move path; docs/invitations.md).

:meth:`InvitationsStore.create` checks and writes in one transaction: every invitee
must be a friend of the inviter (``Refused("not_friends")``) and must not block them
(``Refused("blocked")``); an invitee keeps at most ``pending_max`` invitations (the
oldest go). Reads give other profiles only as handle and display name, tables as code,
name, seats and status. Database errors leave as :class:`~app.db.store.Unavailable`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Select, delete, insert, select, true
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.bindings import binding_holds
from app.db.club_models import ClubMemberRow
from app.db.core_store import CoreStore
from app.db.core_store import table_of as _t
from app.db.friends_contract import Person, Refused
from app.db.invitation_models import InvitationRow
from app.db.models import PlayerRow, ProfileRow, ProfileSeatRow, TableRow
from app.db.result_models import FriendshipRow
from app.db.rows import TableStatus
from app.db.session import make_engine
from app.db.social_models import BlockRow

INV, PRO, FR, BLK = (_t(m) for m in (InvitationRow, ProfileRow, FriendshipRow, BlockRow))
T, P, SEAT = _t(TableRow), _t(PlayerRow), _t(ProfileSeatRow)
CM = _t(ClubMemberRow)


@dataclass(frozen=True, slots=True)
class PublicSeat:
    """A public table where a profile holds a bound seat, as its friends see it."""

    code: str
    name: str
    players: int
    status: str


@dataclass(frozen=True, slots=True)
class Invitation:
    """An invitation as its invitee sees it."""

    id: int
    to_id: int
    from_handle: str
    from_display_name: str
    code: str
    name: str
    players: int
    status: str
    seat: int | None
    at: datetime


def make_invitations_store(database_url: str) -> InvitationsStore:
    """The invitations store for ``DATABASE_URL`` (its own small pool)."""
    return InvitationsStore(make_engine(database_url, pool_size=2, max_overflow=4))


def _views() -> Select[Any]:
    return (
        select(
            INV.c.id,
            INV.c.to_id,
            PRO.c.handle,
            PRO.c.display_name,
            T.c.code,
            T.c.name,
            T.c.players,
            T.c.status,
            INV.c.seat,
            INV.c.created_at,
        )
        .select_from(INV.join(PRO, PRO.c.id == INV.c.from_id).join(T, T.c.id == INV.c.table_id))
        .order_by(INV.c.id.desc())
    )


def _view(r: Any) -> Invitation:
    return Invitation(
        int(r.id),
        int(r.to_id),
        r.handle,
        r.display_name,
        r.code,
        r.name,
        int(r.players),
        str(r.status),
        None if r.seat is None else int(r.seat),
        r.created_at,
    )


class InvitationsStore(CoreStore):
    """Invitations, friends' lists for online status, and the inviter's seat check."""

    async def seated(self, profile_id: int, table_id: int, seat: int, token_hash: str) -> bool:
        """Whether the seat (with this token) is bound to the profile (docs/profiles.md)."""
        query = (
            select(SEAT.c.id)
            .join(
                P,
                binding_holds(),
            )
            .where(
                SEAT.c.profile_id == profile_id,
                SEAT.c.table_id == table_id,
                SEAT.c.seat == seat,
                SEAT.c.token_hash == token_hash,
            )
        )

        async def run(conn: AsyncConnection) -> bool:
            return (await conn.execute(query)).first() is not None

        return await self._run(run)

    async def create(
        self,
        from_id: int,
        to_ids: Sequence[int],
        table_id: int,
        seat: int | None,
        now: datetime,
        pending_max: int,
        club_id: int | None = None,
    ) -> list[int]:
        """Invite each of ``to_ids`` (distinct, not ``from_id``); the new ids, in order.
        :class:`Refused` ``not_friends`` or ``blocked`` (then none is written). With
        ``club_id``: members of that club are invited, friends or not (``not_friends``
        for anyone who is not a member)."""
        ids = list(dict.fromkeys(to_ids))

        async def run(conn: AsyncConnection) -> list[int]:
            blockers = select(BLK.c.blocker_id).where(
                BLK.c.blocked_id == from_id, BLK.c.blocker_id.in_(ids)
            )
            if (await conn.execute(blockers)).first() is not None:
                raise Refused("blocked")
            friends = (
                select(CM.c.profile_id).where(CM.c.club_id == club_id, CM.c.profile_id.in_(ids))
                if club_id is not None
                else select(FR.c.friend_id).where(
                    FR.c.profile_id == from_id, FR.c.friend_id.in_(ids)
                )
            )
            if len(list(await conn.execute(friends))) != len(ids):
                raise Refused("not_friends")
            made: list[int] = []
            for to_id in ids:
                res = await conn.execute(
                    insert(INV)
                    .values(
                        from_id=from_id, to_id=to_id, table_id=table_id, seat=seat, created_at=now
                    )
                    .returning(INV.c.id)
                )
                made.append(int(res.scalar_one()))
                keep = (
                    select(INV.c.id)
                    .where(INV.c.to_id == to_id)
                    .order_by(INV.c.id.desc())
                    .limit(pending_max)
                )
                await conn.execute(
                    delete(INV).where(INV.c.to_id == to_id, INV.c.id.not_in(keep.scalar_subquery()))
                )
            return made

        return await self._run(run)

    async def get(self, invitation_id: int) -> Invitation | None:
        query = _views().where(INV.c.id == invitation_id)

        async def run(conn: AsyncConnection) -> Invitation | None:
            row = (await conn.execute(query)).first()
            return None if row is None else _view(row)

        return await self._run(run)

    async def pending(self, to_id: int, limit: int) -> list[Invitation]:
        """The profile's invitations, newest first, at most ``limit``."""
        query = _views().where(INV.c.to_id == to_id).limit(limit)

        async def run(conn: AsyncConnection) -> list[Invitation]:
            return [_view(r) for r in await conn.execute(query)]

        return await self._run(run)

    async def dismiss(self, to_id: int, invitation_id: int) -> bool:
        async def run(conn: AsyncConnection) -> bool:
            res = await conn.execute(
                delete(INV).where(INV.c.id == invitation_id, INV.c.to_id == to_id)
            )
            return bool(res.rowcount)

        return await self._run(run)

    async def friends(self, profile_id: int, limit: int) -> list[Person]:
        """The profile's friends (handle order), at most ``limit``."""
        query = (
            select(PRO.c.id, PRO.c.handle, PRO.c.display_name)
            .join(FR, FR.c.friend_id == PRO.c.id)
            .where(FR.c.profile_id == profile_id)
            .order_by(PRO.c.handle_key)
            .limit(limit)
        )

        async def run(conn: AsyncConnection) -> list[Person]:
            return [Person(int(r.id), r.handle, r.display_name) for r in await conn.execute(query)]

        return await self._run(run)

    async def public_seats(self, profile_ids: Sequence[int]) -> dict[int, PublicSeat]:
        """For each of these profiles that holds a bound seat (docs/profiles.md: the seat
        still has the token it was bound with) at a public table waiting or playing, the
        newest such table. Private tables are never named."""
        if not profile_ids:
            return {}
        query = (
            select(SEAT.c.profile_id, T.c.code, T.c.name, T.c.players, T.c.status)
            .select_from(SEAT)
            .join(T, T.c.id == SEAT.c.table_id)
            .join(
                P,
                binding_holds(),
            )
            .where(
                SEAT.c.profile_id.in_(list(profile_ids)),
                T.c.public == true(),
                T.c.status.in_((TableStatus.WAITING, TableStatus.PLAYING)),
            )
            .order_by(T.c.id.desc())
        )

        async def run(conn: AsyncConnection) -> dict[int, PublicSeat]:
            found: dict[int, PublicSeat] = {}
            for r in await conn.execute(query):
                found.setdefault(
                    int(r.profile_id), PublicSeat(r.code, r.name, int(r.players), str(r.status))
                )
            return found

        return await self._run(run)

    async def bound_profiles(self, table_id: int) -> list[int]:
        """The profiles that hold, or held, a bound seat at the table."""
        query = select(SEAT.c.profile_id).where(SEAT.c.table_id == table_id).distinct()

        async def run(conn: AsyncConnection) -> list[int]:
            return sorted(int(r.profile_id) for r in await conn.execute(query))

        return await self._run(run)
