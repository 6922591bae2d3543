"""The table service: the facade the HTTP routes and the WebSocket endpoint call.

Each action is a small decision (:mod:`seating`, :mod:`play`, :mod:`rounds`) run by the
one write path (:class:`~app.tables.writer.Writer`); reads go to the store. The service
never checks a rule itself — the engine does.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from app.bots import Level
from app.core.clock_presets import Presets
from app.core.security import (
    NAME_MAX,
    TABLE_NAME_MAX,
    clean_name,
    new_table_code,
    new_token,
)
from app.db.rows import PlayerState, TableStatus
from app.db.store import Store
from app.fairness import new_seed as os_seed
from app.records import Record, check
from app.records.stored import events_of_record
from app.schemas import Joined, TableInfo
from app.tables import bot_seats, chat, practice_cap, rounds, seating, sweep, turn_clock
from app.tables.autopilot import AutopilotRules
from app.tables.bot_turns import BotSettings, BotTurns
from app.tables.change import TableChange, token_hash
from app.tables.chat import ChatRequest
from app.tables.delivery_port import Delivery, NoDelivery
from app.tables.errors import TableError, profile_required, table_closed
from app.tables.move_actions import MoveActions
from app.tables.play import MoveResult
from app.tables.practice_cap import PracticeCreator
from app.tables.reads import Identity, TableReads
from app.tables.seat_actions import SeatActions
from app.tables.timed_actions import TimedActions
from app.tables.timers import Timers
from app.tables.writer import Writer

#: table actions other than moves are re-decided on fresh state this often when they
#: lose a version race (two people joining different seats at once both get in)
TABLE_ACTION_ATTEMPTS = 4


class TableService:
    """The table service: create, seat, start, play, vote, leave, chat, import; made of
    parts that take their dependencies here, each action at its home:

    - :attr:`reads` (:class:`~app.tables.reads.TableReads`): who asks, table info, the
      lobby, history, records;
    - :attr:`moves` (:class:`~app.tables.move_actions.MoveActions`): every move;
    - :attr:`seats` (:class:`~app.tables.seat_actions.SeatActions`): leave, resign,
      replace, device links;
    - :attr:`timed` (:class:`~app.tables.timed_actions.TimedActions`) and :attr:`bot_turns`
      (:class:`~app.tables.bot_turns.BotTurns`): countdowns, the autopilot, computer
      players' turns;
    - this class: seating, computer seats, rounds, chat, imports — and the one write
      path for table actions (:meth:`run`) with the steps after a commit
      (:class:`~app.tables.actions.TableActions`, which the parts are given).
    """

    def __init__(
        self,
        store: Store,
        *,
        next_round_seconds: float = 20.0,
        new_seed: rounds.SeedSource = os_seed,
        delivery: Delivery | None = None,
        bot_settings: BotSettings | None = None,
        clocks: Presets | None = None,
        autopilot_rules: AutopilotRules | None = None,
        autopilot_level: Level = "medium",
    ) -> None:
        """``delivery``: where commits go and who is here (the hub; none: a service
        without sockets, :class:`~app.tables.delivery_port.NoDelivery`)."""
        self.store = store
        self.next_round_seconds = next_round_seconds
        self.new_seed = new_seed  # R5/R7: a fresh seed per round from the OS CSPRNG
        #: computer players' pauses and their own random choices (not the deal's)
        self.rng = random.SystemRandom()
        self.delivery: Delivery = delivery if delivery is not None else NoDelivery()
        self.writer = Writer(store, delivery)
        self.timers = Timers()
        #: the turn clocks' numbers; the autopilot's rules (with the hub's absence clock:
        #: the autopilot's grace and take-back use it)
        self.clocks = clocks or Presets()
        rules = autopilot_rules or AutopilotRules(level=autopilot_level)
        self.autopilot = AutopilotRules(
            rules.level,
            rules.handover_moves,
            rules.grace_seconds,
            self.delivery.absent_since if delivery is not None else None,
        )
        self.reads = TableReads(
            store,
            self.writer,
            self.delivery,
            clocks=self.clocks,
            next_round_seconds=next_round_seconds,
        )
        self.moves = MoveActions(store, self.writer, self.autopilot, self)
        self.bot_turns = BotTurns(
            self.timers,
            bot_settings or BotSettings(),
            self.reads.load,
            self.moves.play_bot,
            self.rng,
            rules=self.autopilot,
            play_auto=self.moves.play_autopilot,
        )
        self.timed = TimedActions(
            store,
            self.timers,
            self.bot_turns,
            self.delivery,
            self,
            next_round_seconds=next_round_seconds,
        )
        #: (autopilot_level: the computer player that takes a seat its person left)
        self.seats = SeatActions(self, self.reads, self.autopilot, autopilot_level)
        # the parts' actions, each at its home
        reads, moves, seats, timed = self.reads, self.moves, self.seats, self.timed
        self.table_id, self.identify, self.info_of = reads.table_id, reads.identify, reads.info_of
        self.info, self.lobby, self.finished_tables = reads.info, reads.lobby, reads.finished_tables
        self.history, self.record = reads.history, reads.record
        self.act, self.play_bot, self.play_autopilot = (
            moves.act,
            moves.play_bot,
            moves.play_autopilot,
        )
        self.leave, self.resign, self.replace = seats.leave, seats.resign, seats.replace
        self.device_link, self.claim, self.linked_seat, self.open_bound = (
            seats.device_link,
            seats.claim,
            seats.linked_seat,
            seats.open_bound,
        )
        self.presence_changed, self.seen_commit = timed.presence_changed, timed.seen_commit
        self.resume_timers, self.schedule_next_round = (
            timed.resume_timers,
            timed.schedule_next_round,
        )
        #: the autopilot's grace and take-back follow every seat's presence
        self.delivery.presence_changes.subscribe(timed.presence_changed)

    # -- the one write path of table actions (TableActions) ----------------------------
    async def run(
        self, code_or_id: str | int, decide: Callable[[TableChange], None]
    ) -> TableChange:
        """Decide and commit one table action (:class:`~app.tables.actions.TableActions`)."""
        table_id = code_or_id if isinstance(code_or_id, int) else await self.table_id(code_or_id)

        async def run(tx: TableChange) -> None:
            if tx.table.status == TableStatus.CLOSED:
                raise table_closed()
            decide(tx)
            self.after_settled(tx)

        _, tx = await self.writer.change(table_id, run, attempts=TABLE_ACTION_ATTEMPTS)
        self.committed(tx)
        return tx

    def committed(self, tx: TableChange) -> None:
        """After a change of this process: its timers and computer players' turns."""
        self.timed.committed(tx)

    def schedule_deal(self, tx: TableChange) -> None:
        """After a commit that settled a round: the countdown to the next deal."""
        self.timed.schedule_deal(tx)

    def after_settled(self, tx: TableChange, *, at_once: bool = False) -> None:
        """With no countdown (``next_round_seconds`` = 0) a settled round is dealt at once;
        computer players are ready for the next round and vote for a rematch at once; the
        turn clock's deadline and banks follow the change (app/tables/turn_clock.py)."""
        if not tx.events:
            return
        if self.next_round_seconds <= 0 and rounds.waiting_for_deal(tx):
            rounds.deal_next(tx, self.new_seed)
        bot_seats.vote(tx, self.new_seed)
        turn_clock.settle(tx, self.clocks.of(tx.table.clock), at_once=at_once)

    # -- seating -----------------------------------------------------------------------
    async def create(
        self,
        name: str,
        players: int,
        public: bool,
        host_name: str,
        clock_preset: str = "none",
        *,
        rated: bool = False,
    ) -> Joined:
        """Create a table with a turn clock preset; the creator takes seat 0, host. A
        ``rated`` table's seats are for signed-in players (the caller checked the
        creator) and computer players (docs/ratings.md)."""
        host = seating.checked_name(host_name, NAME_MAX, default=seating.default_name(0))
        table = seating.new_table(name, players, public, host)
        table.clock = turn_clock.checked(self.clocks, clock_preset).preset
        table.rated = rated
        token = new_token()

        async def decide(tx: TableChange) -> None:
            seating.seat_host(tx, host, token)

        _, tx = await self.writer.create(table, decide, new_table_code)
        return Joined(code=tx.table.code, token=token, seat=0, table=self.info_of(tx))

    async def join(self, code: str, name: str, seat: object, *, signed_in: bool = False) -> Joined:
        """Take a free seat before the start (a rated table's only ``signed_in``)."""
        seating.checked_name(name, NAME_MAX, default="")  # its length, before any write
        token = new_token()
        taken: list[int] = []

        def decide(tx: TableChange) -> None:
            if tx.table.rated and not signed_in:
                raise profile_required()
            taken.append(seating.join(tx, name, seat, token))

        tx = await self.run(code, decide)
        return Joined(code=tx.table.code, token=token, seat=taken[-1], table=self.info_of(tx))

    async def change_seat(self, code: str, token: str | None, seat: object) -> TableInfo:
        tx = await self.run(code, lambda tx: seating.change_seat(tx, tx.authenticate(token), seat))
        return self.info_of(tx)

    async def kick(self, code: str, token: str | None, seat: object) -> TableInfo:
        tx = await self.run(code, lambda tx: seating.kick(tx, tx.authenticate(token), seat))
        return self.info_of(tx)

    # -- computer players --------------------------------------------------------------
    async def put_bot(self, code: str, token: str | None, seat: object, level: object) -> TableInfo:
        """The host seats a computer player in an empty seat, or changes its level."""
        tx = await self.run(
            code, lambda tx: bot_seats.put_bot(tx, tx.authenticate(token), seat, level)
        )
        return self.info_of(tx)

    async def remove_bot(self, code: str, token: str | None, seat: object) -> TableInfo:
        """The host removes the computer player in ``seat`` before the start."""
        tx = await self.run(code, lambda tx: bot_seats.remove_bot(tx, tx.authenticate(token), seat))
        return self.info_of(tx)

    async def practice(
        self,
        players: int,
        level: object,
        name: str,
        clock_preset: str = "none",
        creator: PracticeCreator | None = None,
    ) -> Joined:
        """A private table of ``players``: the caller at seat 0 (host), computer players
        of ``level`` in the other seats, the match started — one transaction.

        ``creator``: who asks, and how many of their practice tables may be waiting or
        in play at once; one more is refused with ``409 too_many_practice_tables``. (Two
        requests of one creator at the same instant may both pass the count:
        :mod:`app.tables.practice_cap`.)"""
        bot_level = bot_seats.level_of(level)
        person = seating.checked_name(name, NAME_MAX, default=seating.default_name(0))
        table = seating.new_table("Practice", players, False, person)
        table.clock = turn_clock.checked(self.clocks, clock_preset).preset
        if creator is not None:
            await practice_cap.check(self.store, creator)
            table.created_by = creator.key
        token = new_token()

        async def decide(tx: TableChange) -> None:
            bot_seats.seat_practice(tx, person, token, bot_level, self.new_seed)
            self.after_settled(tx)

        _, tx = await self.writer.create(table, decide, new_table_code)
        self.committed(tx)
        return Joined(code=tx.table.code, token=token, seat=0, table=self.info_of(tx))

    # -- matches and rounds ------------------------------------------------------------
    async def start(self, code: str, token: str | None) -> TableInfo:
        tx = await self.run(
            code, lambda tx: rounds.start(tx, tx.authenticate(token), self.new_seed)
        )
        return self.info_of(tx)

    async def rematch(self, code: str | int, token: str | None) -> TableInfo:
        """Vote for a rematch; when every seat agreed, a new match starts, same seats."""
        tx = await self.run(
            code, lambda tx: rounds.rematch_vote(tx, tx.authenticate(token), self.new_seed)
        )
        return self.info_of(tx)

    async def ready(self, table_id: int, token: str | None) -> None:
        """A seat is ready for the next round; dealt when every seat is ready."""
        await self.run(table_id, lambda tx: rounds.ready(tx, tx.authenticate(token), self.new_seed))

    async def advance_round(self, table_id: int, round_number: int) -> None:
        """The countdown: deal the next round if round ``round_number`` is still the
        settled one (a no-op if it was dealt already, here or by another process)."""

        def decide(tx: TableChange) -> None:
            if (
                rounds.waiting_for_deal(tx)
                and tx.match is not None
                and tx.match.round_number == round_number
            ):
                rounds.deal_next(tx, self.new_seed)

        await self.run(table_id, decide)

    async def close_abandoned(self, table_id: int, version: int) -> bool:
        """Close a table the sweep found abandoned (app/tables/sweep.py), if it is still
        at ``version``; whether this call closed it."""

        async def decide(tx: TableChange) -> None:
            sweep.close_abandoned(tx, version)

        _, tx = await self.writer.change(table_id, decide)
        return bool(tx.events)

    # -- chat --------------------------------------------------------------------------
    async def chat(self, table_id: int, token: str | None, text: object, quick: object) -> int:
        """Post a chat message: a seat's (token) to the table channel, a spectator's (no
        token) to the spectators' channel while the host allows it; the message's seq."""
        req = ChatRequest.parse(text, quick)
        tx = await self.run(
            table_id,
            lambda tx: chat.post(tx, tx.authenticate(token) if token else None, req),
        )
        return tx.table.seq

    async def spectator_chat(self, code_or_id: str | int, token: str | None, on: object) -> bool:
        """The host turns spectator chat on or off; the setting now."""
        tx = await self.run(
            code_or_id, lambda tx: chat.set_spectator_chat(tx, tx.authenticate(token), on)
        )
        return tx.table.spectator_chat

    async def close(self) -> None:
        """Cancel pending timers (shutdown), stop the bots' pool, close the store."""
        await self.timers.close()
        await self.bot_turns.shutdown()
        await self.store.close()

    # -- records -----------------------------------------------------------------------
    async def import_record(self, record: Record) -> str:
        """Check ``record`` (docs/record.md) and insert it as a finished table that holds
        its rounds as if played here (deal events with their seeds, moves, reveals), so
        it can be replayed and exported again; returns the new table's code. Nobody holds
        a seat token of an imported table. A record that fails the check is refused."""
        result = check(record)
        if not result.ok or result.match is None:
            raise TableError("invalid_record", str(result), 422)
        if not record.rounds:
            raise TableError("invalid_record", "a record without a finished round", 422)
        names = []
        for name in record.seats:
            try:
                names.append(clean_name(name, NAME_MAX))
            except ValueError:
                raise TableError("invalid_record", f"seat name {name!r}", 422) from None
        title = f"{record.table} match {record.match}"[:TABLE_NAME_MAX]
        table = seating.new_table(title, record.players, False, names[0])
        last = record.rounds[-1]

        async def decide(tx: TableChange) -> None:
            tx.table.status = TableStatus.FINISHED
            tx.table.match_number = record.match
            tx.table.commitment, tx.table.deal_seed = last.commitment, last.seed
            tx.table.resigned = record.resigned
            for seat, name in enumerate(names):
                tx.add_player(PlayerState(0, seat, name, token_hash(new_token())))
            for payload in events_of_record(record):
                mover = payload.get("seat") if payload["type"] == "move" else None
                tx.emit(payload["type"], payload, seat=mover)
            tx.match = result.match

        _, tx = await self.writer.create(table, decide, new_table_code)
        return tx.table.code


__all__ = ["Identity", "MoveResult", "TableService", "TableStatus"]
