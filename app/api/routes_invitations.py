"""HTTP routes of invitations (docs/protocol.md "Invitations", docs/invitations.md):
invite friends (or a club of yours) to your table, your invitations waiting, dismiss one.

Every route needs a signed-in profile (``401 unauthorized``) and counts against the
HTTP quota of its address; inviting also needs the inviter's seat token (``Authorization:
Bearer``, as ``/start``) of a seat bound to that profile (``403 not_seated``) and counts
against ``FIVEUP_RATE_LIMIT_INVITATIONS`` (``429`` with ``Retry-After``). Every
state-changing route is Origin-checked (app/api/profile_auth.py)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Path, Request

from app.api.deps import ServiceDep, TokenDep
from app.api.profile_auth import ProfileDep, origin_guard
from app.api.quota_deps import invitations_quota, quota_router
from app.api.routes_clubs import ClubsDep
from app.core.security import hash_token
from app.db.invitations_store import Invitation
from app.friend_schemas import Done
from app.invitation_schemas import (
    InvitationOut,
    InvitationsList,
    Invited,
    InviteIn,
)
from app.realtime.profile_hub import invitation_frame
from app.schemas import ErrorResponse
from app.tables.errors import TableError
from app.tables.invitations import Invitations, Table

ERRORS: dict[int | str, dict[str, Any]] = {
    c: {"model": ErrorResponse} for c in (400, 401, 403, 404, 409, 413, 422, 503)
}

router = quota_router("/api", "invitations", ERRORS)
router.dependencies.append(Depends(origin_guard))

Code = Path(min_length=1, max_length=16, description="table code, case-insensitive")


def get_invitations(request: Request) -> Invitations:
    invitations: Invitations = request.app.state.invitations
    return invitations


InvitationsDep = Annotated[Invitations, Depends(get_invitations)]


def _out(inv: Invitation) -> InvitationOut:
    """The invitation as its frame has it (the same fields, docs/protocol.md)."""
    return InvitationOut.model_validate(invitation_frame(inv))


@router.post(
    "/tables/{code}/invitations",
    response_model=Invited,
    dependencies=[Depends(invitations_quota)],
)
async def invite(
    body: InviteIn,
    profile: ProfileDep,
    token: TokenDep,
    service: ServiceDep,
    invitations: InvitationsDep,
    clubs: ClubsDep,
    code: str = Code,
) -> Invited:
    """Invite friends, by handle, and/or every other member of a club of yours, to the
    table you sit at (your seat token and your profile's cookie): each invitee's profile
    sockets get it at once. ``403 not_friends``, ``403 blocked`` (a named friend blocks
    you; a club's member who does is skipped), ``403 not_seated``, ``404 no_player``,
    ``404 no_club`` (not a club of yours), ``409 self``, ``409 table_over``, ``409
    too_many_handles``."""
    limit = invitations.limits.per_request_max
    if len(body.handles) > limit:
        raise TableError("too_many_handles", f"invite at most {limit} players at once", 409)
    if token is None:
        raise TableError("unauthorized", "use 'Authorization: Bearer <seat token>'", 401)
    ident = await service.identify(code, token)
    info = await service.info(code)
    if ident.seat is None or not await invitations.store.seated(
        profile.id, ident.table_id, ident.seat, hash_token(token)
    ):
        raise TableError("not_seated", "sit at this table signed in to invite", 403)
    table = Table(ident.table_id, info.players, info.status)
    sent = 0
    if body.handles:
        sent += len(await invitations.invite_handles(profile, table, body.handles, body.seat))
    if body.club is not None:
        members = await clubs.others(profile, body.club)
        sent += await invitations.invite_members(profile, table, body.club, members, body.seat)
    return Invited(invited=sent)


@router.get("/profile/invitations", response_model=InvitationsList)
async def pending(profile: ProfileDep, invitations: InvitationsDep) -> InvitationsList:
    """Your invitations waiting, newest first (at most FIVEUP_INVITATIONS_LIST_MAX)."""
    return InvitationsList(invitations=[_out(i) for i in await invitations.pending(profile)])


@router.delete("/profile/invitations/{invitation_id}", response_model=Done)
async def dismiss(
    profile: ProfileDep,
    invitations: InvitationsDep,
    invitation_id: int = Path(ge=1, le=2**31 - 1),
) -> Done:
    """Dismiss one of your invitations. ``404 no_invitation``."""
    await invitations.dismiss(profile, invitation_id)
    return Done()
