"""The store's plain records: a table's columns, its players, its events, and one change.

These are what the table service reads, changes in memory and hands back to the store to
write (:class:`Change`). They hold hidden state (the match snapshot, token hashes): they
never leave the server unprojected.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from app.db.result_rows import MatchResult
from app.engine import Match
from app.types import Json


def _utc(at: datetime | None) -> datetime | None:
    """Timestamps as aware UTC (SQLite gives them back naive)."""
    return at.replace(tzinfo=UTC) if at is not None and at.tzinfo is None else at


#: the players columns every store reads, in :meth:`PlayerState.from_row` order
PLAYER_COLUMNS = (
    "id",
    "seat",
    "name",
    "token_hash",
    "bot",
    "autopilot",
    "autopilot_moves",
    "link_hash",
)
#: the column after the table's columns in a row that carries more (its players, counts)
AFTER_TABLE = 24


class TableStatus:
    """Table status values (stored as strings)."""

    WAITING = "waiting"
    PLAYING = "playing"
    FINISHED = "finished"
    CLOSED = "closed"


@dataclass(slots=True)
class TableState:
    """A table's columns. ``id`` is 0 until the table is first written."""

    id: int
    code: str
    name: str
    players: int
    public: bool
    status: str
    host_seat: int | None
    version: int
    seq: int
    match_number: int
    state: Json | None
    rematch_votes: list[int]
    ready: list[int]
    round_over_at: datetime | None
    created_at: datetime | None = None
    #: the match's finished rounds, kept apart from ``state`` (written only when a round
    #: ends, not with every move); None when not read
    history: list[Any] | None = None
    #: the running (or last dealt) round's deal commitment: public (docs/fairness.md)
    commitment: str | None = None
    #: that round's secret seed (hex): read only by the write path, never sent until the
    #: round is settled (then by the ``revealed`` event); None when not read
    deal_seed: str | None = None
    #: whether spectators may chat (the host turns it off and on; docs/protocol.md)
    spectator_chat: bool = True
    #: the turn clock's preset: ``none``, ``relaxed`` or ``fast`` (docs/protocol.md, Clock)
    clock: str = "none"
    #: when the seat to move runs out of time (a clock table in play), else None
    turn_deadline: datetime | None = None
    #: each seat's remaining time bank in the round, in seconds (presets with a bank)
    banks: list[float] | None = None
    #: the seat that resigned the current match, else None
    resigned: int | None = None
    #: a practice table's creator: the SHA-256 of its client address, written by the
    #: insert only (the cap on live practice tables per address); None when not read
    created_by: str | None = None
    #: a rated table (chosen at creation; docs/ratings.md): only signed-in players and
    #: computer players sit there, and its matches move their ratings
    rated: bool = False

    @classmethod
    def from_row(cls, row: Any) -> TableState:
        """A ``game_tables`` row, columns in the stores' order (``TABLE_COLS`` in
        app/db/pg_sql.py)."""
        return cls(
            id=row[0],
            code=row[1],
            name=row[2],
            players=row[3],
            public=bool(row[4]),
            status=row[5],
            host_seat=row[6],
            version=row[7],
            seq=row[8],
            match_number=row[9],
            state=row[10],
            rematch_votes=list(row[11] or []),
            ready=list(row[12] or []),
            round_over_at=_utc(row[13]),
            created_at=_utc(row[14]),
            history=row[15],
            commitment=row[16],
            deal_seed=row[17],
            spectator_chat=bool(row[18]),
            clock=row[19],
            turn_deadline=_utc(row[20]),
            banks=None if row[21] is None else [float(b) for b in row[21]],
            resigned=row[22],
            rated=bool(row[23]),
        )

    def columns(self) -> dict[str, Any]:
        """The columns every change writes (not the finished rounds, written only when
        they change), by name: the one list each store's write uses."""
        return {
            "seq": self.seq,
            "status": self.status,
            "host_seat": self.host_seat,
            "match_number": self.match_number,
            "state": self.state,
            "rematch_votes": self.rematch_votes,
            "ready": self.ready,
            "round_over_at": self.round_over_at,
            "commitment": self.commitment,
            "deal_seed": self.deal_seed,
            "spectator_chat": self.spectator_chat,
            "turn_deadline": self.turn_deadline,
            "banks": self.banks,
            "resigned": self.resigned,
        }

    def copied(self) -> TableState:
        """A shallow copy (``copy.copy``'s, without its generic reconstruction: the
        writer copies the table at every commit it hands to delivery)."""
        return TableState(
            self.id,
            self.code,
            self.name,
            self.players,
            self.public,
            self.status,
            self.host_seat,
            self.version,
            self.seq,
            self.match_number,
            self.state,
            self.rematch_votes,
            self.ready,
            self.round_over_at,
            self.created_at,
            self.history,
            self.commitment,
            self.deal_seed,
            self.spectator_chat,
            self.clock,
            self.turn_deadline,
            self.banks,
            self.resigned,
            self.created_by,
            self.rated,
        )

    def match(self) -> Match | None:
        """The match as stored (its finished rounds included when they were read)."""
        if self.state is None:
            return None
        return Match.from_dict({**self.state, "history": self.history or []})


