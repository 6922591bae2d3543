"""The table service's reads: who is asking (a code and a token), table info, the lobby
and the finished tables, a match's history and its record — everything that answers
without changing a table. A part of :class:`app.tables.service.TableService`.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.core.clock_presets import Presets
from app.core.security import normalise_code
from app.db.rows import EventRecord, LobbyRow, TableStatus
from app.db.store import Store, Unavailable
from app.engine import history_for
from app.realtime.table_info import lobby_entry, summary_of, table_info
from app.records import Record
from app.records.stored import match_from_events, record_from_events
from app.schemas import History, LobbyEntry, TableInfo
from app.tables.change import TableChange, token_hash
from app.tables.delivery_port import Delivery
from app.tables.errors import TableError, not_found, unauthorized, unavailable
from app.tables.writer import Writer
from app.types import Json

LOBBY_LIMIT = 200
FINISHED_LIMIT = 50


@dataclass(slots=True)
class Identity:
    """Who is asking: the table and, with a valid token, the seat."""

    table_id: int
    code: str
    seat: int | None
    player_id: int | None


class TableReads:
    """The service's reads: from the store (through the writer's loader, which knows
    the table's match), with presence from ``delivery``."""

    def __init__(
        self,
        store: Store,
        writer: Writer,
        delivery: Delivery,
        *,
        clocks: Presets,
        next_round_seconds: float,
    ) -> None:
        self.store = store
        self.writer = writer
        self.delivery = delivery
        self.clocks = clocks
        self.next_round_seconds = next_round_seconds

    async def table_id(self, code: str) -> int:
        norm = normalise_code(code) if isinstance(code, str) else None
        if norm is None:
            raise not_found()
        try:
            tid = await self.store.table_id(norm)
        except Unavailable:
            raise unavailable() from None
        if tid is None:
            raise not_found()
        return tid

    def info_of(self, tx: TableChange) -> TableInfo:
        """The table info after a change (presence as this process sees it)."""
        return TableInfo.model_validate(self._info(tx))

    def _info(self, tx: TableChange) -> Json:
        return table_info(
            tx.table,
            tx.players,
            summary_of(tx.match),
            next_round_seconds=self.next_round_seconds,
            connected=self.delivery.connected_seats(tx.table.id),
            spectators=self.delivery.spectator_count(tx.table.id),
            clocks=self.clocks,
            presence=self.delivery.seat_presence(tx.table.id, tx.table.players),
        )

    async def identify(self, code: str, token: str | None) -> Identity:
        """Resolve a table code and optional token. Bad token → ``unauthorized``."""
        norm = normalise_code(code) if isinstance(code, str) else None
        table_id = await self.table_id(code)
        if token is None:
            return Identity(table_id, norm or code, None, None)
        try:
            player = await self.store.player_by_token(table_id, token_hash(token))
        except Unavailable:
            raise unavailable() from None
        if player is None:
            raise unauthorized()
        return Identity(table_id, norm or code, player.seat, player.id)

    async def load(self, table_id: int) -> TableChange:
        """The table as stored, ready to be decided on."""
        return await self.writer.load(table_id)

    async def info(self, code: str) -> TableInfo:
        """Public table info."""
        return self.info_of(await self.load(await self.table_id(code)))

    async def lobby(self, limit: int = LOBBY_LIMIT) -> list[LobbyEntry]:
        """Public tables waiting or in play where a person is — a seat with a socket on
        some process (a table its people left is not listed, nor offered to watch): first
        those looking for players (waiting, with a free seat), then the rest (in play, or
        waiting full), newest first in each group. Finished and closed tables are not
        listed."""
        present = self.delivery.tables_with_people()
        if not present:
            return []
        try:
            rows = await self.store.lobby(limit, among=present)
        except Unavailable:
            raise unavailable() from None
        looking = [
            r
            for r in rows
            if r.table.status == TableStatus.WAITING and r.seats_taken < r.table.players
        ]
        rest = [r for r in rows if r not in looking]
        return self._entries([*looking, *rest])

    async def finished_tables(self, limit: int = FINISHED_LIMIT) -> list[LobbyEntry]:
        """Public tables whose match is over, or that played an earlier match to its end
        and are not closed, newest first: their records can be replayed
        (``/t/<code>/replay``)."""
        try:
            rows = await self.store.lobby(limit, finished=True)
        except Unavailable:
            raise unavailable() from None
        return self._entries(rows)

    def _entries(self, rows: list[LobbyRow]) -> list[LobbyEntry]:
        return [
            LobbyEntry.model_validate(
                lobby_entry(
                    r.table,
                    r.seats_taken,
                    r.table.match(),
                    bots=r.bots,
                    spectators=self.delivery.spectator_count(r.table.id),
                )
            )
            for r in rows
        ]

    async def history(self, code: str, token: str | None) -> History:
        """The current match's rounds, projected for the token's seat (or a spectator),
        each with its deal commitment and, once settled (or the match resigned in its
        course), its revealed seed (R22)."""
        ident = await self.identify(code, token)
        tx = await self.load(ident.table_id)
        rounds = history_for(tx.match, ident.seat) if tx.match else []
        if rounds:
            _, facts = match_from_events(
                e.payload for e in await self._events(tx.table.id, tx.table.match_number)
            )
            over = tx.match is not None and tx.match.over  # by R24 or by a resignation
            for rnd in rounds:
                number = rnd["round"]
                seed = facts["seeds"].get(number)
                rnd["commitment"] = facts["commitments"].get(number)
                public = rnd["settlement"] or over  # settled, or ended by a resignation
                rnd["seed"] = seed.hex() if seed is not None and public else None
        return History(
            code=tx.table.code,
            seq=tx.table.seq,
            match=tx.table.match_number,
            you=ident.seat,
            rounds=rounds,
        )

    async def _events(self, table_id: int, match_number: int) -> list[EventRecord]:
        try:
            return await self.store.match_events(table_id, match_number)
        except Unavailable:
            raise unavailable() from None

    async def record(self, code: str, match_number: int | None = None) -> Record:
        """The record of a match at the table (the current one by default): its finished
        rounds only, built from the stored events (docs/record.md). A running round never
        appears, for anyone (R5), until the match is resigned: then it is the last round."""
        tx = await self.load(await self.table_id(code))
        number = tx.table.match_number if match_number is None else match_number
        if not 0 <= number <= tx.table.match_number:  # an imported record may be match 0
            raise TableError("no_record", "no such match has been played at this table", 404)
        names = [p.name for p in sorted(tx.players, key=lambda p: p.seat)]
        names += ["?"] * (tx.table.players - len(names))
        record = record_from_events(
            (e.payload for e in await self._events(tx.table.id, number)),
            names,
            code=tx.table.code,
            match_number=number,
        )
        if record is None:
            raise TableError("no_record", "no such match has been played at this table", 404)
        return record
