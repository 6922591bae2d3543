"""A commit as delivery receives it: :class:`Committed`, immutable by contract (not a
frozen dataclass: compiled by mypyc, a frozen one costs a generic attribute set per
field at every commit; nobody assigns to one).

The writer (:mod:`app.tables.writer`) makes one right after each commit of this process,
while the table's state is the committed one: copies of the table's columns and players,
the events, and the :class:`~app.realtime.projection.Projection` of the match — never
the live match, which the writer goes on to change for the next move (and keeps changed
if that move's write is refused). Whatever delivery does with it later, and however
long it waits for a lock, it cannot see a state newer than the commit it delivers.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.db.rows import EventRecord, PlayerState, TableState
from app.realtime.projection import Projection


@dataclass(slots=True)
class Committed:
    """One committed change: the table after it (a copy), its players (copies), its
    events in seq order, and the projection of its match at the last event's seq
    (``None`` when no socket here follows the table: nothing was projected)."""

    table: TableState
    players: tuple[PlayerState, ...]
    events: tuple[EventRecord, ...]
    views: Projection | None

    @property
    def seq(self) -> int:
        """The seq of the last event: the state this commit leaves."""
        return self.events[-1].seq
