"""The friends store's one implementation for both databases (contract:
:class:`~app.db.friends_contract.FriendsStore`).

Off the move path, so SQLAlchemy Core on PostgreSQL and SQLite alike. Exactly once: a
change between two profiles first locks both profiles' rows (PostgreSQL: ``SELECT … FOR
UPDATE`` in id order, so two changes cannot deadlock; SQLite: a no-op ``UPDATE``, which
takes the database's one write lock), then reads and writes in the same transaction. Ten
accepts of one request, or two requests crossing, are thus applied one after the other:
the first makes the friendship, the others find it. The unique keys (one request per
direction, one friendship row per direction) hold even so. Database errors leave as
:class:`~app.db.store.Unavailable`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Select, and_, delete, func, insert, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.bindings import binding_holds
from app.db.core_store import CoreStore
from app.db.core_store import table_of as _t
from app.db.friends_contract import Caps, FriendsStore, Outcome, Overview, Person, Refused
from app.db.models import PlayerRow, ProfileRow, ProfileSeatRow, TableRow, utcnow
from app.db.result_models import FriendshipRow
from app.db.session import make_engine
from app.db.social_models import BlockRow, FriendLinkRow, FriendRequestRow

PRO, FR, REQ, BLK, LNK = (
    _t(m) for m in (ProfileRow, FriendshipRow, FriendRequestRow, BlockRow, FriendLinkRow)
)
T, P, SEAT = _t(TableRow), _t(PlayerRow), _t(ProfileSeatRow)


def make_friends_store(database_url: str) -> CoreFriendsStore:
    """The friends store for ``DATABASE_URL`` (its own small pool)."""
    return CoreFriendsStore(make_engine(database_url, pool_size=2, max_overflow=4))


def _person(r: Any) -> Person:
    return Person(int(r.id), r.handle, r.display_name)


def _people(table: Any, on: Any, where: Any, limit: int) -> Select[Any]:
    """The profiles ``table``'s column ``on`` names, in its rows matching ``where``."""
    return (
        select(PRO.c.id, PRO.c.handle, PRO.c.display_name)
        .select_from(PRO.join(table, PRO.c.id == on))
        .where(where)
        .order_by(PRO.c.handle_key)
        .limit(limit)
    )


async def _count(conn: AsyncConnection, where: Any, table: Any) -> int:
    return int(
        (await conn.execute(select(func.count()).select_from(table).where(where))).scalar() or 0
    )


def _pair(table: Any, a: str, b: str, me: int, other: int) -> Any:
    """Rows of ``table`` between the two profiles, either way."""
    return or_(
        and_(table.c[a] == me, table.c[b] == other),
        and_(table.c[a] == other, table.c[b] == me),
    )


