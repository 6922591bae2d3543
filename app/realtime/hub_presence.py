"""The hub's side of presence: which seats and spectators have a socket here, what the
other processes reported (:mod:`app.realtime.presence`), and the ``presence`` frames
that tell a table's sockets when that changes. Mixed into :class:`app.realtime.hub.Hub`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from app.engine import Match
from app.realtime.connection import Connection
from app.realtime.frames import Json, encode
from app.realtime.presence import RemotePresence, encode_report
from app.realtime.presence import decode as decode_presence

Recipient = int | None


@dataclass(eq=False)
class Feed:
    """What this process has sent on one table."""

    table_id: int
    conns: set[Connection] = field(default_factory=set)
    seq: int = -1
    views: dict[Recipient, Json | None] = field(default_factory=dict)
    info: Json | None = None
    match: Match | None = None
    presence: tuple[list[int], int] | None = None  # the connected seats, spectators last sent


class PresenceMixin:
    """Presence for the hub's feeds (needs ``feeds``, ``remote`` and ``publish``)."""

    feeds: dict[int, Feed]
    remote: RemotePresence | None
    publish: Callable[[str], None] | None

    def local_seats(self, table_id: int) -> set[int]:
        """Seats with at least one open socket on this process."""
        feed = self.feeds.get(table_id)
        if feed is None:
            return set()
        return {c.seat for c in feed.conns if c.seat is not None}

    def local_presence(self, table_id: int) -> tuple[set[int], int]:
        """Seats with a socket on this process, and its spectator sockets, at a table."""
        feed = self.feeds.get(table_id)
        if feed is None:
            return set(), 0
        seats = {c.seat for c in feed.conns if c.seat is not None}
        return seats, sum(1 for c in feed.conns if c.seat is None)

    def spectator_count(self, table_id: int) -> int:
        """Spectator sockets at a table on every process (as this process heard)."""
        count = self.local_presence(table_id)[1]
        if self.remote is not None:
            count += self.remote.spectators(table_id)
        return count

    def connected_seats(self, table_id: int) -> list[int]:
        """Seats with at least one open socket on any process (presence)."""
        seats = self.local_seats(table_id)
        if self.remote is not None:
            seats |= self.remote.seats(table_id)
        return sorted(seats)

    def _presence_changed(self, table_id: int, force_to: Connection | None = None) -> None:
        """Tell the table's sockets who is connected, if that changed (and ``force_to``)."""
        feed = self.feeds.get(table_id)
        if feed is None:
            return
        now = (self.connected_seats(table_id), self.spectator_count(table_id))
        changed, feed.presence = now != feed.presence, now
        text = encode({"type": "presence", "connected": now[0], "spectators": now[1]})
        for c in feed.conns:
            if changed or c is force_to:
                c.put(text)

    def _local_changed(self, table_id: int, before: tuple[set[int], int]) -> None:
        """Tell the other processes when this process's seats or spectators at a table
        changed."""
        now = self.local_presence(table_id)
        if now != before and self.publish is not None and self.remote is not None:
            self.publish(encode_report(self.remote.process, table_id, sorted(now[0]), now[1]))

    # -- presence reports of other processes (app/realtime/presence.py) ---------------------
    def heard(self, payload: str) -> None:
        """A presence report, question or goodbye from another process."""
        if self.remote is None:
            return
        decoded = decode_presence(payload)
        if decoded is None or decoded[0] == self.remote.process:
            return
        process, kind, rest, _ = decoded
        if kind == "?":
            if rest.isdigit() and self.publish is not None:
                seats, watching = self.local_presence(int(rest))
                if seats or watching:
                    self.publish(
                        encode_report(self.remote.process, int(rest), sorted(seats), watching)
                    )
        elif kind == "bye":
            for gone in self.remote.forget_process(process):
                self._presence_changed(gone)
        else:
            changed = self.remote.heard(payload)
            if changed is not None:
                self._presence_changed(changed)

    def presence_heartbeat(self) -> None:
        """Report every table with local seats again, and forget silent processes."""
        if self.remote is None or self.publish is None:
            return
        for table_id in list(self.feeds):
            seats, watching = self.local_presence(table_id)
            if seats or watching:
                self.publish(encode_report(self.remote.process, table_id, sorted(seats), watching))
        for table_id in self.remote.expire():
            self._presence_changed(table_id)

    def goodbye(self) -> None:
        if self.remote is not None and self.publish is not None:
            self.publish(f"{self.remote.process}|bye|")
