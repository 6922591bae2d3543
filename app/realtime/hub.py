"""The hub: this process's sockets per table, and the one delivery path to them.

Each table with local sockets has a :class:`Feed`: the seq every one of its sockets has
reached, the last view sent to each recipient class (a seat, or spectators), and the
last table info sent. Deliveries come from two places and go through one function,
:meth:`Hub._deliver`, under the table's lock:

- a commit of this process (:meth:`Hub.committed`): the events and the live match, as
  they are — nothing is read back or parsed again. The writer calls it under its own
  table lock right after the commit, so the match is the committed state then; the hub
  keeps no reference to it: what later reads need of that state (``describe``) is kept
  from what was delivered (the feed's :class:`~app.realtime.delivery.Sent`);
- a commit of another process (``notice``, from a NOTIFY, then ``poke`` in a task of
  that table's own; :mod:`app.realtime.hub_notices`): the events since the feed's seq
  and the table's state, read from the store in one snapshot. The NOTIFY of this
  process's own commit is not read back (``expecting``).

Every socket therefore receives a gapless, increasing seq after its snapshot, whichever
process committed. An event frame carries the projected event; the last event of a
delivery also carries the patch of the recipient's view and of the table info to the
state after it (docs/protocol.md, Event frames): the hub works out the table info and
who is where, :mod:`app.realtime.delivery` builds each recipient class's frames.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence

from app.core import metrics
from app.core.clock_presets import Presets
from app.core.locks import KeyedLocks
from app.db.rows import Catchup, EventRecord, PlayerState, TableState
from app.db.store import Store
from app.realtime.committed import Committed
from app.realtime.connection import Connection
from app.realtime.delivery import Sent, event_texts
from app.realtime.feed import Feed
from app.realtime.frames import (
    description_frame,
    encode,
    project_stored_event,
    snapshot_frame,
)
from app.realtime.hub_notices import RESYNC_EVENT_LIMIT, Catchups
from app.realtime.hub_presence import HubPresence
from app.realtime.patch import diff
from app.realtime.presence import PresenceLog, RemotePresence
from app.realtime.presence_changes import PresenceChanges
from app.realtime.projection import Projection, Projector
from app.realtime.revoke import REVOKING_KINDS, close_revoked
from app.realtime.table_info import MatchSummary, seats_key, table_info
from app.types import Json

log = logging.getLogger(__name__)

#: events after which the sockets' seats may have changed (besides a changed roster)
SEATING_KINDS = REVOKING_KINDS | {"seated", "moved_seat", "left", "kicked", "seat_replaced"}
#: events after which a socket may follow its player to another seat (or spectate)
FOLLOWING_KINDS = frozenset({"moved_seat", "left", "kicked", "seat_replaced"})

#: a snapshot carries the table's last this many chat messages
CHAT_IN_SNAPSHOT = 50


class Hub:
    """All sockets of this process, per table: the one delivery path, with its parts
    :attr:`presence` (:class:`~app.realtime.hub_presence.HubPresence`: who is here, on
    every process) and :attr:`catchups` (:class:`~app.realtime.hub_notices.Catchups`:
    commits read back from the store). It is the tables layer's
    :class:`~app.tables.delivery_port.Delivery`."""

    def __init__(
        self,
        store: Store,
        *,
        next_round_seconds: float,
        remote: RemotePresence | None = None,
        publish: Callable[[str], None] | None = None,
        clocks: Presets | None = None,
    ) -> None:
        self.store = store
        #: the turn clocks' numbers (the settings) shown in table info
        self.clocks = clocks
        self.next_round_seconds = next_round_seconds
        self.feeds: dict[int, Feed] = {}
        self._locks = KeyedLocks()
        #: other processes' sockets (PostgreSQL), and how to tell them about ours
        self.remote = remote
        self.publish = publish
        #: since when each seat is connected, away or disconnected (as this process saw)
        self.presence_log = PresenceLog(started=time.time())
        #: told of every change of a seat's presence (the tables layer subscribes)
        self.presence_changes = PresenceChanges()
        #: the projections of what this process reads from the database (its own
        #: commits come projected: :class:`~app.realtime.committed.Committed`)
        self.projector = Projector()
        self.presence = HubPresence(
            self.feeds, self.presence_log, self.presence_changes, remote, publish
        )
        self.catchups = Catchups(self.feeds, store, self._locks, self._catch_up)
        # the parts' answers, each at its home (Delivery's presence reads among them)
        presence, catchups = self.presence, self.catchups
        self.connected_seats = presence.connected_seats
        self.spectator_count = presence.spectator_count
        self.absent_since = presence.absent_since
        self.seat_presence = presence.seat_presence
        self.tables_with_people = presence.tables_with_people
        self.local_presence = presence.local_presence
        self.local_seats = presence.local_seats
        self.seat_states = presence.seat_states
        self.set_away = presence.set_away
        self.presence_frame = presence.presence_frame
        self.heard = presence.heard
        self.presence_heartbeat = presence.presence_heartbeat
        self.goodbye = presence.goodbye
        self.expecting = catchups.expecting
        self.notice = catchups.notice
        self.poke = catchups.poke
        self.poke_all = catchups.poke_all
        self.reconcile = catchups.reconcile

    def _info(
        self,
        table: TableState,
        players: Sequence[PlayerState],
        match: MatchSummary | None,
        *,
        track: bool = True,
        feed: Feed | None = None,
    ) -> Json:
        """The table info now. With ``feed``: built on the info it sent last (its seats
        taken as they are when nothing they show has changed since: the same players
        and no presence change), and remembered there with what its seats show."""
        if track:
            self.presence.track(table.id)  # the sockets here may have just changed seats
        before = seats = key = None
        if feed is not None:
            before = feed.info
            key = seats_key(table, players, self.presence_log.revision(table.id))
            if before is not None and feed.seats_key == key:
                seats = before["seats"]  # nothing they show has changed
            feed.seats_key = key
        return table_info(
            table,
            players,
            match,
            next_round_seconds=self.next_round_seconds,
            connected=None if seats is not None else self.connected_seats(table.id),
            spectators=self.spectator_count(table.id),
            clocks=self.clocks,
            presence=None if seats is not None else self.seat_presence(table.id, table.players),
            before=before,
            seats=seats,
        )

    # -- sockets come and go -------------------------------------------------------------
    async def attach(self, conn: Connection) -> None:
        """Register a socket and queue its snapshot (then presence for everyone)."""
        before = self.local_presence(conn.table_id)
        async with self._locks(conn.table_id):
            first = conn.table_id not in self.feeds
            feed = self.feeds.setdefault(conn.table_id, Feed(conn.table_id))
            feed.conns.add(conn)
            try:
                await self._snapshot(feed, conn, None)
            except BaseException:
                self._drop(feed, conn)
                raise
        if first and self.publish is not None and self.remote is not None:
            self.publish(f"{self.remote.process}|?|{conn.table_id}")  # who else is here?
        self.presence.local_changed(conn.table_id, before)
        self.presence.changed(conn.table_id, force_to=conn)

    async def detach(self, conn: Connection) -> None:
        before = self.local_presence(conn.table_id)
        feed = self.feeds.get(conn.table_id)
        if feed is not None:
            self._drop(feed, conn)
        self.presence.local_changed(conn.table_id, before)
        self.presence.changed(conn.table_id)

    def _drop(self, feed: Feed, conn: Connection) -> None:
        feed.conns.discard(conn)
        if not feed.conns and self.feeds.get(feed.table_id) is feed:
            del self.feeds[feed.table_id]

    async def resync(self, conn: Connection, last_seq: int | None) -> None:
        """Queue a fresh snapshot, with the events missed since ``last_seq`` if few."""
        async with self._locks(conn.table_id):
            feed = self.feeds.get(conn.table_id)
            if feed is not None and conn in feed.conns:
                await self._snapshot(feed, conn, last_seq)

    async def describe(self, conn: Connection) -> None:
        """Queue the layout descriptions at the feed's seq (``describe``): of the layout
        its sockets were delivered at that seq (``feed.sent``), committed by definition.
        Never of the live match, which the writer of the next move changes before its
        commit (and keeps changed if the write is refused). The seq and the views sent
        change together, between two awaits, so no lock is needed; the frame is made
        once per seq, whatever the number of sockets asking."""
        feed = self.feeds.get(conn.table_id)
        if feed is None:
            return
        public = feed.sent.public
        described = feed.described
        if described is None or described[0] != feed.seq or described[1] is not public:
            described = (feed.seq, public, encode(description_frame(feed.seq, public)))
            feed.described = described
        conn.put(described[2])

    async def _snapshot(self, feed: Feed, conn: Connection, last_seq: int | None) -> None:
        """Bring the feed up to the database (delivering to the other sockets), then
        queue ``conn``'s snapshot at the same seq."""
        since = feed.seq if feed.seq >= 0 else 0
        if last_seq is not None and 0 <= last_seq < since:
            since = last_seq
        cu = await self.store.catchup(feed.table_id, since, RESYNC_EVENT_LIMIT)
        if cu is None:
            return
        if feed.seq >= 0 and cu.table.seq > feed.seq:
            self._catch_up(feed, cu, exclude=conn)
        if close_revoked([conn], cu.players):  # its token was revoked meanwhile
            self._drop(feed, conn)
            return
        self._follow_player(conn, cu.players)
        proj = self._project(cu)
        info = self._info(cu.table, cu.players, proj.summary)
        missed: list[Json] = []
        if last_seq is not None and cu.events and cu.events[0].seq <= last_seq + 1:
            missed = [
                {"seq": e.seq, "event": project_stored_event(e.payload, conn.seat)}
                for e in cu.events
                if e.seq > last_seq
            ]
        chat = [
            {"seq": e.seq, "event": project_stored_event(e.payload, conn.seat)}
            for e in await self.store.recent_events(feed.table_id, "chat", CHAT_IN_SNAPSHOT)
            if e.seq <= cu.table.seq
        ]
        conn.put(
            encode(
                snapshot_frame(
                    seq=cu.table.seq,
                    recipient=conn.seat,
                    info=info,
                    view=proj.view(conn.seat),
                    missed=missed,
                    chat=chat,
                )
            ),
            kind="snapshot",
        )
        conn.last_seq = cu.table.seq
        if feed.seq < 0 or cu.table.seq > feed.seq:  # the feed is at the database's seq now
            feed.seq, feed.info, feed.seats_key = cu.table.seq, info, None
            feed.sent = Sent(proj.public)
        feed.sent.views.setdefault(conn.seat, proj.own_fields(conn.seat))

    def _project(self, cu: Catchup) -> Projection:
        """The projection of the table's state as read from the database."""
        table = cu.table
        return self.projector.project(table.id, table.seq, table.match_number, table.match())

    @staticmethod
    def _follow_player(conn: Connection, players: Sequence[PlayerState]) -> None:
        """A socket follows its player's seat; a removed player's socket spectates."""
        if conn.player_id is None:
            return
        me = next((p for p in players if p.id == conn.player_id), None)
        if me is None:
            conn.seat = conn.player_id = conn.token = None
        else:
            conn.seat = me.seat

    # -- delivery ------------------------------------------------------------------------
    def watches(self, table_id: int) -> bool:
        """Whether a socket here follows the table (its commits are projected then)."""
        return table_id in self.feeds

    async def committed(self, c: Committed) -> None:
        """A commit of this process: deliver it as it is (never raises)."""
        table, players, events, proj = c.table, c.players, c.events, c.views
        feed = self.feeds.get(table.id)
        if feed is None:
            # no socket here yet (a table just created, a practice table started before
            # its person's page connected): a person who sat down is absent from now on,
            # not since this process started
            self._note_seated(table.id, events)
            return
        try:
            async with self._locks(table.id):
                if feed.seq < 0 or events[-1].seq <= feed.seq:
                    return  # no socket yet, or delivered already (a NOTIFY was faster)
                if events[0].seq > feed.seq + 1:  # something in between came from elsewhere
                    await self.catchups.poke_locked(feed, events[-1].seq)
                    return
                if proj is None or proj.seq != events[-1].seq:  # not projected: read it
                    await self.catchups.poke_locked(feed, events[-1].seq)
                    return
                fresh = [e for e in events if e.seq > feed.seq]
                self._deliver(feed, fresh, table, players, proj)
        except Exception as exc:
            log.warning(
                "table %s: delivery failed (%s); sockets resync", table.id, type(exc).__name__
            )

    def _catch_up(self, feed: Feed, cu: Catchup, exclude: Connection | None = None) -> None:
        proj = self._project(cu)
        events = [e for e in cu.events if e.seq > feed.seq]
        if events and events[0].seq == feed.seq + 1:
            self._deliver(feed, events, cu.table, cu.players, proj, exclude)
            return
        # too far behind for events: every socket gets a fresh snapshot
        feed.seq, feed.sent = cu.table.seq, Sent(proj.public)
        feed.info, feed.seats_key = self._info(cu.table, cu.players, proj.summary), None
        for c in close_revoked([c for c in feed.conns if c is not exclude], cu.players):
            self._drop(feed, c)
        for c in feed.conns:
            if c is exclude:
                continue
            self._follow_player(c, cu.players)
            c.put(
                encode(
                    snapshot_frame(
                        seq=cu.table.seq, recipient=c.seat, info=feed.info, view=proj.view(c.seat)
                    )
                ),
                kind="snapshot",
            )
            c.last_seq = cu.table.seq
            feed.sent.views.setdefault(c.seat, proj.own_fields(c.seat))
            metrics.resync("behind")

    def _deliver(
        self,
        feed: Feed,
        events: Sequence[EventRecord],
        table: TableState,
        players: Sequence[PlayerState],
        proj: Projection,
        exclude: Connection | None = None,
    ) -> None:
        """Queue ``events`` (consecutive after the feed's seq) for every socket, the last
        one with the view and table patches to the state after them."""
        # who sits where changed (a seat taken, left, moved, handed to a computer player):
        # presence is looked at again; a move alone changes nobody's presence
        kinds = {e.kind for e in events}
        roster = tuple(sorted((p.seat, p.bot is None) for p in players))
        seating = roster != feed.roster or not kinds.isdisjoint(SEATING_KINDS)
        feed.roster = roster
        before = self.local_presence(feed.table_id) if seating else None
        if not kinds.isdisjoint(REVOKING_KINDS):
            for c in close_revoked([c for c in feed.conns if c is not exclude], players):
                self._drop(feed, c)
        followed: set[Connection] = set()
        if not kinds.isdisjoint(FOLLOWING_KINDS):
            for c in feed.conns:
                seat = c.seat
                self._follow_player(c, players)
                if c.seat != seat and proj.public is not None:
                    followed.add(c)  # another recipient now: a snapshot, not patches
        self._note_seated(feed.table_id, events)
        sent_info = feed.info
        info = self._info(table, players, proj.summary, track=seating, feed=feed)
        table_patch = diff(sent_info, info) if sent_info is not None else {"set": info}
        feed.info = info
        # each recipient class's frames, encoded once (app/realtime/delivery.py)
        texts, sent = event_texts(
            events, {c.seat for c in feed.conns}, proj, feed.sent, table_patch
        )
        last = events[-1]
        for c in feed.conns:
            if c is exclude:
                continue
            if c in followed:
                frame = snapshot_frame(
                    seq=last.seq, recipient=c.seat, info=info, view=proj.view(c.seat)
                )
                c.put(encode(frame), kind="snapshot")
            else:
                for text in texts[c.seat]:
                    c.put(text, kind="event")
            c.last_seq = last.seq
        feed.seq, feed.sent = last.seq, sent
        if before is not None:
            self.presence.local_changed(feed.table_id, before)
            self.presence.changed(feed.table_id)

    def _note_seated(self, table_id: int, events: Sequence[EventRecord]) -> None:
        """A person's absence from a seat taken in ``events`` starts now (the autopilot's
        grace, the seat's "disconnected since"), unless a socket of the seat is here."""
        for e in events:
            if e.kind in ("created", "seated", "moved_seat"):  # (created: the host's seat)
                seated = e.payload.get("to" if e.kind == "moved_seat" else "seat")
                if isinstance(seated, int):
                    self.presence_log.seated(table_id, seated, time.time())