class CoreFriendsStore(CoreStore):
    """:class:`FriendsStore` over SQLAlchemy Core (PostgreSQL or SQLite)."""

    async def _lock(self, conn: AsyncConnection, me: int, other: int) -> None:
        """Lock both profiles for the rest of the transaction (``Refused("no_player")``
        if one is gone)."""
        ids = sorted({me, other})
        if conn.dialect.name == "postgresql":
            query = select(PRO.c.id).where(PRO.c.id.in_(ids)).order_by(PRO.c.id)
            found = len(list(await conn.execute(query.with_for_update())))
        else:
            res = await conn.execute(
                update(PRO).where(PRO.c.id.in_(ids)).values(handle=PRO.c.handle)
            )
            found = int(res.rowcount)
        if found != len(ids):
            raise Refused("no_player")

    async def person(self, handle_key: str) -> Person | None:
        query = select(PRO.c.id, PRO.c.handle, PRO.c.display_name).where(
            PRO.c.handle_key == handle_key
        )

        async def run(conn: AsyncConnection) -> Person | None:
            row = (await conn.execute(query)).first()
            return None if row is None else _person(row)

        return await self._run(run)

    # -- friend links ----------------------------------------------------------------
    async def link_nonce(self, profile_id: int, nonce: str, token_hash: str) -> str:
        mine = select(LNK.c.nonce).where(LNK.c.profile_id == profile_id)

        async def run(conn: AsyncConnection) -> str:
            await self._lock(conn, profile_id, profile_id)
            row = (await conn.execute(mine)).first()
            if row is not None:
                return str(row.nonce)
            await conn.execute(
                insert(LNK).values(
                    profile_id=profile_id, nonce=nonce, token_hash=token_hash, created_at=utcnow()
                )
            )
            return nonce

        return await self._run(run)

    async def rotate_link(self, profile_id: int, nonce: str, token_hash: str) -> None:
        async def run(conn: AsyncConnection) -> None:
            await self._lock(conn, profile_id, profile_id)
            await conn.execute(delete(LNK).where(LNK.c.profile_id == profile_id))
            await conn.execute(
                insert(LNK).values(
                    profile_id=profile_id, nonce=nonce, token_hash=token_hash, created_at=utcnow()
                )
            )

        await self._run(run)

    async def link_owner(self, token_hash: str) -> Person | None:
        query = (
            select(PRO.c.id, PRO.c.handle, PRO.c.display_name)
            .join(LNK, LNK.c.profile_id == PRO.c.id)
            .where(LNK.c.token_hash == token_hash)
        )

        async def run(conn: AsyncConnection) -> Person | None:
            row = (await conn.execute(query)).first()
            return None if row is None else _person(row)

        return await self._run(run)

    # -- requests and friendships ----------------------------------------------------
    async def _befriend(self, conn: AsyncConnection, me: int, other: int, caps: Caps) -> None:
        for who in (me, other):
            if await _count(conn, FR.c.profile_id == who, FR) >= caps.friends_max:
                raise Refused("too_many_friends")
        now = utcnow()
        await conn.execute(
            insert(FR),
            [
                {"profile_id": me, "friend_id": other, "created_at": now},
                {"profile_id": other, "friend_id": me, "created_at": now},
            ],
        )

    async def _friends(self, conn: AsyncConnection, me: int, other: int) -> bool:
        query = select(FR.c.id).where(FR.c.profile_id == me, FR.c.friend_id == other)
        return (await conn.execute(query)).first() is not None

    async def request(self, me: int, other: int, caps: Caps, now: datetime) -> Outcome:
        async def run(conn: AsyncConnection) -> Outcome:
            await self._lock(conn, me, other)
            if (
                await conn.execute(
                    select(BLK.c.id).where(_pair(BLK, "blocker_id", "blocked_id", me, other))
                )
            ).first():
                raise Refused("blocked")
            if await self._friends(conn, me, other):
                return "friends"
            theirs = await conn.execute(
                delete(REQ).where(REQ.c.from_id == other, REQ.c.to_id == me)
            )
            if theirs.rowcount:
                await self._befriend(conn, me, other, caps)
                return "friends"
            mine = select(REQ.c.id).where(REQ.c.from_id == me, REQ.c.to_id == other)
            if (await conn.execute(mine)).first() is not None:
                return "requested"
            if (
                await _count(conn, REQ.c.from_id == me, REQ) >= caps.pending_max
                or await _count(conn, REQ.c.to_id == other, REQ) >= caps.pending_max
            ):
                raise Refused("too_many_pending")
            await conn.execute(insert(REQ).values(from_id=me, to_id=other, created_at=now))
            return "requested"

        return await self._run(run)

    async def accept(self, me: int, other: int, caps: Caps, now: datetime) -> Outcome:
        async def run(conn: AsyncConnection) -> Outcome:
            await self._lock(conn, me, other)
            if await self._friends(conn, me, other):
                return "friends"
            theirs = await conn.execute(
                delete(REQ).where(REQ.c.from_id == other, REQ.c.to_id == me)
            )
            if not theirs.rowcount:
                raise Refused("no_request")
            await self._befriend(conn, me, other, caps)
            return "friends"

        return await self._run(run)

    async def decline(self, me: int, other: int) -> bool:
        async def run(conn: AsyncConnection) -> bool:
            res = await conn.execute(delete(REQ).where(REQ.c.from_id == other, REQ.c.to_id == me))
            return bool(res.rowcount)

        return await self._run(run)

    async def remove(self, me: int, other: int) -> bool:
        async def run(conn: AsyncConnection) -> bool:
            res = await conn.execute(
                delete(FR).where(_pair(FR, "profile_id", "friend_id", me, other))
            )
            return bool(res.rowcount)

        return await self._run(run)

    # -- blocks ----------------------------------------------------------------------
    async def block(self, me: int, other: int, caps: Caps, now: datetime) -> None:
        async def run(conn: AsyncConnection) -> None:
            await self._lock(conn, me, other)
            exists = select(BLK.c.id).where(BLK.c.blocker_id == me, BLK.c.blocked_id == other)
            if (await conn.execute(exists)).first() is not None:
                return
            if await _count(conn, BLK.c.blocker_id == me, BLK) >= caps.blocks_max:
                raise Refused("too_many_blocks")
            await conn.execute(delete(FR).where(_pair(FR, "profile_id", "friend_id", me, other)))
            await conn.execute(delete(REQ).where(_pair(REQ, "from_id", "to_id", me, other)))
            await conn.execute(insert(BLK).values(blocker_id=me, blocked_id=other, created_at=now))

        await self._run(run)

    async def unblock(self, me: int, other: int) -> bool:
        async def run(conn: AsyncConnection) -> bool:
            res = await conn.execute(
                delete(BLK).where(BLK.c.blocker_id == me, BLK.c.blocked_id == other)
            )
            return bool(res.rowcount)

        return await self._run(run)

    async def overview(self, me: int, caps: Caps) -> Overview:
        queries = (
            _people(FR, FR.c.friend_id, FR.c.profile_id == me, caps.friends_max),
            _people(REQ, REQ.c.from_id, REQ.c.to_id == me, caps.pending_max),
            _people(REQ, REQ.c.to_id, REQ.c.from_id == me, caps.pending_max),
            _people(BLK, BLK.c.blocked_id, BLK.c.blocker_id == me, caps.blocks_max),
        )

        async def run(conn: AsyncConnection) -> Overview:
            lists = [[_person(r) for r in await conn.execute(q)] for q in queries]
            return Overview(*lists)

        return await self._run(run)

    # -- a seat at a host's table ----------------------------------------------------
    async def host_blocks(self, table_id: int, profile_id: int) -> bool:
        query = (
            select(BLK.c.id)
            .select_from(T)
            .join(SEAT, (SEAT.c.table_id == T.c.id) & (SEAT.c.seat == T.c.host_seat))
            .join(
                P,
                binding_holds(),
            )
            .join(BLK, BLK.c.blocker_id == SEAT.c.profile_id)
            .where(T.c.id == table_id, BLK.c.blocked_id == profile_id)
            .limit(1)
        )

        async def run(conn: AsyncConnection) -> bool:
            return (await conn.execute(query)).first() is not None

        return await self._run(run)


__all__ = ["CoreFriendsStore", "FriendsStore", "make_friends_store"]
