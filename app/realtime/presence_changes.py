"""Who is told when a seat's presence changes: :class:`PresenceChanges`.

The hub (:mod:`app.realtime.hub`) reports every change of a seat's presence at a table
(a socket here, another process's report, a silent process forgotten) with
:meth:`PresenceChanges.changed`; the tables layer subscribes at construction (the
autopilot's grace and take-back). A subscriber runs inline, sometimes in the middle of
a delivery under the table's lock: it must return at once and schedule any work.

>>> changes = PresenceChanges()
>>> seen = []
>>> changes.subscribe(seen.append)
>>> changes.changed(7)
>>> seen
[7]
"""

from __future__ import annotations

import logging
from collections.abc import Callable

log = logging.getLogger(__name__)


class PresenceChanges:
    """The subscribers to presence changes, told in the order they subscribed."""

    def __init__(self) -> None:
        self._subscribers: list[Callable[[int], None]] = []

    def subscribe(self, subscriber: Callable[[int], None]) -> None:
        """Call ``subscriber(table_id)`` on every change from now on."""
        self._subscribers.append(subscriber)

    def changed(self, table_id: int) -> None:
        """A seat's presence changed at ``table_id``: tell every subscriber (one that
        fails is logged and the others are still told)."""
        for subscriber in self._subscribers:
            try:
                subscriber(table_id)
            except Exception as exc:
                log.warning("presence subscriber failed (%s)", type(exc).__name__)
