"""The commit announcement between processes: PostgreSQL's NOTIFY channel and its payload.

Every committed change is announced on :data:`CHANNEL` with the payload
``"<table_id>:<seq>"`` (the table's seq after the change) — never any game data: a
listener reads what it needs from the database. Defined once, here; the store sends it
(inside the change's transaction) and :mod:`app.realtime.listener` receives it.

>>> decode_note(encode_note(12, 345))
(12, 345)
>>> decode_note("garbage") is None
True
"""

from __future__ import annotations

CHANNEL = "fiveup_events"


def encode_note(table_id: int, seq: int) -> str:
    """The NOTIFY payload announcing that ``table_id`` is at ``seq``."""
    return f"{table_id}:{seq}"


def decode_note(payload: str) -> tuple[int, int] | None:
    """``(table_id, seq)`` from a payload, or None for anything else."""
    table_id, _, seq = payload.partition(":")
    if not (table_id.isdigit() and seq.isdigit()):
        return None
    return int(table_id), int(seq)
