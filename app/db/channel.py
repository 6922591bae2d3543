"""The announcements between processes: PostgreSQL's NOTIFY channels and the commit's payload.

Every committed change is announced on :data:`CHANNEL` with the payload
``"<table_id>:<seq>:<sent_ms>:<origin>"`` — the table's seq after the change, the
sender's wall clock in milliseconds when the announcement was made (for the lag a
listener measures, ``fiveup_notify_lag_seconds``) and the sending process's random tag
(:data:`ORIGIN`, so a listener knows its own) — never any game data: a listener reads
what it needs from the database. Defined once, here; the store sends it (inside the
change's transaction, or :mod:`app.db.pg_notifier` right after it) and
:mod:`app.db.pg_listener` receives it. Presence reports travel on
:data:`PRESENCE_CHANNEL` (their payloads: :mod:`app.realtime.presence`).

The older payload ``"<table_id>:<seq>"`` is still understood (it carries no stamp), so
a listener reads announcements of a process that sends it.

>>> decode_note(encode_note(12, 345))
(12, 345)
>>> decode_note("12:345"), note_stamp("12:345")
((12, 345), None)
>>> decode_note("12:345:1700000000250:ab12cd34"), note_stamp("12:345:1700000000250:ab12cd34")
((12, 345), Stamp(sent_at=1700000000.25, own=False))
>>> note_stamp(encode_note(1, 2)).own, decode_note("garbage") is None, decode_note("1:2:x:y")
(True, True, None)
"""

from __future__ import annotations

import secrets
import time
from typing import NamedTuple

CHANNEL = "fiveup_events"
#: the channel of the processes' presence reports
PRESENCE_CHANNEL = "fiveup_presence"
#: the channel of profile sockets' notes: invitations, online and offline
#: (payloads: :mod:`app.realtime.profile_hub`)
PROFILES_CHANNEL = "fiveup_profiles"

#: this process's tag in its announcements (random per process)
ORIGIN = secrets.token_hex(4)


class Stamp(NamedTuple):
    """When an announcement was sent (seconds since the epoch, the sender's clock) and
    whether this process sent it."""

    sent_at: float
    own: bool


def encode_note(table_id: int, seq: int) -> str:
    """The NOTIFY payload announcing that ``table_id`` is at ``seq``, stamped now."""
    return f"{table_id}:{seq}:{int(time.time() * 1000)}:{ORIGIN}"


def decode_note(payload: str) -> tuple[int, int] | None:
    """``(table_id, seq)`` from a payload (stamped or not), or None for anything else."""
    parts = payload.split(":")
    if len(parts) not in (2, 4) or not (parts[0].isdigit() and parts[1].isdigit()):
        return None
    if len(parts) == 4 and not parts[2].isdigit():
        return None
    return int(parts[0]), int(parts[1])


def note_stamp(payload: str) -> Stamp | None:
    """The stamp of a payload, or None when it has none (an older sender's)."""
    parts = payload.split(":")
    if len(parts) != 4 or not parts[2].isdigit():
        return None
    return Stamp(int(parts[2]) / 1000, parts[3] == ORIGIN)
