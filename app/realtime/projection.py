"""Per-recipient frames. The only place that turns stored rows into outbound frames.

Engine events and states go through the engine's projections (``project_event``,
``view_for``); table events (seating, votes, round starts) carry no tile by construction
but are copied field by field from a whitelist anyway.
"""

from __future__ import annotations

from typing import Any

from app.db.models import EventRow
from app.engine import Match, project_event, view_for

#: fields a table (non-engine) event may carry to clients
_TABLE_EVENT_FIELDS = ("type", "seat", "name", "from", "to", "match", "round", "starter")


def project_stored_event(payload: dict[str, Any], recipient: int | None) -> dict[str, Any]:
    """One stored event as ``recipient`` (seat or ``None``) may see it."""
    if payload.get("type") == "move":
        out = project_event(payload, recipient)
        out.pop("auto", None)
        if payload.get("auto"):
            out["auto"] = True
        return out
    return {k: payload[k] for k in _TABLE_EVENT_FIELDS if k in payload}


class RowFrames:
    """Builds the ``event`` frame of one stored row for any recipient (cached per seat)."""

    def __init__(self, row: EventRow) -> None:
        self.row = row
        self.match = Match.from_dict(row.state) if row.state else None
        self._cache: dict[int | None, dict[str, Any]] = {}

    def frame(self, recipient: int | None, connected: list[int]) -> dict[str, Any]:
        if recipient not in self._cache:
            self._cache[recipient] = {
                "type": "event",
                "seq": self.row.seq,
                "event": project_stored_event(self.row.payload, recipient),
                "view": view_for(self.match, recipient) if self.match else None,
            }
        frame = dict(self._cache[recipient])
        frame["table"] = with_presence(self.row.table_info, connected)
        return frame


def with_presence(info: dict[str, Any], connected: list[int]) -> dict[str, Any]:
    """Table info with this process's presence filled in."""
    out = dict(info)
    out["seats"] = [dict(s, connected=s["seat"] in connected) for s in info["seats"]]
    return out


def snapshot_frame(
    *,
    seq: int,
    recipient: int | None,
    info: dict[str, Any],
    state: dict[str, Any] | None,
    connected: list[int],
    missed: list[EventRow] | None = None,
) -> dict[str, Any]:
    """The ``snapshot`` frame for ``recipient`` (on connect, resync or after a refusal)."""
    match = Match.from_dict(state) if state else None
    return {
        "type": "snapshot",
        "seq": seq,
        "you": recipient,
        "table": with_presence(info, connected),
        "view": view_for(match, recipient) if match else None,
        "events": [
            {"seq": r.seq, "event": project_stored_event(r.payload, recipient)}
            for r in (missed or [])
        ],
    }
