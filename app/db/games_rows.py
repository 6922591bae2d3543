"""The plain rows of my games and the player page (app/db/games_store.py): what the
finished matches (``match_results``, ``match_players``), ``ratings`` and ``friendships``
of migration 0012 say about one profile. Nothing here is private: a handle, a display
name, a seat's name and its figures."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class MatchSeat:
    """One seat of a finished match; ``handle`` is None for a guest, a computer player
    or a deleted profile (whose ``profile_id`` is None and name ``deleted player``)."""

    seat: int
    side: int
    profile_id: int | None
    handle: str | None
    name: str
    won: bool
    score: int


@dataclass(frozen=True, slots=True)
class FinishedMatch:
    """A finished match with all its seats."""

    id: int
    table_code: str
    match_number: int
    players: int
    rated: bool
    finished_at: datetime
    winner_side: int | None
    seats: list[MatchSeat]


@dataclass(frozen=True, slots=True)
class PublicProfile:
    """What the player page may show of a profile, and who may see it."""

    id: int
    handle: str
    display_name: str
    #: ``everyone``, ``friends`` or ``me``
    visibility: str


@dataclass(frozen=True, slots=True)
class Rating:
    pool: str
    mu: float
    sigma: float
    matches: int


@dataclass(frozen=True, slots=True)
class CountStats:
    """A profile's figures over its finished matches at one player count."""

    players: int
    played: int
    won: int
    #: the matches' rounds (match_results.rounds), summed
    rounds: int
    rounds_dominoed: int
    points_made: int
    deductions: int
    best_round: int


@dataclass(frozen=True, slots=True)
class Pairing:
    """Another profile met in finished matches: as an opponent, or as a partner."""

    handle: str
    display_name: str
    played: int
    #: matches the profile of the page won of those
    won: int
    #: the other profile's id (its handle and name are read afresh for each page)
    profile_id: int = 0
