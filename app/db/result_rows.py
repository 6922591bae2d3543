"""A finished match's result as the match-end change carries it to the store (the rows
of ``match_results`` and ``match_players``, docs/ratings.md): built by the table layer
from the engine's match (app/tables/results.py), written in the same transaction as the
move that ended the match."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat at the end of a match: who held it and its figures over the match."""

    seat: int
    #: the seat's side (R2: partnerships at four players)
    side: int
    name: str
    #: the seat token's hash at the end: the store finds the profile bound to it
    token_hash: str
    #: a computer player's level, None for a person
    bot: str | None
    won: bool
    #: the side's final score
    score: int
    #: rounds this seat ended by playing its last tile (R21)
    rounds_dominoed: int
    #: displayed points this seat's own moves made (R15), over the match
    points_made: int
    #: displayed points this seat's hands cost at settlements (R22), over the match
    deductions: int
    #: the most displayed points this seat's moves made in one round
    best_round: int


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A match that just ended (R24, or a resignation)."""

    match_number: int
    players: int
    #: the table is rated (chosen at its creation)
    rated: bool
    target: int
    rounds: int
    #: the winning side (R24)
    winner_side: int
    #: the seat that resigned, if the match ended so
    resigned_seat: int | None
    seats: tuple[SeatResult, ...]
