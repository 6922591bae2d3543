"""Public table information (``TableInfo`` in docs/protocol.md): built from a table's
columns, its players and its match, after the change. Holds no hidden tile.

Presence (``seats[].connected``, ``presence`` and ``since``) is filled in by the hub
for the recipient's process (:mod:`app.realtime.presence`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import NamedTuple

from app.core.clock_presets import Presets
from app.db.rows import PlayerState, TableState, TableStatus
from app.engine import TARGET, Match, side_count, side_of, sides_seats
from app.types import Json


class MatchSummary(NamedTuple):
    """What the table info shows of a match (docs/protocol.md, TableInfo)."""

    scores: tuple[int, ...]
    round_number: int
    phase: str
    target: int
    round_over: bool
    over: bool


def summary_of(match: Match | None) -> MatchSummary | None:
    """The table info's numbers of ``match`` (``None`` without one)."""
    if match is None:
        return None
    return MatchSummary(
        tuple(match.scores),
        match.round_number,
        match.phase,
        match.target,
        match.round_over,
        match.over,
    )


@lru_cache(maxsize=4096)
def utc_iso(at: datetime) -> str:
    """``at`` as ISO 8601 UTC with milliseconds and ``Z`` (remembered: a deadline is
    written into every table info until it passes).

    >>> utc_iso(datetime(2026, 11, 29, 14, 12, 2, 123456, tzinfo=UTC))
    '2026-11-29T14:12:02.123Z'
    """
    at = (at if at.tzinfo else at.replace(tzinfo=UTC)).astimezone(UTC)
    return f"{at:%Y-%m-%dT%H:%M:%S}.{at.microsecond // 1000:03d}Z"


@lru_cache(maxsize=4096)
def unix_iso(at: float) -> str:
    """A UNIX time as :func:`utc_iso` writes it (remembered: a seat's ``since`` is the
    same moment in every table info until its presence changes).

    >>> unix_iso(0.25)
    '1970-01-01T00:00:00.250Z'
    """
    return utc_iso(datetime.fromtimestamp(at, UTC))


def next_round_at(
    table: TableState, match: MatchSummary | None, next_round_seconds: float
) -> str | None:
    """When the countdown deals the next round: the settlement time stored with the table
    (``round_over_at``) plus ``next_round_seconds``; ``None`` when no countdown runs."""
    at = table.round_over_at
    if (
        at is None
        or next_round_seconds <= 0
        or match is None
        or table.status != TableStatus.PLAYING
        or not match.round_over
        or match.over
    ):
        return None
    return utc_iso(at + timedelta(seconds=next_round_seconds))


def table_info(
    table: TableState,
    players: Sequence[PlayerState],
    match: MatchSummary | None,
    *,
    next_round_seconds: float,
    connected: list[int] | None = None,
    spectators: int = 0,
    presence: Mapping[int, tuple[str, float]] | None = None,
    clocks: Presets | None = None,
    before: Json | None = None,
    seats: list[Json] | None = None,
) -> Json:
    """The public description of a table as it stands (JSON-ready, ``TableInfo``);
    ``match``: what it shows of the match (:func:`~app.realtime.projection.summary_of`).

    ``presence``: each seat's state and since when (UNIX time); shown for a person's
    seat only (null for a computer player's or a free seat). ``clocks``: the clock
    presets' numbers (the settings; their defaults if None). ``before``: the info this
    caller built last for the table, with the same ``clocks``: its seats, sides and
    clock are reused where they are unchanged, so that a patch against it skips them by
    identity (read-only, like every info). ``seats``: the seats as they stand, when the
    caller knows them (``before``'s, known unchanged); ``connected`` and ``presence``
    are then not looked at."""
    if seats is None:
        seats = seat_list(table, players, connected, presence)
        if before is not None and before["seats"] == seats:
            seats = before["seats"]
    sides: list[list[int]] | None = None
    clock: Json | None = None
    if before is not None:
        if before["players"] == table.players:
            sides = before["sides"]
        if before["clock"]["preset"] == table.clock:
            clock = before["clock"]
    return {
        "code": table.code,
        "name": table.name,
        "players": table.players,
        "public": table.public,
        "rated": table.rated,
        "status": table.status,
        "host": table.host_seat,
        "seq": table.seq,
        "match": table.match_number,
        "seats": seats,
        "sides": sides if sides is not None else sides_seats(table.players),
        "scores": list(match.scores) if match else [0] * side_count(table.players),
        "round": match.round_number if match else None,
        "phase": match.phase if match else None,
        "target": match.target if match else TARGET,
        "rematch_votes": sorted(table.rematch_votes),
        "ready": sorted(table.ready),
        "next_round_at": next_round_at(table, match, next_round_seconds),
        "commitment": table.commitment if match is not None else None,
        "spectator_chat": table.spectator_chat,
        "spectators": spectators,
        "clock": clock if clock is not None else (clocks or Presets()).of(table.clock).info(),
        "turn_deadline": (
            utc_iso(table.turn_deadline)
            if table.turn_deadline is not None and table.status == TableStatus.PLAYING
            else None
        ),
        "banks": list(table.banks) if table.banks is not None else None,
        "resigned": table.resigned,
    }


