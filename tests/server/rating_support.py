"""Helpers of the rating tests: profiles made in the profile store, seats bound to them
as the API binds them, the rows of finished matches and ratings read back, and an
independent openskill computation to compare with."""

from __future__ import annotations

import itertools
import secrets
import sqlite3
from typing import Any

import psycopg
from openskill.models import PlackettLuce

from app.core.security import hash_token
from app.db.profile_rows import NewPasskey
from app.db.profile_store import make_profile_store

from .support import libpq_dsn

_n = itertools.count(1)


async def new_profiles(db_url: str, count: int) -> list[int]:
    """``count`` new profiles (a passkey each); their ids."""
    store = make_profile_store(db_url)
    ids = []
    try:
        for _ in range(count):
            handle = f"r{next(_n)}{secrets.token_hex(3)}"
            key = NewPasskey(secrets.token_hex(8), secrets.token_hex(16), 0)
            profile = await store.create_profile(handle, handle, handle.upper(), handle, key)
            ids.append(profile.id)
    finally:
        await store.close()
    return ids


async def bind(db_url: str, profile_id: int, table_id: int, seat: int, token: str) -> None:
    """Bind a seat to a profile, as the API does for a signed-in browser."""
    store = make_profile_store(db_url)
    try:
        await store.bind_seat(profile_id, table_id, seat, hash_token(token))
    finally:
        await store.close()


def query(db_url: str, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    """Rows of one query (``?`` placeholders) on either database."""
    if db_url.startswith("sqlite"):
        with sqlite3.connect(db_url.split("///", 1)[1]) as conn:
            return [tuple(r) for r in conn.execute(sql, params).fetchall()]
    with psycopg.connect(libpq_dsn(db_url)) as conn:
        cur = conn.execute(sql.replace("?", "%s"), params)
        return [tuple(r) for r in cur.fetchall()] if cur.description else []


def results_of(db_url: str, code: str) -> list[tuple[Any, ...]]:
    """The table's match_results rows: (id, match_number, players, rated, rounds,
    winner_side, resigned_seat)."""
    return query(
        db_url,
        "SELECT id, match_number, players, rated, rounds, winner_side, resigned_seat"
        " FROM match_results WHERE table_code = ? ORDER BY match_number",
        code,
    )


def seats_of(db_url: str, match_id: int) -> list[dict[str, Any]]:
    """A finished match's match_players rows, by seat."""
    cols = [
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
    rows = query(
        db_url,
        f"SELECT {', '.join(cols)} FROM match_players WHERE match_id = ? ORDER BY seat",
        match_id,
    )
    return [dict(zip(cols, r, strict=True)) for r in rows]


def rating(db_url: str, pool: str, *, profile: int | None = None, bot: str | None = None) -> Any:
    """(mu, sigma, matches) of a rating, None if there is none."""
    if profile is not None:
        rows = query(
            db_url,
            "SELECT mu, sigma, matches FROM ratings WHERE profile_id = ? AND pool = ?",
            profile,
            pool,
        )
    else:
        rows = query(
            db_url,
            "SELECT mu, sigma, matches FROM ratings WHERE bot_level = ? AND pool = ?",
            bot,
            pool,
        )
    return rows[0] if rows else None


#: openskill itself, with its defaults: what the server's ratings must equal
MODEL = PlackettLuce()


def _marks(ids: list[int]) -> str:
    return ", ".join("?" for _ in ids)


def figures_kept(db_url: str, profiles: list[int]) -> list[tuple[Any, ...]]:
    """The running totals of these profiles (``player_figures``), by profile and count."""
    return query(
        db_url,
        "SELECT profile_id, players, played, won, rounds, rounds_dominoed, points_made,"
        f" deductions, best_round FROM player_figures WHERE profile_id IN ({_marks(profiles)})"
        " ORDER BY profile_id, players",
        *profiles,
    )


def figures_counted(db_url: str, profiles: list[int]) -> list[tuple[Any, ...]]:
    """The same figures counted afresh from every finished match's seats (the oracle)."""
    return query(
        db_url,
        "SELECT mp.profile_id, r.players, count(*), sum(CASE WHEN mp.won THEN 1 ELSE 0 END),"
        " sum(r.rounds), sum(mp.rounds_dominoed), sum(mp.points_made), sum(mp.deductions),"
        " max(mp.best_round) FROM match_players mp JOIN match_results r ON r.id = mp.match_id"
        f" WHERE mp.profile_id IN ({_marks(profiles)})"
        " GROUP BY mp.profile_id, r.players ORDER BY mp.profile_id, r.players",
        *profiles,
    )


def pairs_kept(db_url: str, profiles: list[int]) -> list[tuple[Any, ...]]:
    """Whom these profiles met (``player_pairs``): (profile, partners, other, played, won)."""
    rows = query(
        db_url,
        "SELECT profile_id, partners, other_id, played, won FROM player_pairs"
        f" WHERE profile_id IN ({_marks(profiles)})",
        *profiles,
    )
    return sorted((p, bool(partners), o, n, w) for p, partners, o, n, w in rows)


def pairs_counted(db_url: str, profiles: list[int]) -> list[tuple[Any, ...]]:
    """The same pairings counted afresh from every finished match's seats (the oracle)."""
    rows = query(
        db_url,
        "SELECT me.profile_id, them.side = me.side, them.profile_id, count(*),"
        " sum(CASE WHEN me.won THEN 1 ELSE 0 END) FROM match_players me"
        " JOIN match_players them ON them.match_id = me.match_id AND them.seat <> me.seat"
        f" WHERE me.profile_id IN ({_marks(profiles)}) AND them.profile_id IS NOT NULL"
        " AND them.profile_id <> me.profile_id"
        " GROUP BY me.profile_id, them.side = me.side, them.profile_id",
        *profiles,
    )
    return sorted((p, bool(partners), o, n, w) for p, partners, o, n, w in rows)
