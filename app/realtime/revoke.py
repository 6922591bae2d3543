"""Sockets whose seat credential was revoked: a seat moved to another device, or its
person left it (docs/protocol.md, close codes 4410 and 4411).

The hub asks after any delivery of ``seat_moved`` or ``seat_left`` (from this process or
another one) and on every snapshot: a socket that authenticated with a token that is no
longer its player's is closed — 4411 if a computer player holds the seat now (its person
left), else 4410 (the seat moved to another device). A removed player's socket is not
revoked here: it follows the seat as a spectator (the hub's ``_follow_player``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from app.db.rows import PlayerState
from app.realtime.connection import Connection

#: close code: this seat moved to another device (its old credential is revoked)
CLOSE_SEAT_MOVED = 4410
#: close code: you left this seat (a computer player plays it now)
CLOSE_SEAT_LEFT = 4411
#: events after which some socket's credential may be revoked
REVOKING_KINDS = frozenset(("seat_moved", "seat_left"))

MOVED_REASON = "this seat moved to another device"
LEFT_REASON = "you left this seat; a computer player plays it now"


def close_revoked(conns: Iterable[Connection], players: Sequence[PlayerState]) -> list[Connection]:
    """Close (after their queued frames) the sockets in ``conns`` holding a revoked seat
    token; returns them, for the hub to drop."""
    by_id = {p.id: p for p in players}
    closed: list[Connection] = []
    for conn in conns:
        if conn.player_id is None or conn.token is None or conn.closing is not None:
            continue
        player = by_id.get(conn.player_id)
        if player is None or player.token_hash == conn.token_digest():
            continue
        if player.bot is not None:
            conn.close_after(CLOSE_SEAT_LEFT, LEFT_REASON)
        else:
            conn.close_after(CLOSE_SEAT_MOVED, MOVED_REASON)
        closed.append(conn)
    return closed
