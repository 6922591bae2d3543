"""Presence across processes: which seats have an open socket on ANY server process, and
how many spectator sockets a table has on all of them.

Each process knows its own sockets (the hub). With PostgreSQL, processes tell each other
on the NOTIFY channel :data:`CHANNEL`, with payloads of one of three kinds:

- ``"<process>|<table>|<seats>[|<spectators>]"`` — on ``process``, ``table`` now has
  sockets of these seats (comma-separated, empty for none) and this many spectator
  sockets (the field is left out when there are none): sent whenever that changes, and
  again every ``ttl / 3`` seconds as a heartbeat for every table with local sockets;
- ``"<process>|?|<table>"`` — a process that just got its first socket on ``table``
  asks the others to tell what they have there;
- ``"<process>|bye|"`` — a process shutting down.

A process that stops sending (killed) is forgotten after ``ttl`` seconds. The seats
connected at a table are the union of this process's and the others' live reports; its
spectators are the sum of the counts.

>>> p = RemotePresence("me", ttl=30.0)
>>> p.heard("other|7|0,2", now=100.0)
7
>>> p.seats(7, now=101.0), p.seats(7, now=131.0)
({0, 2}, set())
>>> p.heard("me|7|1", now=100.0) is None  # our own report
True
>>> p.heard("third|7||3", now=100.0), p.spectators(7, now=101.0), p.seats(7, now=101.0)
(7, 3, {0, 2})
>>> encode_report("me", 7, [2, 0]), encode_report("me", 7, [], 2), decode("x|?|7")
('me|7|0,2', 'me|7||2', ('x', '?', '7', '0'))
"""

from __future__ import annotations

import time
import uuid

CHANNEL = "fiveup_presence"


def new_process_id() -> str:
    return uuid.uuid4().hex[:12]


def encode_report(process: str, table_id: int, seats: list[int], spectators: int = 0) -> str:
    report = f"{process}|{table_id}|{','.join(str(s) for s in sorted(seats))}"
    return f"{report}|{spectators}" if spectators else report


def decode(payload: str) -> tuple[str, str, str, str] | None:
    """(process, table or kind, seats or rest, spectators)."""
    parts = payload.split("|")
    if len(parts) not in (3, 4) or not parts[0]:
        return None
    return parts[0], parts[1], parts[2], parts[3] if len(parts) == 4 else "0"


class RemotePresence:
    """What the other processes reported, with the time each report was heard."""

    def __init__(self, process: str, ttl: float) -> None:
        self.process = process
        self.ttl = ttl
        self._reports: dict[int, dict[str, tuple[frozenset[int], int, float]]] = {}

    def heard(self, payload: str, now: float | None = None) -> int | None:
        """Take one report; the table whose presence may have changed (None if none)."""
        decoded = decode(payload)
        if decoded is None:
            return None
        process, table, seats, spectators = decoded
        if process == self.process or not table.isdigit():
            return None
        when = time.monotonic() if now is None else now
        table_id = int(table)
        parsed = frozenset(int(s) for s in seats.split(",") if s.isdigit())
        watching = int(spectators) if spectators.isdigit() else 0
        reports = self._reports.setdefault(table_id, {})
        before = reports.get(process)
        if parsed or watching:
            reports[process] = (parsed, watching, when)
        else:
            reports.pop(process, None)
        if not reports:
            del self._reports[table_id]
        if before is None:
            return table_id if parsed or watching else None
        return table_id if before[:2] != (parsed, watching) else None

    def forget_process(self, process: str) -> list[int]:
        """A process said goodbye: the tables it was on."""
        tables = [t for t, r in self._reports.items() if process in r]
        for t in tables:
            del self._reports[t][process]
            if not self._reports[t]:
                del self._reports[t]
        return tables

    def seats(self, table_id: int, now: float | None = None) -> set[int]:
        when = time.monotonic() if now is None else now
        out: set[int] = set()
        for seats, _, heard in self._reports.get(table_id, {}).values():
            if when - heard <= self.ttl:
                out |= seats
        return out

    def spectators(self, table_id: int, now: float | None = None) -> int:
        """Spectator sockets the other processes reported at ``table_id``."""
        when = time.monotonic() if now is None else now
        return sum(
            n
            for _, n, heard in self._reports.get(table_id, {}).values()
            if when - heard <= self.ttl
        )

    def expire(self, now: float | None = None) -> list[int]:
        """Drop reports older than ``ttl``: the tables whose presence changed."""
        when = time.monotonic() if now is None else now
        changed = []
        for table_id, reports in list(self._reports.items()):
            stale = [p for p, (_, _, heard) in reports.items() if when - heard > self.ttl]
            for p in stale:
                del reports[p]
            if stale:
                changed.append(table_id)
            if not reports:
                del self._reports[table_id]
        return changed
