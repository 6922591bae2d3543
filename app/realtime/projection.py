"""Per-recipient frames. The only place that turns stored rows into outbound frames.

Engine events and states go through the engine's projections (``project_event``,
``view_for``); table events (seating, votes, round starts) carry no tile by construction
but are copied field by field from a whitelist anyway.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import orjson

from app.db.models import EventRow
from app.db.store import EventRecord
from app.engine import Match, project_event, view_for
from app.tables.info import utc_iso

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


def encode(frame: dict[str, Any]) -> str:
    """A frame as JSON text (compact; what goes on the wire)."""
    return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()


class RowFrames:
    """Builds the ``event`` frame of one stored row for any recipient (cached per seat)."""

    def __init__(self, row: EventRow | EventRecord) -> None:
        self.row = row
        self.match = Match.from_dict(row.state) if row.state else None
        self._cache: dict[int | None, dict[str, Any]] = {}
        self._encoded: dict[int | None, str] = {}

    def encoded(self, recipient: int | None, connected: list[int]) -> str:
        """:meth:`frame` as JSON text, encoded once per distinct recipient (every socket
        of one seat, and every spectator, gets the same text). ``connected`` must be the
        same for all calls on one instance."""
        text = self._encoded.get(recipient)
        if text is None:
            text = self._encoded[recipient] = encode(self.frame(recipient, connected))
        return text

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
    missed: list[EventRow] | list[EventRecord] | None = None,
) -> dict[str, Any]:
    """The ``snapshot`` frame for ``recipient`` (on connect, resync or after a refusal)."""
    match = Match.from_dict(state) if state else None
    return {
        "type": "snapshot",
        "seq": seq,
        "server_time": utc_iso(datetime.now(UTC)),  # for the client's clock skew
        "you": recipient,
        "table": with_presence(info, connected),
        "view": view_for(match, recipient) if match else None,
        "events": [
            {"seq": r.seq, "event": project_stored_event(r.payload, recipient)}
            for r in (missed or [])
        ],
    }
