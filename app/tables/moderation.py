"""Moderation at the tables: players' reports, a host removing or blocking someone, and
what every process keeps in memory to enforce the operator's bans and mutes.

**Who someone is.** Nobody's address is stored, only ``address_key(address)`` — a
SHA-256 of the client address as quotas see it (after a trusted proxy's
``X-Forwarded-For``). A seat is known by its seat token's hash (``players.token_hash``).

- A **chat mute** (the operator's, everywhere) is keyed on an **address** when the
  author's address is known to this process (the socket that sent the message was here;
  the process keeps the last :data:`CHAT_AUTHORS` messages' author addresses), else on
  the **seat token** of the author (that seat only, until it moves to another device). A
  muted socket's chat is refused with ``403 muted``.
- A **ban** is keyed on an address and has an end time: every ``/api`` request from it
  is refused with ``403 banned``, and its sockets are closed with 4451.
- A **table block** (the host's) holds the address(es) of the removed person's sockets
  here, their seat token and their name: a join from that address or under a name that
  looks like theirs is ``403 blocked``, and a spectator's socket from that address is
  closed with 4412. A seat token of the table that is still valid is never refused by
  an address (people behind one home router stay seated).

Bans, mutes and blocks are read from the store every ``FIVEUP_MODERATION_REFRESH_SECONDS``
by every process (:meth:`Moderation.refresh`); the process that made one knows at once.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections import OrderedDict
from dataclasses import dataclass
from datetime import UTC, datetime

from app.core.names import names_collide, visible_text
from app.db.moderation_rows import Block, NewReport
from app.db.moderation_store import ModerationStore
from app.db.rows import TableStatus
from app.db.store import Unavailable
from app.realtime.socket_book import SocketBook
from app.tables.errors import TableError
from app.tables.service import TableService

log = logging.getLogger(__name__)

#: why a report is made (the client shows them in its language)
REASONS: tuple[str, ...] = ("abuse", "spam", "cheating", "name", "other")
#: the longest free text of a report, in characters after clean-up
REPORT_TEXT_MAX = 500
#: chat messages whose author's address this process remembers (for reports and mutes)
CHAT_AUTHORS = 20_000
#: blocks kept in memory (the newest, at tables not closed)
BLOCKS_MAX = 100_000
#: close codes: removed from the table by its host (or blocked there); banned
CLOSE_REMOVED = 4412
CLOSE_BANNED = 4451


def address_key(address: str) -> str:
    """The stored form of a client address: its SHA-256, never the address.

    >>> address_key("203.0.113.9") == address_key("203.0.113.9") != address_key("::1")
    True
    """
    return hashlib.sha256(f"fiveup-address:{address}".encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class ReportRequest:
    """A report as asked for: a chat message (``seq``) or a player (``seat``)."""

    kind: str
    seq: int | None
    seat: int | None
    reason: str
    text: str

    @classmethod
    def parse(
        cls, kind: str, seq: int | None, seat: int | None, reason: str, text: str
    ) -> ReportRequest:
        """Checked: ``message`` needs ``seq``, ``player`` needs ``seat``; a reason of
        :data:`REASONS`; text cleaned as chat is, at most :data:`REPORT_TEXT_MAX`."""
        if kind == "message" and seq is None:
            raise TableError("bad_report", "a message report needs the message's seq", 400)
        if kind == "player" and seat is None:
            raise TableError("bad_report", "a player report needs the player's seat", 400)
        if reason not in REASONS:
            raise TableError("bad_report", f"reason must be one of {', '.join(REASONS)}", 400)
        clean = visible_text(text) if text else ""
        if len(clean) > REPORT_TEXT_MAX:
            raise TableError("bad_report", f"at most {REPORT_TEXT_MAX} characters", 400)
        return cls(kind, seq, seat if kind == "player" else None, reason, clean)


@dataclass(frozen=True, slots=True)
class Removal:
    """What a host's removal did: sockets closed here, and whether a block was stored."""

    closed: int
    blocked: bool


