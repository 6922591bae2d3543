"""One change to one table, being decided: the table's columns, its players and its match
as read, what the decision adds (events, players), and helpers the commands share.

A command (seating, play, rounds) receives a :class:`TableChange`, checks and mutates it,
and :class:`app.tables.writer.Writer` writes the result as one transaction.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from app.core.security import hash_token
from app.db.rows import Change, EventRecord, PlayerState, TableState
from app.engine import Match
from app.tables.errors import TableError, unauthorized
from app.tables.results import match_result
from app.types import Json

#: the seat token's hash, remembered for the tokens of open sockets (one SHA-256 per
#: move saved; the tokens are in memory anyway, in the connections)
token_hash = functools.lru_cache(maxsize=16384)(hash_token)


@dataclass
class TableChange:
    """A change being built: mutate ``table``/``players``/``match``, then :meth:`emit`."""

    table: TableState
    players: list[PlayerState]
    match: Match | None
    old_version: int
    events: list[EventRecord] = field(default_factory=list)
    added: list[PlayerState] = field(default_factory=list)
    moved: list[PlayerState] = field(default_factory=list)
    removed: list[PlayerState] = field(default_factory=list)
    #: finished rounds in the match as read (the history is written only when it grows)
    history_len: int = 0
    #: whether the match as read was over (or there was none): a change that finds it
    #: running and leaves it over ends it, and carries its result
    over_at_start: bool = True

    def emit(
        self,
        kind: str,
        payload: Json,
        *,
        seat: int | None = None,
        player: PlayerState | None = None,
        move_id: str | None = None,
    ) -> EventRecord:
        """Record one event with the next seq."""
        self.table.seq += 1
        event = EventRecord(
            seq=self.table.seq,
            kind=kind,
            payload=payload,
            seat=seat,
            player=player,
            move_id=move_id,
            match_number=self.table.match_number,
        )
        self.events.append(event)
        return event

    def player_at(self, seat: int) -> PlayerState | None:
        return next((p for p in self.players if p.seat == seat), None)

    def authenticate(self, token: str | None) -> PlayerState:
        """The player holding ``token`` at this table, else ``unauthorized``."""
        if not token:
            raise unauthorized()
        wanted = token_hash(token)
        player = next((p for p in self.players if p.token_hash == wanted), None)
        if player is None:
            raise unauthorized()
        return player

    def seat_number(self, seat: object) -> int:
        """A seat number valid at this table (R2: seats 0..players-1), else ``bad_seat``."""
        if (
            not isinstance(seat, int)
            or isinstance(seat, bool)
            or not 0 <= seat < self.table.players
        ):
            raise TableError("bad_seat", f"this table has seats 0..{self.table.players - 1}", 409)
        return seat

    def add_player(self, player: PlayerState) -> None:
        self.players.append(player)
        self.added.append(player)

    def move_player(self, player: PlayerState, seat: int) -> None:
        player.seat = seat
        if player not in self.added and player not in self.moved:
            self.moved.append(player)

    def remove_player(self, player: PlayerState) -> None:
        self.players.remove(player)
        if player in self.added:
            self.added.remove(player)
        else:
            self.removed.append(player)
        if player in self.moved:
            self.moved.remove(player)

    def to_write(self) -> Change:
        """What the store writes (the match is serialised here, once per change; its
        finished rounds only when they changed)."""
        history: list[Any] | None = None
        result = None
        if self.match is None:
            self.table.state = None
        else:
            state = self.match.to_dict()
            finished = state.pop("history")
            self.table.state = state
            if len(finished) != self.history_len:
                history = finished
            if self.match.over and not self.over_at_start:
                result = match_result(self.table, self.players, self.match)
        return Change(
            self.table,
            self.old_version,
            self.events,
            self.added,
            self.moved,
            self.removed,
            history,
            result,
        )