def seat_list(
    table: TableState,
    players: Sequence[PlayerState],
    connected: list[int] | None,
    presence: Mapping[int, tuple[str, float]] | None,
) -> list[Json]:
    """A table info's ``seats``: each seat's player, side (R2) and presence. Depends on
    nothing else than these: the table's number of seats, the players' seats, names,
    levels and autopilot, and the presence (see :func:`seats_key`)."""
    by_seat = {p.seat: p for p in players}
    online = set(connected or ())
    seats: list[Json] = []
    for s in range(table.players):
        player = by_seat.get(s)
        seat: Json = {
            "seat": s,
            "name": player.name if player else None,
            "side": side_of(s, table.players),  # R2 partnerships, from the engine
            "connected": s in online,
            "bot": player.bot if player else None,  # a computer player's level
            "autopilot": player is not None and player.bot is None and player.autopilot,
            "presence": None,
            "since": None,
        }
        if player is not None and player.bot is None:
            state, since = (presence or {}).get(
                s, ("connected" if s in online else "disconnected", None)
            )
            seat["presence"] = state
            seat["since"] = None if since is None else unix_iso(since)
        seats.append(seat)
    return seats


def seats_key(table: TableState, players: Sequence[PlayerState], presence_revision: int) -> object:
    """What :func:`seat_list` depends on, given the presence's revision
    (:meth:`app.realtime.presence.PresenceLog.revision`): two equal keys mean equal
    seats."""
    return (
        table.players,
        presence_revision,
        tuple((p.seat, p.name, p.bot, p.autopilot) for p in players),
    )


def lobby_entry(
    table: TableState,
    seats_taken: int,
    match: Match | None,
    *,
    bots: int = 0,
    spectators: int = 0,
) -> Json:
    """One row of the lobby list (``LobbyEntry``)."""
    return {
        "code": table.code,
        "name": table.name,
        "players": table.players,
        "status": table.status,
        "seats_taken": seats_taken,
        "bots": bots,
        "scores": list(match.scores) if match else [0] * side_count(table.players),
        "round": match.round_number if match else None,
        "match": table.match_number,
        "finished_matches": finished_matches(table.status, table.match_number),
        "spectators": spectators,
    }


def finished_matches(status: str, match_number: int) -> int:
    """How many matches a table played to their end: every match before the current one
    (a rematch or a new player followed it only once it was over), and the current one
    once it is over (``finished``, by its end or a resignation).

    >>> finished_matches("playing", 3), finished_matches("finished", 3), finished_matches("waiting", 0)
    (2, 3, 0)
    """
    earlier = max(match_number - 1, 0)
    return earlier + (1 if status == TableStatus.FINISHED else 0)