@dataclass(slots=True)
class PlayerState:
    """A seated player. ``id`` is 0 until the player is first written. ``bot`` is a
    computer player's level (docs/bots.md), None for a person; ``autopilot`` says a
    person's seat is played by the autopilot until they come back, ``autopilot_moves``
    counts its moves in a row; ``link_hash`` is the hash of an unused device link."""

    id: int
    seat: int
    name: str
    token_hash: str
    bot: str | None = None
    autopilot: bool = False
    autopilot_moves: int = 0
    link_hash: str | None = None

    def columns(self) -> dict[str, Any]:
        """The columns a player's write sets, by name (its id and table aside)."""
        return {
            "seat": self.seat,
            "name": self.name,
            "token_hash": self.token_hash,
            "bot": self.bot,
            "autopilot": self.autopilot,
            "autopilot_moves": self.autopilot_moves,
            "link_hash": self.link_hash,
        }

    def copied(self) -> PlayerState:
        """A shallow copy (as :meth:`TableState.copied`)."""
        return PlayerState(
            self.id,
            self.seat,
            self.name,
            self.token_hash,
            self.bot,
            self.autopilot,
            self.autopilot_moves,
            self.link_hash,
        )

    @classmethod
    def from_row(cls, row: Any) -> PlayerState:
        """A ``players`` row in :data:`PLAYER_COLUMNS` order."""
        return cls(row[0], row[1], row[2], row[3], row[4], bool(row[5]), int(row[6]), row[7])


@dataclass(slots=True)
class EventRecord:
    """One committed (or about to be committed) table event.

    ``payload`` is the full, unprojected event (an engine event or a table event); it
    may name hidden tiles (a draw): it reaches clients only through the projection.
    ``player`` links the event to the player who caused it (its id may be assigned by the
    write that inserts that player).
    """

    seq: int
    kind: str
    payload: Json
    seat: int | None = None
    player: PlayerState | None = None
    move_id: str | None = None
    match_number: int = 0
    player_id: int | None = None

    @classmethod
    def from_row(cls, row: Any) -> EventRecord:
        """A ``table_events`` row: seq, kind, seat, player_id, move_id, match_number,
        payload."""
        return cls(
            seq=row[0],
            kind=row[1],
            seat=row[2],
            player_id=row[3],
            move_id=row[4],
            match_number=row[5],
            payload=row[6],
        )

    def row(self, table_id: int) -> dict[str, Any]:
        """The ``table_events`` row of this event (``created_at`` aside), by column."""
        return {
            "table_id": table_id,
            "seq": self.seq,
            "kind": self.kind,
            "seat": self.seat,
            "player_id": self.resolved_player_id(),
            "move_id": self.move_id,
            "match_number": self.match_number,
            "payload": self.payload,
        }

    def resolved_player_id(self) -> int | None:
        """The player's id as written (after the write assigned new players' ids)."""
        return self.player.id if self.player is not None else self.player_id


@dataclass(slots=True)
class PriorMove:
    """A committed move found by its ``move_id`` (for retries)."""

    seq: int
    seat: int | None
    move: str | None


@dataclass(slots=True)
class Change:
    """What one transaction writes: the table's new columns (with the version it was read
    at), players added, moved or removed, the new events in seq order, and the match's
    finished rounds if they changed.

    The write succeeds only if the table is still at ``old_version`` (else nothing is
    written); a new table (``table.id == 0``) is inserted instead.
    """

    table: TableState
    old_version: int
    events: list[EventRecord]
    added: list[PlayerState] = field(default_factory=list)
    moved: list[PlayerState] = field(default_factory=list)
    removed: list[PlayerState] = field(default_factory=list)
    #: the match's finished rounds when they changed (a round ended, a new match), else
    #: None: most moves write only the current round's state
    history: list[Any] | None = None
    #: the match's result when this change ends it: written in the same transaction,
    #: with the ratings of a rated table (docs/ratings.md)
    result: MatchResult | None = None

    @property
    def seating(self) -> bool:
        """Whether the write takes more than one statement: players change, a new table,
        or a match's result."""
        return (
            bool(self.added or self.moved or self.removed)
            or self.table.id == 0
            or self.result is not None
        )


@dataclass(slots=True)
class LobbyRow:
    """One public table for the lobby (what the lobby query returns)."""

    table: TableState
    seats_taken: int
    #: seats held by computer players
    bots: int = 0


@dataclass(slots=True)
class IdleTable:
    """A live table (waiting or in play) that nothing has changed for a while: what the
    sweep of abandoned tables looks at (app/tables/sweep.py)."""

    table_id: int
    #: the version it was read at: closing it is decided only if it is still this one
    version: int
    #: seconds since its last change (``updated_at``), by the database's clock
    idle_seconds: float
    #: the seats persons hold (computer players' seats left out)
    person_seats: list[int]


@dataclass(slots=True)
class Catchup:
    """A table's current columns and players, with the events after some seq (read in one
    consistent snapshot): what delivery and resync need."""

    table: TableState
    players: list[PlayerState]
    events: list[EventRecord]
