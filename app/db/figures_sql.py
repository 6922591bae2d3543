"""The statements that add a finished match to its profiles' running totals
(``player_figures``, ``player_pairs``: app/db/figures_models.py, docs/games.md), sent by
app/db/result_writer.py with the match's seats, in the same transaction as its result —
so a match counts exactly once, as its result is written once.

Only seats bound to a profile count (a guest, a computer player count nowhere). The
rows are upserted in one order (by key), so two matches ending at once with players in
common lock them in the same order on PostgreSQL and never deadlock.

>>> from app.db.result_rows import MatchResult, SeatResult
>>> def seat(n, side, won):
...     return SeatResult(n, side, "", "", None, won, 61 if won else 20, 1, 30, 2, 12)
>>> result = MatchResult(1, 4, False, 61, 5, 0, None,
...                      (seat(0, 0, True), seat(1, 1, False), seat(2, 0, True), seat(3, 1, False)))
>>> figures, pairs = match_totals(result, {0: 7, 1: 8, 2: 9})
>>> [(f.profile_id, f.played, f.won, f.rounds) for f in figures]
[(7, 1, 1, 5), (8, 1, 0, 5), (9, 1, 1, 5)]
>>> [(p.profile_id, p.partners, p.other_id, p.won) for p in pairs]
[(7, False, 8, 1), (7, True, 9, 1), (8, False, 7, 0), (8, False, 9, 0), (9, False, 8, 1), (9, True, 7, 1)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.db.result_rows import MatchResult

Statement = tuple[str, dict[str, Any]]

_FIGURE_COLUMNS = (
    "profile_id",
    "players",
    "played",
    "won",
    "rounds",
    "rounds_dominoed",
    "points_made",
    "deductions",
    "best_round",
)
_SUMMED = ("played", "won", "rounds", "rounds_dominoed", "points_made", "deductions")
UPSERT_FIGURES = (
    f"INSERT INTO player_figures ({', '.join(_FIGURE_COLUMNS)}) VALUES {{}}"
    " ON CONFLICT (profile_id, players) DO UPDATE SET "
    + ", ".join(f"{c} = player_figures.{c} + excluded.{c}" for c in _SUMMED)
    + ", best_round = CASE WHEN excluded.best_round > player_figures.best_round"
    " THEN excluded.best_round ELSE player_figures.best_round END"
)
_PAIR_COLUMNS = ("profile_id", "partners", "other_id", "played", "won")
UPSERT_PAIRS = (
    f"INSERT INTO player_pairs ({', '.join(_PAIR_COLUMNS)}) VALUES {{}}"
    " ON CONFLICT (profile_id, partners, other_id) DO UPDATE SET"
    " played = player_pairs.played + excluded.played, won = player_pairs.won + excluded.won"
)


@dataclass(slots=True)
class Figures:
    """What one match adds to a profile's figures at its player count."""

    profile_id: int
    players: int
    played: int = 0
    won: int = 0
    rounds: int = 0
    rounds_dominoed: int = 0
    points_made: int = 0
    deductions: int = 0
    best_round: int = 0


@dataclass(slots=True)
class Pair:
    """What one match adds to a profile's count of games with (or against) another."""

    profile_id: int
    partners: bool
    other_id: int
    played: int = 0
    won: int = 0


def match_totals(result: MatchResult, profiles: dict[int, int]) -> tuple[list[Figures], list[Pair]]:
    """What the match adds to each profile's totals, in key order; ``profiles``: the
    profile bound to each person's seat (seat → profile id). A profile at two seats
    counts at each, as its ``match_players`` rows do."""
    seats = [(s, profiles[s.seat]) for s in result.seats if s.bot is None and s.seat in profiles]
    figures: dict[int, Figures] = {}
    pairs: dict[tuple[int, bool, int], Pair] = {}
    for s, pid in seats:
        f = figures.setdefault(pid, Figures(pid, result.players))
        f.played += 1
        f.won += int(s.won)
        f.rounds += result.rounds
        f.rounds_dominoed += s.rounds_dominoed
        f.points_made += s.points_made
        f.deductions += s.deductions
        f.best_round = max(f.best_round, s.best_round)
        for o, other in seats:
            if o.seat == s.seat or other == pid:
                continue
            key = (pid, o.side == s.side, other)
            p = pairs.setdefault(key, Pair(*key))
            p.played += 1
            p.won += int(s.won)
    return [figures[k] for k in sorted(figures)], [pairs[k] for k in sorted(pairs)]


def totals_statements(result: MatchResult, profiles: dict[int, int]) -> list[Statement]:
    """The upserts that add the match to its profiles' totals (none without a profile)."""
    figures, pairs = match_totals(result, profiles)
    statements: list[Statement] = []
    for rows, columns, sql, prefix in (
        (figures, _FIGURE_COLUMNS, UPSERT_FIGURES, "f"),
        (pairs, _PAIR_COLUMNS, UPSERT_PAIRS, "q"),
    ):
        if not rows:
            continue
        params: dict[str, Any] = {}
        for i, row in enumerate(rows):
            params.update({f"{prefix}{i}_{c}": getattr(row, c) for c in columns})
        values = ", ".join(
            "(" + ", ".join(f":{prefix}{i}_{c}" for c in columns) + ")" for i in range(len(rows))
        )
        statements.append((sql.format(values), params))
    return statements
