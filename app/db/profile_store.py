"""The profile store's one implementation for both databases.

Its contract, :class:`~app.db.profile_contract.ProfileStore`, is what profiles
(app/tables/profiles.py) need of the database: profiles and their passkeys, sessions,
one-time sign-in links, WebAuthn ceremonies in progress and seats bound to a profile. Like moderation it is off the hot path, so :class:`CoreProfileStore` speaks
SQLAlchemy Core on PostgreSQL and SQLite alike. Every secret arrives here already hashed
(SHA-256, app/tables/profiles.py); single-use things (a link, a ceremony) are taken with
one ``DELETE`` whose row count says who won, so two concurrent uses cannot both pass.
Database errors leave as :class:`~app.db.store.Unavailable`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.bindings import binding_holds
from app.db.core_store import CoreStore
from app.db.core_store import table_of as _t
from app.db.figures_models import PlayerFiguresRow, PlayerPairRow
from app.db.models import (
    CeremonyRow,
    PasskeyRow,
    PlayerRow,
    ProfileRow,
    ProfileSeatRow,
    ProfileSessionRow,
    SignInLinkRow,
    TableRow,
    utcnow,
)
from app.db.profile_contract import DELETED_NAME, HandleTaken, ProfileStore
from app.db.profile_rows import BoundSeat, Ceremony, NewPasskey, Passkey, Profile
from app.db.result_models import FriendshipRow, MatchPlayerRow, RatingRow
from app.db.rows import TableStatus
from app.db.session import make_engine

PRO, KEY, SES, LNK, CER, SEAT = (
    _t(m)
    for m in (
        ProfileRow,
        PasskeyRow,
        ProfileSessionRow,
        SignInLinkRow,
        CeremonyRow,
        ProfileSeatRow,
    )
)
T, P = _t(TableRow), _t(PlayerRow)
MP, RAT, FRI = _t(MatchPlayerRow), _t(RatingRow), _t(FriendshipRow)
FIG, PAIR = _t(PlayerFiguresRow), _t(PlayerPairRow)


def make_profile_store(database_url: str) -> CoreProfileStore:
    """The profile store for ``DATABASE_URL`` (its own small pool)."""
    return CoreProfileStore(make_engine(database_url, pool_size=2, max_overflow=4))


class CoreProfileStore(CoreStore):
    """:class:`ProfileStore` over SQLAlchemy Core (PostgreSQL or SQLite)."""

    def integrity_error(self, exc: IntegrityError) -> Exception:
        return HandleTaken(str(exc.orig))  # the only unique key a caller can hit

    # -- profiles --------------------------------------------------------------------
    async def create_profile(
        self, handle: str, handle_key: str, display_name: str, user_handle: str, key: NewPasskey
    ) -> Profile:
        async def run(conn: AsyncConnection) -> Profile:
            now = utcnow()
            res = await conn.execute(
                insert(PRO).values(
                    handle=handle,
                    handle_key=handle_key,
                    display_name=display_name,
                    user_handle=user_handle,
                    created_at=now,
                )
            )
            assert res.inserted_primary_key is not None
            profile_id = int(res.inserted_primary_key[0])
            await conn.execute(
                insert(KEY).values(
                    profile_id=profile_id,
                    credential_id=key.credential_id,
                    public_key=key.public_key,
                    sign_count=key.sign_count,
                    created_at=now,
                )
            )
            return Profile(profile_id, handle, display_name, user_handle, now)

        return await self._run(run)

    async def handle_free(self, handle_key: str) -> bool:
        query = select(PRO.c.id).where(PRO.c.handle_key == handle_key)

        async def run(conn: AsyncConnection) -> bool:
            return (await conn.execute(query)).first() is None

        return await self._run(run)

    async def profile(self, profile_id: int) -> Profile | None:
        async def run(conn: AsyncConnection) -> Profile | None:
            row = (await conn.execute(select(PRO).where(PRO.c.id == profile_id))).first()
            return None if row is None else _profile(row)

        return await self._run(run)

    async def delete_profile(self, profile_id: int) -> bool:
        async def run(conn: AsyncConnection) -> bool:
            bound = select(SEAT.c.table_id, SEAT.c.seat, SEAT.c.token_hash).where(
                SEAT.c.profile_id == profile_id
            )
            for r in list(await conn.execute(bound)):  # the seats still the person's
                await conn.execute(
                    update(P)
                    .where(
                        P.c.table_id == r.table_id,
                        P.c.seat == r.seat,
                        P.c.token_hash == r.token_hash,
                    )
                    .values(name=DELETED_NAME)
                )
            # finished matches keep the game, anonymised; ratings are withdrawn
            await conn.execute(
                update(MP)
                .where(MP.c.profile_id == profile_id)
                .values(profile_id=None, name=DELETED_NAME)
            )
            await conn.execute(
                delete(FRI).where(
                    (FRI.c.profile_id == profile_id) | (FRI.c.friend_id == profile_id)
                )
            )
            await conn.execute(  # its totals, and its place in everyone's head-to-head
                delete(PAIR).where(
                    (PAIR.c.profile_id == profile_id) | (PAIR.c.other_id == profile_id)
                )
            )
            for table in (KEY, SES, LNK, SEAT, RAT, FIG):  # also where foreign keys are off
                await conn.execute(delete(table).where(table.c.profile_id == profile_id))
            res = await conn.execute(delete(PRO).where(PRO.c.id == profile_id))
            return bool(res.rowcount)

        return await self._run(run)

    # -- passkeys --------------------------------------------------------------------
    async def passkey(self, credential_id: str) -> Passkey | None:
        async def run(conn: AsyncConnection) -> Passkey | None:
            row = (
                await conn.execute(select(KEY).where(KEY.c.credential_id == credential_id))
            ).first()
            return None if row is None else _passkey(row)

        return await self._run(run)

    async def passkeys_of(self, profile_id: int) -> list[Passkey]:
        query = select(KEY).where(KEY.c.profile_id == profile_id).order_by(KEY.c.id)

        async def run(conn: AsyncConnection) -> list[Passkey]:
            return [_passkey(r) for r in await conn.execute(query)]

        return await self._run(run)

    async def used_passkey(self, passkey_id: int, sign_count: int) -> None:
        async def run(conn: AsyncConnection) -> None:
            await conn.execute(
                update(KEY)
                .where(KEY.c.id == passkey_id)
                .values(sign_count=sign_count, last_used_at=utcnow())
            )

        await self._run(run)

    # -- ceremonies ------------------------------------------------------------------
    async def add_ceremony(
        self, ceremony_hash: str, ceremony: Ceremony, expires_at: datetime, now: datetime
    ) -> None:
        async def run(conn: AsyncConnection) -> None:
            await conn.execute(delete(CER).where(CER.c.expires_at <= now))
            await conn.execute(
                insert(CER).values(
                    ceremony_hash=ceremony_hash,
                    kind=ceremony.kind,
                    challenge=ceremony.challenge,
                    handle=ceremony.handle,
                    display_name=ceremony.display_name,
                    user_handle=ceremony.user_handle,
                    created_at=now,
                    expires_at=expires_at,
                )
            )

        await self._run(run)

    async def take_ceremony(self, ceremony_hash: str, now: datetime) -> Ceremony | None:
        async def run(conn: AsyncConnection) -> Ceremony | None:
            row = (
                await conn.execute(select(CER).where(CER.c.ceremony_hash == ceremony_hash))
            ).first()
            if row is None:
                return None
            gone = await conn.execute(delete(CER).where(CER.c.id == row.id))
            if not gone.rowcount or row.expires_at.replace(tzinfo=now.tzinfo) <= now:
                return None
            return Ceremony(row.kind, row.challenge, row.handle, row.display_name, row.user_handle)

        return await self._run(run)

    # -- sessions --------------------------------------------------------------------
    async def add_session(
        self, profile_id: int, token_hash: str, expires_at: datetime, now: datetime, *, keep: int
    ) -> None:
        async def run(conn: AsyncConnection) -> None:
            await conn.execute(
                insert(SES).values(
                    profile_id=profile_id,
                    token_hash=token_hash,
                    created_at=now,
                    expires_at=expires_at,
                )
            )
            newest = (
                select(SES.c.id)
                .where(SES.c.profile_id == profile_id, SES.c.expires_at > now)
                .order_by(SES.c.id.desc())
                .limit(keep)
            )
            await conn.execute(
                delete(SES).where(SES.c.profile_id == profile_id, SES.c.id.not_in(newest))
            )

        await self._run(run)

    async def session_profile(self, token_hash: str, now: datetime) -> Profile | None:
        query = (
            select(PRO)
            .join(SES, SES.c.profile_id == PRO.c.id)
            .where(SES.c.token_hash == token_hash, SES.c.expires_at > now)
        )

        async def run(conn: AsyncConnection) -> Profile | None:
            row = (await conn.execute(query)).first()
            return None if row is None else _profile(row)

        return await self._run(run)

    async def end_session(self, token_hash: str) -> bool:
        async def run(conn: AsyncConnection) -> bool:
            return bool(
                (await conn.execute(delete(SES).where(SES.c.token_hash == token_hash))).rowcount
            )

        return await self._run(run)

    async def end_sessions(self, profile_id: int) -> int:
        async def run(conn: AsyncConnection) -> int:
            res = await conn.execute(delete(SES).where(SES.c.profile_id == profile_id))
            return int(res.rowcount)

        return await self._run(run)

    async def sessions_of(self, profile_id: int, now: datetime) -> int:
        query = select(func.count()).where(SES.c.profile_id == profile_id, SES.c.expires_at > now)

        async def run(conn: AsyncConnection) -> int:
            return int((await conn.execute(query)).scalar() or 0)

        return await self._run(run)

    # -- one-time sign-in links ------------------------------------------------------
    async def add_link(
        self, profile_id: int, token_hash: str, expires_at: datetime, now: datetime
    ) -> None:
        async def run(conn: AsyncConnection) -> None:
            await conn.execute(delete(LNK).where(LNK.c.expires_at <= now))
            await conn.execute(
                insert(LNK).values(
                    profile_id=profile_id,
                    token_hash=token_hash,
                    created_at=now,
                    expires_at=expires_at,
                )
            )

        await self._run(run)

    async def take_link(self, token_hash: str, now: datetime) -> int | None:
        async def run(conn: AsyncConnection) -> int | None:
            row = (await conn.execute(select(LNK).where(LNK.c.token_hash == token_hash))).first()
            if row is None:
                return None
            gone = await conn.execute(delete(LNK).where(LNK.c.id == row.id))
            if not gone.rowcount or row.expires_at.replace(tzinfo=now.tzinfo) <= now:
                return None
            return int(row.profile_id)

        return await self._run(run)

    # -- seats bound to a profile ----------------------------------------------------
    async def bind_seat(self, profile_id: int, table_id: int, seat: int, token_hash: str) -> None:
        async def run(conn: AsyncConnection) -> None:
            await conn.execute(delete(SEAT).where(SEAT.c.table_id == table_id, SEAT.c.seat == seat))
            await conn.execute(
                insert(SEAT).values(
                    profile_id=profile_id,
                    table_id=table_id,
                    seat=seat,
                    token_hash=token_hash,
                    created_at=utcnow(),
                )
            )

        await self._run(run)

    async def follow_seat(self, table_id: int, token_hash: str, seat: int) -> None:
        async def run(conn: AsyncConnection) -> None:
            mine = (SEAT.c.table_id == table_id) & (SEAT.c.token_hash == token_hash)
            if (await conn.execute(select(SEAT.c.id).where(mine))).first() is None:
                return
            # a binding left at the seat taken now is stale: its token is not there
            await conn.execute(
                delete(SEAT).where(
                    SEAT.c.table_id == table_id,
                    SEAT.c.seat == seat,
                    SEAT.c.token_hash != token_hash,
                )
            )
            await conn.execute(update(SEAT).where(mine).values(seat=seat))

        await self._run(run)

    async def bound_seats(self, profile_id: int, limit: int) -> list[BoundSeat]:
        query = (
            select(T.c.code, T.c.name, T.c.status, T.c.players, SEAT.c.seat, SEAT.c.token_hash)
            .select_from(SEAT)
            .join(T, T.c.id == SEAT.c.table_id)
            .join(
                P,
                binding_holds(),
            )
            .where(
                SEAT.c.profile_id == profile_id,
                T.c.status.in_((TableStatus.WAITING, TableStatus.PLAYING)),
            )
            .order_by(T.c.id.desc())
            .limit(limit)
        )

        async def run(conn: AsyncConnection) -> list[BoundSeat]:
            return [
                BoundSeat(r.code, r.name, str(r.status), r.players, r.seat, r.token_hash)
                for r in await conn.execute(query)
            ]

        return await self._run(run)


def _profile(r: Any) -> Profile:
    return Profile(r.id, r.handle, r.display_name, r.user_handle, r.created_at)


def _passkey(r: Any) -> Passkey:
    return Passkey(
        r.id,
        r.profile_id,
        r.credential_id,
        r.public_key,
        int(r.sign_count),
        r.created_at,
        r.last_used_at,
    )


__all__ = ["DELETED_NAME", "CoreProfileStore", "HandleTaken", "ProfileStore", "make_profile_store"]