class Moderation:
    """Reports, removals and blocks, and this process's copy of bans, mutes and blocks."""

    def __init__(
        self,
        store: ModerationStore,
        tables: TableService,
        book: SocketBook,
        *,
        reports_keep: int,
        refresh_seconds: float,
    ) -> None:
        self.store = store
        self.tables = tables
        self.book = book
        self.reports_keep = reports_keep
        self.refresh_seconds = refresh_seconds
        self.bans: dict[str, datetime] = {}
        self.muted_addresses: dict[str, datetime | None] = {}
        self.muted_tokens: dict[str, datetime | None] = {}
        self.blocks: dict[int, list[Block]] = {}
        self._authors: OrderedDict[tuple[int, int], str] = OrderedDict()

    # -- this process's copy -----------------------------------------------------------
    async def refresh(self) -> None:
        """Read the active bans, mutes and blocks from the store."""
        now = datetime.now(UTC)
        bans = await self.store.active_bans(now)
        mutes = await self.store.active_mutes(now)
        blocks = await self.store.blocks(BLOCKS_MAX)
        self.bans = {b.address_hash: _aware(b.until) for b in bans}
        self.muted_addresses = {
            m.address_hash: _aware_or_none(m.until) for m in mutes if m.address_hash
        }
        self.muted_tokens = {m.token_hash: _aware_or_none(m.until) for m in mutes if m.token_hash}
        by_table: dict[int, list[Block]] = {}
        for b in blocks:
            by_table.setdefault(b.table_id, []).append(b)
        self.blocks = by_table

    async def run(self) -> None:
        """Refresh every ``refresh_seconds`` (the application's lifespan runs it)."""
        while True:
            try:
                await self.refresh()
            except Unavailable as exc:  # the next round tries again
                log.warning("moderation refresh failed (%s)", exc)
            await asyncio.sleep(self.refresh_seconds)

    def banned_until(self, address_hash: str) -> datetime | None:
        """The end of this address's ban, None when it is not banned."""
        until = self.bans.get(address_hash)
        return until if until is not None and until > datetime.now(UTC) else None

    def muted(self, address_hash: str, token_hash: str | None) -> bool:
        """Whether chat from this address, or with this seat token, is muted."""
        now = datetime.now(UTC)
        for key, mutes in ((address_hash, self.muted_addresses), (token_hash, self.muted_tokens)):
            if key is not None and key in mutes:
                until = mutes[key]
                if until is None or until > now:
                    return True
        return False

    def blocked(self, table_id: int, address_hash: str, name: str | None = None) -> bool:
        """Whether this address (or a join under ``name``) is blocked at the table."""
        for b in self.blocks.get(table_id, ()):
            if b.address_hash == address_hash or (name and b.name and names_collide(name, b.name)):
                return True
        return False

    def token_blocked(self, table_id: int, token_hash: str) -> bool:
        return any(b.token_hash == token_hash for b in self.blocks.get(table_id, ()))

    def note_chat(self, table_id: int, seq: int, address_hash: str) -> None:
        """Remember who sent the chat message ``seq`` (the newest :data:`CHAT_AUTHORS`)."""
        self._authors[(table_id, seq)] = address_hash
        if len(self._authors) > CHAT_AUTHORS:
            self._authors.popitem(last=False)

    def chat_author(self, table_id: int, seq: int) -> str | None:
        """The address hash of the chat message's author, if it was sent here."""
        return self._authors.get((table_id, seq))

    # -- players' reports --------------------------------------------------------------
    async def report(
        self, code: str, token: str | None, reporter_hash: str, req: ReportRequest
    ) -> int:
        """File a report (its id). A token, if given, must be a seat of the table."""
        table_id = await self.tables.table_id(code)
        tx = await self.tables.reads.load(table_id)
        if token is not None:
            tx.authenticate(token)
        seat, address = req.seat, None
        if req.kind == "message":
            assert req.seq is not None
            line = await self.store.chat_line(table_id, req.seq)
            if line is None:
                raise TableError("no_message", "no chat message has that seq here", 404)
            seat = line.payload.get("seat")
            address = self.chat_author(table_id, req.seq)
        player = tx.player_at(seat) if isinstance(seat, int) else None
        if req.kind == "player" and (player is None or player.bot is not None):
            raise TableError("bad_seat", "no person sits in that seat", 409)
        if player is not None and address is None:
            address = next(iter(sorted(self.book.addresses_of_seat(table_id, player.seat))), None)
        report = NewReport(
            table_id=table_id,
            kind=req.kind,
            seq=req.seq,
            seat=seat if isinstance(seat, int) else None,
            name=player.name if player is not None else "spectator",
            reason=req.reason,
            text=req.text,
            token_hash=player.token_hash if player is not None else None,
            address_hash=address,
            reporter_hash=reporter_hash,
        )
        return await self.store.add_report(report, self.reports_keep)

    # -- the host ----------------------------------------------------------------------
    async def remove(
        self, code: str, token: str | None, seat: int | None, seq: int | None, block: bool
    ) -> Removal:
        """The host removes the author of chat message ``seq`` or the player in ``seat``
        (before the start: kicked), closes their sockets here and, with ``block``,
        blocks them at the table."""
        if (seat is None) == (seq is None):
            raise TableError("bad_report", "give either seat or seq", 400)
        table_id = await self.tables.table_id(code)
        tx = await self.tables.reads.load(table_id)
        host = tx.authenticate(token)
        if host.seat != tx.table.host_seat:
            raise TableError("not_host", "only the host can remove someone", 403)
        if tx.table.status == TableStatus.CLOSED:
            raise TableError("table_closed", "the table is closed", 409)
        addresses: set[str] = set()
        if seq is not None:
            line = await self.store.chat_line(table_id, seq)
            if line is None:
                raise TableError("no_message", "no chat message has that seq here", 404)
            author = self.chat_author(table_id, seq)
            if author is not None:
                addresses.add(author)
            payload_seat = line.payload.get("seat")
            seat = payload_seat if isinstance(payload_seat, int) else None
            if seat is None and author is None:
                raise TableError(
                    "author_unknown", "that spectator's connection is not known here", 409
                )
        token_hash, name, player_id = None, "", None
        if seat is not None:
            target = tx.player_at(tx.seat_number(seat))
            if target is None or target.bot is not None or target is host:
                raise TableError("bad_seat", "no other person sits in that seat", 409)
            addresses |= self.book.addresses_of_seat(table_id, target.seat)
            token_hash, name, player_id = target.token_hash, target.name, target.id
            await self.tables.kick(code, token, target.seat)  # already_started after the start
        closed = self.book.close(
            table_id, addresses, CLOSE_REMOVED, "removed by the host", player_id
        )
        if block:
            keys: list[str | None] = [*sorted(addresses)] or [None]
            for address in keys:
                await self.store.add_block(table_id, address, token_hash, name)
                self.blocks.setdefault(table_id, []).append(
                    Block(table_id, address, token_hash, name)
                )
        return Removal(closed, block)


def _aware(at: datetime) -> datetime:
    """SQLite gives back naive datetimes (stored in UTC)."""
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def _aware_or_none(at: datetime | None) -> datetime | None:
    return None if at is None else _aware(at)
