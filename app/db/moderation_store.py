"""The moderation store contract and its one implementation for both databases.

:class:`ModerationStore` is what moderation (app/tables/moderation.py, operator.py)
needs of the database: reports, the operator's audit log (kept to a bounded number of
rows), bans, chat mutes, the people a table's host blocked, and read-only looks at live
tables and their chat. It is the cold path — a handful of statements a minute — so
:class:`CoreModerationStore` speaks SQLAlchemy Core on PostgreSQL (psycopg, a pool of
two connections of its own) and on SQLite (aiosqlite) alike; the game's hot path keeps
its own stores (app/db/store.py). Database errors leave as
:class:`~app.db.store.Unavailable`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import Table, delete, insert, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.core_store import CoreStore
from app.db.core_store import table_of as _t
from app.db.models import (
    AuditRow,
    BanRow,
    EventRow,
    MuteRow,
    PlayerRow,
    ReportRow,
    TableBlockRow,
    TableRow,
    utcnow,
)
from app.db.moderation_rows import (
    AuditEntry,
    Ban,
    Block,
    ChatLine,
    LiveTable,
    Mute,
    NewReport,
    Report,
    SeatName,
)
from app.db.rows import TableStatus
from app.db.session import make_engine

REP, AUD, BAN, MUTE, BLK = (_t(m) for m in (ReportRow, AuditRow, BanRow, MuteRow, TableBlockRow))
T, P, E = _t(TableRow), _t(PlayerRow), _t(EventRow)


class ModerationStore(Protocol):
    """What moderation needs from the database."""

    async def add_report(self, report: NewReport, keep: int) -> int:
        """Store a report (its id); only the newest ``keep`` reports stay."""
        ...

    async def reports(self, limit: int, *, open_only: bool = True) -> list[Report]:
        """The newest reports first (only those not resolved, by default)."""
        ...

    async def report(self, report_id: int) -> Report | None: ...

    async def resolve_report(self, report_id: int) -> bool:
        """Mark a report resolved; False if there is no such report."""
        ...

    async def chat_line(self, table_id: int, seq: int) -> ChatLine | None:
        """The chat event at ``seq`` of the table (None: no such chat message)."""
        ...

    async def chat_around(self, table_id: int, seq: int, each_side: int) -> list[ChatLine]:
        """The chat message at ``seq`` with up to ``each_side`` chat messages before
        and after it, oldest first."""
        ...

    async def add_audit(self, action: str, target: str, detail: str, keep: int) -> None:
        """Write one operator action; only the newest ``keep`` rows stay."""
        ...

    async def audit(self, limit: int) -> list[AuditEntry]:
        """The newest operator actions first."""
        ...

    async def add_ban(self, address_hash: str, label: str, until: datetime) -> int: ...

    async def remove_ban(self, ban_id: int) -> bool: ...

    async def active_bans(self, now: datetime) -> list[Ban]:
        """Bans whose end is after ``now``."""
        ...

    async def add_mute(
        self, address_hash: str | None, token_hash: str | None, label: str, until: datetime | None
    ) -> int: ...

    async def remove_mute(self, mute_id: int) -> bool: ...

    async def active_mutes(self, now: datetime) -> list[Mute]:
        """Mutes without an end, or whose end is after ``now``."""
        ...

    async def add_block(
        self, table_id: int, address_hash: str | None, token_hash: str | None, name: str
    ) -> None: ...

    async def blocks(self, limit: int) -> list[Block]:
        """The blocks at tables that are not closed, the newest first (at most
        ``limit``): every process keeps them in memory."""
        ...

    async def live_tables(self, limit: int) -> list[LiveTable]:
        """Tables waiting or in play, public or not, the newest first, with their seats'
        names (no state: nothing hidden)."""
        ...

    async def close(self) -> None: ...


def make_moderation_store(database_url: str) -> CoreModerationStore:
    """The moderation store for ``DATABASE_URL`` (its own small pool)."""
    return CoreModerationStore(make_engine(database_url, pool_size=2, max_overflow=2))


class CoreModerationStore(CoreStore):
    """:class:`ModerationStore` over SQLAlchemy Core (PostgreSQL or SQLite)."""

    @staticmethod
    async def _prune(conn: AsyncConnection, table: Table, keep: int) -> None:
        """Delete all but the newest ``keep`` rows (by id)."""
        cutoff = (
            await conn.execute(select(table.c.id).order_by(table.c.id.desc()).offset(keep).limit(1))
        ).scalar()
        if cutoff is not None:
            await conn.execute(delete(table).where(table.c.id <= cutoff))

    # -- reports ---------------------------------------------------------------------
    async def add_report(self, report: NewReport, keep: int) -> int:
        async def run(conn: AsyncConnection) -> int:
            res = await conn.execute(
                insert(REP).values(
                    table_id=report.table_id,
                    kind=report.kind,
                    seq=report.seq,
                    seat=report.seat,
                    name=report.name,
                    reason=report.reason,
                    text=report.text,
                    token_hash=report.token_hash,
                    address_hash=report.address_hash,
                    reporter_hash=report.reporter_hash,
                    resolved=False,
                    created_at=utcnow(),
                )
            )
            assert res.inserted_primary_key is not None
            await self._prune(conn, REP, keep)
            return int(res.inserted_primary_key[0])

        return await self._run(run)

    async def reports(self, limit: int, *, open_only: bool = True) -> list[Report]:
        query = select(REP, T.c.code).join(T, T.c.id == REP.c.table_id)
        if open_only:
            query = query.where(REP.c.resolved == False)  # noqa: E712
        query = query.order_by(REP.c.id.desc()).limit(limit)

        async def run(conn: AsyncConnection) -> list[Report]:
            return [_report(r) for r in (await conn.execute(query)).mappings()]

        return await self._run(run)

    async def report(self, report_id: int) -> Report | None:
        query = select(REP, T.c.code).join(T, T.c.id == REP.c.table_id).where(REP.c.id == report_id)

        async def run(conn: AsyncConnection) -> Report | None:
            row = (await conn.execute(query)).mappings().first()
            return None if row is None else _report(row)

        return await self._run(run)

    async def resolve_report(self, report_id: int) -> bool:
        async def run(conn: AsyncConnection) -> bool:
            res = await conn.execute(update(REP).where(REP.c.id == report_id).values(resolved=True))
            return bool(res.rowcount)

        return await self._run(run)

    # -- chat ------------------------------------------------------------------------
    async def chat_line(self, table_id: int, seq: int) -> ChatLine | None:
        query = select(E.c.seq, E.c.payload).where(
            E.c.table_id == table_id, E.c.seq == seq, E.c.kind == "chat"
        )

        async def run(conn: AsyncConnection) -> ChatLine | None:
            row = (await conn.execute(query)).first()
            return None if row is None else ChatLine(int(row[0]), dict(row[1]))

        return await self._run(run)

    async def chat_around(self, table_id: int, seq: int, each_side: int) -> list[ChatLine]:
        chat = (E.c.table_id == table_id, E.c.kind == "chat")
        before = (
            select(E.c.seq, E.c.payload)
            .where(*chat, E.c.seq <= seq)
            .order_by(E.c.seq.desc())
            .limit(each_side + 1)
        )
        after = (
            select(E.c.seq, E.c.payload)
            .where(*chat, E.c.seq > seq)
            .order_by(E.c.seq)
            .limit(each_side)
        )

        async def run(conn: AsyncConnection) -> list[ChatLine]:
            rows = list(await conn.execute(before))[::-1] + list(await conn.execute(after))
            return [ChatLine(int(r[0]), dict(r[1])) for r in rows]

        return await self._run(run)

    # -- the audit log ---------------------------------------------------------------
    async def add_audit(self, action: str, target: str, detail: str, keep: int) -> None:
        async def run(conn: AsyncConnection) -> None:
            await conn.execute(
                insert(AUD).values(
                    action=action[:32],
                    target=target[:120],
                    detail=detail[:300],
                    created_at=utcnow(),
                )
            )
            await self._prune(conn, AUD, keep)

        await self._run(run)

    async def audit(self, limit: int) -> list[AuditEntry]:
        query = select(AUD).order_by(AUD.c.id.desc()).limit(limit)

        async def run(conn: AsyncConnection) -> list[AuditEntry]:
            return [
                AuditEntry(r.id, r.action, r.target, r.detail, r.created_at)
                for r in await conn.execute(query)
            ]

        return await self._run(run)

    # -- bans and mutes --------------------------------------------------------------
    async def add_ban(self, address_hash: str, label: str, until: datetime) -> int:
        return await self._insert(BAN, address_hash=address_hash, label=label[:120], until=until)

    async def remove_ban(self, ban_id: int) -> bool:
        return await self._delete(BAN, ban_id)

    async def active_bans(self, now: datetime) -> list[Ban]:
        query = select(BAN).where(BAN.c.until > now).order_by(BAN.c.id.desc())

        async def run(conn: AsyncConnection) -> list[Ban]:
            return [Ban(r.id, r.address_hash, r.label, r.until) for r in await conn.execute(query)]

        return await self._run(run)

    async def add_mute(
        self, address_hash: str | None, token_hash: str | None, label: str, until: datetime | None
    ) -> int:
        return await self._insert(
            MUTE, address_hash=address_hash, token_hash=token_hash, label=label[:120], until=until
        )

    async def remove_mute(self, mute_id: int) -> bool:
        return await self._delete(MUTE, mute_id)

    async def active_mutes(self, now: datetime) -> list[Mute]:
        query = (
            select(MUTE)
            .where(or_(MUTE.c.until.is_(None), MUTE.c.until > now))
            .order_by(MUTE.c.id.desc())
        )

        async def run(conn: AsyncConnection) -> list[Mute]:
            return [
                Mute(r.id, r.address_hash, r.token_hash, r.label, r.until)
                for r in await conn.execute(query)
            ]

        return await self._run(run)

    async def _insert(self, table: Table, **values: Any) -> int:
        async def run(conn: AsyncConnection) -> int:
            res = await conn.execute(insert(table).values(created_at=utcnow(), **values))
            assert res.inserted_primary_key is not None
            return int(res.inserted_primary_key[0])

        return await self._run(run)

    async def _delete(self, table: Table, row_id: int) -> bool:
        async def run(conn: AsyncConnection) -> bool:
            return bool((await conn.execute(delete(table).where(table.c.id == row_id))).rowcount)

        return await self._run(run)

    # -- table blocks ----------------------------------------------------------------
    async def add_block(
        self, table_id: int, address_hash: str | None, token_hash: str | None, name: str
    ) -> None:
        await self._insert(
            BLK,
            table_id=table_id,
            address_hash=address_hash,
            token_hash=token_hash,
            name=name[:64],
        )

    async def blocks(self, limit: int) -> list[Block]:
        query = (
            select(BLK)
            .join(T, T.c.id == BLK.c.table_id)
            .where(T.c.status != TableStatus.CLOSED)
            .order_by(BLK.c.id.desc())
            .limit(limit)
        )

        async def run(conn: AsyncConnection) -> list[Block]:
            return [
                Block(r.table_id, r.address_hash, r.token_hash, r.name)
                for r in await conn.execute(query)
            ]

        return await self._run(run)

    # -- live tables -----------------------------------------------------------------
    async def live_tables(self, limit: int) -> list[LiveTable]:
        tables = (
            select(T.c.id, T.c.code, T.c.name, T.c.status, T.c.public, T.c.players)
            .where(T.c.status.in_((TableStatus.WAITING, TableStatus.PLAYING)))
            .order_by(T.c.id.desc())
            .limit(limit)
        )

        async def run(conn: AsyncConnection) -> list[LiveTable]:
            found = {
                r.id: LiveTable(r.id, r.code, r.name, str(r.status), bool(r.public), r.players)
                for r in await conn.execute(tables)
            }
            if found:
                seats = (
                    select(P.c.table_id, P.c.seat, P.c.name, P.c.bot)
                    .where(P.c.table_id.in_(list(found)))
                    .order_by(P.c.table_id, P.c.seat)
                )
                for r in await conn.execute(seats):
                    found[r.table_id].seats.append(SeatName(r.seat, r.name, r.bot))
            return list(found.values())

        return await self._run(run)


def _report(r: Any) -> Report:
    return Report(
        r["id"],
        r["code"],
        r["table_id"],
        r["kind"],
        r["seq"],
        r["seat"],
        r["name"],
        r["reason"],
        r["text"],
        r["token_hash"],
        r["address_hash"],
        bool(r["resolved"]),
        r["created_at"],
    )
