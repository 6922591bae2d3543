"""The turn clock (docs/protocol.md, "Clock and autopilot"): a table's preset and its
numbers, and the deadline and banks that the write path stores with every change that
gives the seat to move a new move to make.

- Each move of the seat to move gets ``move_seconds``; time beyond that comes out of the
  seat's bank (``fast``: ``bank_seconds`` per round, refilled at each deal). The
  deadline is ``start + move_seconds + bank[seat]``.
- When the seat moves, what it used beyond ``move_seconds`` is taken from its bank:
  the bank left is ``deadline - now``, between 0 and the bank it had.
- Only moves and deals touch the clock; chat, presence, votes do not. Between rounds,
  before and after a match the deadline is ``None``.

Pure functions of stored state and ``now``, so every process derives the same deadline.

>>> presets = Presets(relaxed_move=90, fast_move=20, fast_bank=60)
>>> presets.of("fast"), presets.of("none")
(Clock(preset='fast', move_seconds=20.0, bank_seconds=60.0), Clock(preset='none', move_seconds=None, bank_seconds=None))
>>> checked(presets, "sudden")
Traceback (most recent call last):
...
app.tables.errors.TableError: clock is one of none, relaxed, fast
>>> t0 = datetime(2026, 11, 30, 12, 0, 0, tzinfo=UTC)
>>> bank_left(t0 + timedelta(seconds=80), 60.0, now=t0)  # 20 s of move time unused
60.0
>>> bank_left(t0 + timedelta(seconds=45), 60.0, now=t0)  # 15 s over the move time
45.0
>>> bank_left(t0, 60.0, now=t0 + timedelta(seconds=3))  # ran out
0.0
>>> deadline(t0, presets.of("fast"), 12.5) == t0 + timedelta(seconds=32.5)
True
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from app.core.clock_presets import PRESETS, Clock, Presets, UnknownClock
from app.db.rows import TableStatus
from app.tables.change import TableChange
from app.tables.errors import TableError
from app.tables.rounds import DEAL_KINDS


def checked(presets: Presets, preset: object) -> Clock:
    """The clock of a requested ``preset``, else ``bad_clock`` (400)."""
    try:
        return presets.of(preset)
    except UnknownClock:
        raise TableError("bad_clock", f"clock is one of {', '.join(PRESETS)}", 400) from None


def bank_left(turn_deadline: datetime, bank: float, *, now: datetime) -> float:
    """The bank a seat keeps after moving at ``now`` (its deadline was its move time
    plus ``bank``)."""
    return round(max(0.0, min(bank, (turn_deadline - now).total_seconds())), 3)


def deadline(start: datetime, clock: Clock, bank: float) -> datetime:
    """When a move started at ``start`` runs out of time."""
    return start + timedelta(seconds=(clock.move_seconds or 0.0) + bank)


def settle(
    tx: TableChange, clock: Clock, now: datetime | None = None, *, at_once: bool = False
) -> None:
    """Set the table's ``turn_deadline`` and ``banks`` for the state after this change
    (called by the write path for every change with events). ``now``: the time of the
    change (read here when not given, and only for a table with a clock). ``at_once``:
    the change was an autopilot move and the same seat is still to move (it drew): its
    next move is due now."""
    table, m = tx.table, tx.match
    if clock.move_seconds is None:
        table.turn_deadline, table.banks = None, None
        return
    if now is None:
        now = now_utc()
    kinds = [e.kind for e in tx.events]
    dealt = any(k in DEAL_KINDS for k in kinds)
    moved = [e for e in tx.events if e.kind == "move"]
    if not dealt and not moved:
        if table.status != TableStatus.PLAYING:
            table.turn_deadline = None  # a resignation, a closed table
        return
    banks = list(table.banks or [])
    if dealt or len(banks) != table.players:
        banks = [clock.bank_seconds or 0.0] * table.players
    elif table.turn_deadline is not None and moved[0].seat is not None:
        mover = moved[0].seat
        banks[mover] = bank_left(table.turn_deadline, banks[mover], now=now)
    table.banks = banks if clock.bank_seconds is not None else None
    if table.status != TableStatus.PLAYING or m is None or m.round_over or m.turn is None:
        table.turn_deadline = None
        return
    if at_once and moved and moved[-1].seat == m.turn:
        table.turn_deadline = now
        return
    table.turn_deadline = deadline(now, clock, banks[m.turn] if clock.bank_seconds else 0.0)


def due(tx: TableChange, now: datetime) -> bool:
    """Whether the seat to move has run out of time."""
    at = tx.table.turn_deadline
    return at is not None and now >= at


def now_utc() -> datetime:
    return datetime.now(UTC)
