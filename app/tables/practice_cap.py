"""The cap on live practice tables per client address (``FIVEUP_MAX_LIVE_PRACTICE_TABLES``,
docs/configuration.md).

A practice table is stored with its creator's key (``game_tables.created_by``: the
SHA-256 of the client address, never the address itself), and a new one is refused with
``409 too_many_practice_tables`` while that key already has ``max_live`` tables waiting
or in play. The count is read from the database, so every server process sees the same
one; a table stops counting once it is finished or closed (its match ended, or its last
person left).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from app.core import metrics
from app.db.store import Store, Unavailable
from app.tables.errors import TableError, unavailable


@dataclass(frozen=True, slots=True)
class PracticeCreator:
    """Who asks for a practice table (``key``) and how many of theirs may be live."""

    key: str
    max_live: int


def creator_key(address: str) -> str:
    """The stored key of a client address (64 hex digits).

    >>> creator_key("10.0.0.1") == creator_key("10.0.0.1") != creator_key("10.0.0.2")
    True
    """
    return hashlib.sha256(f"fiveup-practice:{address}".encode()).hexdigest()


async def check(store: Store, creator: PracticeCreator) -> None:
    """Raise ``too_many_practice_tables`` (409) when ``creator`` has ``max_live`` practice
    tables waiting or in play; ``unavailable`` (503) when the database does not answer.

    Two requests of one creator at the same instant may both pass: the cap bounds a
    flood, it is not an exact count."""
    try:
        live = await store.live_tables_created_by(creator.key)
    except Unavailable:
        raise unavailable() from None
    if live >= creator.max_live:
        metrics.quota_refused("practice_tables")
        raise TableError(
            "too_many_practice_tables",
            f"{live} of your practice tables are waiting or in play (at most"
            f" {creator.max_live}); finish or leave one first",
            409,
        )
