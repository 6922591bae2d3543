"""The service's timed actions (a part of :class:`app.tables.service.TableService`):
the next-round countdown, and the turns a computer player or the autopilot plays —
scheduled after this process's commits, after another process's commits of a table with
a clock or an autopilot seat (NOTIFY), when a seat's presence changes, and on start-up.
Every timer runs through :class:`~app.tables.timers.Timers` (retried through outages)
and is a no-op when the state it was set for has moved on.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime, timedelta

from app.db.rows import TableStatus
from app.db.store import Store, Unavailable
from app.tables import autopilot, rounds
from app.tables.actions import TableActions
from app.tables.bot_turns import BotTurns
from app.tables.change import TableChange
from app.tables.delivery_port import Delivery
from app.tables.errors import TableError, unavailable
from app.tables.timers import Timers

log = logging.getLogger(__name__)

#: every this many seconds a process looks for turns whose deadline passed more than
#: :data:`OVERDUE_SLACK_SECONDS` ago and plays them (the process that had them scheduled
#: died, and no other saw a commit of that table since)
OVERDUE_SCAN_SECONDS = 5.0
OVERDUE_SLACK_SECONDS = 2.0


class TimedActions:
    """The service's timers: the countdowns, the autopilot's grace and take-back, the
    turns of the tables another process commits to; each table action they lead to is
    run by the service (``actions``)."""

    def __init__(
        self,
        store: Store,
        timers: Timers,
        bot_turns: BotTurns,
        delivery: Delivery,
        actions: TableActions,
        *,
        next_round_seconds: float,
    ) -> None:
        self.store = store
        self.timers = timers
        self.bot_turns = bot_turns
        self.delivery = delivery
        self.actions = actions
        self.next_round_seconds = next_round_seconds
        #: tables with a clock or a seat on autopilot seen here, each with the last seq
        #: committed here (-1: none): another process's commit to one of them is looked
        #: at (:meth:`seen_commit`)
        self._timed: dict[int, int] = {}
        #: the seats connected at each table as :meth:`presence_changed` last saw them
        self._connected_seen: dict[int, set[int]] = {}

    def committed(self, tx: TableChange) -> None:
        """After a table action of this process (a commit when it has events): the bot's
        or the autopilot's turn scheduled."""
        self._note_timed(tx, committed_here=bool(tx.events))
        self.bot_turns.after_commit(tx)

    def _note_timed(self, tx: TableChange, *, committed_here: bool = True) -> None:
        """Remember a table in play with a clock or a seat on autopilot (another
        process's commit to it is looked at), with the last seq this process committed
        to it (-1: none); forget it once it is not (the map holds the tables in play,
        not every table ever seen)."""
        table_id = tx.table.id
        if tx.table.status == TableStatus.PLAYING and (
            tx.table.clock != "none" or any(p.autopilot for p in tx.players)
        ):
            mine = tx.table.seq if committed_here else -1
            self._timed[table_id] = max(mine, self._timed.get(table_id, -1))
        else:
            self._timed.pop(table_id, None)

    def schedule_deal(self, tx: TableChange) -> None:
        at = tx.table.round_over_at
        if self.next_round_seconds > 0 and at is not None and rounds.waiting_for_deal(tx):
            assert tx.match is not None
            self.schedule_next_round(tx.table.id, tx.match.round_number, at)

    def schedule_next_round(self, table_id: int, round_number: int, settled_at: datetime) -> None:
        """Deal round ``round_number + 1`` at the deadline clients are shown
        (``TableInfo.next_round_at``), unless done before."""
        delay = self.next_round_seconds - (datetime.now(UTC) - settled_at).total_seconds()
        self.timers.at(
            delay,
            lambda: self.actions.advance_round(table_id, round_number),
            f"table {table_id}: timed next round",
        )

    def presence_changed(self, table_id: int) -> None:
        """A seat's presence at the table changed (the hub calls this): a seat on
        autopilot whose player has just connected again (a socket of the seat opened
        where it had none) is taken back (event ``autopilot`` off), and the autopilot's
        grace for the seat to move is scheduled afresh. A player who stays connected
        but idle stays on autopilot until they move or come back."""
        now = set(self.delivery.connected_seats(table_id))
        before = self._connected_seen.pop(table_id, None)
        if now:
            self._connected_seen[table_id] = now
        back = now - before if before is not None else now
        self.timers.at(0, lambda: self._look_again(table_id, back), f"table {table_id}: presence")

    def seen_commit(self, table_id: int, seq: int | None) -> None:
        """A commit to this table (NOTIFY): if it has a clock or a seat on autopilot and
        another process made it, this process schedules the turn too (whoever is first
        plays it). Its own commits were planned when they were made."""
        if table_id in self._timed:
            self.timers.at(
                0, lambda: self._look_again_after(table_id, seq), f"table {table_id}: commit"
            )

    async def _look_again_after(self, table_id: int, seq: int | None) -> None:
        if seq is not None and self._timed.get(table_id, -1) >= seq:
            return  # committed here (the NOTIFY came back): its turn is planned already
        await self._look_again(table_id, set())

    async def _look_again(self, table_id: int, back: set[int]) -> None:
        def decide(tx: TableChange) -> None:
            for p in tx.players:
                if p.autopilot and p.bot is None and p.seat in back:
                    autopilot.take_back(tx, p)

        try:
            tx = await self.actions.run(table_id, decide)  # (notes the table: committed)
        except TableError as err:
            if err.code == "table_closed":
                self._timed.pop(table_id, None)
            raise
        if not tx.events:
            self.bot_turns.plan(tx)

    async def resume_timers(self) -> None:
        """After a (re)start: schedule the next deal for every table waiting on one, and
        every pending computer player's turn (in the background, through outages)."""
        self.timers.spawn(self._scan_overdue())
        await self.adopt_timers()

    async def adopt_timers(self) -> None:
        """Schedule every pending turn and next deal the database holds: at start-up,
        and when another process hands its tables over (it drained, app/api/draining.py).
        Whoever comes first plays each; the others' firing is a no-op."""
        self.timers.at(0, self._resume_bot_turns, "resuming bot turns")
        if self.next_round_seconds <= 0:
            return
        try:
            tables = await self.store.round_over_tables()
        except Unavailable:
            raise unavailable() from None
        for t in tables:
            if t.state and t.round_over_at is not None:
                self.schedule_next_round(t.id, int(t.state["round_number"]), t.round_over_at)

    async def _scan_overdue(self) -> None:
        while True:
            await asyncio.sleep(OVERDUE_SCAN_SECONDS)
            before = datetime.now(UTC) - timedelta(seconds=OVERDUE_SLACK_SECONDS)
            try:
                await self._resume_bot_turns(before)
            except Exception as exc:  # an outage: the next scan tries again
                log.warning("scan for overdue turns failed (%s)", type(exc).__name__)

    async def _resume_bot_turns(self, overdue_before: datetime | None = None) -> None:
        try:
            with_bots = await self.store.turn_tables(overdue_before)
        except Unavailable:
            raise unavailable() from None
        tables = [TableChange(t, ps, t.match(), old_version=t.version) for t, ps in with_bots]
        for tx in tables:
            self._note_timed(tx, committed_here=False)
        self.bot_turns.resume(tables)
