"""Presence across processes: which seats have an open socket on ANY server process —
visible (``connected``) or only on hidden pages (``away``) —, how many spectator sockets
a table has on all of them, and since when each seat is in its state.

A seat is ``connected`` when one of its sockets, on any process, is on a visible page;
``away`` when it has sockets but every one of them is on a hidden page (the client says
so: ``{"type":"presence","state":"away"|"here"}``); ``disconnected`` when it has none.

Each process knows its own sockets (the hub). With PostgreSQL, processes tell each other
on the NOTIFY channel :data:`CHANNEL`, with payloads of one of three kinds:

- ``"<process>|<table>|<seats>[|<spectators>[|<away>]]"`` — on ``process``, ``table``
  now has sockets of these seats (comma-separated, empty for none), this many spectator
  sockets, and, of those seats, the ones whose every socket there is hidden (``away``);
  trailing empty fields are left out: sent whenever that changes, and again every
  ``ttl / 3`` seconds as a heartbeat for every table with local sockets;
- ``"<process>|?|<table>"`` — a process that just got its first socket on ``table``
  asks the others to tell what they have there;
- ``"<process>|bye|"`` — a process shutting down.

A process that stops sending (killed) is forgotten after ``ttl`` seconds. A seat's state
at a table combines this process's sockets and the others' live reports (:func:`combine`);
its spectators are the sum of the counts. :class:`PresenceLog` remembers when each seat's
state began, as this process saw it.

>>> p = RemotePresence("me", ttl=30.0)
>>> p.heard("other|7|0,2", now=100.0)
7
>>> p.seats(7, now=101.0), p.seats(7, now=131.0)
({0, 2}, set())
>>> p.heard("me|7|1", now=100.0) is None  # our own report
True
>>> p.heard("third|7||3", now=100.0), p.spectators(7, now=101.0), p.seats(7, now=101.0)
(7, 3, {0, 2})
>>> p.heard("third|7|2|3|2", now=100.0), p.states(7, now=101.0)  # seat 2 hidden on third
(7, {0: 'connected', 2: 'connected'})
>>> p.heard("other|7|0,2|0|2", now=100.0), p.states(7, now=101.0)  # hidden everywhere
(7, {0: 'connected', 2: 'away'})
>>> encode_report("me", 7, [2, 0]), encode_report("me", 7, [], 2), decode("x|?|7")
('me|7|0,2', 'me|7||2', ('x', '?', '7', '0', ''))
>>> encode_report("me", 7, [2, 0], 0, [2]), decode("me|7|0,2|0|2")
('me|7|0,2|0|2', ('me', '7', '0,2', '0', '2'))
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterable
from typing import NamedTuple

from app.db.channel import PRESENCE_CHANNEL

#: the reports' NOTIFY channel (named with the database's others, in app/db/channel.py)
CHANNEL = PRESENCE_CHANNEL

CONNECTED = "connected"
AWAY = "away"
DISCONNECTED = "disconnected"

#: a seat's presence state and when it began (UNIX time, as this process knows it)
SeatPresence = tuple[str, float]


def new_process_id() -> str:
    return uuid.uuid4().hex[:12]


def combine(*states: str) -> str:
    """A seat's state from the states of its sockets (or of the processes reporting it):
    connected if any is, else away if any is, else disconnected.

    >>> combine("away", "connected"), combine("away", "away"), combine()
    ('connected', 'away', 'disconnected')
    """
    if CONNECTED in states:
        return CONNECTED
    return AWAY if AWAY in states else DISCONNECTED


class LocalReport(NamedTuple):
    """One process's sockets at a table: the seats with a socket, the spectator sockets
    and the seats whose every socket is on a hidden page."""

    seats: frozenset[int]
    spectators: int
    away: frozenset[int]

    def states(self) -> dict[int, str]:
        return {s: AWAY if s in self.away else CONNECTED for s in self.seats}


def _csv(seats: Iterable[int]) -> str:
    return ",".join(str(s) for s in sorted(seats))


def encode_report(
    process: str,
    table_id: int,
    seats: Iterable[int],
    spectators: int = 0,
    away: Iterable[int] = (),
) -> str:
    report = f"{process}|{table_id}|{_csv(seats)}"
    hidden = _csv(away)
    if hidden:
        return f"{report}|{spectators}|{hidden}"
    return f"{report}|{spectators}" if spectators else report


def decode(payload: str) -> tuple[str, str, str, str, str] | None:
    """(process, table or kind, seats or rest, spectators, away seats)."""
    parts = payload.split("|")
    if not 3 <= len(parts) <= 5 or not parts[0]:
        return None
    parts += ["0", ""][len(parts) - 3 :]
    return parts[0], parts[1], parts[2], parts[3], parts[4]


def _seat_set(text: str) -> frozenset[int]:
    return frozenset(int(s) for s in text.split(",") if s.isdigit())


class _Heard(NamedTuple):
    seats: frozenset[int]
    away: frozenset[int]
    spectators: int
    at: float


class RemotePresence:
    """What the other processes reported, with the time each report was heard."""

    def __init__(self, process: str, ttl: float) -> None:
        self.process = process
        self.ttl = ttl
        self._reports: dict[int, dict[str, _Heard]] = {}

    def heard(self, payload: str, now: float | None = None) -> int | None:
        """Take one report; the table whose presence may have changed (None if none)."""
        decoded = decode(payload)
        if decoded is None:
            return None
        process, table, seats, spectators, away = decoded
        if process == self.process or not table.isdigit():
            return None
        when = time.monotonic() if now is None else now
        table_id = int(table)
        parsed = _seat_set(seats)
        report = _Heard(
            parsed, _seat_set(away) & parsed, int(spectators) if spectators.isdigit() else 0, when
        )
        reports = self._reports.setdefault(table_id, {})
        before = reports.get(process)
        if report.seats or report.spectators:
            reports[process] = report
        else:
            reports.pop(process, None)
        if not reports:
            del self._reports[table_id]
        if before is None:
            return table_id if report.seats or report.spectators else None
        return table_id if before[:3] != report[:3] else None

    def forget_process(self, process: str) -> list[int]:
        """A process said goodbye: the tables it was on."""
        tables = [t for t, r in self._reports.items() if process in r]
        for t in tables:
            del self._reports[t][process]
            if not self._reports[t]:
                del self._reports[t]
        return tables

    def _live(self, table_id: int, now: float | None) -> list[_Heard]:
        when = time.monotonic() if now is None else now
        return [r for r in self._reports.get(table_id, {}).values() if when - r.at <= self.ttl]

    def seats(self, table_id: int, now: float | None = None) -> set[int]:
        """Seats with a socket (visible or hidden) on another process."""
        out: set[int] = set()
        for r in self._live(table_id, now):
            out |= r.seats
        return out

    def states(self, table_id: int, now: float | None = None) -> dict[int, str]:
        """``connected`` or ``away`` for each seat with a socket on another process."""
        out: dict[int, str] = {}
        for r in self._live(table_id, now):
            for seat in r.seats:
                here = AWAY if seat in r.away else CONNECTED
                out[seat] = combine(out.get(seat, DISCONNECTED), here)
        return out

    def spectators(self, table_id: int, now: float | None = None) -> int:
        """Spectator sockets the other processes reported at ``table_id``."""
        if table_id not in self._reports:  # (asked per delivery: the usual answer, at once)
            return 0
        return sum(r.spectators for r in self._live(table_id, now))

    def expire(self, now: float | None = None) -> list[int]:
        """Drop reports older than ``ttl``: the tables whose presence changed."""
        when = time.monotonic() if now is None else now
        changed = []
        for table_id, reports in list(self._reports.items()):
            stale = [p for p, r in reports.items() if when - r.at > self.ttl]
            for p in stale:
                del reports[p]
            if stale:
                changed.append(table_id)
            if not reports:
                del self._reports[table_id]
        return changed


class PresenceLog:
    """When each seat's state began, as this process saw it: the moment this process
    saw the change. A seat it never saw with a socket has been disconnected since this
    process started, as far as it knows. Tables whose every seat has been disconnected
    for ``keep`` seconds are forgotten (checked every ``keep / 100`` seconds at most).

    >>> log = PresenceLog(started=10.0)
    >>> log.get(7, 1), log.update(7, {1: "connected"}, now=20.0), log.get(7, 1)
    (('disconnected', 10.0), True, ('connected', 20.0))
    >>> log.update(7, {1: "connected"}, now=25.0), log.update(7, {1: "away"}, now=30.0)
    (False, True)
    >>> log.update(7, {}, now=40.0), log.get(7, 1), log.present(7)
    (True, ('disconnected', 40.0), [])
    >>> log.update(8, {}, now=10.0 + 86400 * 2), log.get(7, 1)  # forgotten after a day
    (False, ('disconnected', 10.0))
    """

    def __init__(self, started: float, keep: float = 86400.0) -> None:
        self.started = started
        self.keep = keep
        self._seats: dict[int, dict[int, SeatPresence]] = {}
        self._pruned = started
        #: per table, the stamp of its last change (stamps only grow: see revision)
        self._revisions: dict[int, int] = {}
        self._stamp = 0

    def update(self, table_id: int, states: dict[int, str], now: float) -> bool:
        """Record the seats' states now (a seat not in ``states`` is disconnected); True
        when any seat's state changed."""
        if now - self._pruned > self.keep / 100:
            self._prune(now)
        seats = self._seats.get(table_id)
        if seats is None:
            if not states:
                return False
            seats = self._seats[table_id] = {}
        changed = False
        for seat in set(states) | set(seats):
            state = states.get(seat, DISCONNECTED)
            if seats.get(seat, (DISCONNECTED,))[0] != state:
                seats[seat] = (state, now)
                changed = True
        if changed:
            self._changed(table_id)
        return changed

    def seated(self, table_id: int, seat: int, now: float) -> None:
        """A person just took the seat: if it has no socket, it has been absent since now
        (not since whatever the seat's previous occupant did).

        >>> log = PresenceLog(started=10.0)
        >>> log.seated(7, 2, now=50.0), log.get(7, 2)
        (None, ('disconnected', 50.0))
        """
        if self.get(table_id, seat)[0] == DISCONNECTED:
            self._seats.setdefault(table_id, {})[seat] = (DISCONNECTED, now)
            self._changed(table_id)

    def revision(self, table_id: int) -> int:
        """A number that changes whenever :meth:`get` or :meth:`present` may answer
        differently for the table, and never comes back to an earlier value while the
        table is known (0: nothing recorded for it).

        >>> log = PresenceLog(started=10.0)
        >>> before = log.revision(7)
        >>> log.update(7, {1: "connected"}, now=20.0), log.revision(7) != before
        (True, True)
        >>> after = log.revision(7)
        >>> log.update(7, {1: "connected"}, now=25.0), log.revision(7) == after
        (False, True)
        """
        return self._revisions.get(table_id, 0)

    def _changed(self, table_id: int) -> None:
        self._stamp += 1
        self._revisions[table_id] = self._stamp

    def get(self, table_id: int, seat: int) -> SeatPresence:
        """A seat's state and since when."""
        entry = self._seats.get(table_id, {}).get(seat)
        return entry if entry is not None else (DISCONNECTED, self.started)

    def present(self, table_id: int) -> list[int]:
        """Seats connected or away at a table."""
        return sorted(
            s for s, (st, _) in self._seats.get(table_id, {}).items() if st != DISCONNECTED
        )

    def tables_present(self) -> set[int]:
        """The tables where some seat is connected or away (a person is there, on some
        process).

        >>> log = PresenceLog(started=10.0)
        >>> log.update(7, {1: "away"}, now=20.0), log.update(8, {}, now=20.0)
        (True, False)
        >>> log.update(9, {0: "connected"}, now=20.0), log.update(9, {}, now=21.0)
        (True, True)
        >>> log.tables_present()
        {7}
        """
        return {
            t
            for t, seats in self._seats.items()
            if any(st != DISCONNECTED for st, _ in seats.values())
        }

    def _prune(self, now: float) -> None:
        self._pruned = now
        for table_id, seats in list(self._seats.items()):
            if all(st == DISCONNECTED and now - at > self.keep for st, at in seats.values()):
                del self._seats[table_id]
                self._revisions.pop(table_id, None)  # (its last stamp was above 0)
