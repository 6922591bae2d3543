"""The service's actions on who holds a seat once seated: leave, resign,
replace (:mod:`app.tables.departures`) and moving a seat to another device
(:mod:`app.tables.devices`). A part of :class:`app.tables.service.TableService`, whose
one write path runs each decision.
"""

from __future__ import annotations

from app.bots import Level
from app.core.security import new_token
from app.schemas import DeviceLink, Joined, LinkedSeat, TableInfo
from app.tables import departures, devices
from app.tables.actions import TableActions
from app.tables.autopilot import AutopilotRules
from app.tables.change import TableChange
from app.tables.errors import profile_required
from app.tables.reads import TableReads


class SeatActions:
    """Leave, resign, replace, device links: each decision run by the service's one
    write path (``actions.run``)."""

    def __init__(
        self,
        actions: TableActions,
        reads: TableReads,
        autopilot: AutopilotRules,
        autopilot_level: Level,
    ) -> None:
        self.actions = actions
        self.reads = reads
        #: the autopilot's grace and the hub's absence clock: the host moves another
        #: seat only once its person has been gone that long
        self.autopilot = autopilot
        self.autopilot_level: Level = autopilot_level

    def _host_moves(self) -> devices.HostMoves:
        return devices.HostMoves(self.autopilot.grace_seconds, self.autopilot.absent_since)

    async def leave(self, code: str, token: str | None) -> TableInfo:
        """Leave: before the start the seat is freed; during or after a match a computer
        player of the autopilot's level takes it (``seat_left``)."""
        tx = await self.actions.run(
            code, lambda tx: departures.leave(tx, tx.authenticate(token), self.autopilot_level)
        )
        return self.reads.info_of(tx)

    async def resign(self, code: str, token: str | None) -> TableInfo:
        """Resign the match in play (two or three players): it ends now."""
        tx = await self.actions.run(code, lambda tx: departures.resign(tx, tx.authenticate(token)))
        return self.reads.info_of(tx)

    async def replace(
        self, code: str, token: str | None, seat: object, by: object, level: object
    ) -> TableInfo:
        """The host replaces a seat's player between matches (a bot, or an invite)."""
        tx = await self.actions.run(
            code,
            lambda tx: departures.replace(
                tx, tx.authenticate(token), seat, by, level, self.autopilot_level
            ),
        )
        return self.reads.info_of(tx)

    async def device_link(self, code: str, token: str | None, seat: object) -> DeviceLink:
        """A fresh single-use link moving ``seat`` to another device (the seat's own
        token, or the host's for the seat of a person gone for the presence grace, else
        ``seat_present``); an older link stops working."""
        link = new_token()
        issued: list[int] = []
        rule = self._host_moves()
        tx = await self.actions.run(
            code,
            lambda tx: issued.append(devices.issue(tx, tx.authenticate(token), seat, link, rule)),
        )
        return DeviceLink(link=devices.link_path(tx.table.code, link), seat=issued[-1])

    async def claim(self, code: str, link: object, *, signed_in: bool = False) -> Joined:
        """Move a seat to this device with its link: a fresh token; the old one and the
        link stop working (``seat_moved``; the old sockets are closed with 4410). A rated
        table's seat moves only to a ``signed_in`` browser."""
        token = new_token()
        moved: list[int] = []
        rule = self._host_moves()

        def decide(tx: TableChange) -> None:
            if tx.table.rated and not signed_in:
                raise profile_required()
            moved.append(devices.claim(tx, link, token, rule).seat)

        tx = await self.actions.run(code, decide)
        return Joined(code=tx.table.code, token=token, seat=moved[-1], table=self.reads.info_of(tx))

    async def open_bound(self, code: str, seat: int, bound_hash: str) -> Joined:
        """Open a seat bound to a profile on this device: a fresh token
        (:func:`app.tables.devices.open_bound`)."""
        token = new_token()
        moved: list[int] = []
        tx = await self.actions.run(
            code, lambda tx: moved.append(devices.open_bound(tx, seat, bound_hash, token).seat)
        )
        return Joined(code=tx.table.code, token=token, seat=moved[-1], table=self.reads.info_of(tx))

    async def linked_seat(self, code: str, link: object) -> LinkedSeat:
        """The seat an unused device link would move (nothing is claimed or changed), so
        that a page can ask before claiming; ``link_used`` as for a claim."""
        tx = await self.reads.load(await self.reads.table_id(code))
        player, by_host = devices.linked(tx, link)
        return LinkedSeat(seat=player.seat, by="host" if by_host else "seat")
