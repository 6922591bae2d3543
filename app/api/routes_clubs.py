"""HTTP routes of clubs (docs/protocol.md "Clubs", docs/clubs.md): create, my clubs, the
club page, its invite link with its QR code (rotated by the owner), join by link, leave,
the owner's removals and deletion, and a new table for the club.

Every route needs a signed-in profile (``401 unauthorized``), counts against the HTTP
quota of its address, joins against ``FIVEUP_RATE_LIMIT_CLUB_JOINS`` and new tables
against ``FIVEUP_RATE_LIMIT_CREATE`` (``429`` with ``Retry-After``); every
state-changing route is Origin-checked (app/api/profile_auth.py)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Path, Request, status

from app.api.deps import ServiceDep
from app.api.profile_auth import ProfileDep, RpDep, bind_if_signed_in, origin_guard
from app.api.quota_deps import CreateQuota, club_joins_quota, quota_router
from app.api.routes_profiles import _qr_svg
from app.club_schemas import (
    Club,
    ClubIn,
    ClubInvite,
    ClubJoined,
    ClubList,
    ClubTableIn,
    Done,
    JoinIn,
)
from app.core.security import TABLE_NAME_MAX
from app.schemas import ErrorResponse, Joined
from app.tables.clubs import Clubs

ERRORS: dict[int | str, dict[str, Any]] = {
    c: {"model": ErrorResponse} for c in (400, 401, 403, 404, 409, 413, 422, 503)
}

router = quota_router("/api/clubs", "clubs", ERRORS)
router.dependencies.append(Depends(origin_guard))

ClubId = Path(ge=1, le=2**31 - 1, description="a club's id")
Handle = Path(min_length=1, max_length=64, description="a member's handle")


def get_clubs(request: Request) -> Clubs:
    clubs: Clubs = request.app.state.clubs
    return clubs


ClubsDep = Annotated[Clubs, Depends(get_clubs)]


def _invite(token: str, rp_origin: str) -> ClubInvite:
    link = f"/c/{token}"
    return ClubInvite(link=link, qr_svg=_qr_svg(rp_origin + link))


@router.post("", status_code=status.HTTP_201_CREATED, response_model=ClubJoined)
async def create_club(body: ClubIn, profile: ProfileDep, clubs: ClubsDep) -> ClubJoined:
    """A new club; you own it and are its first member. ``409 bad_club_name``, ``409
    too_many_clubs``."""
    return await clubs.create(profile, body.name)


@router.get("", response_model=ClubList)
async def my_clubs(profile: ProfileDep, clubs: ClubsDep) -> ClubList:
    """The clubs you are in, by name."""
    return await clubs.mine(profile)


@router.post("/join", response_model=ClubJoined, dependencies=[Depends(club_joins_quota)])
async def join_club(body: JoinIn, profile: ProfileDep, clubs: ClubsDep) -> ClubJoined:
    """Join the club of an invite link (a member already: the same answer). ``404
    no_club``, ``409 too_many_clubs``, ``409 club_full``."""
    return await clubs.join(profile, body.link)


@router.get("/{club_id:int}", response_model=Club)
async def club_page(profile: ProfileDep, clubs: ClubsDep, club_id: int = ClubId) -> Club:
    """The club's page: members, standings, leaderboard, live tables, finished matches.
    Members only (``404 no_club`` for anyone else)."""
    return await clubs.club(profile, club_id)


@router.get("/{club_id:int}/invite", response_model=ClubInvite)
async def club_invite(
    profile: ProfileDep, clubs: ClubsDep, rp: RpDep, club_id: int = ClubId
) -> ClubInvite:
    """The club's invite link and its QR code (members only)."""
    return _invite(await clubs.invite(profile, club_id), rp.origin)


@router.post("/{club_id:int}/invite", response_model=ClubInvite)
async def rotate_invite(
    profile: ProfileDep, clubs: ClubsDep, rp: RpDep, club_id: int = ClubId
) -> ClubInvite:
    """A new invite link (the owner only); the old one stops working. ``403 not_owner``."""
    return _invite(await clubs.rotate_invite(profile, club_id), rp.origin)


@router.post("/{club_id:int}/leave", response_model=Done)
async def leave_club(profile: ProfileDep, clubs: ClubsDep, club_id: int = ClubId) -> Done:
    """Leave the club. ``409 owner_leaves`` (the owner deletes it instead)."""
    await clubs.leave(profile, club_id)
    return Done()


@router.delete("/{club_id:int}/members/{handle}", response_model=Done)
async def remove_member(
    profile: ProfileDep, clubs: ClubsDep, club_id: int = ClubId, handle: str = Handle
) -> Done:
    """The owner removes a member. ``403 not_owner``, ``404 no_member``."""
    await clubs.remove(profile, club_id, handle)
    return Done()


@router.delete("/{club_id:int}", response_model=Done)
async def delete_club(profile: ProfileDep, clubs: ClubsDep, club_id: int = ClubId) -> Done:
    """The owner deletes the club (its members and table links go; the tables stay)."""
    await clubs.delete(profile, club_id)
    return Done()


@router.post(
    "/{club_id:int}/tables",
    status_code=status.HTTP_201_CREATED,
    response_model=Joined,
    dependencies=[CreateQuota],
)
async def club_table(
    body: ClubTableIn,
    request: Request,
    profile: ProfileDep,
    clubs: ClubsDep,
    service: ServiceDep,
    club_id: int = ClubId,
) -> Joined:
    """A private table made for the club (a member): you sit at seat 0 as host under
    your display name, bound to your profile, as ``POST /api/tables`` does; the club's
    page lists it. ``404 no_club``."""
    name = await clubs.require_member(profile, club_id)
    joined = await service.create(
        (body.name or name)[:TABLE_NAME_MAX],
        body.players,
        False,
        profile.display_name,
        body.clock,
        rated=body.rated,
    )
    await bind_if_signed_in(request, joined, profile)
    await clubs.table_made(profile, club_id, await service.table_id(joined.code), joined.code)
    return joined
