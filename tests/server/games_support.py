"""Finished matches written straight into a real database (PostgreSQL or SQLite) for
the my-games and player-page tests: the rows a match's end writes (``match_results``,
``match_players``, and the players' running totals of migration 0017 by the server's own
statements, app/db/figures_sql.py), ratings and friendships."""

from __future__ import annotations

import itertools
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import httpx
from sqlalchemy import insert, select, text

from app.db.core_store import table_of
from app.db.figures_sql import totals_statements
from app.db.models import ProfileRow
from app.db.result_models import FriendshipRow, MatchPlayerRow, MatchResultRow, RatingRow
from app.db.result_rows import MatchResult, SeatResult
from app.db.session import make_engine

from .moderation_support import new_address
from .passkey_support import SoftPasskey

PRO, RES, MP, RAT, FRI = (
    table_of(m) for m in (ProfileRow, MatchResultRow, MatchPlayerRow, RatingRow, FriendshipRow)
)
_START = datetime(2026, 1, 1, tzinfo=UTC)
#: table ids of result rows (no table row: a result outlives its table), unique per run
_TABLE_IDS = itertools.count(1_000_000 + secrets.randbelow(1_000_000) * 1000)


@dataclass
class Seat:
    """One seat of a finished match (``profile_id`` None: a guest or computer player)."""

    name: str
    side: int
    won: bool
    score: int
    profile_id: int | None = None
    rounds_dominoed: int = 0
    points_made: int = 0
    deductions: int = 0
    best_round: int = 0


class ResultRows:
    """Writes result rows into the database at ``url`` (one engine, closed by ``close``)."""

    def __init__(self, url: str) -> None:
        self.engine = make_engine(url)
        self._n = 0

    async def close(self) -> None:
        await self.engine.dispose()

    async def profile_id(self, handle: str) -> int:
        async with self.engine.begin() as conn:
            got = (await conn.execute(select(PRO.c.id).where(PRO.c.handle == handle))).scalar()
        assert got is not None, handle
        return int(got)

    async def match(
        self,
        code: str,
        number: int,
        seats: list[Seat],
        *,
        rated: bool = False,
        rounds: int = 5,
        table_id: int | None = None,
    ) -> int:
        """A finished match (its seats in seat order); its id. Each call finishes a
        minute after the one before."""
        self._n += 1
        winners = {s.side for s in seats if s.won}
        async with self.engine.begin() as conn:
            res = await conn.execute(
                insert(RES).values(
                    table_id=table_id if table_id is not None else next(_TABLE_IDS),
                    table_code=code,
                    match_number=number,
                    players=len(seats),
                    rated=rated,
                    target=250,
                    rounds=rounds,
                    winner_side=winners.pop() if winners else None,
                    finished_at=_START + timedelta(minutes=self._n),
                )
            )
            assert res.inserted_primary_key is not None
            match_id = int(res.inserted_primary_key[0])
            await conn.execute(
                insert(MP),
                [
                    {
                        "match_id": match_id,
                        "seat": i,
                        "side": s.side,
                        "profile_id": s.profile_id,
                        "bot_level": None,
                        "name": s.name,
                        "won": s.won,
                        "score": s.score,
                        "rounds_dominoed": s.rounds_dominoed,
                        "points_made": s.points_made,
                        "deductions": s.deductions,
                        "best_round": s.best_round,
                    }
                    for i, s in enumerate(seats)
                ],
            )
            # the running totals, as the match-end transaction adds them
            result = MatchResult(
                number,
                len(seats),
                rated,
                250,
                rounds,
                -1,
                None,
                tuple(
                    SeatResult(
                        i,
                        s.side,
                        s.name,
                        "",
                        None,
                        s.won,
                        s.score,
                        s.rounds_dominoed,
                        s.points_made,
                        s.deductions,
                        s.best_round,
                    )
                    for i, s in enumerate(seats)
                ),
            )
            bound = {i: s.profile_id for i, s in enumerate(seats) if s.profile_id is not None}
            for statement, params in totals_statements(result, bound):
                await conn.execute(text(statement), params)
        return match_id

    async def rating(self, profile_id: int, pool: str, mu: float, sigma: float, n: int) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(
                insert(RAT).values(profile_id=profile_id, pool=pool, mu=mu, sigma=sigma, matches=n)
            )

    async def friends(self, a: int, b: int) -> None:
        """A friendship: its two rows, one each way."""
        async with self.engine.begin() as conn:
            await conn.execute(
                insert(FRI), [{"profile_id": a, "friend_id": b}, {"profile_id": b, "friend_id": a}]
            )


async def sign_up(http: httpx.AsyncClient, origin: str, handle: str, name: str) -> None:
    """Sign ``http`` up as a new profile with a software passkey (its session cookie)."""
    r = await http.post(
        "/api/profile/signup/options", json={"handle": handle, "display_name": name}
    )
    assert r.status_code == 200, r.text
    key = SoftPasskey(origin)
    body = {"ceremony": r.json()["ceremony"], "credential": key.create(r.json()["options"])}
    r = await http.post("/api/profile/signup/verify", json=body)
    assert r.status_code == 200, r.text


def client(base: str) -> httpx.AsyncClient:
    """A client of its own address, with the site's Origin."""
    return httpx.AsyncClient(
        base_url=base, timeout=20, headers={"Origin": base, "X-Forwarded-For": new_address()}
    )
