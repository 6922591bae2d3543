"""A round's log entries (``LogEntry``) as the event dicts the views and the history
show, and as the compact lists a stored match keeps (:meth:`~app.engine.match.Match.to_dict`).

>>> from .moves import Move
>>> entry = (1, Move.parse("draw"), 0, NO_TILE, False)
>>> entry_from_list(entry_list(entry)) == entry
True
>>> entry_dict(1, 0, entry)["kind"], entry_dict(1, 0, entry)["drawn"]
('draw', None)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.types import Json

from .moves import Move
from .places import PLACE_NAMES
from .round import NO_TILE, LogEntry
from .tiles import NAMES, parse_tile


def entry_dict(round_number: int, index: int, entry: LogEntry) -> Json:
    """A log entry as a full (unprojected) event dict."""
    seat, move, points, drawn, must_play = entry
    return {
        "type": "move",
        "round": round_number,
        "index": index,
        "seat": seat,
        "kind": move.kind,
        "move": move.text,
        "tile": None if move.tile is None else NAMES[move.tile],
        "place": None if move.place is None else PLACE_NAMES[move.place],
        "points": points,
        "drawn": None if drawn == NO_TILE else NAMES[drawn],
        "must_play": must_play,
    }


def entry_list(entry: LogEntry) -> list[Any]:
    """A log entry as a stored match keeps it: ``[seat, move, points, drawn, must_play]``."""
    seat, move, points, drawn, must_play = entry
    return [seat, move.text, points, None if drawn == NO_TILE else NAMES[drawn], must_play]


def entry_from_list(data: Sequence[Any]) -> LogEntry:
    """A stored log entry (:func:`entry_list`) read back."""
    seat, text, points, drawn, must_play = data
    return (
        int(seat),
        Move.parse(text),
        int(points),
        NO_TILE if drawn is None else parse_tile(drawn),
        bool(must_play),
    )
