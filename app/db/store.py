"""The store contract: the only way the application reads or writes the database.

One protocol, two implementations — :class:`app.db.pg_store.PgStore` (PostgreSQL over
psycopg, no ORM) and :class:`app.db.sqlite_store.SqliteStore` (SQLite through SQLAlchemy
Core). Only the stores speak SQL, and database errors are translated into the exceptions
below here, once:

- :class:`MoveIdClash` — the unique ``(table_id, move_id)`` key refused an event (a
  retried move); nothing was written.
- :class:`CodeClash` — a new table's code is taken; draw another.
- :class:`Busy` — SQLite's single writer was busy; treated as a conflict.
- :class:`Unavailable` — the database could not be reached or failed.

Every change is one :class:`~app.db.rows.Change` written by :meth:`Store.write` in one
transaction with an optimistic version check: ``UPDATE game_tables … WHERE id = :id AND
version = :old`` (or the insert of a new table), the players it adds, moves or removes,
its event rows keyed ``(table_id, seq)``, and — on PostgreSQL — the NOTIFY that other
processes deliver from, sent only on commit.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import Protocol

from app.db.rows import (
    Catchup,
    Change,
    EventRecord,
    IdleTable,
    LobbyRow,
    PlayerState,
    PriorMove,
    TableState,
)


class StoreError(Exception):
    """Base of the store's errors."""


class MoveIdClash(StoreError):
    """The unique ``(table_id, move_id)`` key refused an event: a retried move."""


class CodeClash(StoreError):
    """A new table's code is already taken."""


class Busy(StoreError):
    """SQLite's single writer was busy: treated as a conflict."""


class Unavailable(StoreError):
    """The database could not be reached or failed (not a conflict)."""


class Store(Protocol):
    """What the service, the hub and the API need from the database."""

    async def load(self, table_id: int) -> tuple[TableState, list[PlayerState]] | None:
        """A table's columns and players (None if there is no such table)."""
        ...

    async def table_id(self, code: str) -> int | None:
        """The id of the table with this (normalised) code."""
        ...

    async def write(self, change: Change) -> bool:
        """Write ``change`` in one transaction; False if the table's version moved on
        (then nothing was written). Assigns ids to a new table and new players."""
        ...

    async def prior_move(self, table_id: int, move_id: str) -> PriorMove | None:
        """The committed event with this ``move_id`` on this table, if any."""
        ...

    async def player_by_token(self, table_id: int, token_hash: str) -> PlayerState | None:
        """The player holding the token with this hash at this table."""
        ...

    async def catchup(self, table_id: int, since: int, limit: int) -> Catchup | None:
        """The table now, with its events after ``since`` when there are at most
        ``limit`` of them (else none), read in one consistent snapshot."""
        ...

    async def match_events(self, table_id: int, match_number: int) -> list[EventRecord]:
        """Every stored event of one match at a table, in seq order (unprojected: the
        records are built from them, app/records/stored.py)."""
        ...

    async def recent_events(self, table_id: int, kind: str, limit: int) -> list[EventRecord]:
        """The table's last ``limit`` events of this kind, oldest first (the recent chat
        a snapshot carries)."""
        ...

    async def lobby(
        self, limit: int, *, finished: bool = False, among: Collection[int] | None = None
    ) -> list[LobbyRow]:
        """Public tables waiting or in play (``finished``: that have a finished match —
        the current one, or an earlier one at a table that played on), newest first;
        with ``among``, only tables whose id is in it."""
        ...

    async def round_over_tables(self) -> list[TableState]:
        """Tables in play whose settled round waits for the timed deal."""
        ...

    async def turn_tables(
        self, overdue_before: datetime | None = None
    ) -> list[tuple[TableState, list[PlayerState]]]:
        """Tables in play with a computer player, a turn clock or a seat on autopilot,
        with their players (the finished rounds not read): whose bot turns and autopilot
        deadlines a (re)started process resumes. ``overdue_before``: only those whose
        turn deadline passed before then (a periodic scan for turns nobody played)."""
        ...

    async def idle_tables(self, idle_for: float, limit: int) -> list[IdleTable]:
        """Tables waiting or in play that nothing has changed for at least ``idle_for``
        seconds, the longest idle first (at most ``limit``)."""
        ...

    async def live_tables_created_by(self, created_by: str) -> int:
        """How many tables waiting or in play were created by ``created_by`` (a practice
        table's ``TableState.created_by``)."""
        ...

    async def table_seqs(self, table_ids: list[int]) -> dict[int, int]:
        """The current seq of each of these tables."""
        ...

    async def ping(self) -> None:
        """Raise :class:`Unavailable` unless the database answers."""
        ...

    async def close(self) -> None:
        """Close the store's connections."""
        ...
