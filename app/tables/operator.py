"""The operator's actions (the page ``/admin``, app/api/routes_admin.py): what they see
and what they do. Every action is written to the audit log (bounded by
``FIVEUP_AUDIT_LOG_MAX_ROWS``) before it is answered.

What an operator sees: live tables with their seats' names, who is connected and how
many spectators watch; the open reports with the reported chat message among the chat
lines around it; the active bans and mutes; the audit log. Never a seat token, a hand,
the stock or a deal seed: the rows read here carry none (app/db/moderation_rows.py), and
the hashes of tokens and addresses are kept out of the answers (only whether a report
knows its author's address or only their seat).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from app.db.moderation_rows import AuditEntry, Ban, ChatLine, LiveTable, Mute, Report
from app.db.moderation_store import ModerationStore
from app.db.rows import TableStatus
from app.tables.change import TableChange
from app.tables.delivery_port import Delivery
from app.tables.errors import TableError
from app.tables.moderation import Moderation, address_key
from app.tables.service import TableService

#: chat messages shown before and after a reported one
CONTEXT_LINES = 5
LIVE_TABLES = 200
REPORTS_SHOWN = 100
AUDIT_SHOWN = 100


@dataclass(slots=True)
class ReportView:
    """A report with the chat around its message and the names of the seats."""

    report: Report
    context: list[ChatLine]
    names: dict[int, str]


@dataclass(slots=True)
class TableView:
    table: LiveTable
    connected: list[int]
    spectators: int


@dataclass(slots=True)
class Overview:
    tables: list[TableView] = field(default_factory=list)
    reports: list[ReportView] = field(default_factory=list)
    bans: list[Ban] = field(default_factory=list)
    mutes: list[Mute] = field(default_factory=list)
    audit: list[AuditEntry] = field(default_factory=list)


def close_by_operator(tx: TableChange) -> None:
    """The decision: close a live table (a ``closed`` event, reason ``operator``)."""
    if tx.table.status not in (TableStatus.WAITING, TableStatus.PLAYING, TableStatus.FINISHED):
        raise TableError("table_closed", "the table is closed", 409)
    tx.table.status = TableStatus.CLOSED
    tx.table.round_over_at = None
    tx.table.ready = []
    tx.table.rematch_votes = []
    tx.emit("closed", {"type": "closed", "reason": "operator"})


class Operator:
    """The operator's reads and actions, each written to the audit log."""

    def __init__(
        self,
        store: ModerationStore,
        moderation: Moderation,
        tables: TableService,
        delivery: Delivery,
        *,
        audit_keep: int,
    ) -> None:
        self.store = store
        self.moderation = moderation
        self.tables = tables
        self.delivery = delivery
        self.audit_keep = audit_keep

    async def overview(self) -> Overview:
        now = datetime.now(UTC)
        out = Overview(
            bans=await self.store.active_bans(now),
            mutes=await self.store.active_mutes(now),
            audit=await self.store.audit(AUDIT_SHOWN),
        )
        for t in await self.store.live_tables(LIVE_TABLES):
            out.tables.append(
                TableView(
                    t, self.delivery.connected_seats(t.id), self.delivery.spectator_count(t.id)
                )
            )
        names: dict[int, dict[int, str]] = {}
        for r in await self.store.reports(REPORTS_SHOWN):
            if r.table_id not in names:
                tx = await self.tables.reads.load(r.table_id)
                names[r.table_id] = {p.seat: p.name for p in tx.players}
            context = (
                await self.store.chat_around(r.table_id, r.seq, CONTEXT_LINES)
                if r.seq is not None
                else []
            )
            out.reports.append(ReportView(r, context, names[r.table_id]))
        return out

    async def _audit(self, action: str, target: str, detail: str = "") -> None:
        await self.store.add_audit(action, target, detail, self.audit_keep)

    async def _reported(self, report_id: int) -> Report:
        report = await self.store.report(report_id)
        if report is None:
            raise TableError("not_found", "no such report", 404)
        return report

    async def resolve(self, report_id: int) -> None:
        report = await self._reported(report_id)
        await self.store.resolve_report(report_id)
        await self._audit("resolve", f"report {report_id}", f"table {report.code}")

    async def mute(self, report_id: int | None, address: str | None, until: datetime | None) -> int:
        """Mute the author of a report (their address if known, else their seat token)
        or an address, everywhere, until ``until`` (None: until lifted)."""
        address_hash, token_hash, label = self._whom(address, report_id)
        if report_id is not None:
            report = await self._reported(report_id)
            address_hash, token_hash = report.address_hash, None
            if address_hash is None:
                token_hash = report.token_hash
            if address_hash is None and token_hash is None:
                raise TableError("author_unknown", "this report's author is not known", 409)
            keyed = "address" if address_hash else "seat"
            label = f"{report.name} at {report.code} (report {report_id}, by {keyed})"
        mute_id = await self.store.add_mute(address_hash, token_hash, label, until)
        await self.moderation.refresh()
        await self._audit("mute", label, _until(until))
        return mute_id

    async def unmute(self, mute_id: int) -> None:
        if not await self.store.remove_mute(mute_id):
            raise TableError("not_found", "no such mute", 404)
        await self.moderation.refresh()
        await self._audit("unmute", f"mute {mute_id}")

    async def ban(self, report_id: int | None, address: str | None, until: datetime) -> int:
        """Ban the author of a report (their address must be known) or an address until
        ``until``."""
        if until <= datetime.now(UTC):
            raise TableError("bad_until", "that time has passed: a ban ends in the future", 409)
        address_hash, _, label = self._whom(address, report_id)
        if report_id is not None:
            report = await self._reported(report_id)
            if report.address_hash is None:
                raise TableError(
                    "author_unknown", "this report's author's address is not known", 409
                )
            address_hash = report.address_hash
            label = f"{report.name} at {report.code} (report {report_id})"
        assert address_hash is not None
        ban_id = await self.store.add_ban(address_hash, label, until)
        await self.moderation.refresh()
        await self._audit("ban", label, _until(until))
        return ban_id

    async def unban(self, ban_id: int) -> None:
        if not await self.store.remove_ban(ban_id):
            raise TableError("not_found", "no such ban", 404)
        await self.moderation.refresh()
        await self._audit("unban", f"ban {ban_id}")

    async def close_table(self, code: str) -> None:
        tx = await self.tables.run(code, close_by_operator)
        await self._audit("close", f"table {tx.table.code}", tx.table.name)

    async def drained(self) -> None:
        """Written when the operator drains this process (the drain itself is
        app/api/routes_admin.py's ``drain`` action, when wired)."""
        await self._audit("drain", "this process")

    @staticmethod
    def _whom(address: str | None, report_id: int | None) -> tuple[str | None, None, str]:
        """The address hash and label of an address given by the operator."""
        if address is None:
            if report_id is None:
                raise TableError("bad_target", "give a report or an address", 400)
            return None, None, ""
        return address_key(address), None, f"address {address}"


def _until(until: datetime | None) -> str:
    return "until lifted" if until is None else f"until {until.isoformat()}"
