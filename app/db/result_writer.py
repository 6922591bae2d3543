"""Writing a finished match's result, and a rated match's ratings, inside the
transaction of the change that ended it (docs/ratings.md) — once: the result's row is
unique by table and match number, so a retried or repeated write finds it there and
changes nothing more.

The steps are the same on both databases, written once over :class:`Sql` (one
statement, named parameters ``:name``), which each store provides on its open
transaction: PostgreSQL's locks the rating rows it reads (``FOR UPDATE``), SQLite's
single writer holds the whole database already.

1. the ``match_results`` row (``ON CONFLICT DO NOTHING``: none comes back if it is there);
2. the profiles bound to the seats whose tokens still hold them (``profile_seats``);
3. at a rated table, whose every seat is a profile or a computer player with no
   profile twice: each one's rating in the ``all`` pool and its player count's, created
   if new (a person at openskill's defaults, a computer player's level at its
   calibrated rating, app/ratings/calibration.py), read locked in one order, updated by
   app/ratings;
4. one ``match_players`` row per seat, with its ``all``-pool rating before and after;
5. the seats' profiles' running totals (app/db/figures_sql.py): their figures at the
   match's player count, and whom they met, with and against.

Each step is one statement whatever the table's size (the rows of a VALUES list), sent
in two round trips (PostgreSQL's pipeline): the result with the bindings and (a rated
match) the ratings created and read; then the ratings, the seats and the totals written
(bench/rating_commit.py).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol

from app.db.figures_sql import totals_statements
from app.db.result_rows import MatchResult, SeatResult
from app.ratings import CALIBRATED, DEFAULT_MU, DEFAULT_SIGMA, Rating, match_ranks, rate_match

#: a rating's owner: ("p", profile id) or ("b", computer player's level)
Owner = tuple[str, Any]


Statement = tuple[str, dict[str, Any]]


class Sql(Protocol):
    """Statements on the open transaction."""

    locks: bool

    async def batch(self, statements: Sequence[Statement]) -> list[Sequence[Sequence[Any]]]:
        """Run the statements in order — in one round trip where the driver can
        (psycopg's pipeline) — and answer each one's rows (none for a statement without)."""
        ...


INSERT_RESULT = (
    "INSERT INTO match_results (table_id, table_code, match_number, players, rated, target,"
    " rounds, winner_side, resigned_seat, finished_at)"
    " SELECT g.id, g.code, :match_number, :players, :rated, :target, :rounds, :winner_side,"
    " :resigned_seat, :now FROM game_tables g WHERE g.id = :table_id"
    " ON CONFLICT (table_id, match_number) DO NOTHING RETURNING id"
)
BOUND_PROFILES = (
    "SELECT ps.seat, ps.profile_id FROM profile_seats ps JOIN players p"
    " ON p.table_id = ps.table_id AND p.seat = ps.seat AND p.token_hash = ps.token_hash"
    " WHERE ps.table_id = :table_id"
)
#: the people whose profiles are bound to the table's seats (by their tokens)
_BOUND_PEOPLE = (
    "SELECT ps.profile_id FROM profile_seats ps JOIN players p ON p.table_id = ps.table_id"
    " AND p.seat = ps.seat AND p.token_hash = ps.token_hash"
    " WHERE ps.table_id = :table_id AND p.bot IS NULL"
)
#: the two pools a match moves: all rated matches, and its player count's
_POOLS = "(SELECT :pool_all AS pool UNION ALL SELECT :pool_count)"
#: a rating row for each (owner, pool) at the table not rated yet — a person at a new
#: player's rating, a computer player's level at its calibrated one — created in one
#: order (two matches ending at once with a new owner in common never deadlock)
ENSURE_PEOPLE = (
    "INSERT INTO ratings (profile_id, bot_level, pool, mu, sigma, matches, updated_at)"
    " SELECT DISTINCT b.profile_id, CAST(NULL AS VARCHAR(16)), q.pool, :mu, :sigma, 0, :now"
    f" FROM ({_BOUND_PEOPLE})"
    f" AS b CROSS JOIN {_POOLS} AS q WHERE b.profile_id IS NOT NULL"
    " ORDER BY b.profile_id, q.pool ON CONFLICT (profile_id, pool) DO NOTHING"
)
ENSURE_BOTS = (
    "WITH c(level, mu, sigma) AS (VALUES {})"
    " INSERT INTO ratings (profile_id, bot_level, pool, mu, sigma, matches, updated_at)"
    " SELECT DISTINCT CAST(NULL AS INTEGER), p.bot, q.pool, c.mu, c.sigma, 0, :now FROM players p"
    f" JOIN c ON c.level = p.bot CROSS JOIN {_POOLS} AS q WHERE p.table_id = :table_id"
    " ORDER BY p.bot, q.pool ON CONFLICT (bot_level, pool) DO NOTHING"
)
#: the table's owners' ratings in both pools, in one order (the locks of PostgreSQL's
#: ``FOR UPDATE`` are taken in it)
READ_RATINGS = (
    "SELECT id, profile_id, bot_level, pool, mu, sigma FROM ratings"
    " WHERE pool IN (:pool_all, :pool_count)"
    f" AND (profile_id IN ({_BOUND_PEOPLE})"
    " OR bot_level IN (SELECT p.bot FROM players p WHERE p.table_id = :table_id))"
    " ORDER BY id"
)
UPDATE_RATINGS = (
    "WITH v(id, mu, sigma) AS (VALUES {}) UPDATE ratings SET mu = v.mu, sigma = v.sigma,"
    " matches = ratings.matches + 1, updated_at = :now FROM v WHERE ratings.id = v.id"
)
INSERT_SEATS = (
    "INSERT INTO match_players (match_id, seat, side, profile_id, bot_level, name, won, score,"
    " rounds_dominoed, points_made, deductions, best_round, mu_before, sigma_before,"
    " mu_after, sigma_after) VALUES {}"
)
_SEAT_COLUMNS = [
    "seat",
    "side",
    "profile_id",
    "bot_level",
    "name",
    "won",
    "score",
    "rounds_dominoed",
    "points_made",
    "deductions",
    "best_round",
    "mu_before",
    "sigma_before",
    "mu_after",
    "sigma_after",
]


def _values(rows: int, columns: Sequence[str], prefix: str) -> str:
    """``(:p0_a, :p0_b), (:p1_a, :p1_b), …``: the named parameters of a VALUES list."""
    return ", ".join(
        "(" + ", ".join(f":{prefix}{i}_{c}" for c in columns) + ")" for i in range(rows)
    )


async def record_result(sql: Sql, table_id: int, result: MatchResult, now: datetime) -> bool:
    """Write ``result`` (and a rated match's ratings) on ``sql``'s transaction; False
    when this match's result was written before (then nothing is written)."""
    statements: list[Statement] = [
        (
            INSERT_RESULT,
            {
                "table_id": table_id,
                "match_number": result.match_number,
                "players": result.players,
                "rated": result.rated,
                "target": result.target,
                "rounds": result.rounds,
                "winner_side": result.winner_side,
                "resigned_seat": result.resigned_seat,
                "now": now,
            },
        ),
        (BOUND_PROFILES, {"table_id": table_id}),
    ]
    if result.rated:  # the ratings read (locked) in the same round trip
        statements += _rating_reads(sql, table_id, result, now)
    answers = await sql.batch(statements)
    inserted, bound_rows = answers[0], answers[1]
    if not inserted:
        return False
    match_id = int(inserted[0][0])
    bound = {int(seat): int(profile) for seat, profile in bound_rows}
    owners = _owners(result.seats, bound)
    before: dict[int, Rating] = {}
    after: dict[int, Rating] = {}
    writes: list[Statement] = []
    if result.rated and owners is not None:
        before, after, update = _rate(result, owners, answers[-1], now)
        writes.append(update)
    params: dict[str, Any] = {"match_id": match_id}
    for i, s in enumerate(result.seats):
        old, new = before.get(s.seat), after.get(s.seat)
        fields = {
            "seat": s.seat,
            "side": s.side,
            "profile_id": bound.get(s.seat) if s.bot is None else None,
            "bot_level": s.bot,
            "name": s.name,
            "won": s.won,
            "score": s.score,
            "rounds_dominoed": s.rounds_dominoed,
            "points_made": s.points_made,
            "deductions": s.deductions,
            "best_round": s.best_round,
            "mu_before": old.mu if old else None,
            "sigma_before": old.sigma if old else None,
            "mu_after": new.mu if new else None,
            "sigma_after": new.sigma if new else None,
        }
        params.update({f"s{i}_{c}": v for c, v in fields.items()})
    values = ", ".join(
        "(:match_id, " + ", ".join(f":s{i}_{c}" for c in _SEAT_COLUMNS) + ")"
        for i in range(len(result.seats))
    )
    writes.append((INSERT_SEATS.format(values), params))
    writes += totals_statements(result, bound)  # the profiles' running totals
    await sql.batch(writes)
    return True


def _owners(seats: Sequence[SeatResult], bound: dict[int, int]) -> dict[int, Owner] | None:
    """Whose rating each seat moves; None when the match cannot be rated: a person's seat
    bound to no profile, or one profile at two seats."""
    owners: dict[int, Owner] = {}
    for s in seats:
        if s.bot is not None:
            owners[s.seat] = ("b", s.bot)
        elif s.seat in bound:
            owners[s.seat] = ("p", bound[s.seat])
        else:
            return None
    people = [o for o in owners.values() if o[0] == "p"]
    return owners if len(set(people)) == len(people) else None


def _rating_reads(sql: Sql, table_id: int, result: MatchResult, now: datetime) -> list[Statement]:
    """The statements that create the table's owners' missing ratings and read them all
    (locked where the database locks rows)."""
    pools = {"table_id": table_id, "pool_all": "all", "pool_count": str(result.players)}
    calibrated: dict[str, Any] = {}
    for i, (level, rating) in enumerate(CALIBRATED.items()):
        calibrated |= {f"c{i}_level": level, f"c{i}_mu": rating.mu, f"c{i}_sigma": rating.sigma}
    levels = _values(len(CALIBRATED), ("level", "mu", "sigma"), "c")
    new = {"mu": DEFAULT_MU, "sigma": DEFAULT_SIGMA, "now": now}
    return [
        (ENSURE_PEOPLE, pools | new),
        (ENSURE_BOTS.format(levels), pools | calibrated | {"now": now}),
        (READ_RATINGS + (" FOR UPDATE" if sql.locks else ""), pools),
    ]


def _rate(
    result: MatchResult, owners: dict[int, Owner], rows: Sequence[Sequence[Any]], now: datetime
) -> tuple[dict[int, Rating], dict[int, Rating], Statement]:
    """Both pools' new ratings of the match's owners from their rating ``rows`` (read
    locked); each seat's ``all``-pool rating before and after, and the statement that
    writes the new ones."""
    pools = {"all": "all", "count": str(result.players)}
    ids: dict[tuple[Owner, str], int] = {}
    ratings: dict[tuple[Owner, str], Rating] = {}
    for rid, profile, bot, pool, mu, sigma in rows:
        owner: Owner = ("p", int(profile)) if profile is not None else ("b", str(bot))
        ids[(owner, str(pool))] = int(rid)
        ratings[(owner, str(pool))] = Rating(float(mu), float(sigma))
    moved: dict[int, Rating] = {}
    before_seat: dict[int, Rating] = {}
    after_seat: dict[int, Rating] = {}
    for key, pool in pools.items():
        old = {o: ratings[(o, pool)] for o in set(owners.values())}
        new = _settle(result, owners, old)
        for o, rating in new.items():
            moved[ids[(o, pool)]] = rating
        if key == "all":
            before_seat = {s.seat: old[owners[s.seat]] for s in result.seats}
            after_seat = {s.seat: new[owners[s.seat]] for s in result.seats}
    update: dict[str, Any] = {"now": now}
    for i, (rid, r) in enumerate(moved.items()):
        update[f"u{i}_id"], update[f"u{i}_mu"], update[f"u{i}_sigma"] = rid, r.mu, r.sigma
    write = (UPDATE_RATINGS.format(_values(len(moved), ("id", "mu", "sigma"), "u")), update)
    return before_seat, after_seat, write


def _settle(
    result: MatchResult, owners: dict[int, Owner], old: dict[Owner, Rating]
) -> dict[Owner, Rating]:
    """Each owner's rating after the match (one pool): sides ranked (app/ratings), a
    computer player's level at several seats moved by the mean of its seats' changes."""
    sides = sorted({s.side for s in result.seats})
    teams = [[s for s in result.seats if s.side == side] for side in sides]
    resigned = next((s.side for s in result.seats if s.seat == result.resigned_seat), None)
    ranks = match_ranks([team[0].score for team in teams], result.winner_side, resigned)
    rated = rate_match([[old[owners[s.seat]] for s in team] for team in teams], ranks)
    news: dict[Owner, list[Rating]] = defaultdict(list)
    for team, new_team in zip(teams, rated, strict=True):
        for s, new in zip(team, new_team, strict=True):
            news[owners[s.seat]].append(new)
    return {
        owner: Rating(
            old[owner].mu + sum(n.mu - old[owner].mu for n in got) / len(got),
            sum(n.sigma for n in got) / len(got),
        )
        for owner, got in news.items()
    }
