"""When a seat's binding to a profile holds (docs/profiles.md, "Seats bound to a
profile"): while the seat still has the token it was bound with. A device link claimed
by a guest, a leave or a replacement gives the seat a new token, and the binding stops
holding without any write to ``profile_seats``. Every read of bound seats joins
``players`` on :func:`binding_holds`."""

from __future__ import annotations

from sqlalchemy import ColumnElement

from app.db.core_store import table_of
from app.db.models import PlayerRow, ProfileSeatRow

#: ``profile_seats`` (a seat taken signed in) and ``players`` (the seats as they are)
SEAT, P = table_of(ProfileSeatRow), table_of(PlayerRow)


def binding_holds() -> ColumnElement[bool]:
    """The join condition of a ``profile_seats`` row and the ``players`` row of the same
    seat that still has the token it was bound with."""
    return (
        (P.c.table_id == SEAT.c.table_id)
        & (P.c.seat == SEAT.c.seat)
        & (P.c.token_hash == SEAT.c.token_hash)
    )
