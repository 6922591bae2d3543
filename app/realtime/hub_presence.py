"""The hub's side of presence: which seats and spectators have a socket here (and which
seats only on hidden pages), what the other processes reported
(:mod:`app.realtime.presence`), since when each seat is in its state (its
:class:`~app.realtime.presence.PresenceLog`), and the ``presence`` frames that tell a
table's sockets when that changes. A part of :class:`app.realtime.hub.Hub`.

Whenever a seat's state changes at a table — a socket here, another process's report,
a silent process forgotten — the hub tells its
:class:`~app.realtime.presence_changes.PresenceChanges` (the table service's autopilot
subscribes there), on every process that sees the change, whether or not it has
sockets at that table.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from app.realtime.connection import Connection
from app.realtime.feed import Feed
from app.realtime.frames import encode
from app.realtime.presence import (
    DISCONNECTED,
    LocalReport,
    PresenceLog,
    RemotePresence,
    SeatPresence,
    combine,
    encode_report,
)
from app.realtime.presence import decode as decode_presence
from app.realtime.presence_changes import PresenceChanges
from app.realtime.table_info import unix_iso
from app.types import Json

log = logging.getLogger(__name__)


class HubPresence:
    """Presence at the tables of the hub's feeds (``feeds``, the hub's, shared)."""

    def __init__(
        self,
        feeds: dict[int, Feed],
        presence_log: PresenceLog,
        changes: PresenceChanges,
        remote: RemotePresence | None = None,
        publish: Callable[[str], None] | None = None,
    ) -> None:
        self.feeds = feeds
        #: since when each seat is connected, away or disconnected (as this process saw)
        self.presence_log = presence_log
        #: told a table id whenever a seat's presence there changes (any process)
        self.presence_changes = changes
        #: other processes' sockets (PostgreSQL), and how to tell them about ours
        self.remote = remote
        self.publish = publish

    def local_seats(self, table_id: int) -> set[int]:
        """Seats with at least one open socket on this process."""
        return set(self.local_presence(table_id).seats)

    def local_presence(self, table_id: int) -> LocalReport:
        """Seats with a socket on this process, its spectator sockets, and the seats whose
        every socket here is on a hidden page, at a table."""
        feed = self.feeds.get(table_id)
        if feed is None:
            return LocalReport(frozenset(), 0, frozenset())
        seats = {c.seat for c in feed.conns if c.seat is not None}
        visible = {c.seat for c in feed.conns if c.seat is not None and not c.away}
        return LocalReport(frozenset(seats), _spectators(feed), frozenset(seats - visible))

    def spectator_count(self, table_id: int) -> int:
        """Spectator sockets at a table on every process (as this process heard)."""
        feed = self.feeds.get(table_id)
        count = 0 if feed is None else _spectators(feed)  # (not the whole local report)
        if self.remote is not None:
            count += self.remote.spectators(table_id)
        return count

    def seat_states(self, table_id: int) -> dict[int, str]:
        """``connected`` or ``away`` for each seat with a socket on any process, now."""
        states = self.local_presence(table_id).states()
        if self.remote is not None:
            for seat, state in self.remote.states(table_id).items():
                states[seat] = combine(states.get(seat, DISCONNECTED), state)
        return states

    def connected_seats(self, table_id: int) -> list[int]:
        """Seats with at least one open socket (visible or not) on any process."""
        return self.presence_log.present(table_id)

    def tables_with_people(self) -> set[int]:
        """The tables where a seat has a socket (visible or not) on any process — a
        person is there (computer players have no sockets)."""
        return self.presence_log.tables_present()

    def seat_presence(self, table_id: int, players: int) -> dict[int, SeatPresence]:
        """Each seat's state (``connected``, ``away``, ``disconnected``) and since when
        (UNIX time, as this process knows it), for seats ``0 .. players - 1``."""
        return {s: self.presence_log.get(table_id, s) for s in range(players)}

    def absent_since(self, table_id: int, seat: int) -> float | None:
        """Since when (UNIX time, as this process knows it) the seat has had no socket on
        any process; None while it has one (an ``away`` seat has one)."""
        state, since = self.presence_log.get(table_id, seat)
        return since if state == DISCONNECTED else None

    def set_away(self, conn: Connection, away: bool) -> None:
        """A seat socket's page was hidden (``away``) or shown again; a spectator's is
        ignored (spectators are only counted)."""
        if conn.seat is None or conn.away == away:
            return
        before = self.local_presence(conn.table_id)
        conn.away = away
        self.local_changed(conn.table_id, before)
        self.changed(conn.table_id)

    def track(self, table_id: int) -> None:
        """Log the table's seat states now; on a change, tell ``presence_changes``."""
        changed = self.presence_log.update(table_id, self.seat_states(table_id), time.time())
        if changed:
            self.presence_changes.changed(table_id)

    def presence_frame(self, table_id: int) -> Json:
        """The ``presence`` frame for a table with a feed: ``seats`` lists every person's
        seat (not the computer players', not the free ones) as the last table info sent
        shows them."""
        feed = self.feeds.get(table_id)
        info_seats = feed.info["seats"] if feed is not None and feed.info is not None else []
        seats = []
        for s in info_seats:
            if s["name"] is None or s["bot"] is not None:
                continue
            state, since = self.presence_log.get(table_id, s["seat"])
            seats.append({"seat": s["seat"], "state": state, "since": unix_iso(since)})
        return {
            "type": "presence",
            "connected": self.connected_seats(table_id),
            "spectators": self.spectator_count(table_id),
            "seats": seats,
        }

    def changed(self, table_id: int, force_to: Connection | None = None) -> None:
        """Log the table's seat states, and tell its sockets who is here if that changed
        (and ``force_to``)."""
        self.track(table_id)
        feed = self.feeds.get(table_id)
        if feed is None:
            return
        frame = self.presence_frame(table_id)
        changed, feed.presence = frame != feed.presence, frame
        if not changed and force_to is None:
            return
        text = encode(frame)
        for c in feed.conns:
            if changed or c is force_to:
                c.put(text)

    def _report(self, table_id: int, now: LocalReport) -> None:
        if self.publish is not None and self.remote is not None:
            self.publish(
                encode_report(self.remote.process, table_id, now.seats, now.spectators, now.away)
            )

    def local_changed(self, table_id: int, before: LocalReport) -> None:
        """Tell the other processes when this process's seats or spectators at a table
        changed."""
        now = self.local_presence(table_id)
        if now != before:
            self._report(table_id, now)

    # -- presence reports of other processes (app/realtime/presence.py) ---------------------
    def heard(self, payload: str) -> None:
        """A presence report, question or goodbye from another process."""
        if self.remote is None:
            return
        decoded = decode_presence(payload)
        if decoded is None or decoded[0] == self.remote.process:
            return
        process, kind, rest = decoded[:3]
        if kind == "?":
            if rest.isdigit():
                report = self.local_presence(int(rest))
                if report.seats or report.spectators:
                    self._report(int(rest), report)
        elif kind == "bye":
            for gone in self.remote.forget_process(process):
                self.changed(gone)
        else:
            changed = self.remote.heard(payload)
            if changed is not None:
                self.changed(changed)

    def presence_heartbeat(self) -> None:
        """Report every table with local seats again, and forget silent processes."""
        if self.remote is None or self.publish is None:
            return
        for table_id in list(self.feeds):
            report = self.local_presence(table_id)
            if report.seats or report.spectators:
                self._report(table_id, report)
        for table_id in self.remote.expire():
            self.changed(table_id)

    def goodbye(self) -> None:
        if self.remote is not None and self.publish is not None:
            self.publish(f"{self.remote.process}|bye|")


def _spectators(feed: Feed) -> int:
    """The feed's spectator sockets."""
    return sum(1 for c in feed.conns if c.seat is None)
