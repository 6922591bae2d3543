"""The one seam between deciding and delivering: what the tables layer needs of
delivery (:class:`Delivery`), which the hub (:class:`app.realtime.hub.Hub`) provides.

The tables layer decides and commits; it tells delivery about each commit
(``committed``, with an immutable :class:`~app.realtime.committed.Committed`) and about
each write in flight (``expecting``), and asks it who is here (presence: the autopilot's
grace, the lobby, table info). Delivery tells the tables layer when a seat's presence
changes through ``presence_changes`` (the autopilot's grace and take-back subscribe
there). Nothing else crosses: no callbacks set after construction.
"""

from __future__ import annotations

from typing import Protocol

from app.realtime.committed import Committed
from app.realtime.presence import SeatPresence
from app.realtime.presence_changes import PresenceChanges


class Delivery(Protocol):
    """Delivery as the tables layer sees it."""

    #: told a table id whenever a seat's presence there changes (on any process)
    presence_changes: PresenceChanges

    def watches(self, table_id: int) -> bool:
        """Whether a socket here follows the table (only then is a commit projected)."""
        ...

    async def committed(self, c: Committed) -> None:
        """Deliver a commit of this process (never raises; awaited under the table's
        write lock, so deliveries of a table keep their order)."""
        ...

    def expecting(self, table_id: int, seq: int | None) -> None:
        """``(table_id, seq)`` just before this process writes a change ending at
        ``seq``; ``(table_id, None)`` once that write is over (delivered, refused or
        failed): a NOTIFY of that seq is then known to be this process's own."""
        ...

    def connected_seats(self, table_id: int) -> list[int]:
        """The seats with a socket on some process."""
        ...

    def spectator_count(self, table_id: int) -> int:
        """The spectators' sockets on every process."""
        ...

    def absent_since(self, table_id: int, seat: int) -> float | None:
        """Since when (UNIX time) the seat has had no socket anywhere (``None``: it has
        one)."""
        ...

    def seat_presence(self, table_id: int, players: int) -> dict[int, SeatPresence]:
        """Each seat's presence state and since when (for table info)."""
        ...

    def tables_with_people(self) -> set[int]:
        """The tables where a person has a socket on some process."""
        ...


class NoDelivery:
    """Delivery for a service with no sockets (the command line, some tests): every
    commit goes nowhere, nobody is present."""

    def __init__(self) -> None:
        self.presence_changes = PresenceChanges()

    def watches(self, table_id: int) -> bool:
        return False

    async def committed(self, c: Committed) -> None:
        return None

    def expecting(self, table_id: int, seq: int | None) -> None:
        return None

    def connected_seats(self, table_id: int) -> list[int]:
        return []

    def spectator_count(self, table_id: int) -> int:
        return 0

    def absent_since(self, table_id: int, seat: int) -> float | None:
        return None

    def seat_presence(self, table_id: int, players: int) -> dict[int, SeatPresence]:
        return {}

    def tables_with_people(self) -> set[int]:
        return set()
