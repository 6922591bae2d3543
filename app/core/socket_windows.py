"""One socket's frame quotas, counted on the socket itself.

A socket lives on one process and its counts die with it, so they need no shared
storage, no keys and no expiry sweep: each limit (parsed by ``limits``, e.g.
``"5/second;60/minute"``) is a moving window kept as the times of the frames it let
through, at most ``amount`` of them. Counting a frame costs a few deque operations.

Measured (bench/soak.py, docs/benchmarks.md "Soak"): counting these frames in ``limits``'
asyncio memory storage cost 13.1 ms of server CPU per move under 200 tables — its expiry
pass runs one thread hop per key, over every socket's keys, on every counted frame —
against 4.8 ms with the quotas off; this module is what replaced it.

>>> from limits import parse_many
>>> w = MovingWindows(parse_many("2/second;3/minute"))
>>> [w.hit(now=t) for t in (0.0, 0.1, 0.2)]
[0.0, 0.0, 0.8]
>>> w.hit(now=1.05), w.hit(now=1.2), w.refused_by
(0.0, 58.8, '3 per 1 minute')
"""

from __future__ import annotations

from collections import deque

from limits import RateLimitItem


class MovingWindows:
    """Moving windows over one socket's frames of one kind: ``hit`` counts a frame and
    answers 0.0 when every window had room, else the seconds until the full one frees a
    place (the frame is then not counted, and ``refused_by`` names that limit)."""

    __slots__ = ("_windows", "refused_by")

    def __init__(self, items: list[RateLimitItem]) -> None:
        self._windows = [
            (item, item.get_expiry(), item.amount, deque[float](maxlen=item.amount))
            for item in items
        ]
        self.refused_by = ""

    def hit(self, *, now: float) -> float:
        for item, span, amount, times in self._windows:
            while times and times[0] <= now - span:
                times.popleft()
            if len(times) >= amount:
                self.refused_by = str(item)
                return times[0] + span - now
        for _, _, _, times in self._windows:
            times.append(now)
        return 0.0
