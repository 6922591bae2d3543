"""Presence across processes: which seats have an open socket on ANY server process.

Each process knows its own sockets (the hub). With PostgreSQL, processes tell each other
on the NOTIFY channel :data:`CHANNEL`, with payloads of one of three kinds:

- ``"<process>|<table>|<seats>"`` — on ``process``, ``table`` now has sockets of these
  seats (comma-separated, empty for none): sent whenever that changes, and again every
  ``ttl / 3`` seconds as a heartbeat for every table with local sockets;
- ``"<process>|?|<table>"`` — a process that just got its first socket on ``table``
  asks the others to tell what they have there;
- ``"<process>|bye|"`` — a process shutting down.

A process that stops sending (killed) is forgotten after ``ttl`` seconds. The seats
connected at a table are the union of this process's and the others' live reports.

>>> p = RemotePresence("me", ttl=30.0)
>>> p.heard("other|7|0,2", now=100.0)
7
>>> p.seats(7, now=101.0), p.seats(7, now=131.0)
({0, 2}, set())
>>> p.heard("me|7|1", now=100.0) is None  # our own report
True
>>> encode_report("me", 7, [2, 0]), decode("x|?|7")
('me|7|0,2', ('x', '?', '7'))
"""

from __future__ import annotations

import time
import uuid

CHANNEL = "fiveup_presence"


def new_process_id() -> str:
    return uuid.uuid4().hex[:12]


def encode_report(process: str, table_id: int, seats: list[int]) -> str:
    return f"{process}|{table_id}|{','.join(str(s) for s in sorted(seats))}"


def decode(payload: str) -> tuple[str, str, str] | None:
    parts = payload.split("|")
    if len(parts) != 3 or not parts[0]:
        return None
    return parts[0], parts[1], parts[2]


class RemotePresence:
    """What the other processes reported, with the time each report was heard."""

    def __init__(self, process: str, ttl: float) -> None:
        self.process = process
        self.ttl = ttl
        self._reports: dict[int, dict[str, tuple[frozenset[int], float]]] = {}

    def heard(self, payload: str, now: float | None = None) -> int | None:
        """Take one report; the table whose presence may have changed (None if none)."""
        decoded = decode(payload)
        if decoded is None:
            return None
        process, table, seats = decoded
        if process == self.process or not table.isdigit():
            return None
        when = time.monotonic() if now is None else now
        table_id = int(table)
        parsed = frozenset(int(s) for s in seats.split(",") if s.isdigit())
        reports = self._reports.setdefault(table_id, {})
        before = reports.get(process)
        if parsed:
            reports[process] = (parsed, when)
        else:
            reports.pop(process, None)
        if not reports:
            del self._reports[table_id]
        return table_id if before is None or before[0] != parsed else None

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
        for seats, heard in self._reports.get(table_id, {}).values():
            if when - heard <= self.ttl:
                out |= seats
        return out

    def expire(self, now: float | None = None) -> list[int]:
        """Drop reports older than ``ttl``: the tables whose presence changed."""
        when = time.monotonic() if now is None else now
        changed = []
        for table_id, reports in list(self._reports.items()):
            stale = [p for p, (_, heard) in reports.items() if when - heard > self.ttl]
            for p in stale:
                del reports[p]
            if stale:
                changed.append(table_id)
            if not reports:
                del self._reports[table_id]
        return changed
