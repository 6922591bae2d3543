"""HTTP routes of ratings (docs/ratings.md, docs/protocol.md "Ratings"): the leaderboard
of a pool, and the computer players' ratings. Public reads; every route counts against
the HTTP quota of its address."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Query, Request

from app.api.deps import ServiceDep
from app.api.quota_deps import LookupMissQuota, quota_router
from app.api.routes_tables import Code
from app.rating_schemas import ComputerRatings, Leaderboard, Pool, TableProfiles
from app.schemas import ErrorResponse
from app.tables.leaderboards import Leaderboards

ERRORS: dict[int | str, dict[str, Any]] = {c: {"model": ErrorResponse} for c in (422, 503)}

router = quota_router("/api", "ratings", ERRORS)


def get_leaderboards(request: Request) -> Leaderboards:
    boards: Leaderboards = request.app.state.leaderboards
    return boards


LeaderboardsDep = Annotated[Leaderboards, Depends(get_leaderboards)]


@router.get("/leaderboard", response_model=Leaderboard)
async def leaderboard(
    boards: LeaderboardsDep,
    pool: Pool = "all",
    limit: Annotated[
        int, Query(ge=1, le=1000, description="entries (at most FIVEUP_LEADERBOARD_MAX)")
    ] = 50,
) -> Leaderboard:
    """The highest ratings of a pool (``all`` rated matches, or only those of 2, 3 or
    4 players), players and computer players together, the highest conservative estimate
    first; provisional ratings are marked."""
    return await boards.board(pool, limit)


@router.get(
    "/tables/{code}/profiles",
    response_model=TableProfiles,
    responses={404: {"model": ErrorResponse}},
    dependencies=[LookupMissQuota],
)
async def table_profiles(
    boards: LeaderboardsDep, service: ServiceDep, code: str = Code
) -> TableProfiles:
    """The signed-in players at a table: each bound seat's handle, display name and
    rating (nothing of a guest's or a computer player's seat; nothing private)."""
    return await boards.at_table(await service.table_id(code))


@router.get("/ratings/computer", response_model=ComputerRatings)
async def computer_ratings(boards: LeaderboardsDep) -> ComputerRatings:
    """Each computer player level's rating over all rated matches (null until rated)."""
    return await boards.computer()
