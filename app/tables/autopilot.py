"""The autopilot (docs/protocol.md, "Clock and autopilot"): a computer player that plays
for an absent person — when the seat's turn clock runs out, or, at a table without a
clock, when the seat to move has been disconnected for the grace period. After
``handover_moves`` autopilot turns in a row the seat goes on autopilot (event
``autopilot`` on) and is played like a bot's, until its player comes back (a socket of
the seat opens, or the player sends a move: event ``autopilot`` off).

The autopilot covers an absent player, not an empty table: when every person seated at
a live table has had no socket on any process for the grace (``grace_seconds``, the
same ``FIVEUP_DISCONNECT_GRACE_SECONDS``), the table is *stopped*
(:meth:`AutopilotRules.stopped`): neither the autopilot nor its computer players play
there until a person's socket opens again. Computer players are not persons.

This module decides: when the autopilot is due for the seat to move
(:meth:`AutopilotRules.wait`), what an autopilot move changes besides the move itself
(:func:`count_turn`), and the take-back (:func:`take_back`). Its moves are scheduled and
thought like a bot's (:mod:`app.tables.bot_turns`), sent with the table's ``seq`` and
``move_id = auto-<seq>``: played exactly once however many processes try.

>>> rules = AutopilotRules(level="medium", handover_moves=3, grace_seconds=60.0)
>>> rules.grace_wait(absent_since=1000.0, now=1030.0), rules.grace_wait(None, now=1.0)
(30.0, None)
>>> rules.grace_wait(absent_since=1000.0, now=2000.0)
0.0
>>> rules.empty_for([1000.0, 1050.0], now=1100.0), rules.empty_for([1000.0, None], now=1.0)
(50.0, None)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from app.bots import Level
from app.db.rows import PlayerState, TableStatus
from app.tables.change import TableChange

#: the statuses of a table that is being played or waits for players
LIVE = (TableStatus.WAITING, TableStatus.PLAYING)

#: (table id, seat) -> UNIX time since the seat has had no socket on any process, or
#: None while it has one (the hub's ``absent_since``)
AbsentSince = Callable[[int, int], float | None]


def person_to_move(tx: TableChange) -> PlayerState | None:
    """The person (not a bot) whose turn it is in a match in play, if any."""
    m = tx.match
    if tx.table.status != TableStatus.PLAYING or m is None or m.round_over or m.turn is None:
        return None
    player = tx.player_at(m.turn)
    return player if player is not None and player.bot is None else None


@dataclass(frozen=True, slots=True)
class AutopilotRules:
    """The autopilot's settings (docs/configuration.md) and the hub's absence clock."""

    level: Level = "medium"
    handover_moves: int = 3
    grace_seconds: float = 60.0
    absent_since: AbsentSince | None = None

    def grace_wait(self, absent_since: float | None, now: float) -> float | None:
        """Seconds until a seat absent since ``absent_since`` has used up its grace."""
        if absent_since is None:
            return None
        return max(0.0, absent_since + self.grace_seconds - now)

    def empty_for(self, absences: list[float | None], now: float) -> float | None:
        """Seconds since the last of the persons whose seats have no socket left (each
        one's ``absent_since``); None while one of them has a socket."""
        if any(since is None for since in absences):
            return None
        return max(0.0, now - max((s for s in absences if s is not None), default=0.0))

    def stopped(self, tx: TableChange, now: float | None = None) -> bool:
        """Whether nobody plays at this table now: it is live and no person seated at it
        has had a socket, on any process, for ``grace_seconds`` (UNIX time ``now``, read
        here when not given). Without the hub's absence clock, never."""
        if self.absent_since is None or tx.table.status not in LIVE:
            return False
        absences = [self.absent_since(tx.table.id, p.seat) for p in tx.players if p.bot is None]
        empty = self.empty_for(absences, time.time() if now is None else now)
        return empty is not None and empty >= self.grace_seconds

    def wait(self, tx: TableChange, now: datetime | None = None) -> float | None:
        """Seconds until the autopilot plays for the seat to move (0: due now; None: not
        as things stand). A seat on autopilot is due at once (the caller adds the bots'
        pause); a clock table at its stored deadline; a table without a clock when the
        seat's player has been disconnected for the grace period. ``now``: the time it
        is (read here when not given, and only for a table with a deadline)."""
        player = person_to_move(tx)
        if player is None:
            return None
        if player.autopilot:
            return 0.0
        if tx.table.turn_deadline is not None:
            now = now or datetime.now(UTC)
            return max(0.0, (tx.table.turn_deadline - now).total_seconds())
        if tx.table.clock == "none" and self.absent_since is not None:
            since = self.absent_since(tx.table.id, player.seat)
            return self.grace_wait(since, time.time())
        return None


def count_turn(tx: TableChange, player: PlayerState, handover_moves: int) -> None:
    """After an autopilot move for ``player``: when the seat's turn has passed, one more
    autopilot turn in a row; at ``handover_moves`` the seat goes on autopilot."""
    m = tx.match
    if m is not None and not m.round_over and m.turn == player.seat:
        return  # it drew: the same turn goes on
    player.autopilot_moves += 1
    if not player.autopilot and player.autopilot_moves >= handover_moves:
        _switch(tx, player, on=True)
    tx.move_player(player, player.seat)  # the store rewrites the player's row


def take_back(tx: TableChange, player: PlayerState) -> None:
    """The player is back (a socket of the seat, or a move of theirs): the seat leaves
    the autopilot (event ``autopilot`` off) and its count of autopilot turns restarts."""
    if not player.autopilot and player.autopilot_moves == 0:
        return
    if player.autopilot:
        _switch(tx, player, on=False)
    player.autopilot_moves = 0
    tx.move_player(player, player.seat)


def _switch(tx: TableChange, player: PlayerState, *, on: bool) -> None:
    """The seat goes on (or leaves) the autopilot: event ``autopilot`` with ``on``."""
    player.autopilot = on
    tx.emit(
        "autopilot",
        {"type": "autopilot", "seat": player.seat, "on": on},
        seat=player.seat,
        player=player,
    )
