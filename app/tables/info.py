"""Public table information (``TableInfo`` in docs/protocol.md). Holds no hidden tile."""

from __future__ import annotations

from typing import Any

from app.db.models import PlayerRow, TableRow
from app.engine import TARGET, Match, side_count, side_of, sides_seats


def table_info(table: TableRow, players: list[PlayerRow], match: Match | None) -> dict[str, Any]:
    """The public description of a table (``connected`` is filled in by the hub)."""
    by_seat = {p.seat: p for p in players}
    return {
        "code": table.code,
        "name": table.name,
        "players": table.players,
        "public": table.public,
        "status": table.status,
        "host": table.host_seat,
        "seq": table.seq,
        "match": table.match_number,
        "seats": [
            {
                "seat": s,
                "name": by_seat[s].name if s in by_seat else None,
                "side": side_of(s, table.players),  # R2 partnerships, from the engine
                "connected": False,
            }
            for s in range(table.players)
        ],
        "sides": sides_seats(table.players),
        "scores": list(match.scores) if match else [0] * side_count(table.players),
        "round": match.round_number if match else None,
        "phase": match.phase if match else None,
        "target": match.target if match else TARGET,
        "rematch_votes": sorted(table.rematch_votes or []),
        "ready": sorted(table.ready or []),
    }


def lobby_entry(table: TableRow, seats_taken: int, match: Match | None) -> dict[str, Any]:
    """One row of the lobby list."""
    return {
        "code": table.code,
        "name": table.name,
        "players": table.players,
        "status": table.status,
        "seats_taken": seats_taken,
        "scores": list(match.scores) if match else [0] * side_count(table.players),
        "round": match.round_number if match else None,
        "match": table.match_number,
    }
