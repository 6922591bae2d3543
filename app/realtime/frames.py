"""Per-recipient frames — the one projection for everything a client receives.

Every outbound frame is built here from the projections (``Projection.view``,
``project_event``) for one recipient (a seat, or ``None`` for a spectator). Table events
(seating, votes, round starts) carry no tile by construction but are still copied field by
field from a whitelist. The frames' shapes are the models in :mod:`app.schemas`.

The *wire view* of an event frame is the engine's view without its two layout
descriptions (about half its size, and they change with every placement;
:mod:`app.realtime.view_patch`): a snapshot carries them; afterwards a client asks for
them with ``describe`` (a ``description`` frame answers).
"""

from __future__ import annotations

from datetime import UTC, datetime

from app.core.json_text import json_bytes
from app.engine import project_event
from app.engine.describe import describe_laid
from app.realtime.table_info import utc_iso
from app.types import Json

#: who a frame is built for: a seat, or ``None`` for a spectator
Recipient = int | None

#: fields a table (non-engine) event may carry to clients
_TABLE_EVENT_FIELDS = (
    "type",
    "seat",
    "name",
    "from",
    "to",
    "match",
    "round",
    "starter",
    "commitment",  # a deal's public commitment (docs/fairness.md)
    *("channel", "text", "quick", "on"),  # chat and the spectator-chat switch
    "level",  # a computer player's strength (bot_added, bot_changed)
    *("by", "winner"),  # seat_replaced's replacement, resigned's winner
    "reason",  # why a table closed: ``left`` or ``abandoned`` (closed)
)
#: the one event that may carry a seed: ``revealed``, emitted once its round is settled
#: (R22). A deal event keeps its round's seed inside ``deal``, which is never sent.
_REVEALED_FIELDS = ("seed",)
#: view fields sent only in snapshots and ``description`` frames
DESCRIPTION_FIELDS = ("description", "description_uk")
#: view fields compared one level deeper when patching
NESTED_VIEW_FIELDS = ("layout",)


def encode(frame: Json) -> bytes:
    """A frame as compact JSON, UTF-8 encoded: the bytes that go on the wire as the
    payload of one WebSocket text frame, from here to the socket without being decoded
    (:func:`~app.core.json_text.json_bytes`), so a socket's queue counts what it sends.

    >>> encode({"type": "ack", "seq": 3}), encode({"scores": {0: 5}})
    (b'{"type":"ack","seq":3}', b'{"scores":{"0":5}}')
    >>> len(encode({"text": "привіт"})) - len(encode({"text": ""}))  # two bytes a letter
    12
    """
    return json_bytes(frame)


def project_stored_event(payload: Json, recipient: int | None) -> Json:
    """One stored event as ``recipient`` may see it."""
    if payload.get("type") == "move":
        out = project_event(payload, recipient)
        out.pop("auto", None)
        if payload.get("auto"):
            out["auto"] = True
        return out
    fields: tuple[str, ...] = _TABLE_EVENT_FIELDS
    if payload.get("type") == "revealed":
        fields += _REVEALED_FIELDS
    return {k: payload[k] for k in fields if k in payload}


def snapshot_frame(
    *,
    seq: int,
    recipient: int | None,
    info: Json,
    view: Json | None,
    missed: list[Json] | None = None,
    chat: list[Json] | None = None,
) -> Json:
    """The ``snapshot`` frame (on connect, on resync, after ``stale``/``conflict``);
    ``view``: the recipient's whole view (``Projection.view``, ``None``: no match);
    ``chat``: the recent chat as ``{"seq", "event"}`` items (``None``: not read, the
    client keeps what it holds)."""
    return {
        "type": "snapshot",
        "seq": seq,
        "server_time": utc_iso(datetime.now(UTC)),  # for the client's clock skew
        "you": recipient,
        "table": info,
        "view": view,
        "events": missed or [],
        "chat": chat,
    }


def description_frame(seq: int, public: Json | None) -> Json:
    """The layout descriptions (English and Ukrainian) at ``seq``, from the public view
    fields delivered at ``seq`` (``None``: no match): the same for every recipient, and
    built from what was sent, never from a live match."""
    if public is None:
        return {"type": "description", "seq": seq, "description": None, "description_uk": None}
    laid: Json = public["layout"]
    return {
        "type": "description",
        "seq": seq,
        "description": describe_laid(laid),
        "description_uk": describe_laid(laid, "uk"),
    }


def error_frame(code: str, message: str, move_id: object = None, rule: str | None = None) -> Json:
    frame: Json = {
        "type": "error",
        "code": code,
        "message": message,
        "move_id": move_id if isinstance(move_id, str) else None,
    }
    if rule:
        frame["rule"] = rule
    return frame
