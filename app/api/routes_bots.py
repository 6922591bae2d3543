"""HTTP routes for computer players (docs/protocol.md, docs/bots.md): the host seats,
changes or removes a bot before the start; one call makes a practice table against bots.
Bodies are the models of :mod:`app.schemas`; errors are ``ErrorResponse``.

Every route counts against the HTTP quota of its client address; bot changes against
``FIVEUP_RATE_LIMIT_BOT_CHANGES``; a practice table against the create quota and the cap
on live practice tables (``FIVEUP_MAX_LIVE_PRACTICE_TABLES``, app/api/quota_deps.py)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Path, Request, status

from app.api.deps import ServiceDep, TokenDep
from app.api.profile_auth import bind_if_signed_in
from app.api.quota_deps import BotQuota, practice_quota, quota_router
from app.api.routes_tables import ERRORS, Code
from app.schemas import AddBot, Joined, Practice, TableInfo
from app.tables.practice_cap import PracticeCreator

router = quota_router("/api", "computer players")

Seat = Path(ge=0, le=3, description="the seat of a computer player, 0..players-1")
Creator = Annotated[PracticeCreator | None, Depends(practice_quota)]


@router.post(
    "/tables/{code}/bots", response_model=TableInfo, responses=ERRORS, dependencies=[BotQuota]
)
async def put_bot(
    body: AddBot, service: ServiceDep, token: TokenDep, code: str = Code
) -> TableInfo:
    """The host seats a computer player of ``level`` in an empty seat before the start,
    or changes the level of the computer player already in that seat."""
    return await service.put_bot(code, token, body.seat, body.level)


@router.delete(
    "/tables/{code}/bots/{seat}",
    response_model=TableInfo,
    responses=ERRORS,
    dependencies=[BotQuota],
)
async def remove_bot(
    service: ServiceDep, token: TokenDep, code: str = Code, seat: int = Seat
) -> TableInfo:
    """The host removes the computer player in ``seat`` before the start."""
    return await service.remove_bot(code, token, seat)


@router.post(
    "/practice", status_code=status.HTTP_201_CREATED, response_model=Joined, responses=ERRORS
)
async def practice(
    body: Practice, request: Request, service: ServiceDep, creator: Creator
) -> Joined:
    """Play against the computer: a private table with you at seat 0 and computer players
    of ``level`` in every other seat, started at once. ``409 too_many_practice_tables``
    while this client address has ``FIVEUP_MAX_LIVE_PRACTICE_TABLES`` practice tables
    waiting or in play."""
    joined = await service.practice(body.players, body.level, body.name, body.clock, creator)
    await bind_if_signed_in(request, joined)
    return joined
