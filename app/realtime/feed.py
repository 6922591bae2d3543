"""What this process has sent on one table: its :class:`Feed` (the hub keeps one per
table with a socket here)."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.realtime.connection import Connection
from app.realtime.delivery import Sent
from app.types import Json


@dataclass(eq=False)
class Feed:
    """What this process has sent on one table."""

    table_id: int
    conns: set[Connection] = field(default_factory=set)
    seq: int = -1
    #: the views sent: the public fields and each recipient class's own
    sent: Sent = field(default_factory=Sent)
    info: Json | None = None
    #: the ``description`` frame at a seq, made from the public fields sent then
    #: (``(seq, sent.public, text)``; made when first asked for)
    described: tuple[int, Json | None, bytes] | None = None
    presence: Json | None = None  # the last presence frame sent
    #: the seats taken and which of them are persons, at the last delivery: presence
    #: is looked at again only when that or the sockets' seats change
    roster: tuple[tuple[int, bool], ...] | None = None
    #: what the seats of ``info`` show (``table_info.seats_key``; None: not known)
    seats_key: object = None
