"""The announcements between processes: PostgreSQL's NOTIFY channels and the commit's payload.

Every committed change is announced on :data:`CHANNEL` with the payload
``"<table_id>:<seq>"`` (the table's seq after the change) — never any game data: a
listener reads what it needs from the database. Defined once, here; the store sends it
(inside the change's transaction, or :mod:`app.db.pg_notifier` right after it) and
:mod:`app.db.pg_listener` receives it. Presence reports travel on
:data:`PRESENCE_CHANNEL` (their payloads: :mod:`app.realtime.presence`).

>>> decode_note(encode_note(12, 345))
(12, 345)
>>> decode_note("garbage") is None
True
"""

from __future__ import annotations

CHANNEL = "fiveup_events"
#: the channel of the processes' presence reports
PRESENCE_CHANNEL = "fiveup_presence"


def encode_note(table_id: int, seq: int) -> str:
    """The NOTIFY payload announcing that ``table_id`` is at ``seq``."""
    return f"{table_id}:{seq}"


def decode_note(payload: str) -> tuple[int, int] | None:
    """``(table_id, seq)`` from a payload, or None for anything else."""
    table_id, _, seq = payload.partition(":")
    if not (table_id.isdigit() and seq.isdigit()):
        return None
    return int(table_id), int(seq)
